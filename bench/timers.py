"""CPU per move as the live games grow (issue 39): N games with turn deadlines in one process, the
timers running, then 1,000 moves on random games; each move sets its game's deadlines afresh. The
process's CPU per move at 100, 1,000 and 10,000 live games, and the ratio to 100 (target: at 10,000
at most 1.2x). Run it with ``PYTHONPATH`` set to another checkout to measure that one beside it.

    python bench/timers.py [--sizes 100 1000 10000] [--moves 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.games.hog.module import turn  # noqa: E402
from bot.platform.compose import platform  # noqa: E402
from bot.platform.settings import Settings  # noqa: E402
from hog_core.events import Player  # noqa: E402
from hog_core.game import CreateGame  # noqa: E402

PLAYERS = (Player("1", "Ada"), Player("2", "Bob"))


async def per_move(live: int, moves: int) -> float:
    """Milliseconds of this process's CPU per move among ``live`` games with deadlines."""
    with tempfile.TemporaryDirectory() as scratch:
        async with platform(Settings(db=Path(scratch) / "t.sqlite3", cache=Path(scratch))) as p:
            service, timers = p.service("hog"), p.timers
            running = asyncio.create_task(timers.run())
            for n in range(live):  # a long game each (one die a turn, to 1000): none ends, no deadline comes
                create = CreateGame(f"g{n}", PLAYERS, goal=1000, place="here", turn_timeout=3600)
                await service.create(f"g{n}", create, f"c{n}")
            chosen = random.Random(1).choices(range(live), k=moves)
            await asyncio.sleep(0)
            started = time.process_time()
            for i, n in enumerate(chosen):
                state = await service.load(f"g{n}")
                await service.execute(f"g{n}", turn(state.players[state.mover].id, 1), f"m{i}")
                await asyncio.sleep(0)  # the timer task wakes (or not) here
            spent = time.process_time() - started
            running.cancel()
    return 1000 * spent / moves


async def main(sizes: list[int], moves: int) -> None:
    results = {live: await per_move(live, moves) for live in sizes}
    base = results[sizes[0]]
    for live, ms in results.items():
        print(f"{live:>6} live games: {ms:.3f} ms of CPU a move ({ms / base:.2f}x {sizes[0]})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10000])
    parser.add_argument("--moves", type=int, default=1000)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.sizes, arguments.moves))
