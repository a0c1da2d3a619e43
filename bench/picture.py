"""How long the picture of a game takes: a game of each rule set (Ada rolls 3 to 6 dice at random,
the perfect house answers), charted with its win chances and rendered to PNG; and its animation.

python bench/picture.py                         # the times, per rule set
python bench/picture.py --save docs/replay.png  # also keep one picture (sp21, a replay at turn 9)
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from pathlib import Path

from bot.games.hog.picture import animate, chart, render
from bot.games.hog.solutions import SolutionCache
from bot.platform.settings import Settings
from hog_core.events import Event, Player
from hog_core.game import CreateGame, GameState, TakeTurn, decide, replay
from hog_core.rulesets import RULE_SETS
from hog_core.solver import Solution


def house_game(rules: str, solution: Solution, seed: int, goal: int = 100) -> list[Event]:
    rng = random.Random(seed)
    players = (Player("1", "Ada"), Player("2", "The house", house="perfect"))
    log = decide(GameState(), CreateGame(f"bench-{rules}", players, rules=rules, goal=goal))
    state = replay(log)
    while not state.is_over:
        k = solution.best_move(state) if state.mover else rng.randint(3, 6)
        dice = state.dice_for(k)
        outcomes = tuple(rng.randint(1, dice.sides) for _ in range(dice.count))
        events = decide(state, TakeTurn(state.players[state.mover].id, k, outcomes))
        state = replay(events, state)
        log += events
    return log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=20, help="renders of each game (default 20)")
    parser.add_argument("--save", type=Path, help="write the sp21 game's picture here")
    parser.add_argument("--seed", type=int, default=4, help="the dice's seed (default 4)")
    args = parser.parse_args()
    cache = SolutionCache.of(Settings.from_env())
    print(f"{'rules':9s} {'turns':>5s} {'chart':>8s} {'render p50':>11s} {'max':>8s} {'size':>8s}")
    for rules in RULE_SETS:
        solution = asyncio.run(cache.get(RULE_SETS[rules], 100))
        log = house_game(rules, solution, seed=args.seed)
        charts, renders = [], []
        for _ in range(args.repeat):
            started = time.perf_counter()
            c = chart(log, solution.win_chances)
            charted = time.perf_counter()
            png = render(c, at=9)
            charts.append(charted - started)
            renders.append(time.perf_counter() - charted)
        started = time.perf_counter()
        gif = animate(c)
        animated = time.perf_counter() - started
        print(
            f"{rules:9s} {len(c.turns):5d} {statistics.median(charts) * 1e3:6.2f}ms "
            f"{statistics.median(renders) * 1e3:9.1f}ms {max(renders) * 1e3:6.1f}ms {len(png) / 1024:6.1f}KB"
            f"   GIF {animated * 1e3:6.0f}ms {len(gif) / 1024:5.0f}KB"
        )
        if args.save and rules == "sp21":
            args.save.parent.mkdir(parents=True, exist_ok=True)
            args.save.write_bytes(png)
    if args.save:
        print(f"saved {args.save}")


if __name__ == "__main__":
    main()
