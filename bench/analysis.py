"""The exact review's speed (issue 29): reviewing a 60-move Hog game once the rule set is solved
(target: <= 50 ms), per rule set, beside building the rule set's reviewer; and reviewing 2,000 games,
the compute a rebuild of stored reviews would do.

    python bench/analysis.py [--games 2000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hog_core.events import Event, Player  # noqa: E402
from hog_core.game import CreateGame, GameState, TakeTurn, decide, evolve  # noqa: E402
from hog_core.kernel import Kernel  # noqa: E402
from hog_core.review import Reviewer  # noqa: E402
from hog_core.rulesets import RULE_SETS  # noqa: E402
from hog_core.solver import solve  # noqa: E402


def a_game(rules: str, moves: int, seed: int) -> list[Event]:
    """A game of about ``moves`` turns: one die a turn (slow going) until then, ten after."""
    rng = random.Random(seed)
    state, log = GameState(), list[Event]()
    for event in decide(state, CreateGame("g", (Player("a", "A"), Player("b", "B")), rules=rules)):
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


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    main(parser.parse_args().games)
