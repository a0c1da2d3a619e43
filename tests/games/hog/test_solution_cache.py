"""Solved rule sets on a shelf (a folder, or the PostgreSQL database every process shares): solved
once, loaded after, re-solved when damaged, solved once however many ask at once."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from bot.games.hog.module import HogGame
from bot.games.hog.solutions import SolutionCache, name
from bot.platform.settings import Settings
from hog_core.game import GameState
from hog_core.rulesets import FA18, PORKCHOP, RuleSet
from hog_core.solver import Solution, solve
from storage.shelves import FolderShelf, PostgresShelf, Shelf


@pytest.fixture(params=["folder", "postgres"])
def shelf(request: pytest.FixtureRequest, tmp_path: Path) -> Shelf:
    if request.param == "folder":
        return FolderShelf(tmp_path / "cache")
    return PostgresShelf(request.getfixturevalue("postgres_url"))


async def test_solved_once_then_loaded(shelf: Shelf, solutions: dict[str, Solution]) -> None:
    cache = SolutionCache(shelf)
    assert await cache.load(FA18, 100) is None
    first = await cache.get(FA18, 100)
    assert name(FA18, 100) == "fa18-v1-goal100.npz"
    loaded = await SolutionCache(shelf).load(FA18, 100)  # another process finds it
    assert loaded is not None
    assert np.array_equal(loaded.value, solutions["fa18"].value)
    assert np.array_equal(loaded.moves, first.moves)
    assert loaded.dims == solutions["fa18"].dims


async def test_no_temporary_files_are_left(tmp_path: Path, solutions: dict[str, Solution]) -> None:
    await SolutionCache(FolderShelf(tmp_path)).put(solutions["fa18"], FA18, 100)
    assert [p.name for p in tmp_path.iterdir()] == ["fa18-v1-goal100.npz"]


async def test_layers_survive_the_round_trip(shelf: Shelf, solutions: dict[str, Solution]) -> None:
    await SolutionCache(shelf).put(solutions["porkchop"], PORKCHOP, 100)
    loaded = await SolutionCache(shelf).load(PORKCHOP, 100)
    assert loaded is not None and loaded.dims == solutions["porkchop"].dims


@pytest.mark.parametrize("damage", [b"", b"not a zip file", b"PK\x03\x04 broken"])
async def test_a_damaged_file_is_solved_again(shelf: Shelf, damage: bytes) -> None:
    await shelf.write(name(FA18, 30), damage)
    cache = SolutionCache(shelf)
    assert await cache.load(FA18, 30) is None
    solved = await cache.get(FA18, 30)
    assert solved.value.shape == (1, 30, 30)
    assert await cache.load(FA18, 30) is not None


async def test_solutions_in_use_stay_in_memory(tmp_path: Path, solutions: dict[str, Solution]) -> None:
    cache = SolutionCache(FolderShelf(tmp_path), in_memory=1)
    await cache.put(solutions["fa18"], FA18, 100)
    first = await cache.get(FA18, 100)
    (tmp_path / name(FA18, 100)).unlink()  # from now on only memory can answer
    assert await cache.get(FA18, 100) is first
    await cache.get(PORKCHOP, 30)  # solved and stored; fa18 leaves memory (one at a time)
    assert await cache.load(FA18, 100) is None and await cache.get(FA18, 100) is not first


async def test_many_asking_at_once_solve_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    solved: list[tuple[str, int]] = []

    def counted(rules: RuleSet, goal: int) -> Solution:
        solved.append((rules.id, goal))
        return solve(rules, goal)

    monkeypatch.setattr("bot.games.hog.solutions.solve", counted)
    cache = SolutionCache(FolderShelf(tmp_path))
    answers = await asyncio.gather(*(cache.get(FA18, 30) for _ in range(5)))
    assert solved == [("fa18", 30)]
    assert all(a is answers[0] for a in answers)


async def test_a_game_on_postgresql_reads_the_database_s_solutions(
    tmp_path: Path, postgres_url: str, solutions: dict[str, Solution]
) -> None:
    assert isinstance(HogGame(Settings(cache=tmp_path)).solutions.shelf, FolderShelf)
    marked = replace(solutions["fa18"], value=np.full_like(solutions["fa18"].value, 0.25))  # no solver says this
    await SolutionCache(PostgresShelf(postgres_url)).put(marked, FA18, 100)
    game = HogGame(Settings(cache=tmp_path, database_url=postgres_url))
    solution = await game.solution(GameState(rules=FA18, goal=100))
    assert solution is not None and np.array_equal(solution.value, marked.value)
    assert not tmp_path.joinpath(name(FA18, 100)).exists()


async def test_a_database_that_is_down_costs_a_solve_not_the_game(caplog: pytest.LogCaptureFixture) -> None:
    cache = SolutionCache(PostgresShelf("postgresql://hog:s3cret@/nowhere?host=/nonexistent"))
    with caplog.at_level(logging.WARNING):
        solved = await cache.get(FA18, 30)
    assert solved.value.shape == (1, 30, 30) and cache.in_memory(FA18, 30) is solved
    said = " ".join(r.message for r in caplog.records)
    assert "cannot be read" in said and "cannot be kept" in said and "s3cret" not in said
