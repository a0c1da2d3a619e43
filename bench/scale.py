"""How the paths a person can trigger grow with history (issue 39): stores of 1,000, 10,000 (and, with
``--sizes``, 100,000) finished games played by the real rules and written straight into the log: 65%
Hog (random dice, a third against the perfect house, a tenth at the terminal), 35% Cucumber at 3 to 6
seats (random legal cards, some seats bots); players drawn Zipf-like from N/20 people, in the channels
of N/200 servers drawn Zipf-like too, over the same six weeks whatever the size (so a past season and
the running one in each). Then the read models caught up as a process does at start.

Printed for each size, side by side: the front page's query and page (p50, p99), a page of it half
way through history (by the link its neighbour gives), ``history``, ``history --name``, a heavy
player's page and the house's, the game's leaderboard and the biggest server's (with the heavy
player's place), the biggest server's season board and hall of fame (each call after the first, and
the first call after a restart), the trainer's draw of one of the heavy player's costly moves
(``/hog train``), ``/metrics`` and the live games a process reads as it takes the lead, the check
for boards behind at start, ``rebuild`` (wall time and peak memory, in a process of its own) and the
catch-up that built the read models. Medians of repeated calls.

    python bench/scale.py [--sizes 1000 10000 100000] [--repeat 30]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
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

import cucumber_core.game as cuke  # noqa: E402
from bot.games.hog.module import HogGame  # noqa: E402
from bot.games.hog.puzzling import one_of_your_mistakes  # noqa: E402
from bot.platform import seasons  # noqa: E402
from bot.platform.codec import to_record  # noqa: E402
from bot.platform.compose import Platform, platform  # noqa: E402
from bot.platform.registry import Games  # noqa: E402
from bot.platform.settings import Settings  # noqa: E402
from bot.web.app import make_app  # noqa: E402
from bot.web.pages import cursor  # noqa: E402
from cucumber_core.cards import DECK  # noqa: E402
from cucumber_core.events import Seat  # noqa: E402
from hog_core.events import Player  # noqa: E402
from hog_core.game import CreateGame, GameState, TakeTurn, decide, evolve  # noqa: E402

HOUSE = Player("house:perfect", "The house", house="perfect")
SPAN = 41 * 86400.0
"""How long each store's games take to play (from 14 November 2023): two months' seasons, whatever its size."""
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


def dealt(game_id: str, people: list[Player], place: str, rng: random.Random) -> list[Any]:
    """A whole game of Cucumber by the rules, with shuffled decks and random legal cards: its events."""
    seats = tuple(Seat(p.id, p.name, "magic" if p.id.startswith("bot:") else None) for p in people)
    state, events = cuke.GameState(), []
    command: Any = cuke.CreateGame(game_id, seats, num_cards=5, target=11, place=place)
    while True:
        for event in cuke.decide(state, command):
            state = cuke.evolve(state, event)
            events.append(event)
        if state.is_over:
            return events
        if state.to_play is None:
            command = state.deal_from(rng.sample(DECK, len(DECK)))
        else:
            command = cuke.PlayCard(seats[state.to_play].id, rng.choice(state.legal_cards(state.to_play)))


def build(db: Path, games: int, seed: int = 1) -> list[tuple[str, str, int]]:
    """``games`` finished games written into the log of ``db`` (its schema made by the store); each
    Discord game's board, as ``(game_id, channel, version)``, and each channel's server are kept."""
    rng = random.Random(seed)
    people = [Player(f"{1000 + i}", f"Player {i}") for i in range(max(6, games // 20))]
    weights = [1 / (i + 1) for i in range(len(people))]  # Zipf: a few play a lot
    servers = max(1, games // 200)
    places = [f"{900 + n // 3}{n % 3}" for n in range(3 * servers)]  # three channels a server
    place_weights = [1 / (n // 3 + 1) for n in range(len(places))]  # Zipf: a few servers play a lot
    modules = Games.load(Settings(db=db))
    rows, boards, position, when = [], [], 0, 1.7e9
    step = SPAN / (games * 71) * 2  # every store spans ``SPAN``: more history is more games in the same seasons
    for n in range(games):
        console = rng.random() < 0.1
        place = "console" if console else rng.choices(places, place_weights)[0]
        game_id = f"g{n:07d}"
        if rng.random() < 0.65:
            first = rng.choices(people, weights)[0]
            second = HOUSE if rng.random() < 0.33 else rng.choices(people, weights)[0]
            if second.id == first.id:
                second = HOUSE
            if console:
                first = Player(f"console:{first.name}", first.name)
            module, events = modules["hog"], played(game_id, (first, second), place, rng)
        else:
            size = rng.randint(3, 6)
            table = list(dict.fromkeys(rng.choices(people, weights, k=size)))
            table += [Player(f"bot:{i}", f"Bot {i}") for i in range(size - len(table))]
            module, events = modules["cucumber"], dealt(game_id, table, place, rng)
        for version, event in enumerate(events, start=1):
            record = to_record(module, event)
            position, when = position + 1, when + rng.random() * step
            rows.append((position, game_id, version, record.type, record.schema, record.data, when, f"b{position}"))
        if not console:
            boards.append((game_id, place, len(events)))
    with sqlite3.connect(db) as connection:
        connection.executemany(
            "INSERT INTO events (position, stream_id, version, type, schema, data, recorded_at, command_id) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        connection.executemany("INSERT INTO places (place, server) VALUES (?, ?)", [(p, p[:-1]) for p in places])
        connection.executemany(
            "INSERT INTO boards (game_id, channel_id, message_id, shown_version) VALUES (?, ?, ?, ?)",
            [(g, c, f"m{g}", v) for g, c, v in boards],
        )
    return boards


PEAK = (
    "import atexit, runpy, sys\n"
    "atexit.register(lambda: print(open('/proc/self/status').read(), file=sys.stderr))\n"
    "sys.argv = ['bot', 'rebuild']\n"
    "runpy.run_module('bot', run_name='__main__', alter_sys=True)\n"
)
"""``python -m bot rebuild``, printing its process's status as it ends: ``VmHWM`` is its own peak of
resident memory (a child's ``ru_maxrss`` counts the parent it was forked from, this bench's own)."""


async def latest(p: Platform) -> float:
    """When the last game finished: the bench's "now" (its games are from 2023)."""
    (newest,) = await p.views.history(None, limit=1)
    return newest.updated_at + 1


