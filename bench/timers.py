"""CPU per move as the live games grow (issue 39): N games with turn deadlines in one process, in a
store of 1,000 finished games (``--history``, as ``bench/scale.py`` plays them), the timers running,
then 3,000 moves on random games; each move sets its game's deadlines afresh. The process's CPU per
move at 100, 1,000 and 10,000 live games, and the ratio to 100 (target: at 10,000
at most 1.2x); and the memory each live game holds (the growth of the process's resident memory from
before the games were made to after the moves, per game). Each run in a process of its own, the sizes
in turn, medians of ``--rounds``. With ``--anchor`` another build (a git worktree of that commit,
its own copy of this script) runs beside this checkout in every round, so one run compares them.

    python bench/timers.py [--sizes 100 1000 10000] [--moves 3000] [--rounds 3] [--history 1000] [--anchor REV]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import nullcontext
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.against_fake import checkout  # noqa: E402
from bench.scale import build  # noqa: E402
from bot.games.hog.module import turn  # noqa: E402
from bot.platform.compose import platform  # noqa: E402
from bot.platform.settings import Settings  # noqa: E402
from hog_core.events import Player  # noqa: E402
from hog_core.game import CreateGame  # noqa: E402

PLAYERS = (Player("1", "Ada"), Player("2", "Bob"))


def resident() -> int:
    """The process's resident memory, in bytes (Linux)."""
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")


async def per_move(live: int, moves: int, history: int) -> tuple[float, float]:
    """Milliseconds of this process's CPU per move among ``live`` games with deadlines, in a store of
    ``history`` finished games (``bench/scale.py``), and KiB of memory per live game."""
    with tempfile.TemporaryDirectory() as scratch:
        settings = Settings(db=Path(scratch) / "t.sqlite3", cache=Path(scratch))
        if history:  # finished games behind the live ones, as on a server that has been running a while
            async with platform(settings):
                pass
            build(settings.db, history)
        async with platform(settings) as p:
            service, timers = p.service("hog"), p.timers
            running = asyncio.create_task(timers.run())
            before = resident()
            for n in range(live):  # a long game each (one die a turn, to 1000): none ends, no deadline comes
                create = CreateGame(f"g{n}", PLAYERS, goal=1000, place="here", turn_timeout=3600)
                await service.create(f"g{n}", create, f"c{n}")
            chosen = random.Random(1).choices(range(live), k=moves)
            await asyncio.sleep(0)
            gc.collect()  # the collection owed for making the games is not charged to the moves
            started = time.process_time()
            for i, n in enumerate(chosen):
                state = await service.load(f"g{n}")
                await service.execute(f"g{n}", turn(state.players[state.mover].id, 1), f"m{i}")
                await asyncio.sleep(0)  # the timer task wakes (or not) here
            spent = time.process_time() - started
            held = resident() - before
            running.cancel()
    return 1000 * spent / moves, held / 1024 / live


def run_apart(tree: Path, live: int, moves: int, history: int) -> tuple[float, float]:
    """``per_move`` of the build in ``tree``, in a process of its own: each run's memory is its own."""
    script = tree / "bench" / "timers.py"
    args = [sys.executable, str(script), "--one", str(live), "--moves", str(moves), "--history", str(history)]
    found = subprocess.run(args, check=True, capture_output=True, text=True, cwd=tree).stdout.split()
    return float(found[0]), float(found[1])


def main(sizes: list[int], moves: int, rounds: int, history: int, anchor: str | None) -> None:
    with checkout(anchor) if anchor else nullcontext(None) as other:
        builds = {"this checkout": ROOT} | ({anchor: other} if anchor and other else {})
        runs = {(b, live): list[tuple[float, float]]() for b in builds for live in sizes}
        for _ in range(rounds):  # builds and sizes taken in turn, each round: the machine's noise falls on all alike
            for b, tree in builds.items():
                for live in sizes:
                    runs[b, live].append(run_apart(tree, live, moves, history))
    for b in builds:
        if len(builds) > 1:
            print(f"{b}:")
        base = [m for m, _ in runs[b, sizes[0]]]
        for live in sizes:
            found = runs[b, live]
            ms, kib = statistics.median(m for m, _ in found), statistics.median(k for _, k in found)
            each = " ".join(f"{m / m0:.2f}x" for (m, _), m0 in zip(found, base, strict=True))
            print(f"{live:>6} live games: {ms:.3f} ms of CPU a move ({ms / statistics.median(base):.2f}x {sizes[0]}; "
                  f"round by round {each}), {kib:.1f} KiB a game")  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10000])
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3, help="runs of each size, in turn; the median is printed")
    parser.add_argument("--history", type=int, default=1000, help="finished games in the store behind the live ones")
    parser.add_argument("--anchor", help="a commit to measure beside this checkout, in the same rounds")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a single run, in a process of its own
    arguments = parser.parse_args()
    if arguments.one:
        print(*asyncio.run(per_move(arguments.one, arguments.moves, arguments.history)))
    else:
        main(arguments.sizes, arguments.moves, arguments.rounds, arguments.history, arguments.anchor)
