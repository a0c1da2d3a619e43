"""The event store's speed, beside plain sqlite3, a naive aiosqlite store and the ``eventsourcing``
library, all measured in this one run on the same disk (ratios are what to compare).

    python -m pip install -e ".[bench]" && python bench/store.py

1. 100 concurrent writers each appending one event per call to their own game: durable appends/s.
2. Loading and replaying a 60-event game: store.load + decode + fold.
3. ``eventsourcing`` (its SQLite recorder): events saved per second, and rebuilding a 60-event
   aggregate, against the same work through this store.
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiosqlite

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.replay import sixty_turn_game
from bot.games.hog.module import HogGame
from bot.platform.codec import from_records, to_record
from hog_core.game import replay
from storage.events import EventStore, NewEvent, Synchronous
from storage.sqlite.store import SqliteEventStore

WRITERS, EACH = 100, 60
HOG = HogGame()
EVENT = NewEvent("TurnTaken", 1, b'{"type":"TurnTaken","seat":0,"k":3,"outcomes":[4,2,6],"sides":6}')
SCHEMA = "CREATE TABLE events (position INTEGER PRIMARY KEY, stream_id TEXT, version INTEGER, data BLOB)"


def plain_sqlite(path: Path, sync: Synchronous, n: int = 3000) -> float:
    """One event per transaction, one connection, the same file settings."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute(f"PRAGMA synchronous={sync}")
    db.execute(SCHEMA)
    start = time.perf_counter()
    for i in range(n):
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO events (stream_id, version, data) VALUES (?, ?, ?)", (f"g{i % 100}", i, EVENT.data))
        db.execute("COMMIT")
    elapsed = time.perf_counter() - start
    db.close()
    return n / elapsed


async def naive_aiosqlite(path: Path, sync: Synchronous) -> float:
    """100 concurrent writers, each append its own transaction on one shared connection."""
    db = await aiosqlite.connect(path, isolation_level=None)
    await db.execute("PRAGMA journal_mode=WAL")
    await db.execute(f"PRAGMA synchronous={sync}")
    await db.execute(SCHEMA)
    lock = asyncio.Lock()

    async def writer(w: int) -> None:
        for v in range(EACH):
            async with lock:
                await db.execute("BEGIN IMMEDIATE")
                await db.execute(
                    "INSERT INTO events (stream_id, version, data) VALUES (?, ?, ?)", (f"g{w}", v, EVENT.data)
                )
                await db.execute("COMMIT")

    elapsed = await timed(lambda: asyncio.gather(*(writer(w) for w in range(WRITERS))))
    await db.close()
    return WRITERS * EACH / elapsed


async def concurrently(store: EventStore) -> float:
    """``WRITERS`` writers each appending ``EACH`` events to a game of their own: appends/s. Closes the store."""

    async def writer(w: int) -> None:
        for v in range(EACH):
            await store.append(f"g{w}", [EVENT], v)

    elapsed = await timed(lambda: asyncio.gather(*(writer(w) for w in range(WRITERS))))
    await store.close()
    return WRITERS * EACH / elapsed


async def alone(store: EventStore, n: int = 1000) -> float:
    """The eventsourcing library's workload (a player clicking alone): one writer, one event per
    append, waiting for each: appends/s. Closes the store."""
    start = time.perf_counter()
    for v in range(n):
        await store.append("g", [EVENT], v)
    elapsed = time.perf_counter() - start
    await store.close()
    return n / elapsed


async def load_and_replay(path: Path) -> tuple[float, float]:
    """Best time to load a 60-event game, and to load, decode and replay it, in microseconds."""
    store = await SqliteEventStore.open(path)
    log = sixty_turn_game()
    await store.append("game", [to_record(HOG, e) for e in log], 0)
    load, full = [], []
    for _ in range(300):
        start = time.perf_counter()
        stored = await store.load("game")
        middle = time.perf_counter()
        state = replay(from_records(HOG, stored))
        end = time.perf_counter()
        load.append(middle - start)
        full.append(end - start)
    assert state.version == len(log) == 61
    await store.close()
    return min(load) * 1e6, min(full) * 1e6


