"""The PostgreSQL event store, on a real server the tests start: the contract's guarantees, and what
several processes sharing one database need (idempotency and versions across stores, and a global
order in which no event commits behind a reader's back)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from storage.events import EventStore, WrongExpectedVersion
from storage.postgres.store import PostgresEventStore
from tests.helpers import within
from tests.postgres_server import create_database, drop_database
from tests.storage.store_contract import EventStoreContract, event


class TestPostgresEventStore(EventStoreContract):
    @pytest.fixture(autouse=True)
    async def server(self, postgres_server: str) -> None:
        self.server_url = postgres_server
        self.databases: dict[Path, str] = {}

    async def open_store(self, directory: Path) -> EventStore:
        if directory not in self.databases:  # the same directory, the same database
            self.databases[directory] = await create_database(self.server_url)
        return await PostgresEventStore.open(self.databases[directory])

    @pytest.fixture(autouse=True)
    async def drop_databases(self, server: None) -> AsyncIterator[None]:
        yield
        for url in self.databases.values():
            await drop_database(self.server_url, url)


@pytest.fixture
async def two_stores(postgres_url: str) -> AsyncIterator[tuple[PostgresEventStore, PostgresEventStore]]:
    """Two stores on one database, as two bot processes would have."""
    first = await PostgresEventStore.open(postgres_url)
    second = await PostgresEventStore.open(postgres_url)
    yield first, second
    await first.close()
    await second.close()


async def test_two_processes_agree_on_versions_and_commands(
    two_stores: tuple[PostgresEventStore, PostgresEventStore],
) -> None:
    first, second = two_stores
    for version in range(5):
        results = await asyncio.gather(
            *(store.append("g", [event(i)], version) for i in range(20) for store in two_stores),
            return_exceptions=True,
        )
        assert sum(not isinstance(r, BaseException) for r in results) == 1
        assert all(isinstance(r, WrongExpectedVersion) for r in results if isinstance(r, BaseException))
    racing = await asyncio.gather(
        *(store.append("h", [event(1), event(2)], 0, command_id="click-1") for _ in range(10) for store in two_stores)
    )
    assert sum(not r.duplicate for r in racing) == 1 and {r.version for r in racing} == {2}
    # resent to the other process after the game moved on: the original answer, not a version clash
    await first.append("h", [event(3)], 2, command_id="click-2")
    again = await second.append("h", [event(1), event(2)], 0, command_id="click-1")
    assert again.duplicate and again.version == 2
    assert [e.version for e in await second.load("h")] == [1, 2, 3]


WAITING = (
    "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
    "WHERE NOT l.granted AND a.datname = current_database()"
)


async def test_an_event_that_commits_late_is_never_skipped(postgres_url: str) -> None:
    """An append still open holds no other back, and a reader never passes an event to come: the
    late one is placed after what the reader saw, when it commits."""
    store = await PostgresEventStore.open(postgres_url)
    slow, watch = await asyncpg.connect(postgres_url), await asyncpg.connect(postgres_url)
    try:
        await store.append("a", [event(1)], 0)
        transaction = slow.transaction()
        await transaction.start()
        await slow.execute(  # what an append in another process does, not yet committed
            "INSERT INTO events (stream_id, version, type, schema, data, recorded_at) "
            "VALUES ('slow', 1, 'test.Happened', 1, '\\x7b7d', 0)"
        )
        assert (await store.append("b", [event(2)], 0)).version == 1  # not held back by the open one
        assert await watch.fetchval(WAITING) == 0
        assert [(e.position, e.stream_id) for e in await store.read_all()] == [(1, "a"), (2, "b")]
        await transaction.commit()
        assert [(e.position, e.stream_id) for e in await store.read_all(after_position=2)] == [(3, "slow")]
        assert [e.position for e in await store.load("slow")] == [3]
    finally:
        await slow.close()
        await watch.close()
        await store.close()


async def test_two_processes_moving_200_games_never_wait_for_each_other(postgres_url: str, tmp_path: Path) -> None:
    """Issue 54: two bot processes (each its store, its connections) move 200 games at once, each
    game's moves one after another as its players make them, the turns alternating between the
    processes. ``pg_locks``, watched all the while, never shows a lock waited for (the only wait an
    append can have is on an uncommitted append to its own game), but for the server's own moment
    of adding a page to the table (``extend``, whoever writes); a reader following the log sees
    every event once, in a gapless order, each game's in its own order."""
    stores = [await PostgresEventStore.open(postgres_url, sender=name) for name in ("one", "two")]
    watch = await asyncpg.connect(postgres_url)
    games, moves = 200, 8
    done = asyncio.Event()
    waits: list[str] = []
    seen: list[tuple[int, str, int]] = []

    async def watching() -> None:
        while not done.is_set():
            rows = await watch.fetch(
                "SELECT l.locktype, l.mode, a.query FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                "WHERE NOT l.granted AND a.datname = current_database() AND l.locktype <> 'extend'"
            )
            waits.extend(f"{r['locktype']} {r['mode']}: {r['query'][:80]}" for r in rows)
            await asyncio.sleep(0.005)

    async def following() -> None:
        checkpoint = 0
        while not done.is_set() or await stores[0].read_all(checkpoint, 1):
            for e in await stores[0].read_all(checkpoint, 100):
                seen.append((e.position, e.stream_id, e.version))
                checkpoint = e.position
            await asyncio.sleep(0)

    async def play(game: int) -> None:
        for move in range(moves):
            await stores[(game + move) % 2].append(f"game-{game}", [event(move)], move, command_id=f"{game}-{move}")

    watcher, follower = asyncio.ensure_future(watching()), asyncio.ensure_future(following())
    try:
        await within(asyncio.gather(*(play(g) for g in range(games))), 120)
    finally:
        done.set()
        await within(asyncio.gather(watcher, follower), 60)
        await watch.close()
        for store in stores:
            await store.close()
    assert waits == []
    assert [p for p, _, _ in seen] == list(range(1, games * moves + 1))
    by_game: dict[str, list[int]] = {}
    for _, stream, version in seen:
        by_game.setdefault(stream, []).append(version)
    assert by_game == {f"game-{g}": list(range(1, moves + 1)) for g in range(games)}


