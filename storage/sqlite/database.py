"""The read models' database on the SQLite file the event store writes too (``storage.sql``)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import aiosqlite

from storage.sql import Database, Guard, Moved, Rows, Work, storable, storable_work
from storage.sqlite.schema import current, migrate, read_only_uri


class SqliteDatabase:
    """Queries and single writes go through an aiosqlite connection. A transaction is prepared on
    the event loop and committed whole on a connection and a thread of its own, in one trip: it
    holds the write lock it shares with the event store (the same file) only while SQLite works,
    never across turns of a busy event loop, and no other coroutine's statement can slip into it."""

    def __init__(
        self, db: aiosqlite.Connection, writer: sqlite3.Connection, thread: ThreadPoolExecutor, path: Path
    ) -> None:
        self._db, self._writer, self._thread, self._path = db, writer, thread, path

    @classmethod
    async def open(cls, path: Path | str, *, read_only: bool = False) -> SqliteDatabase:
        """The database at ``path``, created and migrated as needed; ``read_only``: a file this user
        may only read, opened as it is (its schema must be this code's)."""
        target = read_only_uri(path) if read_only else path
        db = await aiosqlite.connect(target, isolation_level=None, uri=read_only)
        try:
            await db.execute("PRAGMA busy_timeout=5000")
            if read_only:
                await current(db)
            else:
                # read models are rebuilt from the log at will: a power cut may cost their last commits
                # (and the checkpoint with them, in the same transaction), never their consistency
                await db.execute("PRAGMA synchronous=NORMAL")
                await migrate(db)
                await db.execute("PRAGMA optimize")  # the planner's statistics refreshed where they are stale
        except BaseException:
            await db.close()
            raise
        thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="read-models-writer")
        writer = await asyncio.get_running_loop().run_in_executor(thread, _writer, target, read_only)
        return cls(db, writer, thread, Path(path))

    async def fetch(self, sql: str, *params: object) -> Rows:
        return list(await self._db.execute_fetchall(sql, storable(params)))

    async def execute(self, sql: str, *params: object) -> None:
        await self._db.execute(sql, storable(params))

    async def transaction(self, work: Work, guard: Guard | None = None) -> None:
        writing = partial(_transaction, self._writer, storable_work(work), guard)
        await asyncio.get_running_loop().run_in_executor(self._thread, writing)

    async def aside(self) -> SqliteDatabase:
        path = aside_path(self._path)
        await asyncio.to_thread(_write_ahead, path)  # its reads never wait for its writer
        return await SqliteDatabase.open(path)

    async def adopt(self, aside: Database, tables: Sequence[str], then: Work) -> None:
        await aside.close()
        path = aside_path(self._path)
        adopting = partial(_adopt, self._writer, path, tables, storable_work(then))
        await asyncio.get_running_loop().run_in_executor(self._thread, adopting)
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)

    async def close(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self._thread, self._writer.close)
        self._thread.shutdown()
        await self._db.close()


def aside_path(path: Path) -> Path:
    """The file a rebuild writes its read models to, next to the database's own."""
    return path.with_name(f"{path.name}.rebuild")


def _write_ahead(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA journal_mode=WAL")


def _adopt(db: sqlite3.Connection, aside: Path, tables: Sequence[str], then: Work) -> None:
    """``SqliteDatabase.adopt``, in the writer's thread: every table emptied first (a game's seats
    go with its row), then filled from the aside file's, rows in the order of its columns."""
    db.execute("ATTACH DATABASE ? AS aside", (str(aside),))
    try:
        with immediate(db):
            for table in tables:
                db.execute(f"DELETE FROM main.{table}")
            for table in tables:
                db.execute(f"INSERT INTO main.{table} SELECT * FROM aside.{table}")
            for sql, rows in then:
                db.executemany(sql, rows)
    finally:
        db.execute("DETACH DATABASE aside")


def _writer(path: Path | str, uri: bool = False) -> sqlite3.Connection:
    writer = sqlite3.connect(path, isolation_level=None, uri=uri)
    writer.execute("PRAGMA busy_timeout=5000")
    writer.execute("PRAGMA synchronous=NORMAL")  # derived, rebuilt at will (see SqliteDatabase.open)
    return writer


@contextlib.contextmanager
def immediate(db: sqlite3.Connection) -> Iterator[None]:
    """A write transaction on a plain sqlite3 connection (``BEGIN IMMEDIATE``: one writer at a time
    on the file), committed when the block ends, rolled back if it raises."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(Exception):
            db.execute("ROLLBACK")
        raise


def _transaction(db: sqlite3.Connection, work: Work, guard: Guard | None) -> None:
    """A transaction, in the writer's thread."""
    with immediate(db):
        if guard is not None and db.execute(guard.sql, guard.params).fetchone()[0] != guard.expected:
            raise Moved(guard.sql)
        for sql, rows in work:
            db.executemany(sql, rows)
