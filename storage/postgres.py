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
- Each commit NOTIFYs ``hogbot_events``: a hint for the leading process (``storage.leadership``)
  to read the log.

``docs/postgres.md`` explains the choice against the alternative (transaction-id snapshots).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from storage.events import COLUMNS, STATE, AppendResult, GroupCommitStore, Pending, StoredEvent, StoreError, keys, plan
from storage.leadership import CHANNEL
from storage.sql import POSTGRES, Guard, Moved, Rows, Work, numbered

log = logging.getLogger(__name__)

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
    # 2: the read models, as SQLite's migrations 2 to 9 left them (storage/schema.py says what each is)
    """
    CREATE TABLE games (
        game_id    TEXT             PRIMARY KEY,
        game       TEXT             NOT NULL,
        place      TEXT             NOT NULL,
        status     TEXT             NOT NULL,
        live       INTEGER          NOT NULL,
        version    INTEGER          NOT NULL,
        fields     TEXT             NOT NULL,
        started_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX games_by_place ON games (place, live);
    CREATE INDEX games_by_live ON games (live);
    CREATE TABLE seats (
        game_id   TEXT    NOT NULL,
        seat      INTEGER NOT NULL,
        player_id TEXT    NOT NULL,
        name      TEXT    NOT NULL,
        bot       TEXT,
        score     INTEGER NOT NULL,
        result    TEXT,
        facts     TEXT    NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX seats_by_player ON seats (player_id, game_id);
    CREATE TABLE checkpoints (name TEXT PRIMARY KEY, position BIGINT NOT NULL);
    CREATE TABLE damaged (game_id TEXT PRIMARY KEY, reason TEXT NOT NULL);
    CREATE TABLE boards (
        game_id       TEXT    PRIMARY KEY,
        channel_id    TEXT    NOT NULL,
        message_id    TEXT    NOT NULL,
        shown_version INTEGER NOT NULL DEFAULT -1
    );
    CREATE TABLE seals (game_id TEXT PRIMARY KEY, seed BYTEA NOT NULL);
    CREATE TABLE ratings (
        game      TEXT             NOT NULL,
        player_id TEXT             NOT NULL,
        name      TEXT             NOT NULL,
        mu        DOUBLE PRECISION NOT NULL,
        sigma     DOUBLE PRECISION NOT NULL,
        score     DOUBLE PRECISION NOT NULL,
        games     INTEGER          NOT NULL,
        PRIMARY KEY (game, player_id)
    );
    CREATE INDEX ratings_by_score ON ratings (game, score DESC, player_id);
    CREATE TABLE rated (
        game_id     TEXT             PRIMARY KEY,
        game        TEXT             NOT NULL,
        place       TEXT             NOT NULL,
        players     TEXT             NOT NULL,
        position    BIGINT           NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL,
        counted     INTEGER          NOT NULL
    );
    CREATE INDEX rated_by_players ON rated (game, players, finished_at);
    CREATE INDEX rated_by_place ON rated (place, game);
    CREATE TABLE places (place TEXT PRIMARY KEY, server TEXT NOT NULL);
    CREATE TABLE members (
        server    TEXT NOT NULL,
        game      TEXT NOT NULL,
        player_id TEXT NOT NULL,
        PRIMARY KEY (server, game, player_id)
    );
    CREATE FUNCTION places_located() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        INSERT INTO members (server, game, player_id)
        SELECT NEW.server, g.game, s.player_id FROM rated g JOIN seats s ON s.game_id = g.game_id
        WHERE g.place = NEW.place
        ON CONFLICT DO NOTHING;
        RETURN NEW;
    END $$;
    CREATE TRIGGER places_located AFTER INSERT ON places FOR EACH ROW EXECUTE FUNCTION places_located();
    """,
    # 2: derived files every process shares (storage.shelves): Hog's solved rule sets
    "CREATE TABLE shelf (name TEXT PRIMARY KEY, data BYTEA NOT NULL)",
)
LOST = (
    OSError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    asyncpg.PostgresConnectionError,
    asyncpg.AdminShutdownError,
)
"""What a connection the server dropped raises (a broken one, closed mid-transaction, the last)."""
MIGRATION_LOCK = 7_317_001
"""The advisory lock key that makes two processes starting at once migrate one after the other."""
TRANSACTION_LOCK = 7_317_002
"""The key that makes the read models' transactions (a projector's batch, a rebuild) take turns."""


async def migrate(db: asyncpg.Connection[Any] | PoolConnectionProxy[Any]) -> int:
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


async def as_it_is(connection: object) -> None:
    """How a pooled connection is reset when it goes back: not at all. Ours set no session state
    (every transaction is closed by its block, advisory locks are per transaction, and LISTEN has a
    connection of its own), so asyncpg's default reset would be a wasted round trip per query."""


