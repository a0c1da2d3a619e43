"""The PostgreSQL event store's speed with 100 concurrent writers, beside a bare asyncpg loop that
commits each event on its own, on one throw-away server (fsync on) in this one run.

    python -m pip install -e ".[test]" && python bench/store_postgres.py

Target (issue 17): at least 20,000 durable events per second with group commit.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.store import EACH, EVENT, WRITERS, alone, concurrently, timed
from storage.postgres.store import PostgresEventStore
from tests.postgres_server import create_database, throwaway_server


async def bare(url: str) -> float:
    """100 writers on 100 connections, each event its own INSERT and commit (a ``bigserial`` position)."""
    pool = await asyncpg.create_pool(url, min_size=WRITERS, max_size=WRITERS)
    await pool.execute(
        "CREATE TABLE events (position BIGSERIAL PRIMARY KEY, stream_id TEXT, version INTEGER, data BYTEA)"
    )

    async def writer(w: int) -> None:
        async with pool.acquire() as db:
            for v in range(EACH):
                await db.execute(
                    "INSERT INTO events (stream_id, version, data) VALUES ($1, $2, $3)", f"g{w}", v, EVENT.data
                )

    elapsed = await timed(lambda: asyncio.gather(*(writer(w) for w in range(WRITERS))))
    await pool.close()
    return WRITERS * EACH / elapsed


async def main(server: str) -> None:
    print(f"{WRITERS} concurrent writers, {WRITERS * EACH:,} appends of one event, PostgreSQL with fsync on:")
    for round_ in (1, 2):
        plain = await bare(await create_database(server))
        group = await concurrently(await PostgresEventStore.open(await create_database(server)))
        one = await alone(await PostgresEventStore.open(await create_database(server)))
        print(
            f"  round {round_}: bare asyncpg, a commit per event {plain:9,.0f}/s   "
            f"this store (group commit) {group:9,.0f}/s ({group / plain:.1f}x)   one writer alone {one:7,.0f}/s"
        )


if __name__ == "__main__":
    with throwaway_server(durable=True) as url:
        asyncio.run(main(url))
