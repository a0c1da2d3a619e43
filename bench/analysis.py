"""The exact review's speed (issue 29): reviewing a 60-move Hog game once the rule set is solved
(target: <= 50 ms), per rule set, beside building the rule set's reviewer; reviewing 2,000 games;
rebuilding the read models of 2,000 stored finished games with their reviews, beside the same
rebuild with reviews left out (its anchor), in one run; and a Cucumber game's estimated review.

    python bench/analysis.py [--games 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from bot.games.hog.module import HogGame  # noqa: E402
from bot.games.hog.solutions import SolutionCache  # noqa: E402
from bot.platform.codec import to_record  # noqa: E402
from bot.platform.projection import Projector  # noqa: E402
from bot.platform.registry import Games  # noqa: E402
from cucumber_core import strong  # noqa: E402
from cucumber_core.events import Event as CucumberEvent  # noqa: E402
from cucumber_core.events import Seat  # noqa: E402
from cucumber_core.game import CreateGame as CucumberGame  # noqa: E402
from cucumber_core.match import play_match  # noqa: E402
from cucumber_core.review import review as estimated  # noqa: E402
from hog_core.events import Event, Player  # noqa: E402
from hog_core.game import CreateGame, GameState, TakeTurn, decide, evolve  # noqa: E402
from hog_core.kernel import Kernel  # noqa: E402
from hog_core.review import Reviewer  # noqa: E402
from hog_core.rulesets import RULE_SETS  # noqa: E402
from hog_core.solver import solve  # noqa: E402
from storage.games import GameViews  # noqa: E402
from storage.shelves import FolderShelf  # noqa: E402
from storage.sqlite.database import SqliteDatabase  # noqa: E402
from storage.sqlite.store import SqliteEventStore  # noqa: E402


def a_game(rules: str, moves: int, seed: int) -> list[Event]:
    """A game of about ``moves`` turns: one die a turn (slow going) until then, ten after."""
    rng = random.Random(seed)
    state, log = GameState(), list[Event]()
    for event in decide(state, CreateGame(f"g{seed}", (Player("a", "A"), Player("b", "B")), rules=rules)):
        state, log = evolve(state, event), [*log, event]
    while not state.is_over:
        k = 1 if len(log) <= moves else 10
        dice = state.dice_for(k)
        rolled = tuple(rng.randint(1, dice.sides) for _ in range(dice.count))
        for event in decide(state, TakeTurn(state.players[state.mover].id, k, rolled)):
            state, log = evolve(state, event), [*log, event]
    return log


def main(games: int) -> None:
    print(f"{'rules':<9} {'reviewer':>9} {'moves':>6} {'review p50':>11} {'max':>8}")
    for rules, rule_set in RULE_SETS.items():
        solution = solve(rule_set, 100)
        started = time.perf_counter()
        reviewer = Reviewer(Kernel(rule_set, 100), solution)
        built = 1000 * (time.perf_counter() - started)
        log = a_game(rules, 60, 1)
        times = []
        for _ in range(20):
            started = time.perf_counter()
            reviewed = reviewer.review(log)
            times.append(1000 * (time.perf_counter() - started))
        print(f"{rules:<9} {built:>7.1f}ms {len(reviewed):>6} {statistics.median(times):>9.1f}ms {max(times):>6.1f}ms")
    reviewer = Reviewer(Kernel(RULE_SETS["fa18"], 100), solve(RULE_SETS["fa18"], 100))
    logs = [a_game("fa18", 30, seed) for seed in range(games)]
    started = time.perf_counter()
    moves = sum(len(reviewer.review(log)) for log in logs)
    took = time.perf_counter() - started
    print(f"{games} fa18 games ({moves} moves) reviewed in {took:.2f} s ({1000 * took / games:.2f} ms a game)")
    asyncio.run(rebuilds(logs))
    cucumber(20)


def cucumber(games: int) -> None:
    """Four-seat games to 21 of the strong bot against itself, every seat reviewed as a person's."""
    times, cards = [], 0
    for seed in range(games):
        seats = tuple(Seat(f"p{i}", f"P{i}") for i in range(4))
        log: list[CucumberEvent] = []
        play_match(CucumberGame(f"c{seed}", seats), [strong.choose] * 4, np.random.default_rng(seed), log=log)
        started = time.perf_counter()
        cards += len(estimated(log, np.random.default_rng(seed)))
        times.append(1000 * (time.perf_counter() - started))
    print(
        f"{games} Cucumber games ({cards} chosen cards) estimated: p50 {statistics.median(times):.1f} ms, "
        f"max {max(times):.1f} ms a game"
    )


class Unreviewed(HogGame):
    async def assess(self, events: object) -> None:
        """The anchor: the same rebuild with no review to keep."""


async def rebuilds(logs: list[list[Event]]) -> None:
    """The read models of ``logs`` stored, rebuilt with the reviews and without (each twice, the best kept)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hog.sqlite3"
        store = await SqliteEventStore.open(path, synchronous="NORMAL")
        for seed, log in enumerate(logs):
            await store.append(f"g{seed}", [to_record(HOG, e) for e in log], 0)
        views = GameViews(await SqliteDatabase.open(path))
        cache = SolutionCache(FolderShelf(Path(folder) / "cache"))
        took = {}
        for name, game in (
            ("without reviews", Unreviewed(solutions=cache)),
            ("with reviews", HogGame(solutions=cache)),
        ):
            await Projector(store, views, Games({"hog": game})).rebuild()  # solves and builds the reviewer
            runs = []
            for _ in range(2):
                started = time.perf_counter()
                await Projector(store, views, Games({"hog": game})).rebuild()
                runs.append(time.perf_counter() - started)
            took[name] = min(runs)
            print(f"rebuild of {len(logs)} stored games {name}: {took[name]:.2f} s")
        print(f"the reviews add {took['with reviews'] - took['without reviews']:.2f} s to the rebuild")
        await views.close()
        await store.close()


HOG = HogGame()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    main(parser.parse_args().games)