class PostgresEventStore(GroupCommitStore):
    """The event log in PostgreSQL: a connection for this process's writer task (a pool of one, so
    that a connection lost with a restart of the server is replaced at the next group), a pool for reads."""

    def __init__(self, writer: asyncpg.Pool, readers: asyncpg.Pool) -> None:
        super().__init__()
        self._writer, self._readers = writer, readers

    @classmethod
    async def open(cls, url: str) -> PostgresEventStore:
        """Connect to ``url`` (any libpq URL, a Unix socket as ``postgresql://user@/db?host=/dir``),
        creating or upgrading the schema as needed."""
        writer = await asyncpg.create_pool(url, min_size=1, max_size=1, reset=as_it_is)
        try:
            async with writer.acquire() as db:
                await migrate(db)
            readers = await asyncpg.create_pool(url, min_size=1, max_size=8, reset=as_it_is)
        except BaseException:
            await writer.close()
            raise
        return cls(writer, readers)

    async def _commit(self, batch: list[Pending]) -> list[AppendResult | StoreError]:
        """A group in one transaction, tried once more on a fresh connection if the one it had is
        gone (a restart of the server): safe, because the retry checks versions and commands afresh,
        so a group that was committed after all is found, never stored twice."""
        try:
            return await self._commit_once(batch)
        except LOST as error:
            log.warning("the event store's connection was lost (%s): storing on a fresh one", error)
            await self._writer.expire_connections()
            return await self._commit_once(batch)

    async def _commit_once(self, batch: list[Pending]) -> list[AppendResult | StoreError]:
        async with self._writer.acquire() as db, db.transaction():
            await db.execute("LOCK TABLE events IN EXCLUSIVE MODE")
            streams, commands = keys(batch)
            query = STATE.format(streams="unnest($1::text[]) AS k(stream_id)", commands="= any($2::text[])")
            inserts, outcomes = plan(batch, await db.fetch(query, streams, commands))
            if inserts:
                await db.copy_records_to_table("events", records=inserts, columns=[*COLUMNS.split(", "), "command_id"])
                await db.execute("SELECT pg_notify($1, $2)", CHANNEL, str(inserts[-1][0]))  # sent on commit
        return outcomes

    async def import_events(self, events: Sequence[StoredEvent]) -> None:
        """Store events copied from another store exactly as they were (positions, versions, times,
        commands), after the last one here: the log's order continues unbroken (``storage.copying``)."""
        async with self._readers.acquire() as db, db.transaction():
            await db.execute("LOCK TABLE events IN EXCLUSIVE MODE")
            last = await db.fetchval("SELECT coalesce(max(position), 0) FROM events")
            if events and events[0].position != last + 1:
                raise StoreError(f"events from position {events[0].position} cannot follow position {last}")
            rows = [
                (e.position, e.stream_id, e.version, e.type, e.schema, e.data, e.recorded_at, e.command_id)
                for e in events
            ]
            await db.copy_records_to_table("events", records=rows, columns=[*COLUMNS.split(", "), "command_id"])

    async def load(self, stream_id: str, after_version: int = 0) -> list[StoredEvent]:
        rows = await self._readers.fetch(
            f"SELECT {COLUMNS}, command_id FROM events WHERE stream_id = $1 AND version > $2 ORDER BY version",
            stream_id,
            after_version,
        )
        return _stored(rows)

    async def version(self, stream_id: str) -> int:
        found = await self._readers.fetchval(
            "SELECT coalesce(max(version), 0) FROM events WHERE stream_id = $1", stream_id
        )
        return int(found)

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


class PostgresDatabase:
    """The read models' queries (``storage.sql``) on a pool of connections; a transaction on one."""

    dialect = POSTGRES

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @classmethod
    async def open(cls, url: str) -> PostgresDatabase:
        pool = await asyncpg.create_pool(url, min_size=1, max_size=8, reset=as_it_is)
        try:
            async with pool.acquire() as db:
                await migrate(db)
        except BaseException:
            await pool.close()
            raise
        return cls(pool)

    async def fetch(self, sql: str, *params: object) -> Rows:
        return list(await self._pool.fetch(numbered(sql), *params))

    async def execute(self, sql: str, *params: object) -> None:
        await self._pool.execute(numbered(sql), *params)

    async def transaction(self, work: Work, guard: Guard | None = None) -> None:
        async with self._pool.acquire() as db, db.transaction():
            await db.execute("SELECT pg_advisory_xact_lock($1)", TRANSACTION_LOCK)  # one at a time, everywhere
            if guard is not None and await db.fetchval(numbered(guard.sql), *guard.params) != guard.expected:
                raise Moved(guard.sql)
            for sql, rows in work:
                if rows:
                    await db.executemany(numbered(sql), rows)

    async def close(self) -> None:
        await self._pool.close()
