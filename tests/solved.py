"""Solutions put where a bot looks for them, so that no test waits for a rule set to be solved."""

from __future__ import annotations

from bot.games.hog.solutions import SolutionCache
from hog_core.rulesets import RULE_SETS
from hog_core.solver import Solution
from storage.shelves import Shelf


async def shelve(shelf: Shelf, solutions: dict[str, Solution]) -> None:
    """Put every rule set's solution (the ``solutions`` fixture: solved once per run) on ``shelf``,
    as a bot that had solved them would have."""
    cache = SolutionCache(shelf)
    for rules, solution in solutions.items():
        await cache.put(solution, RULE_SETS[rules], 100)
