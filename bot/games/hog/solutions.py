"""Solved rule sets, kept on a shelf so the bot never solves the same game twice.

One ``.npz`` file per rule set, rule version and goal: in the ``HOG_CACHE`` folder, or in the
database when the bot runs on PostgreSQL (``HOG_DATABASE_URL``), so that every process, on any host,
solves a rule set at most once between them. A file that cannot be read is solved again and replaced.
"""

from __future__ import annotations

import asyncio
import io
import logging
import zipfile
from collections import OrderedDict

import numpy as np

from bot.platform.settings import Settings
from hog_core.kernel import LayerDims
from hog_core.rulesets import RuleSet
from hog_core.solver import Solution, solve
from storage.errors import OPENING_ERRORS
from storage.shelves import FolderShelf, PostgresShelf, Shelf

log = logging.getLogger(__name__)

Key = tuple[str, int, int]


def name(rules: RuleSet, goal: int) -> str:
    """The shelf's name for the solution of ``rules`` to ``goal``."""
    return f"{rules.id}-v{rules.version}-goal{goal}.npz"


def pack(solution: Solution) -> bytes:
    dims = np.array([solution.dims.turn_period, solution.dims.extra, solution.dims.pork_chop])
    out = io.BytesIO()
    np.savez(out, value=solution.value, moves=solution.moves, dims=dims)
    return out.getvalue()


def unpack(data: bytes, rules: RuleSet, goal: int) -> Solution | None:
    """The solution in ``data``, or ``None`` when it is damaged."""
    try:
        with np.load(io.BytesIO(data)) as arrays:
            period, extra, chop = (int(x) for x in arrays["dims"])
            return Solution(
                rules.id,
                rules.version,
                goal,
                LayerDims(period, bool(extra), bool(chop)),
                arrays["value"],
                arrays["moves"],
            )
    except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile):
        return None


class SolutionCache:
    """Solutions on a shelf, and the ones in use in memory (0.1-1.5 MB each), so a click reads nothing."""

    def __init__(self, shelf: Shelf, in_memory: int = 16) -> None:
        self.shelf = shelf
        self._memory: OrderedDict[Key, Solution] = OrderedDict()
        self._in_memory = in_memory
        self._solving: dict[Key, asyncio.Lock] = {}

    @classmethod
    def of(cls, settings: Settings) -> SolutionCache:
        """The cache of the bot's database when it is PostgreSQL, else of the ``HOG_CACHE`` folder."""
        url = settings.database_url
        return cls(PostgresShelf(url) if url else FolderShelf(settings.cache))

    def in_memory(self, rules: RuleSet, goal: int = 100) -> Solution | None:
        """The solution if it is in memory (no reading, no solving)."""
        key = (rules.id, rules.version, goal)
        solution = self._memory.get(key)
        if solution is not None:
            self._memory.move_to_end(key)
        return solution

    async def load(self, rules: RuleSet, goal: int) -> Solution | None:
        """The solution on the shelf, or ``None`` when there is none or it is damaged."""
        data = await self.shelf.read(name(rules, goal))
        return None if data is None else await asyncio.to_thread(unpack, data, rules, goal)

    async def get(self, rules: RuleSet, goal: int = 100) -> Solution:
        """The solution of ``rules`` to ``goal``: from memory, else from the shelf, else solved (off
        the event loop, once however many ask at once) and put on the shelf."""
        key = (rules.id, rules.version, goal)
        if (solution := self.in_memory(rules, goal)) is not None:
            return solution
        async with self._solving.setdefault(key, asyncio.Lock()):
            if (solution := self.in_memory(rules, goal)) is not None:
                return solution
            solution = await self._shelved(rules, goal)
            if solution is None:
                solution = await asyncio.to_thread(solve, rules, goal)
                await self._shelve(solution, rules, goal)
            self._memory[key] = solution
            while len(self._memory) > self._in_memory:
                self._memory.popitem(last=False)
        return solution

    async def put(self, solution: Solution, rules: RuleSet, goal: int) -> None:
        """Put a solution on the shelf (as ``get`` does after solving)."""
        await self.shelf.write(name(rules, goal), await asyncio.to_thread(pack, solution))

    async def _shelved(self, rules: RuleSet, goal: int) -> Solution | None:
        """What the shelf holds; a shelf that cannot be read (a database that is down) is solved around."""
        try:
            return await self.load(rules, goal)
        except OPENING_ERRORS as error:
            log.warning("solved rule sets cannot be read (%s): solving %s again", error, name(rules, goal))
            return None

    async def _shelve(self, solution: Solution, rules: RuleSet, goal: int) -> None:
        try:
            await self.put(solution, rules, goal)
        except OPENING_ERRORS as error:
            log.warning("a solved rule set cannot be kept (%s): it stays in memory only", error)
