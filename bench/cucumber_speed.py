"""How many whole Cucumber games a second four course bots play on one core, three ways side by side:
on arrays (``simulate``, what ``tournament`` and ``simulate`` use), through the engine one game at a
time (``match.play_match``: decide/evolve, the path of a real game), and through the course's API
(``course.play_game``: plain Python, as the course's own code plays).

python bench/cucumber_speed.py [--games 100000]
"""

from __future__ import annotations

import argparse
import os
import time

os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, whatever numpy would do
import numpy as np  # noqa: E402

from cucumber_core import bots, course, simulate  # noqa: E402
from cucumber_core.events import Seat  # noqa: E402
from cucumber_core.game import CreateGame  # noqa: E402
from cucumber_core.match import play_match  # noqa: E402

NAMES = ("play_first", "fimp", "magic", "play_first")
"""The course's three bots, one of them twice."""


def arrays(games: int) -> float:
    rng = np.random.default_rng(1)
    start = time.perf_counter()
    simulate.play_games([simulate.POLICIES[n] for n in NAMES], games, rng)
    return games / (time.perf_counter() - start)


def engine(games: int) -> float:
    rng = np.random.default_rng(2)
    seats = tuple(Seat(str(i), f"p{i}") for i in range(len(NAMES)))
    players = [bots.BOTS[n] for n in NAMES]
    start = time.perf_counter()
    for g in range(games):
        play_match(CreateGame(f"b{g}", seats), players, rng)
    return games / (time.perf_counter() - start)


def course_api(games: int) -> float:
    strategies = [getattr(course, n) for n in NAMES]
    start = time.perf_counter()
    for _ in range(games):
        course.play_game([f"p{i}" for i in range(len(NAMES))], strategies)
    return games / (time.perf_counter() - start)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=100_000)
    args = p.parse_args()
    small = max(50, args.games // 200)
    for _ in range(2):  # twice: the second round is the one to read on a noisy machine
        a, e, c = arrays(args.games), engine(small), course_api(small)
        print(
            f"arrays {a:9,.0f} games/s | engine {e:6,.0f} games/s | course API {c:6,.0f} games/s "
            f"| arrays / engine {a / e:5.1f}x, / course API {a / c:5.1f}x"
        )


if __name__ == "__main__":
    main()
