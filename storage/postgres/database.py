"""The read models' database on PostgreSQL (``storage.sql``): a pool of connections; a transaction on one."""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg

from storage.postgres.schema import migrate
from storage.postgres.store import as_it_is
from storage.sql import Database, Guard, Moved, Rows, Work, numbered, storable, storable_work

ASIDE = "rebuild"
"""The schema a rebuild writes its read models to."""
TRANSACTION_LOCK = 7_317_002
"""The key that makes the guarded transactions (a projector's batch, a puzzle's ratings) and a
rebuild's adoption take turns; the others (a board's shown version) take row locks only, so a move
never waits for another game's."""


class PostgresDatabase:
    """The read models' queries (``storage.sql``) on a pool of connections; a transaction on one."""

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool, self._url = pool, url

    @classmethod
    async def open(cls, url: str, schema: str | None = None) -> PostgresDatabase:
        """The database at ``url``; its tables in ``schema`` when given (else where ``search_path`` says)."""
        settings = {"search_path": schema} if schema else None
        pool = await asyncpg.create_pool(url, min_size=1, max_size=8, reset=as_it_is, server_settings=settings)
        try:
            async with pool.acquire() as db:
                await migrate(db)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url)

    async def fetch(self, sql: str, *params: object) -> Rows:
        return list(await self._pool.fetch(numbered(sql), *storable(params)))

    async def execute(self, sql: str, *params: object) -> None:
        await self._pool.execute(numbered(sql), *storable(params))

    async def transaction(self, work: Work, guard: Guard | None = None) -> None:
        async with self._pool.acquire() as db, db.transaction():
            if guard is not None:  # the guard is read and kept true until the commit: one at a time, everywhere
                await db.execute("SELECT pg_advisory_xact_lock($1)", TRANSACTION_LOCK)
                if await db.fetchval(numbered(guard.sql), *guard.params) != guard.expected:
                    raise Moved(guard.sql)
            for sql, rows in storable_work(work):
                if rows:
                    await db.executemany(numbered(sql), rows)

    async def aside(self) -> PostgresDatabase:
        await self._pool.execute(f"CREATE SCHEMA IF NOT EXISTS {ASIDE}")
        return await PostgresDatabase.open(self._url, ASIDE)

    async def adopt(self, aside: Database, tables: Sequence[str], then: Work) -> None:
        await aside.close()
        async with self._pool.acquire() as db, db.transaction():
            await db.execute("SELECT pg_advisory_xact_lock($1)", TRANSACTION_LOCK)
            for table in tables:  # DELETE, not TRUNCATE: readers keep the old rows until the commit
                await db.execute(f"DELETE FROM {table}")
            for table in tables:
                await db.execute(f"INSERT INTO {table} SELECT * FROM {ASIDE}.{table}")
            for sql, rows in storable_work(then):
                await db.executemany(numbered(sql), rows)
            await db.execute(f"DROP SCHEMA {ASIDE} CASCADE")

    async def close(self) -> None:
        await self._pool.close()
