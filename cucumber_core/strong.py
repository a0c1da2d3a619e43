"""The strong bot: determinized Monte Carlo search from its seat's private view alone.

For each legal value it might play (suits never matter), it deals the cards it cannot see to the other
seats many times over, consistent with what their play has shown (a player who could not reach the
trick's high card played their lowest, so everything they still hold lies between that card and the
high card), plays every such world to the end of the hand on arrays, every player at random
(``simulate.random_rollout``), and plays the value whose worlds cost it least: the points it takes,
and far more when they would reach the target. With two cards left the rest of the hand is solved
exactly in each world instead (every player then plays what is best for themselves). It never looks
at another seat's hand: ``SeatView`` has none to look at.
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

ENDGAME = 2
"""Cards in hand from which the rest of the hand is solved exactly in each world: this trick, then
the last, whose cards are forced."""

_FULL = np.full(15, 4, dtype=np.int64)
_FULL[:2] = 0  # values 2..14, four of each


def searches(view: SeatView) -> bool:
    """Whether ``choose`` searches from ``view`` (under a millisecond at a table of three, up to 3 at six)
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
    mine = [value(c) for c in view.hand]
    seen = np.bincount(mine + [value(c) for t in public.tricks for _, c in t.plays], minlength=15)
    pool = np.repeat(np.arange(15), _FULL - seen)  # the unseen values, undealt cards among them
    hands = np.zeros((worlds, n, k), dtype=np.int64)
    hands[:, me] = mine
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
        if short.any():  # an inconsistent constraint (never, in a legal game): drop it
            free[short] = ~taken[short]
        keys = np.where(free, rng.random(free.shape), -1.0)
        pick = np.argsort(-keys, axis=1)[:, :need]
        taken[np.arange(worlds)[:, None], pick] = True
        hands[:, s, :need] = pool[pick]
    return hands


def _with_mine(view: SeatView, played: IntArray) -> tuple[IntArray, IntArray]:
    """The trick's highest value and the seat taking it once this seat plays ``played`` (a value a row)."""
    public, trick = view.public, view.public.tricks[-1]
    so_far = [value(c) for _, c in trick.plays]
    first = trick.plays[rules.trick_winner(so_far)][0] if so_far else view.seat
    return np.maximum(played, public.high), np.where(played >= public.high, view.seat, first)


def _costs(view: SeatView, values: list[int], rng: np.random.Generator, worlds: int) -> FloatArray:
    public, me = view.public, view.seat
    base = _sample(view, rng, worlds)
    c = len(values)
    hands = np.concatenate([base] * c)  # candidate-major: rows [i*worlds:(i+1)*worlds] play values[i]
    mine = hands[:, me]
    played = np.repeat(np.array(values), worlds)
    col = (mine == played[:, None]).argmax(axis=1)
    mine[np.arange(mine.shape[0]), col] = 0
    hands[:, me] = mine
    trick = public.tricks[-1]
    high, winner = _with_mine(view, played)
    leader = np.full(hands.shape[0], trick.leader, dtype=np.int64)
    end = simulate.random_rollout(hands, leader, rng, played=len(trick.plays) + 1, high=high, winner=winner)
    score = public.seats[me].score
    gain = np.where(end.winner == me, end.top, 0)
    gain -= np.where((end.winner != me) & (end.last[:, me] == end.top), np.minimum(score, end.top), 0)
    cost = gain + LOSS_PENALTY * (score + gain >= public.target)
    mean: FloatArray = cost.reshape(c, worlds).sum(axis=1) / worlds  # whole points: as exact as ``mean``
    return mean


def _endgame_costs(view: SeatView, values: list[int], rng: np.random.Generator, worlds: int) -> FloatArray:
    """This trick and the last solved exactly in every sampled world: each player after this seat
    plays the card that costs them least, knowing the world and that the others do the same (max^n,
    the lower card when both cost the same).

    Every world and every way the trick can go are played at once: each player after this seat holds
    two cards, so the trick has at most ``2 ** r`` endings for ``r`` players still to play (the first
    of them the highest bit of an ending's number); each ending's last trick is forced. Then, from the
    trick's last player back to this seat's next, each chooses between the two endings that differ in
    their own card alone."""
    public, me = view.public, view.seat
    n, trick = len(public.seats), public.tricks[-1]
    sampled = np.sort(np.concatenate([_sample(view, rng, worlds)] * len(values)), axis=2)  # candidate-major rows
    after = [(trick.leader + i) % n for i in range(len(trick.plays) + 1, n)]  # who plays after this seat
    endings = np.arange(1 << len(after))
    played = np.repeat(np.array(values), worlds)[:, None]
    mine = sampled[:, me]
    kept = np.where(mine[:, :1] == played, mine[:, 1:], mine[:, :1])  # the card this seat keeps
    high, winner = _with_mine(view, played)
    winner = winner + np.zeros_like(endings)
    last = np.tile(sampled[:, :, 1:], (1, 1, endings.size))  # (rows, seats, endings): each one's last card
    last[:, me] = kept
    for depth, seat in enumerate(after):
        low, top = sampled[:, seat, :1], sampled[:, seat, 1:]
        higher = (endings >> (len(after) - 1 - depth)) & 1
        card = np.where(low >= high, np.where(higher == 1, top, low), np.where(top >= high, top, low))
        last[:, seat] = low + top - card
        winner = np.where(card >= high, seat, winner)
        high = np.maximum(high, card)
    order = (np.arange(n)[None, :, None] - winner[:, None, :]) % n  # each seat's place in the last trick
    best = last.max(axis=1, keepdims=True)
    takes = ((last == best) * (order + 1)).argmax(axis=1)  # the last card of the highest value
    scores = np.array([s.score for s in public.seats])[None, :, None]
    seats = np.arange(n)[None, :, None]
    lose = np.where(last == best, np.maximum(scores - best, 0), scores)  # who played the top value loses it
    new = np.where(seats == takes[:, None, :], scores + best, lose)
    cost = new - scores + LOSS_PENALTY * (new >= public.target)  # (rows, seats, endings)
    for seat in reversed(after):  # the last to play chooses first: between endings 2e and 2e + 1
        lower, upper = cost[:, :, 0::2], cost[:, :, 1::2]
        cost = np.where(upper[:, seat : seat + 1] < lower[:, seat : seat + 1], upper, lower)
    mean: FloatArray = cost[:, me, 0].reshape(len(values), worlds).sum(axis=1) / worlds
    return mean
