"""The event store on PostgreSQL (asyncpg), for several bot processes sharing one database.

The guarantees are the SQLite store's (the same contract tests prove both). What PostgreSQL adds is
many writers in many processes, and none of them waits for another game's:

- An append takes no lock shared by all games. Its events go in with their stream's version and no
  position: ``UNIQUE (stream_id, version)`` is what refuses a second writer at the same version (it
  waits only for an uncommitted append to the same game), and the command ids already used are read
  in the same check, so a resent click gets its original result back.
- The global order is given by readers: the first read of the log after a commit (``read_all``,
  ``head``: the database's ``hogbot_read`` and ``hogbot_head``) places every committed unplaced
  event after the last position, oldest transaction first, one reader at a time under an advisory
  lock that no append takes. Positions are gapless, and a reader that has seen position ``p`` never
  later finds an event below it: a position is only given to an event already committed, and always
  above every position given before.
- Each process's writer task still commits every append waiting for it in one transaction (as on
  SQLite): one read, one ``COPY``, one commit for a hundred clicks.
- After a commit the process NOTIFYs ``hogbot_events``: a hint for the other processes
  (``storage.leadership``) to read the log. Not inside the append's transaction: a NOTIFY takes a lock
  on the database's one notification queue as it commits, which would make every commit of every
  process take turns. One NOTIFY for however many groups committed while the last was on its way.

``docs/postgres.md`` explains the choice against the others (a table lock, transaction-id snapshots).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import asyncpg

from storage.events import (
    COLUMNS,
    STATE,
    UNPLACED,
    AppendResult,
    GroupCommitStore,
    Pending,
    StoredEvent,
    StoreError,
    keys,
    plan,
)
from storage.postgres.leadership import CHANNEL
from storage.postgres.schema import PLACE_LOCK, migrate

log = logging.getLogger(__name__)

LOST = (
    OSError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    asyncpg.PostgresConnectionError,
    asyncpg.AdminShutdownError,
)
"""What a connection the server dropped raises (a broken one, closed mid-transaction, the last)."""


RACES = 3
"""Times a group is checked and tried again after another process stored a version it planned (each
try finds those versions taken and refuses the appends that wanted them, as a clash in one process is)."""


async def as_it_is(connection: object) -> None:
    """How a pooled connection is reset when it goes back: not at all. Ours set no session state
    (every transaction is closed by its block, advisory locks are per transaction, and LISTEN has a
    connection of its own), so asyncpg's default reset would be a wasted round trip per query."""


