"""The `ptc` command line: one module per command group, loaded only when invoked.

`ptc.cli.main` is the entry point; see `COMMANDS` there for where each command lives.
"""
