"""What a store operation raises when it is refused."""

from __future__ import annotations


class StoreError(Exception):
    """A store operation was refused (bad input, or the database said no)."""


class NotFound(StoreError, KeyError):
    """No session, message or run with that id."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else "not found"


class InvalidRange(StoreError, ValueError):
    """A compression or rollback range that would break the log (see the message)."""
