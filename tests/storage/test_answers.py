"""Puzzles answered and the ratings they move (``storage.answers``, rated by ``bot.platform.exercises``),
on SQLite and PostgreSQL: a first answer moves both ratings, the right way; a second is not kept;
a daily answer counts as a first one; two answers at once lose no update; a rebuild keeps them all."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.platform.exercises import Exercises, day_of, shown
from storage.answers import EXERCISE, SOLVER, Answer
from storage.games import GameViews
from tests.storage.databases import BOTH, empty_views


@pytest.fixture(params=BOTH)
async def views(request: pytest.FixtureRequest, tmp_path: Path, postgres_server: str) -> AsyncIterator[GameViews]:
    async with empty_views(request.param, tmp_path, postgres_server) as opened:
        yield opened


def answer(who: str, exercise: str, correct: bool, mode: str = "puzzle", day: str = "", server: str = "") -> Answer:
    return Answer("hog", "fa18", exercise, who, who.title(), mode, day, server, "4", correct, 1.0)


async def test_a_first_answer_moves_both_ratings_and_a_second_is_not_kept(views: GameViews) -> None:
    exercises = Exercises(views.answers)
    right = await exercises.answer(answer("ada", "p1", True))
    assert right.first and right.change() > 0 and right.streak == 1
    solver_before, solver_after = right.solver
    puzzle_before, puzzle_after = right.exercise
    assert solver_before is not None and solver_after is not None and solver_after.mu > solver_before.mu
    assert puzzle_before is not None and puzzle_after is not None and puzzle_after.mu < puzzle_before.mu
    wrong = await exercises.answer(answer("bob", "p1", False))
    assert wrong.first and wrong.change() < 0 and wrong.streak == 0
    assert wrong.exercise[1] is not None and wrong.exercise[1].mu > puzzle_after.mu  # the puzzle won: harder
    again = await exercises.answer(answer("ada", "p1", False))
    assert not again.first and again.solver == (None, None)
    (kept,) = await views.answers.rated("hog", "fa18", SOLVER, ["ada"])
    assert kept == solver_after and kept.tries == 1 and kept.solved == 1
    (puzzle,) = await views.answers.rated("hog", "fa18", EXERCISE, ["p1"])
    assert (puzzle.tries, puzzle.solved) == (2, 1)
    assert await views.answers.answered("hog", "ada", "fa18") == {"p1"}


async def test_a_streak_counts_right_first_answers_in_a_row_and_a_wrong_one_ends_it(views: GameViews) -> None:
    exercises = Exercises(views.answers)
    for n, correct in enumerate([True, True, True, False, True]):
        marked = await exercises.answer(answer("ada", f"p{n}", correct))
    assert marked.streak == 1
    (ada,) = (await views.answers.of_solver("hog", "ada")).values()
    assert (ada.streak, ada.best_streak, ada.tries, ada.solved) == (1, 3, 5, 4)


async def test_the_daily_answer_is_kept_once_a_day_and_counts_as_a_first_answer(views: GameViews) -> None:
    exercises = Exercises(views.answers)
    today = day_of(1_800_000_000)
    first = await exercises.answer(answer("ada", "d1", True, "daily", today, "s1"))
    assert first.first and first.change() > 0
    assert not (await exercises.answer(answer("ada", "d1", False, "daily", today, "s1"))).first
    bob = await exercises.answer(answer("bob", "d1", False, "daily", today, "s1"))
    assert bob.first
    solved = await views.answers.of_the_day("hog", "s1", today, "d1")
    assert [(s.player_id, s.correct) for s in solved] == [("ada", True), ("bob", False)]
    assert await views.answers.answered("hog", "ada", "fa18") == {"d1"}  # never served again as a puzzle
    later = await exercises.answer(answer("ada", "d1", True, "daily", "2099-01-01", "s2"))  # another day, elsewhere
    assert not later.first and later.solver == (None, None)  # kept, not rated: asked before
    assert [s.player_id for s in await views.answers.of_the_day("hog", "s2", "2099-01-01", "d1")] == ["ada"]


async def test_answers_at_once_lose_no_update(views: GameViews) -> None:
    """Twelve people answer one puzzle at once: its tries count all twelve, each rating moved once."""
    exercises = Exercises(views.answers)
    people = [f"p{n}" for n in range(12)]
    await asyncio.gather(*(exercises.answer(answer(who, "x", n % 2 == 0)) for n, who in enumerate(people)))
    (puzzle,) = await views.answers.rated("hog", "fa18", EXERCISE, ["x"])
    assert (puzzle.tries, puzzle.solved) == (12, 6)


async def test_a_solver_is_served_what_they_have_not_answered_near_their_rating(views: GameViews) -> None:
    exercises = Exercises(views.answers)
    ids = [f"q{n}" for n in range(30)]
    for n in range(20):  # people fail q0-q9 (hard), solve q10-q19 (easy); q20-q29 are new
        await exercises.answer(answer(f"t{n}", ids[n], n >= 10))
    for n in range(6):  # ada solves six: her rating rises above a newcomer's
        await exercises.answer(answer("ada", ids[20 + n], True))
    served = {await exercises.near("hog", "fa18", "ada", ids, random.Random(seed)) for seed in range(40)}
    assert served and not served & set(ids[20:26])  # never one she answered
    assert served <= set(ids[:10] + ids[26:]) and len(served) > 5  # the hard and the new, never the easy
    assert await exercises.near("hog", "fa18", "ada", ids[20:26], random.Random(0)) is None
    assert shown(None) == 1000
