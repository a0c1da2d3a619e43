"""How fast a stored game replays: decode + fold a 60-turn game, in events per second.

python bench/replay.py
"""

from __future__ import annotations

import random
import timeit

from hog_core import events as ev
from hog_core.events import Event, Player
from hog_core.game import CreateGame, GameState, TakeTurn, decide, replay


def sixty_turn_game(rules: str = "fa18") -> list[Event]:
    rng = random.Random(61)
    log = decide(GameState(), CreateGame("bench", (Player("1", "A"), Player("2", "B")), rules=rules, goal=1000))
    state = replay(log)
    while state.turn_number < 60:
        k = rng.randint(1, 3)
        dice = state.dice_for(k)
        outcomes = tuple(rng.randint(1, dice.sides) for _ in range(dice.count))
        events = decide(state, TakeTurn(state.players[state.mover].id, k, outcomes))
        state = replay(events, state)
        log += events
    return log


def main() -> None:
    for rules in ("fa18", "sp16", "contest"):
        log = sixty_turn_game(rules)
        blobs = [ev.encode(e) for e in log]
        n = 2000
        fold = min(timeit.repeat(lambda: replay(log), number=n, repeat=5)) / n  # noqa: B023
        full = min(timeit.repeat(lambda: replay(ev.decode(b) for b in blobs), number=n, repeat=5)) / n  # noqa: B023
        print(
            f"{rules:8s} {len(log)} events: fold {fold * 1e6:6.1f} µs ({len(log) / fold:,.0f} events/s); "
            f"decode+fold {full * 1e6:6.1f} µs ({len(log) / full:,.0f} events/s)"
        )


if __name__ == "__main__":
    main()
