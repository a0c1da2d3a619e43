"""The strong bot: determinized Monte Carlo search from its seat's private view alone.

For each legal value it might play (suits never matter), it deals the cards it cannot see to the other
seats many times over, consistent with what their play has shown (a player who could not reach the
trick's high card played their lowest, so everything they still hold lies between that card and the
high card), plays every such world to the end of the hand on arrays (``simulate.finish_hands``) and
plays the value whose worlds cost it least: the points it takes, and far more when they would reach
the target. With two cards left the rest of the hand is solved exactly in each world instead (every
player then plays what is best for themselves). It never looks at another seat's hand: ``SeatView``
has none to look at.
"""

from __future__ import annotations

import numpy as np

from cucumber_core import rules, simulate
from cucumber_core.cards import Card, value
from cucumber_core.simulate import FloatArray, IntArray
from cucumber_core.views import SeatView

WORLDS = 48
"""Sampled deals of the unseen cards per decision."""
LOSS_PENALTY = 40
"""What reaching the target costs, in points: losing the match dwarfs any hand's points."""

ROLLOUT = simulate.uniform
"""How every player plays the rest of the hand in a sampled world, before the endgame."""

ENDGAME = 2
"""Cards in hand from which the rest of the hand is solved exactly in each world: this trick, then
the last, whose cards are forced."""

_FULL = np.full(15, 4, dtype=np.int64)
_FULL[:2] = 0  # values 2..14, four of each


def searches(view: SeatView) -> bool:
    """Whether ``choose`` searches from ``view`` (milliseconds: 2 at a table of three, up to 10 at six)
    rather than play its one legal value at once."""
    return len({value(c) for c in view.legal}) > 1


def choose(view: SeatView, rng: np.random.Generator, *, worlds: int = WORLDS) -> Card:
    """The card to play: the legal value with the least expected cost over sampled worlds."""
    legal = view.legal
    values = sorted({value(c) for c in legal})
    if len(values) == 1:
        return legal[0]
    best = values[int(np.argmin(costs(view, values, rng, worlds)))]
    return next(c for c in legal if value(c) == best)


def costs(view: SeatView, values: list[int], rng: np.random.Generator, worlds: int = WORLDS) -> FloatArray:
    """What playing each of ``values`` costs the seat by the end of the hand, averaged over sampled
    worlds: the points it takes, and ``LOSS_PENALTY`` more when they reach the target."""
    solve = _endgame_costs if len(view.hand) == ENDGAME else _costs
    return solve(view, values, rng, worlds)


def _constraints(view: SeatView) -> tuple[list[int], list[int]]:
    """Per seat, the lowest and highest value it can still hold, from its forced low plays (R7)."""
    n = len(view.public.seats)
    lo, hi = [2] * n, [14] * n
    for trick in view.public.tricks:
        high = 0
        for seat, card in trick.plays:
            v = value(card)
            if v < high:  # could not reach `high`, so played its lowest
                lo[seat], hi[seat] = max(lo[seat], v), min(hi[seat], high - 1)
            high = max(high, v)
    return lo, hi


def _sample(view: SeatView, rng: np.random.Generator, worlds: int) -> IntArray:
    """``(worlds, seats, cards)`` hands: the seat's own in every world, the others' drawn from the
    unseen cards, 0 for cards already played."""
    public, me = view.public, view.seat
    n, k = len(public.seats), len(view.hand)
    counts = _FULL.copy()
    for v in [value(c) for c in view.hand] + [value(c) for t in public.tricks for _, c in t.plays]:
        counts[v] -= 1
    pool = np.repeat(np.arange(15), counts)  # the unseen values, undealt cards among them
    hands = np.zeros((worlds, n, k), dtype=np.int64)
    hands[:, me] = [value(c) for c in view.hand]
    lo, hi = _constraints(view)
    taken = np.zeros((worlds, pool.size), dtype=bool)
    others = sorted((s for s in range(n) if s != me), key=lambda s: hi[s] - lo[s])
    for s in others:
        need = public.seats[s].cards_left
        if not need:
            continue
        fits = (pool >= lo[s]) & (pool <= hi[s])
        free = ~taken & fits
        short = free.sum(axis=1) < need
        free[short] = ~taken[short]  # an inconsistent constraint (never, in a legal game): drop it
        keys = np.where(free, rng.random(free.shape), -1.0)
        pick = np.argsort(-keys, axis=1)[:, :need]
        taken[np.arange(worlds)[:, None], pick] = True
        hands[:, s, :need] = pool[pick]
    return hands


