"""Every game in one SQLite file: the embedded default, for one process."""

from __future__ import annotations

from pathlib import Path

from storage.backend import Backend, assemble
from storage.leadership import SoleLeadership
from storage.sqlite.database import SqliteDatabase
from storage.sqlite.store import SqliteEventStore


async def open_backend(path: Path | str) -> Backend:
    """The store, the read models and what is kept in the SQLite file at ``path`` (created and
    migrated as needed); the one process leads."""
    return await assemble(await SqliteEventStore.open(path), SqliteDatabase.open(path), SoleLeadership())
