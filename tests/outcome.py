"""What a program over `data/t` gives, as text to compare two ways of running it (a table's
kernels or folds against its rows as plain maps): its printed value, or its error."""

from __future__ import annotations

from typing import Any

import ptc


def outcome(src: str, data: Any, message: bool = True, limits: Any = None) -> str:
    """The printed value of src over data/t, or `error <kind>: <message>` (the kind alone
    without message: where the two paths may word one error apart), under limits if given."""
    try:
        return ptc.pr_str(ptc.run(src, data={"t": data}, limits=limits).value)
    except ptc.PTCError as e:
        return f"error {e.kind}: {e.message}" if message else f"error {e.kind}"
