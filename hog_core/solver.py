"""Exact win probabilities: the perfect strategy, and the win rate of any pair of strategies.

Both come from one backward sweep over the game's states ``(layer, cur, opp)`` (see ``kernel``).
Every turn adds at least one point to the sum of the two totals, except two kinds of move that
keep it: Pork Chop (it only swaps) and sp22's 0-point Hefty Hogs. So the states are solved in
decreasing order of the sum, exactly, with no iteration:

* a Pork Chop leads to the opponent's state of the same totals in another layer (their chop flag
  set), so within a sum the layers are solved in the order those moves point (no chop, then ...);
* a 0-point move leads to the opponent's mirrored state ``(opp, cur)`` of the same sum, a
  two-state cycle solved by a short fixed-point loop from 0.5. Two players who would both rather
  pass forever than roll are valued as a draw (0.5 each): the engine ends such a game at its turn
  limit with no winner.

Dice probabilities are exact: every roll's chance comes from the count of its faces.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from hog_core.game import PORK_CHOP, GameState
from hog_core.kernel import FloatArray, IntArray, Kernel, Layer, LayerDims
from hog_core.rulesets import RuleSet

Policy = npt.NDArray[np.int8]
"""``[layer, cur, opp] -> k`` (``-1`` for Pork Chop): a strategy over every state."""

TIE = 1e-12
"""Pork Chop must beat the best roll by more than this to be chosen: ties keep the chop."""


@dataclass(frozen=True)
class Sweep:
    """Each player's chance to win when it is their turn, over every state, and their moves."""

    value_a: FloatArray
    value_b: FloatArray
    moves_a: Policy
    moves_b: Policy


class _Player:
    """One side of the sweep: a fixed policy, or ``None`` to play perfectly."""

    def __init__(self, kernel: Kernel, policy: Policy | None) -> None:
        g, shape = kernel.goal, kernel.land_shape
        self.policy = policy
        self.value = np.full((len(kernel.layers), g, g), np.nan)
        self.moves = np.zeros((len(kernel.layers), g, g), dtype=np.int8) if policy is None else policy
        # landing values: [layer, forced extra turn?, cur after the add, opp after the add]
        self.landing = np.full((len(kernel.layers), 2, *shape), np.nan)


def sweep(kernel: Kernel, policy_a: Policy | None = None, policy_b: Policy | None = None) -> Sweep:
    """Solve the game between A and B; a ``None`` policy plays perfectly against the other.

    With both ``None`` the two sides are the same perfect player and are solved once.
    """
    a = _Player(kernel, policy_a)
    b = a if policy_a is None and policy_b is None else _Player(kernel, policy_b)
    players = [(a, b)] if b is a else [(a, b), (b, a)]
    goal = kernel.goal
    for me, _ in players:
        _fill_terminal_landings(kernel, me)
    order = layer_order(kernel)
    for total in range(2 * goal - 2, -1, -1):
        cur = np.arange(max(0, total - goal + 1), min(total, goal - 1) + 1)
        opp = total - cur
        for me, other in players:  # landings of this sum that lead to a later one (Hog Pile)
            _fill_landings(kernel, cur, opp, me, other)
        if kernel.direct:  # no layer waits on another's of the same sum: all solved at once
            for me, other in players:
                _solve_direct_diagonal(kernel, cur, opp, me, other)
        else:
            for li in order:
                for me, other in players:
                    _solve_diagonal(kernel, li, cur, opp, me, other)
        _close_loops(kernel, cur, opp, players)
        for me, other in players:
            _fill_landings(kernel, cur, opp, me, other)
    return Sweep(a.value, b.value, a.moves, b.moves)


def layer_order(kernel: Kernel) -> list[int]:
    """Layers ordered so that a Pork Chop's target layer (same totals) is solved first."""
    order: list[int] = []

    def visit(li: int) -> None:
        if li in order:
            return
        if kernel.rules.pork_chop and not kernel.layers[li].chop_used:
            visit(kernel.next_layer(li, extra=False, chop=True))
        order.append(li)

    for li in range(len(kernel.layers)):
        visit(li)
    return order


