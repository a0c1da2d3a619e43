"""A rule set's turn, tabulated for whole-game computation (solver, exact evaluation, simulation).

The tables are filled by calling the rule set's own scalar rules, never a second implementation:
a rule set's pipeline splits into stages (score the dice, change the points, adjust totals before
the add, add, rules on the new totals, extra-turn rules), and each stage is tabulated over the
inputs it reads. ``tests/test_kernel.py`` checks the tables against ``RuleSet.resolve``.

A state of the game, from the mover's side, is ``(layer, cur, opp)``; a layer holds whatever else
the rules need: the turn number mod Time Trot's period and the extra-turn flag (Time Trot,
eight-sided extra turns), both players' Pork Chop flags, and what each player's Feral Hogs remembers
of their previous turn.

Two kinds of rule make a turn's landing depend on more than the new totals: Spring 2015's Hogtimus
Prime (the leader gains the turn's points again) and Feral Hogs (a bonus from the mover's previous
turn, whose memory the next layer holds). A kernel with either is *direct*: the solver looks each
outcome's landing up by its points too (``land_by_points``), and no extra turn or Pork Chop may join.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

import numpy as np
import numpy.typing as npt

from hog_core import rules as r
from hog_core.rulesets import NAMED, RuleSet
from hog_core.turn import Rule, Turn

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


class Stage(IntEnum):
    SCORE = 1  # dice or zero dice -> points (Pig Out, Free Bacon, ...)
    POINTS = 2  # points -> points (Hogtimus Prime)
    BEFORE_ADD = 3  # totals change by an amount of (k, points) (Piggy Back)
    ADD = 4
    HISTORY = 5  # the mover gains an amount of (k, their previous turn) (Feral Hogs)
    AFTER_ADD = 6  # a function of the two new totals (swaps, Hog Pile, More Boar), or of the points too
    EXTRA = 7  # extra turns that read the turn number (Time Trot)


STAGES: dict[Rule, Stage] = {
    r.pig_out: Stage.SCORE,
    r.pig_out_to_zero: Stage.SCORE,
    r.sow_sad: Stage.SCORE,
    r.free_bacon: Stage.SCORE,
    r.hefty_hogs: Stage.SCORE,
    r.free_bacon_max_digit: Stage.SCORE,
    r.piggy_points: Stage.SCORE,
    r.hogtimus_prime: Stage.POINTS,
    r.piggy_back: Stage.BEFORE_ADD,
    r.add_points: Stage.ADD,
    r.hog_pile: Stage.AFTER_ADD,
    r.swine_swap: Stage.AFTER_ADD,
    r.swine_swap_reversed: Stage.AFTER_ADD,
    r.more_boar: Stage.AFTER_ADD,
    r.time_trot: Stage.EXTRA,
    r.time_trot_mod5: Stage.EXTRA,
    r.feral_hogs_dice: Stage.HISTORY,
    r.feral_hogs_points: Stage.HISTORY,
    **dict.fromkeys(
        (r.free_bacon_sp14, r.free_bacon_sp18, r.free_bacon_su18, r.free_bacon_sp19, r.free_bacon_su19),
        Stage.SCORE,
    ),
    **dict.fromkeys(
        (r.free_bacon_sp20, r.free_bacon_su20, r.free_bacon_fa20, r.picky_piggy, r.oink_points, r.pig_tail),
        Stage.SCORE,
    ),
    r.boar_brawl: Stage.SCORE,
    **dict.fromkeys(
        (r.swine_swap_double, r.swine_swap_multiple, r.swine_swap_su18, r.swine_swap_sp19, r.swine_swap_su19),
        Stage.AFTER_ADD,
    ),
    **dict.fromkeys(
        (r.swine_swap_fa19, r.swine_swap_sp20, r.swine_swap_su20, r.pig_pass, r.swine_align), Stage.AFTER_ADD
    ),
    **dict.fromkeys(
        (r.hog_pile_double, r.pigs_on_prime, r.square_swine, r.sus_fuss, r.hogtimus_prime_leader), Stage.AFTER_ADD
    ),
}
READS_POINTS = frozenset({r.hogtimus_prime_leader})
"""After-add rules that read the turn's points as well as the new totals."""