class PostgresEventStore(GroupCommitStore):
    """The event log in PostgreSQL: a connection for this process's writer task (a pool of one, so
    that a connection lost with a restart of the server is replaced at the next group), a pool for reads."""

    def __init__(self, writer: asyncpg.Pool, readers: asyncpg.Pool, sender: str = "") -> None:
        super().__init__()
        self._writer, self._readers, self._sender = writer, readers, sender
        self._hinting: asyncio.Task[None] | None = None
        self._unhinted = False

    @classmethod
    async def open(cls, url: str, sender: str = "") -> PostgresEventStore:
        """Connect to ``url`` (any libpq URL, a Unix socket as ``postgresql://user@/db?host=/dir``),
        creating or upgrading the schema as needed. ``sender``: what each commit's NOTIFY carries, so
        that this process's own ``Leadership`` can tell its own appends from the others'."""
        writer = await asyncpg.create_pool(url, min_size=1, max_size=1, reset=as_it_is)
        try:
            async with writer.acquire() as db:
                await migrate(db)
            readers = await asyncpg.create_pool(url, min_size=1, max_size=8, reset=as_it_is)
        except BaseException:
            await writer.close()
            raise
        return cls(writer, readers, sender)

    async def _commit(self, batch: list[Pending]) -> list[AppendResult | StoreError]:
        """A group in one transaction, tried once more on a fresh connection if the one it had is
        gone (a restart of the server): safe, because the retry checks versions and commands afresh,
        so a group that was committed after all is found, never stored twice."""
        for _ in range(RACES):
            try:
                return await self._commit_once(batch)
            except asyncpg.UniqueViolationError:  # another process stored a version this group planned:
                continue  # committed by now (the check waited for it), so a fresh check finds it
            except LOST as error:
                log.warning("the event store's connection was lost (%s): storing on a fresh one", error)
                await self._writer.expire_connections()
                return await self._commit_once(batch)
        return await self._commit_once(batch)

    async def _commit_once(self, batch: list[Pending]) -> list[AppendResult | StoreError]:
        async with self._writer.acquire() as db, db.transaction():
            streams, commands = keys(batch)
            query = STATE.format(streams="unnest($1::text[]) AS k(stream_id)", commands="= any($2::text[])")
            inserts, outcomes = plan(batch, await db.fetch(query, streams, commands))
            if inserts:
                unplaced = [(None, *row[1:]) for row in inserts]
                await db.copy_records_to_table("events", records=unplaced, columns=[*COLUMNS.split(", "), "command_id"])
        if inserts:
            self._hint()
        return outcomes

    def _hint(self) -> None:
        """NOTIFY the other processes, on the side: the appends committed are answered meanwhile."""
        self._unhinted = True
        if self._hinting is None or self._hinting.done():
            self._hinting = asyncio.get_running_loop().create_task(self._notify())

    async def _notify(self) -> None:
        while self._unhinted:
            self._unhinted = False
            try:
                await self._readers.execute("SELECT pg_notify($1, $2)", CHANNEL, self._sender)
            except Exception as error:  # a hint lost: the others read the log at their next tick
                log.warning("could not tell the other processes of an append (%s)", error)
                return

    async def import_events(self, events: Sequence[StoredEvent]) -> None:
        """Store events copied from another store exactly as they were (positions, versions, times,
        commands), after the last one here: the log's order continues unbroken (``storage.copying``)."""
        async with self._readers.acquire() as db, db.transaction():
            await db.execute("SELECT pg_advisory_xact_lock($1)", PLACE_LOCK)  # no reader places events meanwhile
            last = await db.fetchval("SELECT hogbot_head()")
            await db.execute("SET LOCAL synchronous_commit = on")  # a copy is kept for good when it says so
            if events and events[0].position != last + 1:
                raise StoreError(f"events from position {events[0].position} cannot follow position {last}")
            rows = [
                (e.position, e.stream_id, e.version, e.type, e.schema, e.data, e.recorded_at, e.command_id)
                for e in events
            ]
            await db.copy_records_to_table("events", records=rows, columns=[*COLUMNS.split(", "), "command_id"])

    async def load(self, stream_id: str, after_version: int = 0) -> list[StoredEvent]:
        rows = await self._readers.fetch(
            f"SELECT coalesce(position, {UNPLACED}), stream_id, version, type, schema, data, recorded_at, command_id "
            "FROM events WHERE stream_id = $1 AND version > $2 ORDER BY version",
            stream_id,
            after_version,
        )
        return _stored(rows)

    async def version(self, stream_id: str) -> int:
        found = await self._readers.fetchval(
            "SELECT coalesce(max(version), 0) FROM events WHERE stream_id = $1", stream_id
        )
        return int(found)

    async def first_type(self, stream_id: str) -> str | None:
        found = await self._readers.fetchval("SELECT type FROM events WHERE stream_id = $1 AND version = 1", stream_id)
        return None if found is None else str(found)

    async def read_all(self, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]:
        return _stored(await self._readers.fetch("SELECT * FROM hogbot_read($1, $2)", after_position, limit))

    async def head(self) -> int:
        return int(await self._readers.fetchval("SELECT hogbot_head()"))

    async def streams(self, prefix: str) -> list[str]:
        # starts_with, not a range: a database's collation may order '@' and ':' as it likes
        rows = await self._readers.fetch(
            "SELECT stream_id FROM events WHERE starts_with(stream_id, $1) AND version = 1 "
            "ORDER BY position, age(xmin) DESC",  # the unplaced last, oldest first, as they will be placed
            prefix,
        )
        return [str(row[0]) for row in rows]

    async def close(self) -> None:
        """Store the appends already queued, then close."""
        await self._stop_writing()
        if self._hinting is not None:
            await self._hinting
        await self._readers.close()
        await self._writer.close()


def _stored(rows: Sequence[asyncpg.Record]) -> list[StoredEvent]:
    return [StoredEvent(*row) for row in rows]
