"""Monte Carlo games between two strategies, many at once, as a Markov chain on arrays.

A game's state is ``(mover, layer, cur, opp)``; with both strategies fixed, each state's next state
depends only on the dice. ``Chain`` tabulates, for every state, which dice it rolls and where each
outcome leads; ``simulate`` then advances a whole batch of games a turn at a time by sampling each
game's outcome from small alias tables (Walker's method) and looking up its next state. The random
generator comes from the caller: nothing here picks a seed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hog_core.game import PORK_CHOP
from hog_core.kernel import FloatArray, IntArray, Kernel
from hog_core.solver import Policy


def _alias(prob: FloatArray, width: int) -> tuple[FloatArray, IntArray]:
    """Walker's alias table of a distribution, padded to ``width`` columns."""
    p = np.zeros(width)
    p[: len(prob)] = prob * width / prob.sum()
    accept, alias = np.zeros(width), np.zeros(width, dtype=np.int64)
    small = [i for i in range(width) if p[i] < 1.0]
    large = [i for i in range(width) if p[i] >= 1.0]
    while small and large:
        s, g = small.pop(), large.pop()
        accept[s], alias[s] = p[s], g
        p[g] -= 1.0 - p[s]
        (small if p[g] < 1.0 else large).append(g)
    for i in small + large:
        accept[i], alias[i] = 1.0, i
    return accept, alias


class Chain:
    """Two fixed strategies' game as a Markov chain: A is mover 0, B is mover 1."""

    def __init__(self, kernel: Kernel, policy_a: Policy, policy_b: Policy) -> None:
        if kernel.direct:
            raise ValueError(f"{kernel.rules.semester} is not simulated: its exact win rates come from the solver")
        g, n_layers = kernel.goal, len(kernel.layers)
        self.kernel = kernel
        self.policies = (policy_a, policy_b)
        self.live = 2 * n_layers * g * g
        self.win = (self.live, self.live + 1)  # A wins, B wins
        dists = [(s, k) for s, out in kernel.outcomes.items() for k in range(1, kernel.rules.max_dice + 1)]
        rows = {(s, k): self._rows(s, k) for s, k in dists}
        self.width = max(len(r) for r in rows.values())
        tables = [_alias(np.array([1.0]), self.width)] + [
            _alias(kernel.outcomes[s].prob[rows[s, k]], self.width) for s, k in dists
        ]
        self.accept = np.concatenate([t[0] for t in tables]).astype(np.float32)
        self.alias = np.concatenate([t[1] for t in tables]).astype(np.int32)

        self.dist = np.zeros(self.live + 2, dtype=np.int32)  # 0: a move with no dice
        self.next = np.empty((self.live + 2, self.width), dtype=np.int32)
        self.next[self.live :] = np.array(self.win)[:, None]
        cur, opp = (a.ravel() for a in np.indices((g, g)))
        for mover, policy in enumerate((policy_a, policy_b)):
            for li, layer in enumerate(kernel.layers):
                base = self.state(mover, li, cur, opp)
                k = policy[li, cur, opp].astype(np.int64)
                chop = (k == PORK_CHOP) & ~np.bool_(layer.chop_used)
                k = np.where(k == PORK_CHOP, kernel.rules.max_dice, k)
                target = kernel.next_layer(li, extra=False, chop=True) if kernel.rules.pork_chop else li
                self.next[base[chop], 0] = self.state(1 - mover, target, cur[chop], opp[chop])
                zero = (k == 0) & ~chop
                c, o = cur[zero], opp[zero]
                self.next[base[zero], 0] = self._land(
                    mover, li, 0, c + kernel.zero_dcur[c, o], o + kernel.zero_dopp[c, o]
                )
                sides = kernel.sides[int(layer.extra), cur, opp]
                for d, (s, kk) in enumerate(dists, start=1):
                    pick = (sides == s) & (k == kk) & ~chop
                    out, r = kernel.outcomes[s], rows[s, kk]
                    c, o = cur[pick, None], opp[pick, None]
                    self.dist[base[pick]] = d
                    self.next[base[pick], : len(r)] = self._land(mover, li, kk, c + out.dcur[r], o + out.dopp[r])
                    self.next[base[pick], len(r) :] = self.next[base[pick], :1]

    def _rows(self, sides: int, k: int) -> IntArray:
        out = self.kernel.outcomes[sides]
        return np.flatnonzero(out.k == k)

    def state(self, mover: int, layer: int, cur: IntArray, opp: IntArray) -> IntArray:
        g = self.kernel.goal
        return ((mover * len(self.kernel.layers) + layer) * g + cur) * g + opp

    def _land(self, mover: int, li: int, k: int, cur: IntArray, opp: IntArray) -> IntArray:
        """Where new totals ``(cur, opp)`` lead once the after-add and extra-turn rules run."""
        kernel, g = self.kernel, self.kernel.goal
        layer = kernel.layers[li]
        nc, no = kernel.land_cur[cur, opp], kernel.land_opp[cur, opp]
        extra = kernel.land_extra[cur, opp] | kernel.time_trot[layer.turn, int(layer.extra), k]
        lc, lo = np.minimum(nc, g - 1), np.minimum(no, g - 1)
        again = self.state(mover, kernel.next_layer(li, extra=True), lc, lo)
        passed = self.state(1 - mover, kernel.next_layer(li, extra=False), lo, lc)
        return np.where(
            nc >= g, self.win[mover], np.where(no >= g, self.win[1 - mover], np.where(extra, again, passed))
        )


