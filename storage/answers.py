"""Exercises answered — a game's puzzles — and the ratings they move.

Each person's first answer to an exercise is kept (``mode`` ``puzzle``), and their answer to a
place's exercise of the day (``daily``, once a day); a trainer keeps the positions found (``train``).
An exercise and its solver each have a rating per collection (a game's rule set), moved together
in one transaction with the answer that moves them, guarded so that two processes answering at once
never lose an update. Not derived from the log: a rebuild of the read models keeps them. Knows no game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage.sql import Database, Guard, Moved

SOLVER, EXERCISE = "solver", "exercise"
"""The two kinds of rated thing."""


@dataclass(frozen=True, slots=True)
class Answer:
    game: str
    collection: str
    exercise: str
    player_id: str
    name: str
    mode: str
    """``puzzle``, ``daily`` or ``train``."""
    day: str
    """The day of a daily answer (``YYYY-MM-DD``), else empty."""
    server: str
    """Where a daily one was answered (empty outside a server)."""
    move: str
    correct: bool
    at: float


@dataclass(frozen=True, slots=True)
class Rated:
    """A solver's or an exercise's rating in a collection, and how it has gone."""

    kind: str
    id: str
    mu: float
    sigma: float
    tries: int = 0
    solved: int = 0
    streak: int = 0
    """Right answers in a row, up to the last (a solver's)."""
    best_streak: int = 0


@dataclass(frozen=True, slots=True)
class Solved:
    """Who answered a place's exercise of the day, and how."""

    name: str
    player_id: str
    correct: bool


RATED = (
    "SELECT kind, id, mu, sigma, tries, solved, streak, best_streak FROM exercise_ratings "
    "WHERE game = ? AND collection = ?"
)
KEEP = (
    "INSERT INTO answers (game, exercise, player_id, mode, day, server, collection, name, move, correct, at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
RATE = (
    "INSERT INTO exercise_ratings (game, collection, kind, id, mu, sigma, tries, solved, streak, best_streak) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game, collection, kind, id) DO UPDATE SET mu = excluded.mu, "
    "sigma = excluded.sigma, tries = excluded.tries, solved = excluded.solved, streak = excluded.streak, "
    "best_streak = excluded.best_streak"
)
FIRST = "SELECT count(*) FROM answers WHERE game = ? AND player_id = ? AND exercise = ? AND mode = ? AND day = ?"
TRIES = "coalesce((SELECT tries FROM exercise_ratings WHERE game = ? AND collection = ? AND kind = ? AND id = ?), 0)"


class Answers:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def of(self, game: str, player_id: str, exercise: str, mode: str, day: str = "") -> Answer | None:
        """``player_id``'s answer to ``exercise`` (in ``mode``, on ``day``), if they gave one."""
        rows = await self._db.fetch(
            "SELECT collection, name, server, move, correct, at FROM answers "
            "WHERE game = ? AND player_id = ? AND exercise = ? AND mode = ? AND day = ?",
            game, player_id, exercise, mode, day,
        )  # fmt: skip
        return next(
            (Answer(game, c, exercise, player_id, n, mode, day, s, m, bool(ok), at) for c, n, s, m, ok, at in rows),
            None,
        )

    async def answered(self, game: str, player_id: str, collection: str) -> set[str]:
        """The exercises of ``collection`` ``player_id`` has answered (their first answers)."""
        rows = await self._db.fetch(
            "SELECT exercise FROM answers WHERE game = ? AND player_id = ? AND collection = ? AND mode = 'puzzle'",
            game, player_id, collection,
        )  # fmt: skip
        return {str(exercise) for (exercise,) in rows}

    async def rated(self, game: str, collection: str, kind: str | None = None, ids: Sequence[str] = ()) -> list[Rated]:
        """The ratings of ``collection`` (of ``kind``, those of ``ids``, when given)."""
        sql, params = RATED, [game, collection]
        if kind is not None:
            sql, params = f"{sql} AND kind = ?", [*params, kind]
        if ids:
            sql, params = f"{sql} AND id IN ({','.join('?' * len(ids))})", [*params, *ids]
        return [
            Rated(k, i, mu, sigma, t, s, st, b) for k, i, mu, sigma, t, s, st, b in await self._db.fetch(sql, *params)
        ]

    async def of_solver(self, game: str, player_id: str) -> dict[str, Rated]:
        """``player_id``'s rating as a solver in each collection of ``game``."""
        rows = await self._db.fetch(
            "SELECT collection, kind, id, mu, sigma, tries, solved, streak, best_streak FROM exercise_ratings "
            "WHERE game = ? AND kind = ? AND id = ? ORDER BY collection",
            game, SOLVER, player_id,
        )  # fmt: skip
        return {str(c): Rated(k, i, mu, sigma, t, s, st, b) for c, k, i, mu, sigma, t, s, st, b in rows}

    async def found(self, game: str, player_id: str) -> int:
        """How many positions ``player_id``'s trainer has seen them find."""
        rows = await self._db.fetch(
            "SELECT count(*) FROM answers WHERE game = ? AND player_id = ? AND mode = 'train'", game, player_id
        )
        return int(rows[0][0])

    async def of_the_day(self, game: str, server: str, day: str, exercise: str) -> list[Solved]:
        """Who answered ``server``'s exercise of ``day``, first first."""
        rows = await self._db.fetch(
            "SELECT name, player_id, correct FROM answers WHERE game = ? AND server = ? AND day = ? AND exercise = ? "
            "AND mode = 'daily' ORDER BY at",
            game, server, day, exercise,
        )  # fmt: skip
        return [Solved(str(n), str(p), bool(ok)) for n, p, ok in rows]

    async def keep(
        self, answer: Answer, ratings: Sequence[Rated], before: Sequence[Rated], also: Sequence[Answer] = ()
    ) -> bool:
        """``answer`` (and the ``also`` it stands for: a daily answer is a first answer too) kept with
        the ``ratings`` it moved, all or nothing; ``False`` (and nothing kept) when one of them was
        given meanwhile, or another answer moved one of the ``before`` ratings (read again, try again)."""
        kept = [answer, *also]
        # answers and tries only ever grow: their sum, read again inside the transaction, is what was read
        params: list[object] = []
        for a in kept:
            params += [a.game, a.player_id, a.exercise, a.mode, a.day]
        for r in before:
            params += [answer.game, answer.collection, r.kind, r.id]
        total = " + ".join([*[f"({FIRST})"] * len(kept), *[TRIES] * len(before)])
        guard = Guard(f"SELECT {total}", tuple(params), sum(r.tries for r in before))
        rows = [(a.game, a.exercise, a.player_id, a.mode, a.day, a.server, a.collection, a.name, a.move,
                 int(a.correct), a.at) for a in kept]  # fmt: skip
        rates = [(answer.game, answer.collection, r.kind, r.id, r.mu, r.sigma, r.tries, r.solved, r.streak,
                  r.best_streak) for r in ratings]  # fmt: skip
        try:
            await self._db.transaction([(KEEP, rows), (RATE, rates)], guard)
        except Moved:
            return False
        return True