def _costs(view: SeatView, values: list[int], rng: np.random.Generator, worlds: int) -> FloatArray:
    public, me = view.public, view.seat
    n = len(public.seats)
    base = _sample(view, rng, worlds)
    c = len(values)
    hands = np.tile(base, (c, 1, 1))  # candidate-major: rows [i*worlds:(i+1)*worlds] play values[i]
    mine = hands[:, me]
    played = np.repeat(np.array(values), worlds)
    col = (mine == played[:, None]).argmax(axis=1)
    mine[np.arange(mine.shape[0]), col] = 0
    hands[:, me] = mine
    trick = public.tricks[-1]
    plays = [(s, value(card)) for s, card in trick.plays] + [(me, -1)]
    high = np.full(hands.shape[0], public.high, dtype=np.int64)
    winner = np.full(hands.shape[0], trick.leader, dtype=np.int64)
    for s, v in plays[:-1]:
        if v >= public.high:
            winner[:] = s  # the last card of the highest value so far
    winner = np.where(played >= high, me, winner)
    high = np.maximum(high, played)
    leader = np.full(hands.shape[0], trick.leader, dtype=np.int64)
    end = simulate.finish_hands(hands, leader, [ROLLOUT] * n, rng, played=len(plays), high=high, winner=winner)
    score = public.seats[me].score
    gain = np.where(end.winner == me, end.top, 0)
    gain -= np.where((end.winner != me) & (end.last[:, me] == end.top), np.minimum(score, end.top), 0)
    cost = gain + LOSS_PENALTY * (score + gain >= public.target)
    mean: FloatArray = cost.reshape(c, worlds).mean(axis=1)
    return mean


def _endgame_costs(view: SeatView, values: list[int], rng: np.random.Generator, worlds: int) -> FloatArray:
    """This trick and the last solved exactly in every sampled world: each player after this seat
    plays the card that costs them least, knowing the world and that the others do the same (max^n)."""
    public, me = view.public, view.seat
    n, trick = len(public.seats), public.tricks[-1]
    scores = [s.score for s in public.seats]
    sampled = _sample(view, rng, worlds)

    def cost(last: list[tuple[int, int]]) -> list[int]:
        new = rules.score_hand(scores, last, last[rules.trick_winner([v for _, v in last])][0])
        return [new[s] - scores[s] + LOSS_PENALTY * (new[s] >= public.target) for s in range(n)]

    def play_out(plays: list[tuple[int, int]], held: list[list[int]]) -> list[int]:
        if len(plays) == n:  # the trick is done: its winner leads the last, one card each
            lead = plays[rules.trick_winner([v for _, v in plays])][0]
            return cost([((lead + i) % n, held[(lead + i) % n][0]) for i in range(n)])
        seat = (trick.leader + len(plays)) % n
        high = max((v for _, v in plays), default=0)
        options = sorted({held[seat][i] for i in rules.legal(held[seat], high)})
        return min((play_out([*plays, (seat, v)], _without(held, seat, v)) for v in options), key=lambda c: c[seat])

    total = np.zeros(len(values))
    so_far = [(s, value(c)) for s, c in trick.plays]
    for world in sampled:
        held = [[int(v) for v in hand if v > 0] for hand in world]
        for i, v in enumerate(values):
            total[i] += play_out([*so_far, (me, v)], _without(held, me, v))[me]
    costs: FloatArray = total / worlds
    return costs


def _without(held: list[list[int]], seat: int, v: int) -> list[list[int]]:
    hand = list(held[seat])
    hand.remove(v)
    return [hand if s == seat else h for s, h in enumerate(held)]
