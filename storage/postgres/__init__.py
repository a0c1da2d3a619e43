"""Every game in one PostgreSQL database, for several bot processes sharing it."""

from __future__ import annotations

import secrets

from storage.backend import Backend, assemble
from storage.postgres.database import PostgresDatabase
from storage.postgres.leadership import PostgresLeadership
from storage.postgres.store import PostgresEventStore


async def open_backend(url: str) -> Backend:
    """The store, the read models and what is kept in the database at ``url`` (migrated as needed),
    and the lead to take or follow."""
    token = secrets.token_hex(8)  # names this process's commits in their NOTIFY
    store = await PostgresEventStore.open(url, sender=token)
    return await assemble(store, PostgresDatabase.open(url), PostgresLeadership(url, own=token))
