"""Exact win rates of many pairs of fixed strategies, fast enough for a contest's round robin.

``solver.sweep`` values every move in every state with numpy, which suits one solve; a contest asks
for thousands of pairs of fixed strategies (4,950 for 100 entries), where each state needs only
the move its strategy makes. This is the same backward sweep over ``(layer, cur, opp)`` in
decreasing order of the sum, compiled with numba and read from the same ``Kernel`` tables, with
each player either fixed (a ``Policy``) or a best response (the perfect reply to the other).
``tests/hog_core/test_pairs.py`` checks it against ``solver.win_rate`` in every rule set.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from hog_core.kernel import FloatArray, Kernel
from hog_core.solver import TIE, Policy, WinRate, layer_order

FIXED, BEST = 0, 1
"""A player's mode: plays its policy, or the best response to the other."""
GOAL, NEXT_EXTRA, LAND_CUR = 0, 4, 16
"""Where ``Tables.arguments()`` holds what ``_many`` reads itself."""
LOOP_ROUNDS = 4
"""Rounds of the Bellman step that close sp22's 0-point cycles (as ``solver._close_loops``)."""


@dataclass(frozen=True)
class Tables:
    """A kernel's tables as flat arrays, in the shapes the compiled sweep reads."""

    goal: int
    max_dice: int
    perm: npt.NDArray[np.int64]
    """The kernel's layers in the sweep's order of layers: grouped by the extra-turn flag (a group's
    layers roll the same dice), each group's layers side by side in memory."""
    groups: npt.NDArray[np.int64]
    """``[group] -> (first, end)``: the sweep's layers of each kind of turn."""
    order: npt.NDArray[np.int64]
    next_extra: npt.NDArray[np.int64]
    next_normal: npt.NDArray[np.int64]
    next_chop: npt.NDArray[np.int64]
    layer_extra: npt.NDArray[np.int64]
    trot: npt.NDArray[np.int64]
    sides: npt.NDArray[np.int64]
    starts: npt.NDArray[np.int64]
    ends: npt.NDArray[np.int64]
    runs: npt.NDArray[np.int64]
    """``[run] -> (offset, length, first)``: outcomes whose moves on a flat landing row
    (``dopp * n_cur + dcur``) are consecutive, with the index of the first one's chance in ``prob``.
    ``starts``/``ends`` bound each ``[kind of dice, k]``'s runs."""
    prob: FloatArray
    zero_offsets: npt.NDArray[np.int64]
    loops: npt.NDArray[np.int64]
    land_cur: npt.NDArray[np.int64]
    land_opp: npt.NDArray[np.int64]
    land_extra: npt.NDArray[np.int64]
    start_layer: int

    def arguments(self) -> tuple[Any, ...]:
        """The tables in the order ``_sweep`` takes them (``GOAL``, ``NEXT_EXTRA`` and ``LAND_CUR`` index it)."""
        return (
            self.goal,
            self.max_dice,
            self.groups,
            self.order,
            self.next_extra,
            self.next_normal,
            self.next_chop,
            self.layer_extra,
            self.trot,
            self.sides,
            self.starts,
            self.ends,
            self.runs,
            self.prob,
            self.zero_offsets,
            self.loops,
            self.land_cur,
            self.land_opp,
            self.land_extra,
        )