async def season_board(p: Platform, server: str, now: float) -> object:
    """The running season's Hog table of ``server``, as ``/hog leaderboard season`` shows it."""
    running = seasons.numbered(await p.seasons.of_server(server, now), 0)
    assert running is not None
    return await p.seasons.standings(server, "hog", running, now)


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
    started = time.perf_counter()
    build(db, size)
    found: dict[str, float] = {"build the log, s": time.perf_counter() - started}
    started = time.perf_counter()
    async with platform(settings) as p:
        await p.settled_views()
        found["catch-up at start, s"] = time.perf_counter() - started
        views = p.views
        await p.kept.settle_boards()  # as the bot does at start: the boards of finished games, settled once
        found["boards behind at start p50"] = p50(await timed(p.kept.boards_behind, repeat))
        big, last = "900", await latest(p)
        ever = await timed(lambda: season_board(p, big, last), 1)
        ever += await timed(lambda: p.seasons.hall_of_fame(big, "hog", last), 1)
        found["season board, first call ever"], found["hall of fame, first call ever"] = ever
        found["season board (big server) p50"] = p50(await timed(lambda: season_board(p, big, last), repeat))
        fame = lambda: p.seasons.hall_of_fame(big, "hog", last)  # noqa: E731
        found["hall of fame (big server) p50"] = p50(await timed(fame, repeat))
        heavy, name = "1000", "Player 0"
        found["leaderboard p50"] = p50(await timed(lambda: views.ratings.standings("hog", heavy), repeat))
        of_server = lambda: views.ratings.standings("hog", heavy, server=big)  # noqa: E731
        found["leaderboard (big server) p50"] = p50(await timed(of_server, repeat))
        hog, pick = p.games["hog"], random.Random(7)
        assert isinstance(hog, HogGame)
        train = lambda: one_of_your_mistakes(p, hog, heavy, pick)  # noqa: E731
        found["/hog train (heavy player) p50"] = p50(await timed(train, repeat))
        found["live games, the lead's start p50"] = p50(await timed(views.live_games, repeat))
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
            (middle,) = await views.history(None, limit=1, offset=size // 2)
            found["web / half way back p50"] = p50(await timed(page(f"/?before={cursor(middle)}"), repeat))
            found["/metrics p50"] = p50(await timed(page("/metrics"), repeat))
            found["/players/<heavy> p50"] = p50(await timed(page(f"/players/{heavy}"), repeat))
            found["/players/house:perfect p50"] = p50(await timed(page("/players/house:perfect"), repeat))
        finally:
            await client.close()
    after_start: list[list[float]] = [[], []]
    for _ in range(5):  # a season's table and the hall of fame, first asked after a start
        async with platform(settings) as p:
            await p.settled_views()
            after_start[0] += await timed(lambda: season_board(p, big, last), 1)
            after_start[1] += await timed(lambda: p.seasons.hall_of_fame(big, "hog", last), 1)
    found["season board, first after a start p50"] = p50(after_start[0])
    found["hall of fame, first after a start p50"] = p50(after_start[1])
    env = {**os.environ, "HOG_DB": str(db), "HOG_CACHE": str(scratch / "solutions")}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEAK], env=env, check=True, capture_output=True, text=True)
    found["rebuild, s"] = time.perf_counter() - started
    peak = int(done.stderr.split("VmHWM:")[1].split()[0]) / 1024
    found["rebuild peak, MiB"] = peak
    return found


async def main(sizes: list[int], repeat: int) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        results = {size: await measure(size, repeat, Path(scratch)) for size in sizes}
    paths = list(results[sizes[0]])
    print(f"{'path':<36}" + "".join(f"{size:>12,}" for size in sizes) + f"{'ratio':>9}")
    for path in paths:
        values = [results[size][path] for size in sizes]
        unit = "" if path.endswith(("s", "MiB")) else " ms"
        ratio = values[-1] / values[0] if values[0] else float("nan")
        print(f"{path + unit:<36}" + "".join(f"{v:>12.2f}" for v in values) + f"{ratio:>8.2f}x")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--repeat", type=int, default=30)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.sizes, arguments.repeat))
