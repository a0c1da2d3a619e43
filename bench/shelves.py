"""Where a process finds a solved rule set when it first needs it: read from a file, read from the
PostgreSQL database the processes share (a server started here, fsync on), or solved afresh: each
rule set to 100, all in this one run, with the size of what is read.

    python bench/shelves.py [--repeat 20]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bot.games.hog.solutions import SolutionCache, pack
from hog_core.rulesets import RULE_SETS, RuleSet
from hog_core.solver import solve
from storage.shelves import FolderShelf, PostgresShelf, Shelf
from tests.postgres_server import create_database, throwaway_server


async def first_read(shelf: Shelf, rules: RuleSet, repeat: int) -> float:
    """Median seconds for a process that has nothing in memory yet to get the solution."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        assert await SolutionCache(shelf).load(rules, 100) is not None
        times.append(time.perf_counter() - started)
    return statistics.median(times)


async def main(repeat: int) -> None:
    with tempfile.TemporaryDirectory() as folder, throwaway_server(durable=True) as server:
        shelves: dict[str, Shelf] = {
            "file": FolderShelf(Path(folder)),
            "PostgreSQL": PostgresShelf(await create_database(server)),
        }
        print(f"{'rule set':9s} {'size':>8s} {'solve':>9s} {'file':>8s} {'PostgreSQL':>11s}   (median first read)")
        for rules in RULE_SETS.values():
            started = time.perf_counter()
            solution = await asyncio.to_thread(solve, rules, 100)
            solving = time.perf_counter() - started
            reads = []
            for shelf in shelves.values():
                await SolutionCache(shelf).put(solution, rules, 100)
                reads.append(await first_read(shelf, rules, repeat))
            size, (file, database) = len(pack(solution)) / 1e6, (r * 1000 for r in reads)
            print(f"{rules.id:9s} {size:6.2f} MB {solving * 1000:6.0f} ms {file:5.1f} ms {database:8.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=20, help="reads of each shelf (default 20)")
    asyncio.run(main(parser.parse_args().repeat))
