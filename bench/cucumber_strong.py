"""The strong Cucumber bot: how long it takes to decide, and how often it loses.

Decision time: every move the strong bot makes in rotating 4-seat games against magic, play_first
and random, and at a table of six strong bots (p50/p99/max, and over the moves that needed a
search: two or more legal values).
Strength: the issue's tournament (strong, magic, play_first, random; 2,000 games, seats rotating),
with the strong bot's losses over the best other bot's (the issue asks for at most 0.60).

python bench/cucumber_strong.py [--timing-games 100] [--games 2000]
"""

from __future__ import annotations

import argparse
import os
import time

os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
import numpy as np  # noqa: E402

from cucumber_core import strong, tournament  # noqa: E402
from cucumber_core.bots import BOTS, Bot  # noqa: E402
from cucumber_core.cards import Card, value  # noqa: E402
from cucumber_core.views import SeatView  # noqa: E402

NAMES = ["strong", "magic", "play_first", "random"]


def timed_games(games: int) -> None:
    times: list[float] = []
    searched: list[float] = []

    def clocked(view: SeatView, rng: np.random.Generator) -> Card:
        start = time.perf_counter()
        card = strong.choose(view, rng)
        elapsed = (time.perf_counter() - start) * 1000
        times.append(elapsed)
        if len({value(c) for c in view.legal}) > 1:
            searched.append(elapsed)
        return card

    bots: list[Bot] = [clocked, *(BOTS[n] for n in NAMES[1:])]
    tournament.play_engine(bots, NAMES, games, 5, tournament.Options())
    report(times, searched)
    times.clear()
    searched.clear()
    print("six strong bots at one table (the deepest endgame):")
    tournament.play_engine(
        [clocked] * 6, [f"strong {i}" for i in range(6)], max(1, games // 5), 6, tournament.Options()
    )
    report(times, searched)


def report(times: list[float], searched: list[float]) -> None:
    for label, sample in (("every move", times), ("searched moves", searched)):
        ms = np.array(sample)
        print(
            f"strong, {label:14s}: {ms.size:5d} moves, p50 {np.percentile(ms, 50):5.2f} ms, "
            f"p99 {np.percentile(ms, 99):5.2f} ms, max {ms.max():5.2f} ms (budget 50 ms)"
        )


def strength(games: int) -> None:
    start = time.perf_counter()
    results = tournament.play_engine([BOTS[n] for n in NAMES], NAMES, games, 1, tournament.Options())
    rows = tournament.standings(NAMES, results)
    print(f"{games} games in {time.perf_counter() - start:.0f} s")
    print(tournament.table(rows))
    losses = {r.name: r.losses for r in rows}
    best_other = min(losses[n] for n in NAMES[1:])
    print(f"strong loses {losses['strong']} / best other {best_other} = {losses['strong'] / best_other:.2f} (<= 0.60)")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--timing-games", type=int, default=100)
    p.add_argument("--games", type=int, default=2000)
    args = p.parse_args()
    timed_games(args.timing_games)
    strength(args.games)


if __name__ == "__main__":
    main()