def _fill_terminal_landings(kernel: Kernel, me: _Player) -> None:
    """Landings past the goal end the game: the mover wins unless the rules hand it away."""
    if kernel.direct:
        return  # a direct kernel's moves look their landings up as they go
    goal = kernel.goal
    done = np.zeros(kernel.land_shape, dtype=np.bool_)
    done[goal:, :] = True
    done[:, goal:] = True
    wins = kernel.land_cur >= goal
    loses = kernel.land_opp >= goal
    if not (wins | loses)[done].all():
        raise ValueError(f"{kernel.rules.id}: a total past the goal did not end the game")
    me.landing[:, :, done] = np.where(wins[done], 1.0, 0.0)


def _fill_landings(kernel: Kernel, cur: IntArray, opp: IntArray, me: _Player, other: _Player) -> None:
    """Landing values for the new totals ``(cur, opp)``, now that every later state is solved."""
    if kernel.direct:
        return
    goal = kernel.goal
    nc, no = kernel.land_cur[cur, opp], kernel.land_opp[cur, opp]
    extra = kernel.land_extra[cur, opp]
    win, lose = nc >= goal, no >= goal
    live = ~(win | lose)
    lc, lo = np.minimum(nc, goal - 1), np.minimum(no, goal - 1)
    for li in range(len(kernel.layers)):
        again = me.value[kernel.next_layer(li, extra=True), lc, lo]
        passed = 1.0 - other.value[kernel.next_layer(li, extra=False), lo, lc]
        terminal = np.where(win, 1.0, 0.0)
        me.landing[li, 0, cur, opp] = np.where(live, np.where(extra, again, passed), terminal)
        me.landing[li, 1, cur, opp] = np.where(live, again, terminal)


def _move_values(kernel: Kernel, li: int, cur: IntArray, opp: IntArray, me: _Player, other: _Player) -> FloatArray:
    """``[state, column]``: the mover's chance to win for k = 0..10 dice, then Pork Chop.

    A 0-point move that keeps the sum (an sp22 loop) is left NaN for ``_close_loops``.
    """
    if kernel.direct:
        q = _direct_all(kernel, cur, opp, other)[li]
        return np.concatenate([q, np.full((len(cur), 1), np.nan)], axis=1)  # no Pork Chop
    layer: Layer = kernel.layers[li]
    max_dice = kernel.rules.max_dice
    trot = kernel.time_trot[layer.turn, int(layer.extra)]
    normal, forced = me.landing[li, 0], me.landing[li, 1]
    q = np.full((len(cur), max_dice + 2), np.nan)

    zc, zo = cur + kernel.zero_dcur[cur, opp], opp + kernel.zero_dopp[cur, opp]
    q[:, 0] = (forced if trot[0] else normal)[zc, zo]

    sides = kernel.sides[int(layer.extra), cur, opp]
    for s in np.unique(sides):
        rows = sides == s
        out = kernel.outcomes[int(s)]
        c, o = cur[rows, None] + out.dcur[None, :], opp[rows, None] + out.dopp[None, :]
        land = normal[c, o]
        for k in np.flatnonzero(trot[1:]) + 1:  # Time Trot: this k always earns an extra turn
            span = slice(out.starts[k - 1], out.starts[k] if k < max_dice else None)
            land[:, span] = forced[c[:, span], o[:, span]]
        q[rows, 1 : max_dice + 1] = np.add.reduceat(land * out.prob, out.starts, axis=1)

    if kernel.rules.pork_chop and not layer.chop_used:
        q[:, max_dice + 1] = 1.0 - other.value[kernel.next_layer(li, extra=False, chop=True), cur, opp]
    return q


def _direct_all(kernel: Kernel, cur: IntArray, opp: IntArray, other: _Player) -> FloatArray:
    """``[layer, state, k]``: every layer's move values of a direct kernel. The layers of one state
    differ only in which k earns the mover's bonus and in the opponent's memory, so each bonus's
    rolls are valued once for every memory and the layers pick their columns from them."""
    bonuses = np.unique(kernel.bonus)
    by_bonus = np.stack([_direct_values(kernel, int(b), cur, opp, other) for b in bonuses])
    pick = np.searchsorted(bonuses, kernel.bonus)  # [mover's memory, k]
    size, n, width = by_bonus.shape[1:]
    q = by_bonus[
        pick[:, None, None, :],
        np.arange(size)[None, :, None, None],
        np.arange(n)[None, None, :, None],
        np.arange(width)[None, None, None, :],
    ]
    return q.reshape(size * size, n, width)


