"""Empty read models on SQLite or on PostgreSQL (a database of its own on the suite's server), for the
storage tests that run each test on both."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from storage.games import GameViews
from storage.postgres.database import PostgresDatabase
from storage.sqlite.database import SqliteDatabase
from tests.postgres_server import create_database, drop_database

BOTH = ["sqlite", "postgres"]


@asynccontextmanager
async def empty_views(kind: str, folder: Path, postgres_server: str) -> AsyncIterator[GameViews]:
    """Read models on ``kind`` (``sqlite``: a file in ``folder``), closed and dropped afterwards."""
    url = await create_database(postgres_server) if kind == "postgres" else None
    db = await PostgresDatabase.open(url) if url else await SqliteDatabase.open(folder / "views.sqlite3")
    opened = GameViews(db)
    try:
        yield opened
    finally:
        await opened.close()
        if url:
            await drop_database(postgres_server, url)