@dataclass(frozen=True)
class SimulationResult:
    """A's wins over the games where A moved first and where B did; unfinished games are draws."""

    games_first: int
    wins_first: int
    games_second: int
    wins_second: int
    draws: int

    @property
    def win_rate(self) -> float:
        return (self.wins_first / self.games_first + self.wins_second / self.games_second) / 2

    @property
    def standard_error(self) -> float:
        p1, p2 = self.wins_first / self.games_first, self.wins_second / self.games_second
        return float(np.sqrt(p1 * (1 - p1) / self.games_first + p2 * (1 - p2) / self.games_second) / 2)


def _play(chain: Chain, start: int, games: int, rng: np.random.Generator, turn_limit: int) -> tuple[int, int]:
    """Play ``games`` from state ``start``: (A's wins, draws). Buffers are reused: this is the hot loop."""
    width = chain.width
    dist, accept, alias, nxt = chain.dist * width, chain.accept, chain.alias, chain.next.ravel()
    s = np.full(games, start, dtype=np.int32)
    u_buf, col_buf = np.empty(games, dtype=np.float32), np.empty(games, dtype=np.int32)
    wins_a = 0
    for turn in range(turn_limit):
        n = len(s)
        u, col = u_buf[:n], col_buf[:n]
        rng.random(out=u, dtype=np.float32)
        u *= np.float32(width)
        np.copyto(col, u, casting="unsafe")
        np.minimum(col, width - 1, out=col)
        cell = dist[s]
        cell += col
        u -= col  # the fraction decides between a column and its alias
        j = alias[cell]
        np.copyto(j, col, where=u < accept[cell])
        s *= width
        s += j
        s = nxt[s]
        if turn % 4 == 3 or turn == turn_limit - 1:
            wins_a += int(np.count_nonzero(s == chain.win[0]))
            s = s[s < chain.live]
            if not len(s):
                break
    return wins_a, len(s)


def simulate(
    chain: Chain,
    games: int,
    rng: np.random.Generator,
    *,
    batch: int = 1 << 16,
    progress: Callable[[int], object] | None = None,
) -> SimulationResult:
    """Play ``games`` games, half with A moving first; ``progress(n)`` hears each finished batch."""
    kernel = chain.kernel
    start = kernel.dims.index(0, False, False, False)
    origin = np.zeros(1, dtype=np.int64)
    firsts = (int(chain.state(0, start, origin, origin)[0]), int(chain.state(1, start, origin, origin)[0]))
    turn_limit = 10 * kernel.goal
    seats = []
    for first, count in zip(firsts, (games // 2, games - games // 2), strict=True):
        wins = draws = 0
        for done in range(0, count, batch):
            n = min(batch, count - done)
            won, drawn = _play(chain, first, n, rng, turn_limit)
            wins, draws = wins + won, draws + drawn
            if progress is not None:
                progress(n)
        seats.append((count, wins, draws))
    (n1, w1, d1), (n2, w2, d2) = seats
    return SimulationResult(n1, w1, n2, w2, d1 + d2)