def tables(kernel: Kernel) -> Tables:
    """The compiled sweep's view of ``kernel``."""
    layers = range(len(kernel.layers))
    chop = kernel.rules.pork_chop
    side_values = sorted(kernel.outcomes)
    max_dice = kernel.rules.max_dice
    n_cur = kernel.land_shape[0]
    starts = np.zeros((len(side_values), max_dice + 1), dtype=np.int64)
    ends = np.zeros_like(starts)
    runs: list[tuple[int, int, int]] = []
    probs: list[FloatArray] = []
    first = 0
    for s, sides in enumerate(side_values):
        out = kernel.outcomes[sides]
        offsets = out.dopp * n_cur + out.dcur
        bounds = [*out.starts.tolist(), len(out.k)]
        for k in range(1, max_dice + 1):
            starts[s, k] = len(runs)
            for j in range(bounds[k - 1], bounds[k]):
                if j > bounds[k - 1] and offsets[j] == offsets[j - 1] + 1:
                    offset, length, at = runs[-1]
                    runs[-1] = (offset, length + 1, at)
                else:
                    runs.append((int(offsets[j]), 1, first + j))
            ends[s, k] = len(runs)
        probs.append(out.prob)
        first += len(out.k)
    index = {sides: s for s, sides in enumerate(side_values)}
    perm = sorted(layers, key=lambda li: (kernel.layers[li].extra, li))
    inner = {li: i for i, li in enumerate(perm)}
    extra = [int(kernel.layers[li].extra) for li in perm]
    groups = [(extra.index(e), len(extra) - extra[::-1].index(e)) for e in sorted(set(extra))]

    def mapped(next_of: Callable[[int], int]) -> npt.NDArray[np.int64]:
        return np.array([inner[next_of(li)] if next_of(li) >= 0 else -1 for li in perm], dtype=np.int64)

    return Tables(
        goal=kernel.goal,
        max_dice=max_dice,
        perm=np.array(perm, dtype=np.int64),
        groups=np.array(groups, dtype=np.int64),
        order=np.array([inner[li] for li in layer_order(kernel)], dtype=np.int64),  # a chop's target layer first
        next_extra=mapped(lambda li: kernel.next_layer(li, extra=True)),
        next_normal=mapped(lambda li: kernel.next_layer(li, extra=False)),
        next_chop=mapped(
            lambda li: kernel.next_layer(li, extra=False, chop=True) if chop and not kernel.layers[li].chop_used else -1
        ),
        layer_extra=np.array(extra, dtype=np.int64),
        trot=np.array([kernel.time_trot[kernel.layers[li].turn, e] for li, e in zip(perm, extra, strict=True)]),
        sides=np.vectorize(index.__getitem__, otypes=[np.int64])(kernel.sides),
        starts=starts,
        ends=ends,
        runs=np.array(runs, dtype=np.int64),
        prob=np.concatenate(probs),
        zero_offsets=kernel.zero_dopp * n_cur + kernel.zero_dcur,
        loops=kernel.zero_loops.astype(np.int64),
        land_cur=kernel.land_cur,
        land_opp=kernel.land_opp,
        land_extra=kernel.land_extra.astype(np.int64),
        start_layer=inner[kernel.dims.index(0, False, False, False)],
    )


@numba.njit(cache=True, nogil=True)
def _fill(p, t, later, land, value, g, next_extra, next_normal, trotting, land_cur, land_opp, land_extra):  # type: ignore[no-untyped-def]
    """Landing values of player ``p`` on the cells of sum ``t`` whose totals after the rules reach a
    later sum (``later``) or the same one (not ``later``): ``land[p, forced, (opp * n_cur + cur) * L + layer]``
    (the forced extra turn's only in the layers where Time Trot can force one)."""
    nlayers = next_extra.shape[0]
    n_cur = land_cur.shape[0]
    for c in range(max(0, t - g + 1), min(t, g - 1) + 1):
        o = t - c
        nc, no = land_cur[c, o], land_opp[c, o]
        if (nc + no > t or nc >= g or no >= g) != later:
            continue
        base = (o * n_cur + c) * nlayers
        for li in range(nlayers):
            if nc >= g:
                normal = forced = 1.0
            elif no >= g:
                normal = forced = 0.0
            else:
                forced = value[p, nc + no, nc, next_extra[li]]
                normal = forced if land_extra[c, o] else 1.0 - value[1 - p, nc + no, no, next_normal[li]]
            land[p, 0, base + li] = normal
            if trotting[li]:
                land[p, 1, base + li] = forced


@numba.njit(cache=True, nogil=True, fastmath=True, inline="always")
def _roll(row, here, li, nlayers, s, k, starts, ends, runs, prob):  # type: ignore[no-untyped-def]
    """Layer ``li``'s chance to win rolling ``k`` dice of kind ``s`` from the cell ``here``."""
    acc = 0.0
    for r in range(starts[s, k], ends[s, k]):
        cell, first = here + runs[r, 0], runs[r, 2]
        if nlayers == 1:  # one layer (most rule sets): a contiguous run, vectorised
            for m in range(runs[r, 1]):
                acc += prob[first + m] * row[cell + m]
        else:
            for m in range(runs[r, 1]):
                acc += prob[first + m] * row[(cell + m) * nlayers + li]
    return acc


@numba.njit(cache=True, nogil=True, fastmath=True, inline="always")
def _rolls(acc, row, here, g0, g1, nlayers, s, k, starts, ends, runs, prob):  # type: ignore[no-untyped-def]
    """Every layer of ``g0:g1`` rolling ``k`` dice of kind ``s`` from the cell ``here``: eight layers
    (the contest's kinds of turn) in one pass, their landing values side by side."""
    if g1 - g0 != 8:
        for li in range(g0, g1):
            acc[li] = _roll(row, here, li, nlayers, s, k, starts, ends, runs, prob)
        return
    a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = 0.0
    for r in range(starts[s, k], ends[s, k]):
        cell, first = here + runs[r, 0], runs[r, 2]
        for m in range(runs[r, 1]):
            chance = prob[first + m]
            b = (cell + m) * nlayers + g0
            a0 += chance * row[b]
            a1 += chance * row[b + 1]
            a2 += chance * row[b + 2]
            a3 += chance * row[b + 3]
            a4 += chance * row[b + 4]
            a5 += chance * row[b + 5]
            a6 += chance * row[b + 6]
            a7 += chance * row[b + 7]
    acc[g0], acc[g0 + 1], acc[g0 + 2], acc[g0 + 3] = a0, a1, a2, a3
    acc[g0 + 4], acc[g0 + 5], acc[g0 + 6], acc[g0 + 7] = a4, a5, a6, a7


