"""CPU per move and per start as the live games grow (issues 39, 54): N games with turn deadlines in
one process, in a store of 1,000 finished games (``--history``, as ``bench/scale.py`` plays them), the
timers running, then 3,000 moves on random games (each sets its game's deadlines afresh), then
``--starts`` new games started among them. The process's CPU per move and per start at 100, 1,000,
10,000 and 30,000 live games, and the ratio to 100 (target: at 10,000 and 30,000 at most 1.2x); the
garbage collector's share of a move (``gc.callbacks``: its passes walk every object
kept that it tracks, so what live games keep shows there first); and the memory each live game holds
(the growth of the process's resident memory from before the games were made to after the moves,
per game). Each run in a process of its own, the sizes
in turn, ``--rounds`` times; the figure is each size's best round, as ``timeit`` takes its best (what
other processes on a noisy machine add to a run's CPU, cache misses and a slower clock, only ever
adds), with the medians beside it. With ``--anchor`` another build (a git worktree of that commit,
its own copy of this script) runs beside this checkout in every round, so one run compares them.

    python bench/timers.py [--sizes 100 1000 10000 30000] [--moves 3000] [--starts 500] [--rounds 5]
                           [--history 1000] [--anchor REV]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
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


async def per_move(live: int, moves: int, history: int, starts: int) -> tuple[float, float, float, float]:
    """Milliseconds of this process's CPU per move among ``live`` games with deadlines, in a store of
    ``history`` finished games (``bench/scale.py``); KiB of memory per live game; milliseconds a move
    of the garbage collector's passes (on the event loop's thread, holding it); and milliseconds of
    CPU per game started among them (``starts`` of them, each with its deadline)."""
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
            collecting = Collecting()
            gc.callbacks.append(collecting)
            started = time.process_time()
            for i, n in enumerate(chosen):
                state = await service.load(f"g{n}")
                await service.execute(f"g{n}", turn(state.players[state.mover].id, 1), f"m{i}")
                await asyncio.sleep(0)  # the timer task wakes (or not) here
            spent = time.process_time() - started
            gc.callbacks.remove(collecting)
            held = resident() - before
            started = time.process_time()
            for n in range(starts):
                create = CreateGame(f"s{n}", PLAYERS, goal=1000, place="here", turn_timeout=3600)
                await service.create(f"s{n}", create, f"s{n}")
                await asyncio.sleep(0)
            starting = time.process_time() - started
            running.cancel()
    return 1000 * spent / moves, held / 1024 / live, 1000 * collecting.seconds / moves, 1000 * starting / max(starts, 1)


class Collecting:
    """The time the garbage collector's passes take, told by ``gc.callbacks``."""

    def __init__(self) -> None:
        self.seconds, self._began = 0.0, 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._began


Run = tuple[float, float, float, float]


def run_apart(tree: Path, live: int, moves: int, history: int, starts: int) -> Run:
    """``per_move`` of the build in ``tree``, in a process of its own: each run's memory is its own
    (an older build's script tells no collector's time nor starts: ``nan``, and is not asked for them)."""
    script = tree / "bench" / "timers.py"
    args = [sys.executable, str(script), "--one", str(live), "--moves", str(moves), "--history", str(history)]
    if "--starts" in script.read_text():
        args += ["--starts", str(starts)]
    said = subprocess.run(args, check=True, capture_output=True, text=True, cwd=tree).stdout
    found = [float(f) for f in said.split()] + [math.nan] * 2
    return found[0], found[1], found[2], found[3]


def main(sizes: list[int], moves: int, rounds: int, history: int, anchor: str | None, starts: int) -> None:
    with checkout(anchor) if anchor else nullcontext(None) as other:
        builds = {"this checkout": ROOT} | ({anchor: other} if anchor and other else {})
        runs = {(b, live): list[Run]() for b in builds for live in sizes}
        for _ in range(rounds):  # builds and sizes taken in turn, each round: the machine's noise falls on all alike
            for b, tree in builds.items():
                for live in sizes:
                    runs[b, live].append(run_apart(tree, live, moves, history, starts))
    for b in builds:
        if len(builds) > 1:
            print(f"{b}:")
        base = [r[0] for r in runs[b, sizes[0]]]
        first_starts = [r[3] for r in runs[b, sizes[0]]]
        for live in sizes:
            found = [r[0] for r in runs[b, live]]
            best, middle = min(found), statistics.median(found)
            kib, collector = (statistics.median(r[i] for r in runs[b, live]) for i in (1, 2))
            each = " ".join(f"{m / m0:.2f}x" for m, m0 in zip(found, base, strict=True))
            print(f"{live:>6} live games: {best:.3f} ms of CPU a move at best ({best / min(base):.2f}x {sizes[0]}), "
                  f"median {middle:.3f} ms ({middle / statistics.median(base):.2f}x); round by round {each}; "
                  f"{'' if math.isnan(collector) else f'the garbage collector {collector:.4f} ms a move; '}"
                  f"{kib:.1f} KiB a game")  # fmt: skip
            begun = [r[3] for r in runs[b, live]]
            if not any(math.isnan(x) for x in begun):
                print(f"{'':>6}  a game started: {min(begun):.3f} ms of CPU at best "
                      f"({min(begun) / min(first_starts):.2f}x {sizes[0]}), median {statistics.median(begun):.3f} ms "
                      f"({statistics.median(begun) / statistics.median(first_starts):.2f}x)")  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10000, 30000])
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--starts", type=int, default=500, help="games started after the moves (default: 500)")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each size, in turn (default: 5)")
    parser.add_argument("--history", type=int, default=1000, help="finished games in the store behind the live ones")
    parser.add_argument("--anchor", help="a commit to measure beside this checkout, in the same rounds")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a single run, in a process of its own
    arguments = parser.parse_args()
    if arguments.one:
        print(*asyncio.run(per_move(arguments.one, arguments.moves, arguments.history, arguments.starts)))
    else:
        main(arguments.sizes, arguments.moves, arguments.rounds, arguments.history, arguments.anchor, arguments.starts)
