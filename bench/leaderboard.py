"""How fast a leaderboard answers: 1,000 rated players (target: under 50 ms), with the asker's own
place, beside a trivial read of the same database as the anchor (ratios are what to compare).

    python bench/leaderboard.py [--players 1000] [--games 20000] [--asks 300]

The players are rated the way the projector rates them: ``--games`` two-player games between random
pairs, spread over two servers' channels, rated in order by ``bot.platform.ratings.Ledger``, written
by ``GameViews.apply``. Each ask is what ``/hog leaderboard`` does: a page of ten, its size, and the
asker's place (off the page for most askers).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bot.platform.ratings import FARM_WINDOW, Decided, Ledger
from storage.games import GameViews
from storage.sqlite.database import SqliteDatabase
from storage.summaries import SeatSummary, Summary

SERVERS = {"s1": [f"c{i}" for i in range(5)], "s2": [f"c{i}" for i in range(5, 10)]}


async def populate(views: GameViews, players: int, games: int, rng: random.Random) -> int:
    """Rate ``games`` games between random pairs; returns how many players are rated."""
    decided = []
    for n in range(games):
        a, b = rng.sample(range(players), 2)
        winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
        seats = (
            SeatSummary(f"p{winner}", f"Player {winner}", None, 100, "win"),
            SeatSummary(f"p{loser}", f"Player {loser}", None, 50, "loss"),
        )
        place = rng.choice(SERVERS["s1"] + SERVERS["s2"])
        summary = Summary(f"g{n}", "hog", place, "finished", False, 30, seats, decided=30)
        decided.append(Decided(summary, n + 1, n * FARM_WINDOW / 10))
    rated, ratings = Ledger().rate(decided)
    await views.apply([(d.summary, 0.0, 0.0) for d in decided], games, rated=rated, ratings=ratings)
    for server, places in SERVERS.items():
        for place in places:
            await views.ratings.locate(place, server)
    return len(ratings)


async def timed(asks: int, ask: Callable[[int], Awaitable[object]]) -> list[float]:
    took = []
    for i in range(asks):
        start = time.perf_counter()
        await ask(i)
        took.append((time.perf_counter() - start) * 1000)
    return took


def line(label: str, took: list[float]) -> str:
    cuts = statistics.quantiles(took, n=100)
    return f"{label:<44} p50 {statistics.median(took):6.2f} ms   p99 {cuts[98]:6.2f} ms   max {max(took):6.2f} ms"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--asks", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as folder:
        views = GameViews(await SqliteDatabase.open(Path(folder) / "views.sqlite3"))
        try:
            rated = await populate(views, args.players, args.games, rng)
            print(f"{rated:,} rated players, {args.games:,} rated games, {args.asks} asks each")
            anchor = await timed(args.asks, lambda i: views.count())
            everyone = await timed(
                args.asks, lambda i: views.ratings.standings("hog", f"p{rng.randrange(args.players)}", limit=10)
            )
            deep = await timed(
                args.asks,
                lambda i: views.ratings.standings("hog", f"p{i}", limit=10, offset=10 * rng.randrange(rated // 10)),
            )
            server = await timed(
                args.asks, lambda i: views.ratings.standings("hog", f"p{rng.randrange(args.players)}", "s1", limit=10)
            )
            print(line("anchor: count the games (one trivial query)", anchor))
            print(line("leaderboard, everyone, page 1 + your place", everyone))
            print(line("leaderboard, everyone, any page + your place", deep))
            print(line("leaderboard, one server, page 1 + your place", server))
            worst = max(statistics.quantiles(t, n=100)[98] for t in (everyone, deep, server))
            print(f"worst p99: {worst:.2f} ms (target: under 50 ms)")
        finally:
            await views.close()


if __name__ == "__main__":
    asyncio.run(main())
