"""A persistent message store: sessions, a protocol-complete message log, runs and turns.

    from ptc.store import Store, recorder

    store = Store()                      # ~/.local/share/ptc/ptc.db, or $PTC_HOME/ptc.db
    sid = store.create_session("orders", mode="agent").id
    store.append(sid, "user", content="Which region sells most?")
    page = store.display(sid)            # active messages, 50 at a time, cursor pagination
    ctx = store.context(sid)             # for the model: summaries first, then by seq

    ptc.Agent(mission, on_event=recorder(store, sid)).run()   # persist a whole run

SQLAlchemy Core; SQLite by default (WAL), PostgreSQL with ``pip install 'ptc-lisp[postgres]'``.
See docs/store.md.
"""

from __future__ import annotations

from .messages import (
    Block, CompactionNode, CompressionRecord, Message, Page, RunRecord, Session, Stats,
)
from .paths import default_path, default_url
from .recorder import Recorder, recorder
from .schema import ACTIVE, COMPRESSED, INVALID, REGULAR, SUMMARY
from .store import InvalidRange, NotFound, Store, StoreError

__all__ = [
    "Store", "StoreError", "NotFound", "InvalidRange", "Block", "Message", "Session", "Page", "Stats",
    "CompressionRecord", "CompactionNode", "RunRecord", "Recorder", "recorder", "default_path", "default_url",
    "ACTIVE", "INVALID", "COMPRESSED", "REGULAR", "SUMMARY",
]
