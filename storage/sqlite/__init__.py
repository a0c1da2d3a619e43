"""Every game in one SQLite file: the embedded default, for one process."""

from __future__ import annotations

from pathlib import Path

from storage.backend import Backend
from storage.games import GameViews
from storage.kept import Kept
from storage.leadership import SoleLeadership
from storage.sqlite.database import SqliteDatabase
from storage.sqlite.store import SqliteEventStore


async def open_backend(path: Path | str) -> Backend:
    """The store, the read models and what is kept in the SQLite file at ``path`` (created and
    migrated as needed); the one process leads."""
    store = await SqliteEventStore.open(path)
    try:
        db = await SqliteDatabase.open(path)
    except BaseException:
        await store.close()
        raise
    return Backend(store, GameViews(db), Kept(db), SoleLeadership())