@numba.njit(cache=True, nogil=True, fastmath=True)
def _sweep(  # type: ignore[no-untyped-def]
    value,
    land,
    rolled,
    acc,
    policy,
    modes,
    g,
    max_dice,
    groups,
    order,
    next_extra,
    next_normal,
    next_chop,
    layer_extra,
    trot,
    sides,
    starts,
    ends,
    runs,
    prob,
    zero_offsets,
    loops,
    land_cur,
    land_opp,
    land_extra,
):
    """Both players' chance to win on their turn, in every state, by diagonal and layers innermost:
    ``value[player, cur + opp, cur, layer]`` (what a diagonal's turn reads lies together)."""
    nlayers = next_extra.shape[0]
    n_cur = land_cur.shape[0]
    trotting = np.zeros(nlayers, dtype=np.bool_)
    for li in range(nlayers):
        trotting[li] = trot[li].any()
    has_loops = loops.any()
    has_chop = (next_chop >= 0).any()
    normal_rows, forced_rows = land[:, 0], land[:, 1]
    for t in range(2 * g - 2, -1, -1):
        lo, hi = max(0, t - g + 1), min(t, g - 1)
        for p in range(2):
            _fill(p, t, True, land, value, g, next_extra, next_normal, trotting, land_cur, land_opp, land_extra)
        for p in range(2):
            normal, forced = normal_rows[p], forced_rows[p]
            best = modes[p] == BEST
            for c in range(lo, hi + 1):
                o = t - c
                here = o * n_cur + c
                loop = loops[c, o] == 1
                zero = (here + zero_offsets[c, o]) * nlayers
                for gi in range(len(groups)):
                    g0, g1 = groups[gi, 0], groups[gi, 1]
                    s = sides[layer_extra[g0], c, o]
                    k0 = policy[p, c, o, g0]
                    alike = not loop and k0 >= 1
                    for li in range(g0 + 1, g1):
                        alike = alike and policy[p, c, o, li] == k0
                    if best and not loop:  # every move, each for the whole group at once
                        for li in range(g0, g1):
                            value[p, t, c, li] = (forced if trot[li, 0] else normal)[zero + li]
                        for k in range(1, max_dice + 1):
                            _rolls(acc, normal, here, g0, g1, nlayers, s, k, starts, ends, runs, prob)
                            for li in range(g0, g1):
                                q = acc[li]
                                if trot[li, k]:
                                    q = _roll(forced, here, li, nlayers, s, k, starts, ends, runs, prob)
                                if q > value[p, t, c, li]:
                                    value[p, t, c, li] = q
                    elif alike:  # the group's layers all roll k0: one pass for them all
                        _rolls(acc, normal, here, g0, g1, nlayers, s, k0, starts, ends, runs, prob)
                        for li in range(g0, g1):
                            q = acc[li]
                            if trot[li, k0]:
                                q = _roll(forced, here, li, nlayers, s, k0, starts, ends, runs, prob)
                            value[p, t, c, li] = q
                    else:  # layer by layer: moves that differ, Pork Chop, sp22's 0-point cycles
                        for li in range(g0, g1):
                            k = policy[p, c, o, li]
                            if best:  # a 0-point cycle (sp22): the best roll, closed below
                                v = -1.0
                                for kk in range(1, max_dice + 1):
                                    row = forced if trot[li, kk] else normal
                                    v = max(v, _roll(row, here, li, nlayers, s, kk, starts, ends, runs, prob))
                                rolled[p, c] = v
                                v = 0.5
                            elif k == -1:
                                v = -1.0  # Pork Chop: after every roll of this diagonal, below
                            elif k == 0:
                                v = 0.5 if loop else (forced if trot[li, 0] else normal)[zero + li]
                            else:
                                row = forced if trot[li, k] else normal
                                v = _roll(row, here, li, nlayers, s, k, starts, ends, runs, prob)
                            if loop and not best:
                                kk = max(k, 1)
                                row = forced if trot[li, kk] else normal
                                rolled[p, c] = _roll(row, here, li, nlayers, s, kk, starts, ends, runs, prob)
                            value[p, t, c, li] = v
        if has_chop:  # a Pork Chop leads to the other's state of the same totals: target layers first
            for li in order:
                if next_chop[li] < 0:
                    continue
                for p in range(2):
                    for c in range(lo, hi + 1):
                        chop = 1.0 - value[1 - p, t, c, next_chop[li]]
                        if modes[p] == BEST:
                            if chop > value[p, t, c, li] + TIE:
                                value[p, t, c, li] = chop
                        elif policy[p, c, t - c, li] == -1:
                            value[p, t, c, li] = chop
        for _ in range(LOOP_ROUNDS if has_loops else 0):  # sp22's 0-point cycles (a single-layer rule set)
            for p in range(2):
                for c in range(lo, hi + 1):
                    o = t - c
                    if loops[c, o] == 1:
                        passing = 1.0 - value[1 - p, t, o, 0]
                        if modes[p] == BEST:
                            value[p, t, c, 0] = max(rolled[p, c], passing)
                        elif policy[p, c, o, 0] == 0:
                            value[p, t, c, 0] = passing
                        else:
                            value[p, t, c, 0] = rolled[p, c]
        for p in range(2):
            _fill(p, t, False, land, value, g, next_extra, next_normal, trotting, land_cur, land_opp, land_extra)