def _solve_direct_diagonal(kernel: Kernel, cur: IntArray, opp: IntArray, me: _Player, other: _Player) -> None:
    q = _direct_all(kernel, cur, opp, other)
    if me.policy is None:
        best = np.argmax(q, axis=2)
        me.moves[:, cur, opp] = best
        me.value[:, cur, opp] = np.take_along_axis(q, best[..., None], axis=2)[..., 0]
    else:
        k = np.maximum(me.policy[:, cur, opp].astype(np.int64), 0)
        me.value[:, cur, opp] = np.take_along_axis(q, k[..., None], axis=2)[..., 0]


def _direct_values(kernel: Kernel, bonus: int, cur: IntArray, opp: IntArray, other: _Player) -> FloatArray:
    """``[opponent's memory, state, k]``: the mover's chance to win with k = 0..10 dice, each roll's
    landing looked up by its points (Spring 2015's Hogtimus Prime) and the mover's total raised by
    ``bonus`` (Feral Hogs); the opponent then moves in the layer of their own memory and of what this
    turn leaves in the mover's."""
    goal, top = kernel.goal, kernel.rules.max_dice
    land_cur, land_opp = kernel.land_by_points
    size = max(kernel.history_size, 1)
    memories = np.arange(size)[:, None, None] * size

    def value(k: IntArray, points: IntArray, c: IntArray, o: IntArray) -> FloatArray:
        plane = points if kernel.reads_points else 0
        lc, lo = land_cur[plane, c + bonus, o], land_opp[plane, c + bonus, o]
        after = memories + kernel.remembered(k, points)[None]
        rest = 1.0 - other.value[after, np.minimum(lo, goal - 1)[None], np.minimum(lc, goal - 1)[None]]
        return np.where(lc >= goal, 1.0, np.where(lo >= goal, 0.0, rest))

    q = np.empty((size, len(cur), top + 1))
    zero = kernel.zero_dcur[cur, opp][:, None]
    q[:, :, :1] = value(np.zeros_like(zero), zero, cur[:, None] + zero, (opp + kernel.zero_dopp[cur, opp])[:, None])
    sides = kernel.sides[0, cur, opp]
    for s in np.unique(sides):
        rows = sides == s
        out = kernel.outcomes[int(s)]
        c, o = cur[rows, None] + out.dcur[None, :], opp[rows, None] + out.dopp[None, :]
        land = value(out.k[None, :], np.broadcast_to(out.dcur, c.shape), c, o)
        q[:, rows, 1:] = np.add.reduceat(land * out.prob, out.starts, axis=2)
    return q


def _choose(q: FloatArray, max_dice: int) -> tuple[FloatArray, IntArray]:
    """The best value and move of each row; Pork Chop only when strictly better than any roll."""
    rolls = q[:, : max_dice + 1]
    best = np.nanargmax(np.where(np.isnan(rolls), -np.inf, rolls), axis=1)
    value = rolls[np.arange(len(q)), best]
    chop = q[:, max_dice + 1] > value + TIE
    return np.where(chop, q[:, max_dice + 1], value), np.where(chop, PORK_CHOP, best)


def _solve_diagonal(kernel: Kernel, li: int, cur: IntArray, opp: IntArray, me: _Player, other: _Player) -> None:
    q = _move_values(kernel, li, cur, opp, me, other)
    if me.policy is None:
        value, moves = _choose(q, kernel.rules.max_dice)
        me.moves[li, cur, opp] = moves
    else:
        k = me.policy[li, cur, opp].astype(np.int64)
        value = q[np.arange(len(cur)), np.where(k == PORK_CHOP, kernel.rules.max_dice + 1, k)]
    me.value[li, cur, opp] = value  # NaN where a 0-point loop is (or may be) chosen


