"""Every game in one PostgreSQL database, for several bot processes sharing it."""

from __future__ import annotations

from storage.backend import Backend
from storage.games import GameViews
from storage.kept import Kept
from storage.postgres.database import PostgresDatabase
from storage.postgres.leadership import PostgresLeadership
from storage.postgres.store import PostgresEventStore


async def open_backend(url: str) -> Backend:
    """The store, the read models and what is kept in the database at ``url`` (migrated as needed),
    and the lead to take or follow."""
    store = await PostgresEventStore.open(url)
    try:
        db = await PostgresDatabase.open(url)
    except BaseException:
        await store.close()
        raise
    return Backend(store, GameViews(db), Kept(db), PostgresLeadership(url))