@numba.njit(cache=True, nogil=True)
def _many(policies, pairs, modes, start, out, kernel):  # type: ignore[no-untyped-def]
    """Each pair's win rates into ``out[i] = (A first, A second)``, with one set of scratch arrays;
    ``kernel`` is ``Tables.arguments()``."""
    g, next_extra, land_cur = kernel[GOAL], kernel[NEXT_EXTRA], kernel[LAND_CUR]
    nlayers = next_extra.shape[0]
    n_cur, n_opp = land_cur.shape
    value = np.empty((2, 2 * g - 1, g, nlayers))
    land = np.empty((2, 2, n_opp * n_cur * nlayers))
    for c in range(n_cur):  # the cells past the goal, the same for every pair
        for o in range(n_opp):
            if c >= g or o >= g:
                base = (o * n_cur + c) * nlayers
                land[:, :, base : base + nlayers] = 1.0 if land_cur[c, o] >= g else 0.0
    rolled = np.zeros((2, g))
    acc = np.zeros(nlayers)
    policy = np.empty((2, g, g, nlayers), dtype=np.int8)
    for i in range(len(pairs)):
        policy[0] = policies[pairs[i, 0]]
        policy[1] = policies[pairs[i, 1]]
        _sweep(value, land, rolled, acc, policy, modes[i], *kernel)
        out[i, 0] = value[0, 0, 0, start]
        out[i, 1] = 1.0 - value[1, 0, 0, start]


class Pairs:
    """Exact win rates of pairs drawn from a list of policies of one kernel. The compiled sweep runs
    without the GIL: a caller may share pairs among threads (``bot.games.hog.contest.arena``)."""

    def __init__(self, kernel: Kernel) -> None:
        if kernel.direct:
            raise ValueError(
                f"{kernel.rules.semester}: no contest is run in these rules: a turn there lands by more than its totals"
            )
        self.kernel = kernel
        self.tables = tables(kernel)

    def rates(
        self, policies: Sequence[Policy], pairs: Sequence[tuple[int, int]], best: Sequence[bool] = ()
    ) -> list[WinRate]:
        """A's exact win rate against B for each pair ``(a, b)`` of indices into ``policies``; a pair
        whose ``best`` is true plays A as the best response to B (A's policy is not read)."""
        if not pairs:
            return []
        t = self.tables
        stacked = np.stack([np.asarray(p, dtype=np.int8)[t.perm].transpose(1, 2, 0) for p in policies])
        index = np.array(pairs, dtype=np.int64).reshape(-1, 2)
        modes = np.zeros((len(index), 2), dtype=np.int64)
        if best:
            modes[:, 0] = np.array(best, dtype=np.int64)
        out = np.empty((len(index), 2))
        _many(stacked, index, modes, t.start_layer, out, t.arguments())
        return [WinRate(float(first), float(second)) for first, second in out]

    def rate(self, a: Policy, b: Policy) -> WinRate:
        """A's exact win rate against B, both seat orders."""
        return self.rates([a, b], [(0, 1)])[0]

    def exploitability(self, policy: Policy) -> float:
        """The best response's win chance against ``policy``, both seat orders averaged."""
        return self.rates([policy, policy], [(0, 1)], best=[True])[0].average


def warm() -> None:
    """Compile the sweep (numba keeps it on disk) by running it once on the smallest game: a process
    that runs this first, in a child, then only loads what was compiled."""
    from hog_core.rulesets import FA18

    kernel = Kernel(FA18, 10)
    policy = np.ones((len(kernel.layers), kernel.goal, kernel.goal), dtype=np.int8)
    Pairs(kernel).rates([policy, policy], [(0, 1), (1, 0)], best=[True, False])
