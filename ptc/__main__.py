"""`python -m ptc`: the same as the `ptc` console script."""

from ptc.cli.main import main

if __name__ == "__main__":
    main(prog_name="ptc")