def _close_loops(kernel: Kernel, cur: IntArray, opp: IntArray, players: list[tuple[_Player, _Player]]) -> None:
    """Solve this sum's 0-point two-state cycles: from 0.5 (a draw), a few rounds of the Bellman step."""
    loops = kernel.zero_loops[cur, opp]
    if not loops.any():
        return
    if len(kernel.layers) != 1:
        raise ValueError(f"{kernel.rules.id}: 0-point loops are only solved for single-layer rule sets")
    c, o = cur[loops], opp[loops]
    rows = np.arange(len(c))
    rolled: list[tuple[FloatArray, IntArray]] = []  # each player's best (or chosen) roll here
    for me, other in players:
        q = _move_values(kernel, 0, c, o, me, other)[:, 1 : kernel.rules.max_dice + 1]
        k = np.argmax(q, axis=1) + 1 if me.policy is None else np.maximum(me.policy[0, c, o], 1)
        rolled.append((q[rows, k - 1], k))
        me.value[0, c, o] = 0.5
    for _ in range(4):
        for (me, other), (roll, k) in zip(players, rolled, strict=True):
            passing = 1.0 - other.value[0, o, c]
            if me.policy is None:
                me.value[0, c, o] = np.maximum(roll, passing)
                me.moves[0, c, o] = np.where(passing > roll, 0, k)
            else:
                me.value[0, c, o] = np.where(me.policy[0, c, o] == 0, passing, roll)


# --- the public face: a solved rule set, and exact win rates -------------------------------------


@dataclass(frozen=True)
class Solution:
    """The perfect strategy of one rule set and goal, and every position's value under it."""

    rules: str
    rules_version: int
    goal: int
    dims: LayerDims
    value: FloatArray
    """``[layer, cur, opp]``: the mover's chance to win when both sides play perfectly."""
    moves: Policy
    """``[layer, cur, opp]``: the perfect move (``-1`` is Pork Chop)."""

    def layer_of(self, state: GameState) -> int:
        """The layer of ``state``: what beyond the totals its rules read, from the mover's side."""
        m = state.mover
        return self.dims.index(
            state.turn_number,
            state.is_extra,
            state.chop_used[m],
            state.chop_used[1 - m],
            *state.remembered[:: 1 - 2 * m],
        )

    def _index(self, state: GameState) -> tuple[int, int, int]:
        m = state.mover
        return self.layer_of(state), state.scores[m], state.scores[1 - m]

    def win_chances(self, state: GameState) -> tuple[float, float]:
        """Each seat's chance to win from ``state`` under perfect play (a finished game is 1/0)."""
        if state.is_over:
            if state.winner is None:
                return 0.5, 0.5
            return (1.0, 0.0) if state.winner == 0 else (0.0, 1.0)
        mover = float(self.value[self._index(state)])
        return (mover, 1.0 - mover) if state.mover == 0 else (1.0 - mover, mover)

    def best_move(self, state: GameState) -> int:
        """The perfect move for the player to move."""
        return int(self.moves[self._index(state)])

    def strategy(self) -> Callable[[int, int], int]:
        """The course's ``strategy(score, opponent_score) -> k``, for rule sets whose perfect move
        depends on the two totals alone."""
        if self.moves.shape[0] != 1:
            raise ValueError(f"The perfect {self.rules} strategy needs more than the two totals.")
        moves = self.moves[0]
        return lambda score, opponent_score: int(moves[score, opponent_score])


def solve(rules: RuleSet, goal: int = 100) -> Solution:
    """The exact perfect strategy of ``rules`` played to ``goal``."""
    kernel = Kernel(rules, goal)
    solved = sweep(kernel)
    return Solution(rules.id, rules.version, goal, kernel.dims, solved.value_a, solved.moves_a)


@dataclass(frozen=True)
class WinRate:
    """A's exact chance to win against B when A moves first, when B does, and on average."""

    first: float
    second: float

    @property
    def average(self) -> float:
        return (self.first + self.second) / 2


def win_rate(kernel: Kernel, a: Policy | None, b: Policy | None) -> WinRate:
    """A's exact win rate against B, both seat orders; ``None`` plays perfectly (a best response)."""
    solved = sweep(kernel, a, b)
    start = kernel.dims.index(0, False, False, False)
    return WinRate(float(solved.value_a[start, 0, 0]), 1.0 - float(solved.value_b[start, 0, 0]))