def eventsourcing_library(path: Path, n: int = 1000) -> tuple[float, float, float]:
    """Its SQLite recorder: events saved per second by one writer and by 100 writer threads (one
    event per save, as an aggregate does), and the time to rebuild a 60-event aggregate (µs)."""
    from concurrent.futures import ThreadPoolExecutor
    from uuid import UUID

    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    class Game(Aggregate):  # type: ignore[misc]
        @event("Created")  # type: ignore[untyped-decorator]
        def __init__(self) -> None:
            self.turns: list[tuple[int, list[int]]] = []

        @event("TurnTaken")  # type: ignore[untyped-decorator]
        def take(self, k: int, outcomes: list[int]) -> None:
            self.turns.append((k, outcomes))

    app: Application[UUID] = Application(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)})
    game = Game()
    app.save(game)
    start = time.perf_counter()
    for _ in range(n):
        game.take(3, [4, 2, 6])
        app.save(game)
    sequential = n / (time.perf_counter() - start)

    def writer(_: int) -> None:
        mine = Game()
        app.save(mine)
        for _ in range(EACH):
            mine.take(3, [4, 2, 6])
            app.save(mine)

    start = time.perf_counter()
    with ThreadPoolExecutor(WRITERS) as pool:
        list(pool.map(writer, range(WRITERS)))
    concurrent = WRITERS * (EACH + 1) / (time.perf_counter() - start)

    sixty = Game()
    for _ in range(59):
        sixty.take(3, [4, 2, 6])
    app.save(sixty)
    times = []
    for _ in range(100):
        start = time.perf_counter()
        app.repository.get(sixty.id)
        times.append(time.perf_counter() - start)
    return sequential, concurrent, min(times) * 1e6


async def timed(work: Callable[[], Awaitable[object]]) -> float:
    start = time.perf_counter()
    await work()
    return time.perf_counter() - start


async def main() -> None:
    with tempfile.TemporaryDirectory(dir=".") as tmp:
        d = Path(tmp)
        print(f"{WRITERS} concurrent writers, {WRITERS * EACH} appends of one event (WAL):")
        mine: dict[str, float] = {}
        for sync in ("FULL", "NORMAL"):
            plain = plain_sqlite(d / f"plain-{sync}.db", sync)
            naive = await naive_aiosqlite(d / f"naive-{sync}.db", sync)
            mine[sync] = ours_rate = await concurrently(
                await SqliteEventStore.open(d / f"ours-{sync}.db", synchronous=sync)
            )
            print(
                f"  synchronous={sync:6s} plain sqlite3 {plain:9,.0f}/s   naive aiosqlite {naive:9,.0f}/s   "
                f"this store {ours_rate:9,.0f}/s  ({ours_rate / plain:.1f}x plain sqlite3)"
            )
        load_us, replay_us = await load_and_replay(d / "replay.db")
        print(f"\nload a 60-event game: {load_us:.0f} µs; load + decode + replay: {replay_us:.0f} µs")
        try:
            es_one, es_many, es_rebuild = eventsourcing_library(d / "es.db")
        except ImportError:
            print("\n(eventsourcing is not installed: python -m pip install -e '.[bench]')")
            return
        one = await alone(await SqliteEventStore.open(d / "sequential.db"))
        print("\nbeside the eventsourcing library (its SQLite recorder, synchronous=FULL too), same run:")
        full = mine["FULL"]
        print(f"  events saved by 100 concurrent writers: {es_many:9,.0f}/s vs {full:9,.0f}/s ({full / es_many:.1f}x)")
        print(f"  events saved by one writer, one at a time: {es_one:9,.0f}/s vs {one:9,.0f}/s ({one / es_one:.1f}x)")
        print(f"  rebuild a 60-event game: {es_rebuild:6.0f} µs vs {replay_us:6.0f} µs ({es_rebuild / replay_us:.1f}x)")


if __name__ == "__main__":
    asyncio.run(main())
