"""A contest's entries in the log: a new entry of the same entrant replaces the old (both stay in the
log), entries made at once are all kept, the standings rebuilt from the log are the same, and the
projector and the timers pass a contest's stream by."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bot.games.hog.contest.arena import Contests, compiled, shared, shelf_name
from bot.games.hog.contest.entries import Contest, Entries
from bot.platform.compose import platform
from bot.platform.contract import Refusal
from bot.platform.settings import Settings
from hog_core.contest import SIZE
from hog_core.kernel import Kernel
from hog_core.pairs import Pairs
from hog_core.rulesets import RULE_SETS
from hog_core.solver import Solution
from hog_core.strategies import from_table
from storage.shelves import FolderShelf
from tests.solved import shelve


def rolls(k: int) -> np.ndarray:
    return np.full((SIZE, SIZE), k, dtype=np.int8)


async def test_entries_replace_race_and_rebuild_the_same(tmp_path: Path, solutions: dict[str, Solution]) -> None:
    await shelve(FolderShelf(tmp_path / "cache"), solutions)
    settings = Settings(db=tmp_path / "games.sqlite3", cache=tmp_path / "cache")
    contest = Contest("sp21", "77")
    async with platform(settings) as p:
        first = Contests(Entries(p.store), p.games["hog"].solutions)  # type: ignore[attr-defined]
        await first.entries.submit(contest, "ada", "Ada", "Pigs", rolls(4))
        entry, old = await first.entries.submit(contest, "ada", "Ada", "Boars", rolls(5))
        assert (entry.team, old.team if old else None) == ("Boars", "Pigs")
        others = [Entries(p.store) for _ in range(3)]  # three processes' views, each behind the others
        await asyncio.gather(
            *(e.submit(contest, f"p{i}", f"P{i}", f"Team {i}", rolls(i + 6)) for i, e in enumerate(others))
        )
        assert await p.store.version(contest.stream_id) == 5  # every entry is kept in the log
        assert sorted(await first.entries.of(contest)) == ["Boars", "Team 0", "Team 1", "Team 2"]
        before = await first.results(contest)
        assert await p.projector.check() == []  # the contest's stream is no game, and no damage
        assert all(not row.game_id.startswith("@") for row in await p.views.history(None, limit=50))
        with pytest.raises(Refusal, match="There is no such game here"):  # not a damaged game either
            await p.service("hog").events(contest.stream_id)
    for damaged in (False, True):  # after a restart: the values kept on the shelf, or computed again
        if damaged:
            (tmp_path / "cache" / shelf_name(RULE_SETS["sp21"])).write_bytes(b"not an npz")
        async with platform(settings) as p:
            contests = Contests(Entries(p.store), p.games["hog"].solutions)  # type: ignore[attr-defined]
            again = await contests.results(contest)
            assert ((await contests.arena("sp21")).computed > 0) == damaged  # read from the shelf, unless damaged
        assert [(s.name, s.wins, s.place) for s in again.standings] == [
            (s.name, s.wins, s.place) for s in before.standings
        ]
        assert np.array_equal(again.values, before.values)
    assert (tmp_path / "cache" / shelf_name(RULE_SETS["sp21"])).read_bytes().startswith(b"PK")  # kept again


def test_pairs_shared_among_threads_come_back_in_order(kernels: dict[str, Kernel]) -> None:
    kernel = kernels["sp21"]
    policies = [from_table(rolls(k), kernel) for k in (2, 4, 6, 8)]
    wanted = [(0, 1), (2, 3), (1, 3), (3, 0), (2, 2)]
    best = [False, True, False, True, False]
    pairs = Pairs(kernel)
    assert shared(pairs, policies, wanted, best, threads=3) == pairs.rates(policies, wanted, best)


def test_numba_is_imported_only_by_a_process_that_runs_a_contest() -> None:
    """numba costs a process ~70 MB: the bot, its Discord front and its command line load without it."""
    check = "import sys, bot.cli, bot.games.hog.discord.front, bot.web.app; assert 'numba' not in sys.modules"
    subprocess.run([sys.executable, "-c", check], check=True, cwd=Path(__file__).parents[3])


async def test_the_sweep_is_compiled_in_a_child_process(caplog: pytest.LogCaptureFixture) -> None:
    """Compiling holds the GIL for seconds: a child compiles into numba's cache, and says nothing wrong."""
    Contests.compiled = False
    await compiled()
    assert Contests.compiled and "could not be compiled" not in caplog.text