def is_direct(rules: RuleSet) -> bool:
    """Whether a turn of ``rules`` lands by more than its new totals (see the module's docstring):
    solved exactly, but no contest of course strategies (functions of the two totals) is run in it."""
    return rules.history is not None or any(rule in READS_POINTS for rule in rules.rules)


CONTESTABLE = [rs.id for rs in NAMED.values() if not is_direct(rs)]
"""The rule sets a contest may be run in, oldest first."""


def _run(rules: Sequence[Rule], turn: Turn) -> Turn:
    for rule in rules:
        turn = rule(turn)
    return turn


@dataclass(frozen=True)
class Layer:
    turn: int  # turn number mod Time Trot's period (0 when the rules ignore it)
    extra: bool  # this turn is an extra turn
    chop_used: bool  # the mover has used Pork Chop
    opp_chop_used: bool
    prev: int = 0  # what the mover's Feral Hogs remembers (capped: see ``Kernel.history_size``)
    opp_prev: int = 0


@dataclass(frozen=True)
class Outcomes:
    """Every way a roll of ``k >= 1`` dice with ``sides`` sides can move the totals, with its chance.

    Row ``i``: rolling ``k[i]`` dice adds ``dcur[i]`` to the mover and ``dopp[i]`` to the opponent
    (before the after-add rules) with probability ``prob[i]``. Rows are sorted by ``k``; ``starts``
    is where each ``k`` begins.
    """

    k: IntArray
    dcur: IntArray
    dopp: IntArray
    prob: FloatArray
    starts: IntArray


def _sums_without_ones(k: int, sides: int) -> dict[int, int]:
    """How many of the ``sides**k`` rolls with no 1 make each sum."""
    counts = np.array([1], dtype=np.int64)
    face = np.array([0, 0] + [1] * (sides - 1), dtype=np.int64)
    for _ in range(k):
        counts = np.convolve(counts, face)
    return {total: int(n) for total, n in enumerate(counts) if n}


def _representative(k: int, sides: int, total: int) -> tuple[int, ...]:
    """Some roll of ``k`` dice, none a 1, that sums to ``total``."""
    faces = [2] * k
    rest = total - 2 * k
    for i in range(k):
        step = min(rest, sides - 2)
        faces[i] += step
        rest -= step
    return tuple(faces)


