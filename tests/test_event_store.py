"""The event store's guarantees (shared/DESIGN.md): versions, atomicity, idempotency, order, recovery."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from hog_core.events import GameCreated, TurnTaken
from storage.codec import DamagedEvent, from_record, to_record
from storage.events import NewEvent, SqliteEventStore, StoreError, WrongExpectedVersion
from storage.schema import MIGRATIONS


def event(n: int = 0) -> NewEvent:
    return to_record(TurnTaken(seat=n % 2, k=1, outcomes=(n % 6 + 1,), sides=6))


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteEventStore]:
    opened = await SqliteEventStore.open(tmp_path / "hog.sqlite3")
    yield opened
    await opened.close()


async def test_append_load_and_read_all(store: SqliteEventStore) -> None:
    first = await store.append("g1", [event(1), event(2)], 0, recorded_at=100.0)
    assert (first.version, first.first_position, first.last_position, first.duplicate) == (2, 1, 2, False)
    await store.append("g2", [event(3)], 0)
    await store.append("g1", [event(4)], 2)
    loaded = await store.load("g1")
    assert [(e.version, e.position) for e in loaded] == [(1, 1), (2, 2), (3, 4)]
    assert loaded[0].recorded_at == 100.0
    assert [from_record(e) for e in loaded] == [
        TurnTaken(1, 1, (2,), 6),
        TurnTaken(0, 1, (3,), 6),
        TurnTaken(0, 1, (5,), 6),
    ]
    assert [e.version for e in await store.load("g1", after_version=2)] == [3]
    assert [(e.stream_id, e.position) for e in await store.read_all()] == [("g1", 1), ("g1", 2), ("g2", 3), ("g1", 4)]
    assert [e.position for e in await store.read_all(after_position=2, limit=1)] == [3]
    assert await store.load("nobody") == []


async def test_concurrent_appends_at_the_same_version_exactly_one_wins(store: SqliteEventStore) -> None:
    for version in range(5):
        results = await asyncio.gather(
            *(store.append("g", [event(i)], version) for i in range(50)), return_exceptions=True
        )
        wins = [r for r in results if not isinstance(r, BaseException)]
        losses = [r for r in results if isinstance(r, WrongExpectedVersion)]
        assert len(wins) == 1 and len(losses) == 49
        assert str(losses[0]) == f"stream 'g' is at version {version + 1}, not {version}: someone else moved first"
    assert [e.version for e in await store.load("g")] == [1, 2, 3, 4, 5]


async def test_concurrent_appends_to_different_streams_all_succeed_gaplessly(store: SqliteEventStore) -> None:
    results = await asyncio.gather(*(store.append(f"g{i}", [event(i), event(i + 1)], 0) for i in range(300)))
    assert all(r.version == 2 for r in results)
    positions = sorted(p for r in results for p in range(r.first_position, r.last_position + 1))
    assert positions == list(range(1, 601))
    assert [e.position for e in await store.read_all(limit=10_000)] == list(range(1, 601))


async def test_a_retried_command_stores_nothing_twice(store: SqliteEventStore) -> None:
    first = await store.append("g", [event(1), event(2)], 0, command_id="interaction-1")
    again = await store.append("g", [event(1), event(2)], 0, command_id="interaction-1")
    assert again.duplicate and (again.version, again.first_position, again.last_position) == (2, 1, 2)
    late = await store.append("g", [event(9)], 2, command_id="interaction-1")  # even at a newer version
    assert late == again
    racing = await asyncio.gather(*(store.append("g", [event(3)], 2, command_id="interaction-2") for _ in range(20)))
    assert sum(not r.duplicate for r in racing) == 1 and {r.last_position for r in racing} == {3}
    assert len(await store.load("g")) == 3
    with pytest.raises(StoreError, match="already used on another stream"):
        await store.append("other", [event(1)], 0, command_id="interaction-1")
    assert first.version == 2


async def test_a_batch_is_atomic(store: SqliteEventStore) -> None:
    await store.append("g", [event(1)], 0)
    with pytest.raises(WrongExpectedVersion):
        await store.append("g", [event(2), event(3), event(4)], 0)
    assert len(await store.load("g")) == 1
    with pytest.raises(StoreError, match="not a storable event"):
        await store.append("g", [event(2), NewEvent("TurnTaken", 1, "text, not bytes")], 1)  # type: ignore[arg-type]
    with pytest.raises(StoreError, match="at least one event"):
        await store.append("g", [], 1)
    assert len(await store.load("g")) == 1


async def test_one_bad_append_does_not_fail_its_batch(store: SqliteEventStore, tmp_path: Path) -> None:
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


async def test_migrations_run_once_and_refuse_a_newer_database(tmp_path: Path) -> None:
    path = tmp_path / "hog.sqlite3"
    with sqlite3.connect(path) as db:  # a database from the first release: the log alone
        db.executescript(MIGRATIONS[0] + "PRAGMA user_version = 1;")
        db.execute(
            "INSERT INTO events VALUES (1, 'g', 1, 'TurnTaken', 1, ?, 0, NULL)",
            (b'{"type":"TurnTaken","seat":0,"k":1,"outcomes":[4],"sides":6}',),
        )
    store = await SqliteEventStore.open(path)
    assert [from_record(e) for e in await store.load("g")] == [TurnTaken(0, 1, (4,), 6)]
    await store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS),)
        assert db.execute("SELECT count(*) FROM games").fetchone() == (0,)
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(RuntimeError, match=f"schema version 99; this code knows up to {len(MIGRATIONS)}"):
        await SqliteEventStore.open(path)


V1_GAME_CREATED = (
    b'{"type":"GameCreated","game_id":"old","rules":"fa18","rules_version":1,"goal":100,'
    b'"players":[{"id":"1","name":"A","house":null},{"id":"2","name":"B","house":null}],'
    b'"first":0,"challenge":false,"turn_limit":1000,"place":"c"}'
)


async def test_a_stored_v1_event_is_upcast_on_read(store: SqliteEventStore) -> None:
    await store.append("old", [NewEvent("GameCreated", 1, V1_GAME_CREATED)], 0)
    (stored,) = await store.load("old")
    assert stored.schema == 1 and stored.data == V1_GAME_CREATED  # never rewritten
    created = from_record(stored)
    assert isinstance(created, GameCreated) and created.turn_timeout == 0 and created.game_id == "old"


@pytest.mark.parametrize(
    ("row_type", "schema", "data", "words"),
    [
        ("DiceStolen", 1, b"{}", "unknown event type 'DiceStolen'"),
        ("TurnTaken", 1, b"\x00garbage", "damaged event data"),
        ("TurnTaken", 7, b"{}", "TurnTaken version 7 is not readable"),
    ],
)
async def test_a_damaged_row_is_a_clear_error_and_the_rest_keeps_working(
    store: SqliteEventStore, tmp_path: Path, row_type: str, schema: int, data: bytes, words: str
) -> None:
    await store.append("good", [event(1)], 0)
    await store.append("bad", [NewEvent(row_type, schema, data)], 0)
    (bad,) = await store.load("bad")
    with pytest.raises(DamagedEvent, match=words) as info:
        from_record(bad)
    assert info.value.position == 2 and "event 2 (bad v1" in str(info.value)
    assert [from_record(e) for e in await store.load("good")] == [from_record((await store.load("good"))[0])]
    assert (await store.append("good", [event(2)], 1)).version == 2


async def test_close_stores_what_is_queued(tmp_path: Path) -> None:
    store = await SqliteEventStore.open(tmp_path / "hog.sqlite3")
    pending = [asyncio.ensure_future(store.append(f"g{i}", [event(i)], 0)) for i in range(50)]
    await asyncio.sleep(0)  # one turn of the loop: the appends reach the queue (no waiting on work)
    late = asyncio.ensure_future(store.append("late", [event(0)], 0))  # starts while closing
    await store.close()
    assert all(p.done() and not p.exception() for p in pending)
    with pytest.raises(StoreError, match="closed"):
        await late
    with pytest.raises(StoreError, match="closed"):
        await store.append("later", [event(0)], 0)
    reopened = await SqliteEventStore.open(tmp_path / "hog.sqlite3")
    assert len(await reopened.read_all(limit=100)) == 50
    await reopened.close()


async def test_a_busy_database_is_read_through_the_database_thread(store: SqliteEventStore) -> None:
    await store.append("g", [event(1), event(2)], 0)
    quick = store._quick  # the on-loop reader; make it report SQLite's busy error

    class Busy:
        def execute(self, *args: object) -> object:
            raise sqlite3.OperationalError("database is locked")

        def close(self) -> None:
            quick.close()

    store._quick = Busy()  # type: ignore[assignment]
    assert [e.version for e in await store.load("g")] == [1, 2]
