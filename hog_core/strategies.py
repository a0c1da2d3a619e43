"""Named strategies, the house's difficulty levels, and strategies as tables over every state.

A strategy is the course's ``strategy(score, opponent_score) -> k``. The course's Fall 2018
heuristics keep their signatures; ``rules`` lets them play any rule set, asking that rule set's own
rules what rolling zero dice would do.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from hog_core.contest import Table, decode, lowest
from hog_core.effects import Swap
from hog_core.game import PORK_CHOP, GameState
from hog_core.kernel import Kernel
from hog_core.rulesets import RULE_SETS
from hog_core.solver import Policy, Solution
from hog_core.turn import Turn

Strategy = Callable[[int, int], int]


def always_roll(n: int) -> Strategy:
    """A strategy that always rolls ``n`` dice."""

    def strategy(score: int, opponent_score: int) -> int:
        return n

    return strategy


def _zero_dice(rules: str, score: int, opponent_score: int) -> Turn:
    return RULE_SETS[rules].resolve(Turn(cur=score, opp=opponent_score, k=0, outcomes=()))


def bacon_strategy(score: int, opponent_score: int, margin: int = 8, num_rolls: int = 4, rules: str = "fa18") -> int:
    """Roll 0 when rolling zero dice scores at least ``margin`` points, else ``num_rolls``."""
    return 0 if _zero_dice(rules, score, opponent_score).points >= margin else num_rolls


def swap_strategy(score: int, opponent_score: int, margin: int = 8, num_rolls: int = 4, rules: str = "fa18") -> int:
    """Roll 0 when it causes a beneficial swap, or scores at least ``margin`` without a harmful one."""
    turn = _zero_dice(rules, score, opponent_score)
    if any(isinstance(e, Swap) for e in turn.effects):
        unswapped = score + turn.points
        if turn.cur != unswapped:
            return 0 if turn.cur > unswapped else num_rolls
    return 0 if turn.points >= margin else num_rolls


DIFFICULTIES = ("easy", "medium", "perfect")
"""The house's levels: ``easy`` always rolls 4 (the course's baseline); ``medium`` plays the
perfect move on two positions in three and rolls 4 on the third (``medium_plays_perfectly``), so
it sits between the two in every rule set; ``perfect`` is the solver."""

BASELINE = 4


def medium_plays_perfectly(score: int, opponent_score: int) -> bool:
    """Where the medium house plays the perfect move: two positions in three, fixed by the totals."""
    return (score * 31 + opponent_score * 17) % 3 != 0


def tabulate(strategy: Strategy, kernel: Kernel) -> Policy:
    """The strategy's move in every state (it sees the two totals only).

    Raises ``ValueError`` for a move the rules do not allow, or when the strategy itself fails.
    """
    goal = kernel.goal
    table = np.empty((goal, goal), dtype=np.int64)
    for c, o in np.ndindex(goal, goal):
        try:
            table[c, o] = strategy(c, o)
        except Exception as error:
            raise ValueError(f"The strategy failed at score {c}, opponent {o}: {error!r}") from error
    return from_table(table, kernel)


def from_table(table: npt.NDArray[np.integer[Any]], kernel: Kernel) -> Policy:
    """A table ``[score, opponent_score] -> k`` as a policy over every state. A spent Pork Chop
    plays as 10 dice, as in a real game. Raises ``ValueError`` for a move the rules do not allow."""
    goal, max_dice = kernel.goal, kernel.rules.max_dice
    least = lowest(kernel.rules)
    if table.min() < least or table.max() > max_dice:
        bad = int(table[(table < least) | (table > max_dice)][0])
        raise ValueError(f"The strategy chose {bad} dice; {kernel.rules.id} allows {least} to {max_dice}.")
    policy = np.broadcast_to(table, (len(kernel.layers), goal, goal)).astype(np.int8)
    for li, layer in enumerate(kernel.layers):
        if layer.chop_used:
            policy[li][policy[li] == PORK_CHOP] = max_dice
    return policy


ENTRY = "entry"
"""The house that plays a contest entry's table (the seat's ``Player.table``)."""


@lru_cache(maxsize=64)
def _entry_table(encoded: str) -> Table:
    return decode(encoded)


def entry_move(state: GameState) -> int:
    """The move of the contest entry in the mover's seat: its table's, a spent Pork Chop as 10 dice."""
    m = state.mover
    table = state.players[m].table
    if not isinstance(table, str):
        raise ValueError("This house plays a contest entry, and the game holds no table.")
    k = int(_entry_table(table)[state.scores[m], state.scores[1 - m]])
    return state.rules.max_dice if k == PORK_CHOP and state.chop_used[m] else k


def house_move(difficulty: str, state: GameState, solution: Solution | None) -> int:
    """The house's move in a live game at ``difficulty`` (the same choices as ``house_policy``);
    ``medium`` and ``perfect`` need the game's solution."""
    if difficulty == ENTRY:
        return entry_move(state)
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"Unknown difficulty {difficulty!r}; choose one of {', '.join(DIFFICULTIES)}.")
    m = state.mover
    if difficulty == "easy" or (difficulty == "medium" and not medium_plays_perfectly(*_totals(state, m))):
        return BASELINE
    if solution is None:
        raise ValueError(f"The {difficulty} house needs the game's solution.")
    return solution.best_move(state)


def _totals(state: GameState, mover: int) -> tuple[int, int]:
    return state.scores[mover], state.scores[1 - mover]


def house_policy(difficulty: str, kernel: Kernel, solution: Solution) -> Policy:
    """The house's moves at ``difficulty`` over every state of ``kernel``'s game."""
    match difficulty:
        case "easy":
            return tabulate(always_roll(BASELINE), kernel)
        case "medium":
            g = range(kernel.goal)
            perfect_here = np.array([[medium_plays_perfectly(c, o) for o in g] for c in g])
            return np.where(perfect_here[None], solution.moves, BASELINE).astype(np.int8)
        case "perfect":
            return solution.moves
    raise ValueError(f"Unknown difficulty {difficulty!r}; choose one of {', '.join(DIFFICULTIES)}.")
