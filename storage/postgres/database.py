"""The read models' database on PostgreSQL (``storage.sql``): a pool of connections; a transaction on one."""

from __future__ import annotations

import asyncpg

from storage.postgres.schema import migrate
from storage.postgres.store import as_it_is
from storage.sql import Dialect, Guard, Moved, Rows, Work, numbered, storable, storable_work

POSTGRES = Dialect("({column}::jsonb ->> ?)", "(({column}::jsonb ->> ?)::bigint)", quote_key=False)
TRANSACTION_LOCK = 7_317_002
"""The key that makes the read models' transactions (a projector's batch, a rebuild) take turns."""


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
        return list(await self._pool.fetch(numbered(sql), *storable(params)))

    async def execute(self, sql: str, *params: object) -> None:
        await self._pool.execute(numbered(sql), *storable(params))

    async def transaction(self, work: Work, guard: Guard | None = None) -> None:
        async with self._pool.acquire() as db, db.transaction():
            await db.execute("SELECT pg_advisory_xact_lock($1)", TRANSACTION_LOCK)  # one at a time, everywhere
            if guard is not None and await db.fetchval(numbered(guard.sql), *guard.params) != guard.expected:
                raise Moved(guard.sql)
            for sql, rows in storable_work(work):
                if rows:
                    await db.executemany(numbered(sql), rows)

    async def close(self) -> None:
        await self._pool.close()
