"""The SQLite event store: the contract's guarantees, and what is SQLite's own (group commit that
survives one poisoned append, migrations, reading past a busy database)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from storage.events import EventStore, StoreError, WrongExpectedVersion
from storage.sqlite.schema import MIGRATIONS
from storage.sqlite.store import SqliteEventStore
from tests.storage.store_contract import EventStoreContract, event


class TestSqliteEventStore(EventStoreContract):
    async def open_store(self, directory: Path) -> EventStore:
        return await SqliteEventStore.open(directory / "hog.sqlite3")

    async def test_one_bad_append_does_not_fail_its_batch(self, store: EventStore, tmp_path: Path) -> None:
        # a row already holding (g, 2) makes the batch's insert fail; the others still land
        with sqlite3.connect(tmp_path / "hog.sqlite3") as db:
            db.execute(
                "INSERT INTO events (position, stream_id, version, type, schema, data, recorded_at) "
                "VALUES (1000, 'poisoned', 2, 'TurnTaken', 1, x'7b7d', 0)"
            )
        results = await asyncio.gather(
            store.append("poisoned", [event(1), event(2)], 0),  # v1 would insert, v2 collides
            *(store.append(f"fine{i}", [event(i)], 0) for i in range(10)),
            return_exceptions=True,
        )
        assert isinstance(results[0], WrongExpectedVersion | StoreError)
        assert all(not isinstance(r, BaseException) for r in results[1:])

    async def test_a_busy_database_is_read_through_the_database_thread(self, store: EventStore) -> None:
        await store.append("g", [event(1), event(2)], 0)
        assert isinstance(store, SqliteEventStore)
        quick = store._quick  # the on-loop reader; make it report SQLite's busy error

        class Busy:
            def execute(self, *args: object) -> object:
                raise sqlite3.OperationalError("database is locked")

            def close(self) -> None:
                quick.close()

        store._quick = Busy()  # type: ignore[assignment]
        assert [e.version for e in await store.load("g")] == [1, 2]


async def test_migrations_run_once_and_refuse_a_newer_database(tmp_path: Path) -> None:
    path = tmp_path / "hog.sqlite3"
    with sqlite3.connect(path) as db:  # a database from the first release: the log alone
        db.executescript(MIGRATIONS[0] + "PRAGMA user_version = 1;")
        db.execute(
            "INSERT INTO events VALUES (1, 'g', 1, 'TurnTaken', 1, ?, 0, NULL)",
            (b'{"type":"TurnTaken","seat":0,"k":1,"outcomes":[4],"sides":6}',),
        )
    store = await SqliteEventStore.open(path)
    assert [e.type for e in await store.load("g")] == ["TurnTaken"]
    await store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS),)
        assert db.execute("SELECT count(*) FROM games").fetchone() == (0,)
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(RuntimeError, match=f"schema version 99; this code knows up to {len(MIGRATIONS)}"):
        await SqliteEventStore.open(path)
