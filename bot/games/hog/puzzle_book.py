"""Hog's puzzles for every front (Discord, the web, the terminal): each rule set's mined once a
process — from the games the course's strategies and the house play (the same on every machine)
and from the newest stored games — served near a solver's rating, one a day for each place; any
position judged again from its id alone (a button or a link carries the id, not the puzzle)."""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections.abc import Awaitable, Callable, Sequence

from bot.games.hog.limits import MAX_SOLVED_GOAL
from bot.games.hog.puzzling import mined_by, of_theme
from bot.games.hog.solutions import SolutionCache
from bot.platform.compose import Platform
from bot.platform.exercises import Exercises, Marked
from hog_core.events import Event
from hog_core.game import GameState, Status
from hog_core.kernel import Kernel
from hog_core.puzzles import Facts, Puzzle, before_turns, facts_of, mined, posed
from hog_core.review import Reviewer
from hog_core.rulesets import RULE_SETS
from hog_core.strategies import BASELINE
from storage.answers import Answer

GOAL = 100
"""The goal of every puzzle served: the course's."""
DAILY_MARGIN = 0.05
"""A daily puzzle's best move beats every other by five points of chance: a clear lesson for everyone."""
GAME = "hog"

Stored = Callable[[str, int], Awaitable[Sequence[tuple[str, list[Event]]]]]
"""The newest stored finished games of a rule set to a goal: each game's id and events."""


def position(facts: Facts) -> GameState:
    """A puzzle's position as a game state, the mover in the first seat."""
    return GameState(
        rules=RULE_SETS[facts.rules],
        goal=facts.goal,
        status=Status.ACTIVE,
        scores=facts.scores,
        turn_number=facts.turn_number,
        is_extra=facts.is_extra,
        chop_used=(not facts.chop[0], not facts.chop[1]),
        remembered=facts.memory,
    )


def daily_of(found: Sequence[Puzzle], place: str, day: str) -> Puzzle:
    """The puzzle of ``day`` for ``place`` among ``found`` (by id, so the same on every machine)."""
    clear = sorted((p for p in found if p.margin >= DAILY_MARGIN), key=lambda p: p.id) or sorted(
        found, key=lambda p: p.id
    )
    at = int.from_bytes(hashlib.blake2b(f"{place}:{day}".encode(), digest_size=8).digest(), "big")
    return clear[at % len(clear)]


class PuzzleBook:
    def __init__(
        self, solutions: SolutionCache, exercises: Exercises | None = None, stored: Stored | None = None
    ) -> None:
        self.solutions = solutions
        self.exercises = exercises
        self.stored = stored
        self._reviewers: dict[tuple[str, int], Reviewer] = {}
        self._base: dict[tuple[str, int], list[Puzzle]] = {}
        self._pool: dict[tuple[str, int], dict[str, Puzzle]] = {}
        self._mining = asyncio.Lock()

    async def reviewer(self, rules: str, goal: int = GOAL) -> Reviewer:
        if (rules, goal) not in self._reviewers:
            solution = await self.solutions.get(RULE_SETS[rules], goal)
            self._reviewers[rules, goal] = await asyncio.to_thread(Reviewer, Kernel(RULE_SETS[rules], goal), solution)
        return self._reviewers[rules, goal]

    async def pool(self, rules: str, goal: int = GOAL) -> dict[str, Puzzle]:
        """Every puzzle of ``rules`` to ``goal`` this process found, by id (a stored game's naming its game)."""
        if (rules, goal) not in self._pool:
            async with self._mining:
                if (rules, goal) not in self._pool:
                    await self._mine(rules, goal)
        return self._pool[rules, goal]

    async def _mine(self, rules: str, goal: int) -> None:
        reviewer = await self.reviewer(rules, goal)
        base = await mined_by(reviewer, await self.solutions.get(RULE_SETS[rules], goal), rules, goal)
        games = await self.stored(rules, goal) if self.stored is not None else ()

        def from_games() -> list[Puzzle]:
            found: list[Puzzle] = []
            for game_id, events in games:
                states = before_turns(events)
                found += mined(zip(states, reviewer.values_of(states), [game_id] * len(states), strict=True))
            return found

        ours = await asyncio.to_thread(from_games)
        self._base[rules, goal] = base
        self._pool[rules, goal] = {p.id: p for p in [*base, *ours]}  # a stored game's wins: it names its source

    async def daily(self, place: str, day: str, rules: str) -> Puzzle:
        """``place``'s puzzle of ``day`` (``""``: everyone's), the same on every machine."""
        await self.pool(rules)
        return daily_of(self._base[rules, GOAL], place, day)

    async def next(
        self, rules: str, theme: str | None, rng: random.Random, player_id: str | None = None
    ) -> Puzzle | None:
        """A puzzle of ``rules`` (of ``theme`` when given): for a player, one they have not answered,
        near their rating; ``None`` when none is left."""
        found = of_theme(list((await self.pool(rules)).values()), theme)
        if not found:
            return None
        if player_id is None or self.exercises is None:
            return rng.choice(found)
        chosen = await self.exercises.near(GAME, rules, player_id, [p.id for p in found], rng)
        return None if chosen is None else (await self.pool(rules))[chosen]

    async def by_id(self, puzzle_id: str) -> Puzzle | None:
        """The puzzle ``puzzle_id`` names: found, or its position judged again (every move's chance,
        the best, the theme); ``None`` for an id that names no position or one with no clear best."""
        facts = facts_of(puzzle_id)
        if facts is None or facts.goal > MAX_SOLVED_GOAL:
            return None
        known = (await self.pool(facts.rules)).get(puzzle_id) if facts.goal == GOAL else None
        if known is not None:  # mined pools are the course's goal's alone: another id names no work but its own
            return known
        state = position(facts)
        if not state.legal_moves():
            return None
        chances = (await self.reviewer(facts.rules, facts.goal)).move_values(state)
        answer = max(chances, key=lambda k: chances[k])
        return posed(state, chances, answer, BASELINE if BASELINE in chances else answer, None)

    async def answer(
        self, puzzle: Puzzle, player_id: str, name: str, k: int, mode: str, at: float, day: str = "", server: str = ""
    ) -> Marked | None:
        """``k`` as ``player_id``'s answer to ``puzzle`` kept (rated when it is their first); ``None``
        where answers are not kept (the terminal)."""
        if self.exercises is None:
            return None
        kept = Answer(GAME, puzzle.rules, puzzle.id, player_id, name, mode, day, server, str(k), k == puzzle.answer, at)
        return await self.exercises.answer(kept)


STORED = 300
"""The newest stored games a process mines puzzles from (each rule set's, when it first serves one)."""


def stored_games(p: Platform) -> Stored:
    """The newest ``STORED`` finished Hog games of a rule set to a goal, in ``p``'s store."""

    async def games(rules: str, goal: int) -> list[tuple[str, list[Event]]]:
        rows = await p.views.history(game=GAME, limit=STORED)
        wanted = {"rules": rules, "goal": str(goal)}
        chosen = [r.game_id for r in rows if not r.live and all(r.fields.get(k) == v for k, v in wanted.items())]
        return [(game_id, await p.service(GAME).events(game_id)) for game_id in chosen]

    return games


def book_of(p: Platform, solutions: SolutionCache) -> PuzzleBook:
    """The puzzle book of ``p``: answers kept and rated in its read models' database, its stored games mined."""
    return PuzzleBook(solutions, Exercises(p.views.answers), stored_games(p))