class Kernel:
    """The tabulated turn of ``rules`` for goal ``goal``."""

    def __init__(self, rules: RuleSet, goal: int) -> None:
        stages = [STAGES[rule] for rule in rules.rules]
        if stages != sorted(stages):
            raise ValueError(f"{rules.id}: rules out of stage order, cannot tabulate")
        by_stage = {s: [rule for rule in rules.rules if STAGES[rule] is s] for s in Stage}
        self.rules = rules
        self.goal = goal
        self._before_points = by_stage[Stage.SCORE] + by_stage[Stage.POINTS] + by_stage[Stage.BEFORE_ADD]
        self._after_add = by_stage[Stage.AFTER_ADD]
        self._extra = by_stage[Stage.EXTRA]
        self.history = rules.history
        self.history_size = (
            0 if self.history is None else rules.max_dice + (1 if self.history.remembers == "dice" else 4)
        )
        """How many values of a player's memory tell their next Feral Hogs apart: 0..10 dice, or
        0..12 points and one value for 13 or more (no 0..10 dice is 2 away from them)."""
        self.reads_points = any(rule in READS_POINTS for rule in self._after_add)
        self.direct = is_direct(rules)
        self.bonus = self._bonus()

        g = range(goal)
        self.sides = np.array(
            [[[rules.dice_sides(c, o, bool(e)) for o in g] for c in g] for e in (0, 1)], dtype=np.int64
        )
        self.turn_period = max((getattr(rule, "period", 1) for rule in self._extra), default=1)
        self.extra_layers = bool(self._extra) or bool((self.sides[0] != self.sides[1]).any())
        remembered = range(max(self.history_size, 1))
        self.layers = [
            Layer(t, bool(e), bool(a), bool(b), p, q)
            for t, e, a, b, p, q in itertools.product(
                range(self.turn_period),
                (0, 1) if self.extra_layers else (0,),
                (0, 1) if rules.pork_chop else (0,),
                (0, 1) if rules.pork_chop else (0,),
                remembered,
                remembered,
            )
        ]
        self.layer_index = {layer: i for i, layer in enumerate(self.layers)}

        self.outcomes = {int(s): self._outcomes(int(s)) for s in np.unique(self.sides)}
        zero = [[self._delta(Turn(cur=c, opp=o, k=0, outcomes=())) for o in g] for c in g]
        self.zero_dcur = np.array([[d[0] for d in row] for row in zero], dtype=np.int64)
        self.zero_dopp = np.array([[d[1] for d in row] for row in zero], dtype=np.int64)

        max_dcur = max(int(self.zero_dcur.max()), *(int(o.dcur.max()) for o in self.outcomes.values()))
        max_dcur += int(self.bonus.max())
        max_dopp = max(int(self.zero_dopp.max()), *(int(o.dopp.max()) for o in self.outcomes.values()))
        self.land_shape = (goal + max_dcur, goal + max_dopp)
        self.max_points = max_dcur
        self.land_cur, self.land_opp, self.land_extra = self._landing()
        self.time_trot = self._time_trot()
        self.zero_loops = self._zero_loops()
        if self.direct:
            if self.extra_layers or rules.pork_chop or self.land_extra.any() or self.zero_loops.any():
                what = "Feral Hogs" if self.history is not None else "Spring 2015's Hogtimus Prime"
                raise ValueError(f"{what} cannot be played with extra turns or Pork Chop")
            self.land_by_points = self._land_by_points()

    def _delta(self, turn: Turn) -> tuple[int, int]:
        """How the score, points and before-add stages move the totals (before the add, plus it)."""
        done = _run(self._before_points, turn)
        return done.cur - turn.cur + done.points, done.opp - turn.opp

    def _outcomes(self, sides: int) -> Outcomes:
        rows: dict[tuple[int, int, int], float] = {}
        for k in range(1, self.rules.max_dice + 1):
            total_rolls = sides**k
            with_one = total_rolls - (sides - 1) ** k
            classes = [((1,) * k, with_one)]
            classes += [(_representative(k, sides, t), n) for t, n in _sums_without_ones(k, sides).items()]
            for outcomes, count in classes:
                dcur, dopp = self._delta(Turn(cur=0, opp=0, k=k, outcomes=outcomes))
                rows[(k, dcur, dopp)] = rows.get((k, dcur, dopp), 0.0) + count / total_rolls
        keys = sorted(rows)
        ks = np.array([key[0] for key in keys], dtype=np.int64)
        return Outcomes(
            k=ks,
            dcur=np.array([key[1] for key in keys], dtype=np.int64),
            dopp=np.array([key[2] for key in keys], dtype=np.int64),
            prob=np.array([rows[key] for key in keys]),
            starts=np.searchsorted(ks, np.arange(1, self.rules.max_dice + 1)).astype(np.int64),
        )

    def _landing(self) -> tuple[IntArray, IntArray, BoolArray]:
        """The after-add rules on every pair of new totals: the totals after them, and More Boar."""
        n_cur, n_opp = self.land_shape
        cur = np.empty(self.land_shape, dtype=np.int64)
        opp = np.empty(self.land_shape, dtype=np.int64)
        extra = np.empty(self.land_shape, dtype=np.bool_)
        for c in range(n_cur):
            for o in range(n_opp):
                done = _run(self._after_add, Turn(cur=c, opp=o, k=0, outcomes=()))
                cur[c, o], opp[c, o], extra[c, o] = done.cur, done.opp, done.extra_turn
        return cur, opp, extra

    def _land_by_points(self) -> tuple[IntArray, IntArray]:
        """``[points, cur, opp]``: the after-add rules on new totals reached by a turn of ``points``
        (one plane of every points alike unless a rule reads them)."""
        n_cur, n_opp = self.land_shape
        if not self.reads_points:
            return self.land_cur[None], self.land_opp[None]
        planes = self.max_points + 1
        cur = np.broadcast_to(self.land_cur, (planes, n_cur, n_opp)).copy()
        opp = np.broadcast_to(self.land_opp, (planes, n_cur, n_opp)).copy()
        for p in range(1, planes):
            for c in range(p, min(p + self.goal, n_cur)):  # a turn of p points lands at p or more
                for o in range(n_opp):
                    done = _run(self._after_add, Turn(cur=c, opp=o, k=0, outcomes=(), points=p))
                    cur[p, c, o], opp[p, c, o] = done.cur, done.opp
        return cur, opp

    def _bonus(self) -> IntArray:
        """``[remembered, k]``: what Feral Hogs adds to the mover's total (0 when there is none)."""
        size, top = max(self.history_size, 1), self.rules.max_dice
        table = np.zeros((size, top + 1), dtype=np.int64)
        if self.history is not None:
            for prev, k in np.ndindex(table.shape):
                table[prev, k] = self.history(Turn(cur=0, opp=0, k=k, outcomes=(), prev=prev)).cur
        return table

    def remembered(self, k: int | IntArray, points: IntArray) -> IntArray:
        """The capped memory a turn of ``k`` dice and ``points`` leaves its mover's Feral Hogs."""
        if self.history is None:
            return np.zeros_like(points)
        kept = np.broadcast_to(k, points.shape) if self.history.remembers == "dice" else points
        return np.minimum(kept, self.history_size - 1)

    def _zero_loops(self) -> BoolArray:
        """``[cur, opp]``: rolling zero dice scores nothing and changes no total (sp22's Hefty Hogs).

        The opponent then faces the mirrored state: a two-state cycle the solver closes.
        """
        cur, opp = np.indices((self.goal, self.goal))
        zc, zo = cur + self.zero_dcur, opp + self.zero_dopp
        lc, lo = self.land_cur[zc, zo], self.land_opp[zc, zo]
        loops: BoolArray = (lc + lo == cur + opp) & (lc < self.goal) & (lo < self.goal)
        if not ((lc == cur) & (lo == opp) & ~self.land_extra[zc, zo])[loops].all():
            raise ValueError(f"{self.rules.id}: a 0-point move that moves the totals cannot be solved")
        return loops

    def _time_trot(self) -> BoolArray:
        """``[turn mod 8, is_extra, k]``: whether the extra-turn rules grant another turn."""
        table = np.zeros((self.turn_period, 2, self.rules.max_dice + 1), dtype=np.bool_)
        for t, e, k in np.ndindex(table.shape):
            turn = Turn(cur=0, opp=0, k=k, outcomes=(), turn_number=t, is_extra=bool(e))
            table[t, e, k] = _run(self._extra, turn).extra_turn
        return table

    def next_layer(self, li: int, *, extra: bool, chop: bool = False) -> int:
        """The layer of the next turn, from the next mover's side."""
        layer = self.layers[li]
        turn = (layer.turn + 1) % self.turn_period
        if extra:
            following = Layer(turn, self.extra_layers, layer.chop_used, layer.opp_chop_used)
        elif chop:
            following = Layer(turn, False, layer.opp_chop_used, True)
        else:
            following = Layer(turn, False, layer.opp_chop_used, layer.chop_used)
        return self.layer_index[following]

    @property
    def dims(self) -> LayerDims:
        return LayerDims(self.turn_period, self.extra_layers, self.rules.pork_chop, self.history_size)


@dataclass(frozen=True)
class LayerDims:
    """Which facts beyond the totals a rule set's states carry; orders the layers."""

    turn_period: int
    extra: bool
    pork_chop: bool
    history: int = 0

    def index(
        self, turn_number: int, is_extra: bool, chop_used: bool, opp_chop_used: bool, prev: int = 0, opp_prev: int = 0
    ) -> int:
        """The layer index of a position (facts the rules ignore fold away)."""
        index = turn_number % self.turn_period
        if self.extra:
            index = 2 * index + is_extra
        if self.pork_chop:
            index = 4 * index + 2 * chop_used + opp_chop_used
        if self.history:
            top = self.history - 1
            index = (index * self.history + min(prev, top)) * self.history + min(opp_prev, top)
        return index
