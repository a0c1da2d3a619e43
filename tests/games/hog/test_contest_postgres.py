"""A contest on PostgreSQL, as several bot processes share it: entries made by two processes at
once both land, both processes rank them alike, and the pair values one process computed are read,
not computed again, by the other."""

from __future__ import annotations

import asyncio
from pathlib import Path

import numpy as np

from bot.games.hog.contest.arena import Contests
from bot.games.hog.contest.entries import Contest, Entries
from bot.platform.compose import platform
from bot.platform.settings import Settings
from hog_core.contest import SIZE
from hog_core.solver import Solution
from storage.shelves import PostgresShelf
from tests.solved import shelve


async def test_two_processes_share_a_contest_and_its_pair_values(
    tmp_path: Path, postgres_url: str, solutions: dict[str, Solution]
) -> None:
    await shelve(PostgresShelf(postgres_url), solutions, ("sp21",))
    settings = Settings(db=tmp_path / "unused.sqlite3", database_url=postgres_url, cache=tmp_path)
    contest = Contest("sp21")
    async with platform(settings) as one, platform(settings) as two:
        first = Contests(Entries(one.store), one.games["hog"].solutions)  # type: ignore[attr-defined]
        tables = [np.full((SIZE, SIZE), k, dtype=np.int8) for k in (3, 5)]
        await asyncio.gather(
            first.entries.submit(contest, "ada", "Ada", "Threes", tables[0]),
            Entries(two.store).submit(contest, "bob", "Bob", "Fives", tables[1]),
        )
        ranked = await first.results(contest)
        assert sorted(ranked.entries) == ["Fives", "Threes"] and (await first.arena("sp21")).computed > 0
        second = Contests(Entries(two.store), two.games["hog"].solutions)  # type: ignore[attr-defined]
        again = await second.results(contest)
        assert (await second.arena("sp21")).computed == 0  # every pair read from the shared shelf
        assert [(s.name, s.place) for s in again.standings] == [(s.name, s.place) for s in ranked.standings]
        assert np.array_equal(again.values, ranked.values)
    assert not (tmp_path / "unused.sqlite3").exists()
