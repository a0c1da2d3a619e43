"""Exercises rated as games are: a solver and the exercise they answer meet as two players in an
OpenSkill match (the same model as the games' ratings), the solver winning when the answer is right.

Only a person's first answer to an exercise moves the ratings (an exercise tried again is no longer a
question); an answer to a place's exercise of the day is kept once a day, and rated when it is
their first. A solver's streak is their right first answers in a row. A solver is served exercises
near their rating. Knows no game: the game names its exercises and judges the answers.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from bot.platform.locks import KeyedLocks
from bot.platform.ratings import MODEL, SHOWN_AT_START, SHOWN_PER_POINT
from storage.answers import EXERCISE, SOLVER, Answer, Answers, Rated

NEAR = 12
"""How many of the exercises nearest a solver's rating one is chosen from (at random among them)."""
FRESH = 60.0
"""Seconds a process serves from the exercises' ratings it read (its own answers update them at once):
serving reads a person's answers, not every exercise's rating."""
TRIES = 8
"""How often an answer is tried again when another process moved a rating it read meanwhile (in
one process, answers to one exercise take turns)."""


def shown(rated: Rated | None) -> int:
    """A rating as a person sees it: the conservative estimate, on the games' scale (a newcomer's 1000)."""
    mu, sigma = (rated.mu, rated.sigma) if rated is not None else (MODEL.mu, MODEL.sigma)
    return round(SHOWN_AT_START + SHOWN_PER_POINT * (mu - 3 * sigma))


def day_of(moment: float) -> str:
    """The day (UTC) a moment falls on: a daily exercise changes at midnight UTC everywhere."""
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d")


@dataclass(frozen=True, slots=True)
class Marked:
    """An answer as kept: whether it was the person's first (so rated), their rating and the
    exercise's before and after, and their streak."""

    first: bool
    solver: tuple[Rated | None, Rated | None]
    exercise: tuple[Rated | None, Rated | None]

    @property
    def streak(self) -> int:
        after = self.solver[1]
        return 0 if after is None else after.streak

    def change(self) -> int:
        """How much the solver's shown rating moved."""
        before, after = self.solver
        return 0 if after is None else shown(after) - shown(before)


def rated(solver: Rated, exercise: Rated, correct: bool) -> tuple[Rated, Rated]:
    """Both ratings after one answer (the solver wins when it is right)."""
    ranks = [1.0, 2.0] if correct else [2.0, 1.0]
    [[s], [e]] = MODEL.rate(
        [[MODEL.rating(mu=solver.mu, sigma=solver.sigma)], [MODEL.rating(mu=exercise.mu, sigma=exercise.sigma)]],
        ranks=ranks,
    )
    streak = solver.streak + 1 if correct else 0
    return (
        replace(solver, mu=s.mu, sigma=s.sigma, tries=solver.tries + 1, solved=solver.solved + correct,
                streak=streak, best_streak=max(solver.best_streak, streak)),
        replace(exercise, mu=e.mu, sigma=e.sigma, tries=exercise.tries + 1, solved=exercise.solved + correct),
    )  # fmt: skip


class Exercises:
    def __init__(self, answers: Answers) -> None:
        self.answers = answers
        self._turns = KeyedLocks()
        self._levels: dict[tuple[str, str], tuple[float, dict[str, float]]] = {}

    async def ratings(self, game: str, collection: str, player_id: str, exercise: str) -> tuple[Rated, Rated]:
        """The solver's and the exercise's ratings as they stand (a newcomer's where there is none)."""
        found = {
            (r.kind, r.id): r
            for r in await self.answers.rated(game, collection, ids=(player_id, exercise))
            if (r.kind, r.id) in ((SOLVER, player_id), (EXERCISE, exercise))
        }
        return (
            found.get((SOLVER, player_id), Rated(SOLVER, player_id, MODEL.mu, MODEL.sigma)),
            found.get((EXERCISE, exercise), Rated(EXERCISE, exercise, MODEL.mu, MODEL.sigma)),
        )

    async def answer(self, answer: Answer) -> Marked:
        """``answer`` kept, and rated when it is the person's first to the exercise; an answer to
        what they answered already (that day, for a daily one) is not kept again."""
        async with self._turns(f"{answer.game}:{answer.collection}:{answer.exercise}"):
            return await self._answer(answer)

    async def _answer(self, answer: Answer) -> Marked:
        for _ in range(TRIES):
            if await self.answers.of(answer.game, answer.player_id, answer.exercise, answer.mode, answer.day):
                return Marked(False, (None, None), (None, None))
            first = answer.mode == "train" or not await self.answers.of(
                answer.game, answer.player_id, answer.exercise, "puzzle"
            )
            if answer.mode == "train" or not first:  # kept, not rated
                if await self.answers.keep(answer, (), ()):
                    return Marked(answer.mode == "train", (None, None), (None, None))
                continue
            solver, exercise = await self.ratings(answer.game, answer.collection, answer.player_id, answer.exercise)
            after = rated(solver, exercise, answer.correct)
            kept = [answer] if answer.mode == "puzzle" else [answer, replace(answer, mode="puzzle", day="", server="")]
            if await self.answers.keep(kept[0], after, (solver, exercise), also=kept[1:]):
                if (levels := self._levels.get((answer.game, answer.collection))) is not None:
                    levels[1][answer.exercise] = after[1].mu
                return Marked(True, (solver, after[0]), (exercise, after[1]))
        raise RuntimeError("the ratings kept moving under this answer")

    async def near(
        self, game: str, collection: str, player_id: str, ids: Sequence[str], rng: random.Random
    ) -> str | None:
        """One of ``ids`` (a collection's exercises) that ``player_id`` has not answered, near their
        rating; ``None`` when they have answered them all."""
        done = await self.answers.answered(game, player_id, collection)
        left = [i for i in ids if i not in done]
        if not left:
            return None
        ratings = await self._levels_of(game, collection)
        solver = next(iter(await self.answers.rated(game, collection, SOLVER, (player_id,))), None)
        mu = MODEL.mu if solver is None else solver.mu
        left.sort(key=lambda i: abs(ratings.get(i, MODEL.mu) - mu))
        return rng.choice(left[:NEAR])

    async def _levels_of(self, game: str, collection: str) -> dict[str, float]:
        """Each exercise's rating (its ``mu``) as read at most ``FRESH`` seconds ago."""
        read = self._levels.get((game, collection))
        if read is None or time.monotonic() - read[0] > FRESH:
            levels = {r.id: r.mu for r in await self.answers.rated(game, collection, EXERCISE)}
            read = self._levels[game, collection] = (time.monotonic(), levels)
        return read[1]
