"""Process isolation: run a program in a forked child with OS limits (see docs/security.md).

`run_isolated` has the contract of the inline `ptc.run` (same RunResult, same PTCError
kinds, messages and positions, all-or-nothing memory); `ptc.run` dispatches here when
`Limits(isolation="process")`.

How a run works
- A *zygote* (one per host process, started on first use) is a fresh `python -I` started
  with a scrubbed environment and no inherited descriptors; it imports the interpreter,
  loads the library, warms the parser and compiler, then forks one child per run.
  Children therefore start in about a millisecond, share nothing with the host's memory
  (no API keys, no host objects), and never see another run's data (fresh fork each run).
- The child sets RLIMIT_AS / RLIMIT_CPU / RLIMIT_CORE / RLIMIT_FSIZE / RLIMIT_NPROC, then
  runs the ordinary inline runner (`ptc.run(..., isolation="inline")`).
- Tools stay in the host. The child receives stubs with the same names; a call sends
  `(name, args)` to the host over a socket, the host runs the real tool exactly as the
  inline runner would (`invoke(args)` or keyword/positional call, async awaited) and sends
  back the plain Python result (converted to PTC values in the child, under the run's
  limits) or the error.
- The host enforces a wall-clock deadline of its own (timeout + grace, once for parse and
  compile and once for the run) and SIGKILLs the child (through a pidfd, so a recycled
  pid is never hit) when it overruns; a child that dies is classified from its exit status.
- Messages from the child are untrusted: the host unpickles them with an allow-list that
  only rebuilds PTC values through the `_r_*` functions below, caps their size, and keeps
  its own count of tool calls and its own deadline.

Functions do not cross the process boundary: a function kept in memory comes back as an
`IsolatedFn` placeholder that prints like the function (`#fn[name]`) and, when called in a
later run, raises a runtime error asking the program to define it again.
"""
from .host import run_isolated
from .pickling import IsolatedFn
from .zygote import shutdown, start

__all__ = ["run_isolated", "start", "shutdown", "IsolatedFn"]
