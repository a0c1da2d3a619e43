"""Hog puzzles (issue 43): mining, and serving one.

**Mining**: puzzles found in ``--games`` games (10,000) the course's strategies and the house play
(``bot.games.hog.puzzling.positions``), in every rule set: seconds, positions judged, puzzles found.

**Serving**: ``/hog puzzle``'s work once the rule set is mined — a puzzle a person has not answered,
near their rating (``PuzzleBook.next``), then their answer kept and rated (``PuzzleBook.answer``) —
on a SQLite read-models database holding ``--answered`` earlier answers by ``--people`` solvers (so a
rating for every puzzle), p50 and p99 over ``--serves``. Its anchor, measured alternately in the same
loop: reading a finished game's row (``GameViews.game``), the smallest read a page makes.

    python bench/puzzles.py [--games 10000] [--serves 2000]
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

from bot.games.hog import puzzling  # noqa: E402
from bot.games.hog.puzzle_book import PuzzleBook  # noqa: E402
from bot.games.hog.solutions import SolutionCache  # noqa: E402
from bot.platform.exercises import Exercises  # noqa: E402
from hog_core.kernel import Kernel  # noqa: E402
from hog_core.puzzles import mined  # noqa: E402
from hog_core.review import Reviewer  # noqa: E402
from hog_core.rulesets import RULE_SETS  # noqa: E402
from storage.games import GameViews  # noqa: E402
from storage.shelves import FolderShelf  # noqa: E402
from storage.sqlite.database import SqliteDatabase  # noqa: E402
from storage.summaries import SeatSummary, Summary  # noqa: E402


def percentile(samples: list[float], q: float) -> float:
    return sorted(samples)[min(len(samples) - 1, int(q * len(samples)))]


async def mine(solutions: SolutionCache, games: int) -> None:
    print(f"mining: puzzles in {games:,} games of the course's strategies and the house, a rule set at a time")
    for rules in sorted(RULE_SETS):
        solution = await solutions.get(RULE_SETS[rules], 100)
        reviewer = Reviewer(Kernel(RULE_SETS[rules], 100), solution)
        seen = 0

        def counted(found: object) -> object:
            nonlocal seen
            seen += 1
            return found

        start = time.perf_counter()
        positions = (counted(p) for p in puzzling.positions(reviewer, solution, rules, 100, range(games)))
        found = list(mined(positions))  # type: ignore[arg-type]
        took = time.perf_counter() - start
        print(
            f"  {rules:9} {took:6.2f} s  {seen:9,} positions  {len(found):7,} puzzles  ({seen / took:,.0f} positions/s)"
        )


async def serve(solutions: SolutionCache, folder: Path, people: int, answered: int, serves: int) -> None:
    views = GameViews(await SqliteDatabase.open(folder / "views.sqlite3"))
    seat = SeatSummary("p0", "P0", None, 100, "win")
    await views.apply([(Summary("g1", "hog", "c1", "won", False, 30, (seat,), {}), 1.0, 2.0)], 1)
    book = PuzzleBook(solutions, Exercises(views.answers))
    pool = list((await book.pool("fa18")).values())
    rng = random.Random(1)
    start = time.perf_counter()
    for n in range(answered):  # earlier answers: every puzzle rated, every person with a history
        puzzle, k = rng.choice(pool), rng.choice([0, 4, 6])
        await book.answer(puzzle, f"p{n % people}", f"P{n % people}", k, "puzzle", float(n))
    print(f"\nserving (fa18, {len(pool):,} puzzles; {answered:,} earlier answers by {people:,} people kept in "
          f"{time.perf_counter() - start:.1f} s):")  # fmt: skip
    served, anchor, kept = [], [], []
    for n in range(serves):
        who = f"p{rng.randrange(people)}"
        t0 = time.perf_counter()
        chosen = await book.next("fa18", None, rng, who)
        t1 = time.perf_counter()
        assert chosen is not None
        puzzle = chosen
        await book.answer(puzzle, who, who.upper(), rng.choice(list(puzzle.chances)), "puzzle", float(answered + n))
        t2 = time.perf_counter()
        await views.game("g1")
        t3 = time.perf_counter()
        served.append(t1 - t0)
        kept.append(t2 - t1)
        anchor.append(t3 - t2)
    for name, samples in (("a puzzle served near the rating", served), ("the answer kept and rated", kept),
                          ("anchor: a game's row read", anchor)):  # fmt: skip
        ms = [s * 1000 for s in samples]
        print(f"  {name:34} p50 {statistics.median(ms):6.2f} ms   p99 {percentile(ms, 0.99):6.2f} ms")
    await views.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--serves", type=int, default=2_000)
    parser.add_argument("--people", type=int, default=500)
    parser.add_argument("--answered", type=int, default=20_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        solutions = SolutionCache(FolderShelf(Path(folder)))
        await mine(solutions, args.games)
        await serve(solutions, Path(folder), args.people, args.answered, args.serves)


if __name__ == "__main__":
    asyncio.run(main())