async def test_a_reader_following_two_busy_writers_misses_nothing(
    two_stores: tuple[PostgresEventStore, PostgresEventStore],
) -> None:
    """Two processes append 400 events at once; a reader that moves its checkpoint as it reads sees
    every position exactly once, in order."""
    done = asyncio.Event()
    seen: list[int] = []

    async def follow() -> None:
        checkpoint = 0
        while not done.is_set() or (await two_stores[0].read_all(checkpoint, 1)):
            for e in await two_stores[0].read_all(checkpoint, 50):
                seen.append(e.position)
                checkpoint = e.position
            await asyncio.sleep(0)

    reader = asyncio.ensure_future(follow())
    await asyncio.gather(
        *(store.append(f"g{i}-{n}", [event(i)], 0) for i in range(200) for n, store in enumerate(two_stores))
    )
    done.set()
    await reader
    assert seen == list(range(1, 401))


async def test_appends_go_on_after_the_server_drops_the_connections(postgres_url: str) -> None:
    """A restart of PostgreSQL (here: every connection of the store terminated) costs no append: the
    next group is stored on a fresh connection, and checked as ever (a resent command is not doubled)."""
    store = await PostgresEventStore.open(postgres_url)
    admin = await asyncpg.connect(postgres_url)
    try:
        await store.append("g", [event(1)], 0, command_id="first")
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        assert (await store.append("g", [event(2)], 1, command_id="second")).version == 2
        assert (await store.append("g", [event(2)], 1, command_id="second")).duplicate
        assert [e.version for e in await store.load("g")] == [1, 2]
    finally:
        await admin.close()
        await store.close()
