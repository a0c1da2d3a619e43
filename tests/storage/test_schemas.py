"""Each backend keeps its own migrations (SQLite's ``storage/sqlite/schema.py``, PostgreSQL's
``storage/postgres/schema.py``); migrated to the end, both hold the same tables with the same columns,
so that the read models' queries (written once, ``storage.sql``) and ``copy-store`` find them alike."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg

from storage import postgres, sqlite

ONLY_POSTGRES = {"schema_version", "shelf"}
"""PostgreSQL counts its migrations in a table (SQLite in ``PRAGMA user_version``), and keeps the solved
rule sets several processes share (one process on SQLite keeps them in files: ``HOG_CACHE``)."""


async def sqlite_tables(path: Path) -> dict[str, set[str]]:
    backend = await sqlite.open_backend(path)
    await backend.close()
    with sqlite3.connect(path) as db:
        names = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {name: {column[1] for column in db.execute(f"PRAGMA table_info({name})")} for name in names}


async def postgres_tables(url: str) -> dict[str, set[str]]:
    backend = await postgres.open_backend(url)
    await backend.close()
    db = await asyncpg.connect(url)
    try:
        rows = await db.fetch(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'"
        )
    finally:
        await db.close()
    tables: dict[str, set[str]] = {}
    for table, column in rows:
        tables.setdefault(table, set()).add(column)
    return tables


async def test_both_backends_end_with_the_same_tables_and_columns(tmp_path: Path, postgres_url: str) -> None:
    on_sqlite, on_postgres = await sqlite_tables(tmp_path / "games.sqlite3"), await postgres_tables(postgres_url)
    assert set(on_postgres) - set(on_sqlite) == ONLY_POSTGRES
    shared = {name: columns for name, columns in on_postgres.items() if name not in ONLY_POSTGRES}
    assert shared == on_sqlite
    assert {"events", "games", "seats", "boards", "seals", "ratings"} <= set(shared)
