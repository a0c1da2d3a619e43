"""Shelves: named files that are derived, not history (Hog's solved rule sets), kept where every
process of the bot can find them — a folder on this host, or a table in the PostgreSQL database that
the processes share. A shelf knows no game: it keeps bytes under names."""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Protocol

import asyncpg

from storage.postgres.schema import migrate


class Shelf(Protocol):
    async def read(self, name: str) -> bytes | None:
        """The bytes kept under ``name``, or ``None`` when there are none."""
        ...

    async def write(self, name: str, data: bytes) -> None:
        """Keep ``data`` under ``name``, all or nothing (a reader never sees half of it)."""
        ...


class FolderShelf:
    """A file per name in a folder, written to a temporary file and renamed into place."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    async def read(self, name: str) -> bytes | None:
        return await asyncio.to_thread(self._read, name)

    async def write(self, name: str, data: bytes) -> None:
        await asyncio.to_thread(self._write, name, data)

    def _read(self, name: str) -> bytes | None:
        try:
            return (self.folder / name).read_bytes()
        except FileNotFoundError:
            return None

    def _write(self, name: str, data: bytes) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, self.folder / name)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


class PostgresShelf:
    """Rows of the ``shelf`` table in the database at ``url``. It is read once per name per process
    (the caller keeps what it reads in memory), so each read or write has a connection of its own
    for its moment rather than a pool held open for ever."""

    def __init__(self, url: str) -> None:
        self.url = url

    async def read(self, name: str) -> bytes | None:
        async with self._database() as db:
            data: bytes | None = await db.fetchval("SELECT data FROM shelf WHERE name = $1", name)
            return data

    async def write(self, name: str, data: bytes) -> None:
        async with self._database() as db:
            await db.execute(
                "INSERT INTO shelf (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = excluded.data",
                name,
                data,
            )

    @asynccontextmanager
    async def _database(self) -> AsyncIterator[asyncpg.Connection[Any]]:
        """A connection for one read or write, to a schema that has the ``shelf`` table."""
        db = await asyncpg.connect(self.url)
        try:
            await migrate(db)
            yield db
        finally:
            await db.close()
