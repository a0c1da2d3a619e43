"""Moving a whole history from an SQLite file to PostgreSQL, without loss, and proving it.

Every event is copied as it is (its position, stream, version, bytes, time and command), so the
copy is the same log, not a replay of it; with it go what the log does not hold: each game's secret
seed (``seals``), where each board message is (``boards``) and which server each channel is in
(``places``), and where imported games came from (``imported``). The read models are not copied:
the target's projector derives them from the log.
Both sides are then read back and compared by counts and a SHA-256 over every row.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from storage.events import EventStore, StoredEvent
from storage.postgres.database import PostgresDatabase
from storage.postgres.store import PostgresEventStore
from storage.sql import Database
from storage.sqlite.database import SqliteDatabase
from storage.sqlite.store import SqliteEventStore

BATCH = 5000
KEPT = {
    "seals": ("game_id", "seed"),
    "boards": ("game_id", "channel_id", "message_id", "shown_version", "settled", "answered"),
    "places": ("place", "server"),
    "imported": ("game_id", "source", "imported_at", "trusted"),
}
"""The tables that are not derived from the log, with their columns (the first is the key)."""


class CopyRefused(Exception):
    """The copy cannot be made as asked; ``str(error)`` says why. Nothing was written."""


@dataclass(frozen=True)
class Tally:
    """What a store holds, counted and summed: equal tallies, equal contents."""

    events: int
    streams: int
    digest: str
    kept: dict[str, tuple[int, str]]
    """Each kept table's rows and their digest."""


def sqlite_path(url: str) -> Path:
    """The file of a ``sqlite:///path`` URL (``sqlite:////abs/path`` for an absolute one)."""
    if not url.startswith("sqlite:///"):
        raise CopyRefused(f"--from must be a sqlite:///path URL, not {url!r}")
    path = Path(url.removeprefix("sqlite:///"))
    if not path.is_file():
        raise CopyRefused(f"there is no SQLite file at {str(path)!r}")
    return path


async def copy_store(source_url: str, target_url: str) -> tuple[Tally, Tally]:
    """Copy the SQLite history at ``source_url`` into the empty PostgreSQL database at
    ``target_url``; returns both sides' tallies (equal, or ``CopyRefused`` is raised)."""
    path = sqlite_path(source_url)
    if not target_url.startswith(("postgresql://", "postgres://")):
        raise CopyRefused(f"--to must be a postgresql:// URL, not {target_url.split(':')[0]!r}")
    source, source_db = await SqliteEventStore.open(path), await SqliteDatabase.open(path)
    try:
        target, target_db = await PostgresEventStore.open(target_url), await PostgresDatabase.open(target_url)
        try:
            if await target.read_all(0, 1):
                raise CopyRefused("the target database already holds events: copy into an empty one")
            position = 0
            while events := await source.read_all(position, BATCH):
                await target.import_events(events)
                position = events[-1].position
            for table, columns in KEPT.items():
                rows = await source_db.fetch(f"SELECT {', '.join(columns)} FROM {table}")
                marks = ", ".join("?" * len(columns))
                insert = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks}) ON CONFLICT DO NOTHING"
                await target_db.transaction([(insert, [tuple(r) for r in rows])])
            before, after = await tally(source, source_db), await tally(target, target_db)
        finally:
            await target_db.close()
            await target.close()
    finally:
        await source_db.close()
        await source.close()
    if before != after:
        raise CopyRefused(f"the copy does not match its source: {before} != {after}")
    return before, after


async def tally(store: EventStore, db: Database) -> Tally:
    """Count and digest every event, in order, and every kept table's rows."""
    events, streams, digest = 0, set[str](), hashlib.sha256()
    position = 0
    while batch := await store.read_all(position, BATCH):
        for e in batch:
            events += 1
            streams.add(e.stream_id)
            digest.update(_row(e))
        position = batch[-1].position
    kept = {}
    for table, columns in KEPT.items():
        rows = await db.fetch(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {columns[0]}")
        kept[table] = (len(rows), hashlib.sha256(repr([tuple(r) for r in rows]).encode()).hexdigest())
    return Tally(events, len(streams), digest.hexdigest(), kept)


def _row(e: StoredEvent) -> bytes:
    head = repr((e.position, e.stream_id, e.version, e.type, e.schema, e.recorded_at, e.command_id)).encode()
    return len(head).to_bytes(4, "big") + head + len(e.data).to_bytes(4, "big") + e.data
