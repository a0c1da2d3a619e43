"""The event store on PostgreSQL (asyncpg), for several bot processes sharing one database.

The guarantees are the SQLite store's (the same contract tests prove both). What PostgreSQL adds is
many writers in many processes, and that changes how positions are given out:

- A position is ``max(position) + 1`` taken while holding ``LOCK TABLE events IN EXCLUSIVE MODE``
  for the rest of the append's transaction, as the ``eventsourcing`` library's PostgreSQL recorder
  does. Appends therefore commit one at a time, in position order: positions are gapless (a
  rolled-back append frees its numbers for the next) and a reader that has seen position ``p`` will
  never later find a new event below ``p`` (a ``bigserial`` read as ``position > checkpoint`` would
  skip an event whose transaction took its number first but committed last). Readers take no lock
  that the append's blocks: ``SELECT`` goes on while an append holds the table.
- The cost of that serialisation is paid once per *group*: each process's writer task commits every
  append waiting for it in one transaction (as on SQLite), so 100 concurrent writers cost one lock
  and one commit a group, not a hundred.
- A command already appended, in any process, is found under the same lock, so a resent command
  gets its original result back even when it also collides on the version.

``docs/postgres.md`` explains the choice against the alternative (transaction-id snapshots).
"""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg

from storage.events import COLUMNS, STATE, AppendResult, GroupCommitStore, Pending, StoredEvent, StoreError, keys, plan

SCHEMA = (
    # 1: the event log, as SQLite's migration 1
    """
    CREATE TABLE events (
        position    BIGINT           PRIMARY KEY,
        stream_id   TEXT             NOT NULL,
        version     INTEGER          NOT NULL,
        type        TEXT             NOT NULL,
        schema      INTEGER          NOT NULL,
        data        BYTEA            NOT NULL,
        recorded_at DOUBLE PRECISION NOT NULL,
        command_id  TEXT,
        UNIQUE (stream_id, version)
    );
    CREATE INDEX events_by_command ON events (command_id) WHERE command_id IS NOT NULL;
    """,
)
MIGRATION_LOCK = 7_317_001
"""The advisory lock key that makes two processes starting at once migrate one after the other."""


async def migrate(db: asyncpg.Connection) -> int:
    """Apply the migrations this database lacks; returns its schema version afterwards."""
    async with db.transaction():
        await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        current = await db.fetchval("SELECT max(version) FROM schema_version") or 0
        if current > len(SCHEMA):
            raise RuntimeError(f"the database has schema version {current}; this code knows up to {len(SCHEMA)}")
        for number, sql in enumerate(SCHEMA[current:], start=current + 1):
            await db.execute(sql)
            await db.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
    return len(SCHEMA)


class PostgresEventStore(GroupCommitStore):
    """The event log in PostgreSQL: one connection for this process's writer task, a pool for reads."""

    def __init__(self, writer: asyncpg.Connection, readers: asyncpg.Pool) -> None:
        super().__init__()
        self._writer, self._readers = writer, readers

    @classmethod
    async def open(cls, url: str) -> PostgresEventStore:
        """Connect to ``url`` (any libpq URL, a Unix socket as ``postgresql://user@/db?host=/dir``),
        creating or upgrading the schema as needed."""
        writer = await asyncpg.connect(url)
        try:
            await migrate(writer)
            readers = await asyncpg.create_pool(url, min_size=1, max_size=8)
        except BaseException:
            await writer.close()
            raise
        return cls(writer, readers)

    async def _commit(self, batch: list[Pending]) -> list[AppendResult | StoreError]:
        db = self._writer
        async with db.transaction():
            await db.execute("LOCK TABLE events IN EXCLUSIVE MODE")
            streams, commands = keys(batch)
            query = STATE.format(streams="= any($1::text[])", commands="= any($2::text[])")
            inserts, outcomes = plan(batch, await db.fetch(query, streams, commands))
            if inserts:
                await db.copy_records_to_table("events", records=inserts, columns=[*COLUMNS.split(", "), "command_id"])
        return outcomes

    async def load(self, stream_id: str, after_version: int = 0) -> list[StoredEvent]:
        rows = await self._readers.fetch(
            f"SELECT {COLUMNS}, command_id FROM events WHERE stream_id = $1 AND version > $2 ORDER BY version",
            stream_id,
            after_version,
        )
        return _stored(rows)

    async def read_all(self, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]:
        rows = await self._readers.fetch(
            f"SELECT {COLUMNS}, command_id FROM events WHERE position > $1 ORDER BY position LIMIT $2",
            after_position,
            limit,
        )
        return _stored(rows)

    async def close(self) -> None:
        """Store the appends already queued, then close."""
        await self._stop_writing()
        await self._readers.close()
        await self._writer.close()


def _stored(rows: Sequence[asyncpg.Record]) -> list[StoredEvent]:
    return [StoredEvent(*row) for row in rows]
