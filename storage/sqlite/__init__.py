"""Every game in one SQLite file: the embedded default, for one process."""

from __future__ import annotations

import os
from pathlib import Path

from storage.backend import Backend, assemble
from storage.leadership import SoleLeadership
from storage.sqlite.database import SqliteDatabase
from storage.sqlite.store import SqliteEventStore


async def open_backend(path: Path | str) -> Backend:
    """The store, the read models and what is kept in the SQLite file at ``path`` (created and
    migrated as needed); the one process leads. A file this user may not write (or in a folder they
    may not write, where its journal goes) is opened to read alone: history, replays and exports work."""
    read_only = not writable(Path(path))
    store = await SqliteEventStore.open(path, read_only=read_only)
    return await assemble(store, SqliteDatabase.open(path, read_only=read_only), SoleLeadership(), read_only)


def writable(path: Path) -> bool:
    """Whether this user may write the database at ``path`` (and its folder: the journal goes there)."""
    if not path.exists():
        return True  # to be made: opening it says so if it cannot be
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)
