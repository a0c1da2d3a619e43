"""How the paths a person can trigger grow with history (issue 39): stores of 1,000, 10,000 (and, with
``--sizes``, 100,000) finished Hog games, played by the real rules (``hog_core``: random dice, players
drawn Zipf-like from N/20 people, a third against the perfect house, a tenth at the terminal), written
straight into the log, then the read models caught up as a process does at start. Printed for each
size, side by side: the front page's query and page, ``history``, ``history --name``, a heavy player's
page and the house's, ``rebuild`` (wall time and peak memory, in a process of its own), and the
catch-up that built the read models. Medians of repeated calls; the page p99 too.

    python bench/scale.py [--sizes 1000 10000] [--repeat 30]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from aiohttp.test_utils import TestClient, TestServer  # noqa: E402

from bot.platform.codec import to_record  # noqa: E402
from bot.platform.compose import platform  # noqa: E402
from bot.platform.registry import Games  # noqa: E402
from bot.platform.settings import Settings  # noqa: E402
from bot.web.app import make_app  # noqa: E402
from hog_core.events import Player  # noqa: E402
from hog_core.game import CreateGame, GameState, TakeTurn, decide, evolve  # noqa: E402

HOUSE = Player("house:perfect", "The house", house="perfect")
RULES = ("fa18", "sp21", "sp22", "contest", "sp16", "porkchop")


def played(game_id: str, players: tuple[Player, Player], place: str, rng: random.Random) -> list[Any]:
    """A whole game of Hog by the rules, with random choices and dice: its events."""
    state, events = GameState(), []
    for command in [CreateGame(game_id, players, rules=rng.choice(RULES), place=place)]:
        for event in decide(state, command):
            state = evolve(state, event)
            events.append(event)
    while not state.is_over:
        k = rng.choice([k for k in state.legal_moves() if k > 0])
        dice = state.dice_for(k)
        outcomes = tuple(rng.randint(1, dice.sides) for _ in range(dice.count))
        for event in decide(state, TakeTurn(state.players[state.mover].id, k, outcomes)):
            state = evolve(state, event)
            events.append(event)
    return events


def build(db: Path, games: int, seed: int = 1) -> None:
    """``games`` finished games written into the log of ``db`` (its schema made by the store)."""
    rng = random.Random(seed)
    people = [Player(f"{1000 + i}", f"Player {i}") for i in range(max(2, games // 20))]
    weights = [1 / (i + 1) for i in range(len(people))]  # Zipf: a few play a lot
    hog = Games.load(Settings(db=db))["hog"]
    rows, position, when = [], 0, 1.7e9
    for n in range(games):
        first = rng.choices(people, weights)[0]
        second = HOUSE if rng.random() < 0.33 else rng.choices(people, weights)[0]
        if second.id == first.id:
            second = HOUSE
        console = rng.random() < 0.1
        if console:
            first, second = Player(f"console:{first.name}", first.name), second
        place = "console" if console else f"{900 + n % max(1, games // 200)}"
        game_id = f"g{n:07d}"
        for version, event in enumerate(played(game_id, (first, second), place, rng), start=1):
            record = to_record(hog, event)
            position, when = position + 1, when + rng.random()
            rows.append((position, game_id, version, record.type, record.schema, record.data, when, f"b{position}"))
    with sqlite3.connect(db) as connection:
        connection.executemany(
            "INSERT INTO events (position, stream_id, version, type, schema, data, recorded_at, command_id) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )


async def timed(call: Callable[[], Awaitable[object]], repeat: int) -> list[float]:
    took = []
    for _ in range(repeat):
        started = time.perf_counter()
        await call()
        took.append(1000 * (time.perf_counter() - started))
    return took


def p50(values: list[float]) -> float:
    return statistics.median(values)


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[98]


async def measure(size: int, repeat: int, scratch: Path) -> dict[str, float]:
    db = scratch / f"scale{size}.sqlite3"
    settings = Settings(db=db, cache=scratch / "solutions")
    async with platform(settings):
        pass  # the schema
    build(db, size)
    found: dict[str, float] = {}
    started = time.perf_counter()
    async with platform(settings) as p:
        await p.settled_views()
        found["catch-up at start, s"] = time.perf_counter() - started
        views = p.views
        heavy, name = "1000", "Player 0"
        found["front page's query p50"] = p50(await timed(lambda: views.history(None, limit=21), repeat))
        found["history p50"] = p50(await timed(lambda: views.history(None, limit=11), repeat))
        by_name = lambda: views.history(None, limit=11, place="console", seat_name=name)  # noqa: E731
        found["history --name p50"] = p50(await timed(by_name, repeat))
        client = TestClient(TestServer(make_app(p)))
        await client.start_server()
        try:

            def page(path: str) -> Callable[[], Awaitable[object]]:
                async def get() -> object:
                    async with client.get(path) as answer:
                        assert answer.status == 200, (path, answer.status)
                        return await answer.read()

                return get

            front = await timed(page("/"), repeat * 3)
            found["web / p50"], found["web / p99"] = p50(front), p99(front)
            found["/players/<heavy> p50"] = p50(await timed(page(f"/players/{heavy}"), repeat))
            found["/players/house:perfect p50"] = p50(await timed(page("/players/house:perfect"), repeat))
        finally:
            await client.close()
    env = {**os.environ, "HOG_DB": str(db), "HOG_CACHE": str(scratch / "solutions")}
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "bot", "rebuild"], env=env, check=True, capture_output=True)
    found["rebuild, s"] = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    found["rebuild peak, MiB"] = max(peak, before) / 1024
    return found


async def main(sizes: list[int], repeat: int) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        results = {size: await measure(size, repeat, Path(scratch)) for size in sizes}
    paths = list(results[sizes[0]])
    print(f"{'path':<30}" + "".join(f"{size:>12,}" for size in sizes) + f"{'ratio':>9}")
    for path in paths:
        values = [results[size][path] for size in sizes]
        unit = "" if path.endswith(("s", "MiB")) else " ms"
        ratio = values[-1] / values[0] if values[0] else float("nan")
        print(f"{path + unit:<30}" + "".join(f"{v:>12.1f}" for v in values) + f"{ratio:>8.2f}x")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeat", type=int, default=30)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.sizes, arguments.repeat))
