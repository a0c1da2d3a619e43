"""Many games at once, on arrays: the engine's rules (R5-R11) over a batch of games a card at a time.

A hand is an array ``(rows, seats, cards)`` of card values in the order dealt, 0 where a card has
been played; suits never change play or scoring, so values are all a game needs once dealt. A
*policy* picks, for every row, the index of the card its seat plays. ``tests/cucumber`` checks
that these games equal the engine's (``cucumber_core.game``) card for card, on the same decks.
The random generator comes from the caller: nothing here picks a seed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
ByteArray = npt.NDArray[np.uint8]
Policy = Callable[[IntArray, IntArray, np.random.Generator], IntArray]
"""``(hands (rows, cards), high (rows,), rng) -> index (rows,)``: the card each row's player plays."""
DeckSource = Callable[[IntArray, int], IntArray]
"""``(game indices, hand number from 1) -> shuffled decks (games, 52)`` for those games' next hand."""

_BIG = 99


def _reach(hand: IntArray, high: IntArray) -> tuple[BoolArray, BoolArray, IntArray]:
    """Cards that reach ``high``, whether any does, and the first lowest card (R7's fallback)."""
    alive = hand > 0
    reach = alive & (hand >= high[:, None])
    has: BoolArray = np.logical_or.reduce(reach, axis=1)  # np.any, without its Python wrapper
    low: IntArray = np.where(alive, hand, _BIG).argmin(axis=1)
    return reach, has, low


def play_first(hand: IntArray, high: IntArray, rng: np.random.Generator) -> IntArray:
    reach, has, low = _reach(hand, high)
    return np.where(has, reach.argmax(axis=1), low)


def fimp(hand: IntArray, high: IntArray, rng: np.random.Generator) -> IntArray:
    reach, has, low = _reach(hand, high)
    return np.where(has, np.where(reach, hand, _BIG).argmin(axis=1), low)


def magic(hand: IntArray, high: IntArray, rng: np.random.Generator) -> IntArray:
    alive = hand > 0
    top = np.where(alive, hand, -1).argmax(axis=1)
    others = alive & (np.arange(hand.shape[1]) != top[:, None])
    second = np.where(others, hand, -1).argmax(axis=1)
    lead = np.where(others.any(axis=1), second, top)
    return np.where(high == 0, lead, fimp(hand, high, rng))


def uniform(hand: IntArray, high: IntArray, rng: np.random.Generator) -> IntArray:
    """A uniform choice among the legal cards (the strong bot's rollouts: every call counts)."""
    alive = hand > 0
    reach = alive & (hand >= high[:, None])
    has = np.logical_or.reduce(reach, axis=1)
    low = np.minimum.reduce(np.where(alive, hand, _BIG), axis=1)
    legal = np.where(has[:, None], reach, alive & (hand == low[:, None]))
    keys: FloatArray = np.where(legal, rng.random(hand.shape), -1.0)
    pick: IntArray = keys.argmax(axis=1)
    return pick


POLICIES: dict[str, Policy] = {"play_first": play_first, "fimp": fimp, "magic": magic, "random": uniform}


@dataclass(frozen=True, slots=True)
class HandEnd:
    """How a batch of hands ended: the last trick's winner, its value and every seat's last card."""

    winner: IntArray
    top: IntArray
    last: IntArray


def finish_hands(
    hands: IntArray,
    leader: IntArray,
    policies: Sequence[Policy],
    rng: np.random.Generator,
    *,
    played: int = 0,
    high: IntArray | None = None,
    winner: IntArray | None = None,
) -> HandEnd:
    """Play a batch of hands to their end, from a trick in which ``played`` cards are down already
    (``high`` the highest, ``winner`` its seat). ``hands`` is changed in place; seat s plays by
    ``policies[s]``. The last trick is the one each hand's players hold one card for."""
    rows, n, _ = hands.shape
    ar = np.arange(rows)
    high = np.zeros(rows, dtype=np.int64) if high is None else high.copy()
    winner = leader.copy() if winner is None else winner.copy()
    last = np.zeros((rows, n), dtype=np.int64)
    same = all(p is policies[0] for p in policies)
    while True:
        last_trick = int((hands[0] > 0).sum()) == n - played  # every player holds one card, or has played it
        for j in range(played, n):
            seat = (leader + j) % n
            hand = hands[ar, seat]
            if same:
                pick = policies[0](hand, high, rng)
            else:
                pick = np.empty(rows, dtype=np.int64)
                for s, policy in enumerate(policies):
                    rows_s = np.flatnonzero(seat == s)
                    if rows_s.size:
                        pick[rows_s] = policy(hand[rows_s], high[rows_s], rng)
            v = hand[ar, pick]
            hands[ar, seat, pick] = 0
            winner = np.where(v >= high, seat, winner)
            high = np.maximum(high, v)
            if last_trick:
                last[ar, seat] = v
        if last_trick:
            return HandEnd(winner, high, last)
        leader, played = winner, 0
        high = np.zeros(rows, dtype=np.int64)


def random_rollout(
    hands: IntArray, leader: IntArray, rng: np.random.Generator, *, played: int, high: IntArray, winner: IntArray
) -> HandEnd:
    """``finish_hands`` with every seat playing ``uniform``: the same draws and the same cards in half
    the time (the strong bot's rollouts, its main cost). Every draw is made at once (one
    ``rng.random`` of all the steps' shapes gives the numbers the steps would draw one by one). The
    hands are held card-major, ``(cards, rows * seats)`` bytes, so that what is reduced over a hand's
    few cards is a handful of whole-row operations rather than a loop per row; a played card is 0,
    which ``hand - 1`` wraps above every held card, and ``high`` is kept at least 1, so that reaching
    it means holding the card. A lead may be any card held, and the last trick's cards are forced:
    neither asks what reaches. ``hands`` is left as it is."""
    rows, n, k = hands.shape
    held = np.ascontiguousarray(hands.astype(np.uint8).reshape(rows * n, k).T)
    ar = np.arange(rows)
    steps = int(np.count_nonzero(hands[0]))
    keys = np.ascontiguousarray(rng.random((steps, rows, k)).transpose(0, 2, 1))
    top = np.maximum(high, 1).astype(np.uint8)
    last = np.zeros((rows, n), dtype=np.int64)
    turns, start = (np.arange(n)[:, None] + np.arange(n)) % n, ar * n  # turns[j, leader]: the j-th to play
    step = 0
    while steps - step > n - played:  # every trick but the last
        seats = turns.take(leader, axis=1)
        at = seats + start
        for j in range(played, n):
            hand = held.take(at[j], axis=1)
            if j == 0:  # the lead: any card held
                legal = hand != 0
            else:
                reach = hand >= top
                below = hand - np.uint8(1)  # a played card wraps to 255
                lowest = below == np.minimum.reduce(below, axis=0)
                legal = np.where(np.logical_or.reduce(reach, axis=0), reach, lowest)
            pick = np.where(legal, keys[step], -1.0).argmax(axis=0)
            v = hand[pick, ar]
            held[pick, at[j]] = 0
            winner, top = _taking(j, v, seats[j], winner, top)
            step += 1
        leader, played = winner, 0
    seats = turns.take(leader, axis=1)  # the last trick: each plays the one card left (its draw unread)
    at = seats + start
    for j in range(played, n):
        v = np.maximum.reduce(held.take(at[j], axis=1), axis=0)
        winner, top = _taking(j, v, seats[j], winner, top)
        last[ar, seats[j]] = v
    return HandEnd(winner, top.astype(np.int64), last)


def _taking(j: int, v: ByteArray, seat: IntArray, winner: IntArray, top: ByteArray) -> tuple[IntArray, ByteArray]:
    """Who takes the trick so far and its highest value, once the ``j``-th card ``v`` is down."""
    if j == 0:
        return seat, v
    return np.where(v >= top, seat, winner), np.maximum(top, v)


def score(scores: IntArray, end: HandEnd) -> IntArray:
    """R9: the winner adds the top value; every other seat that played it subtracts it, floored at 0."""
    rows, n = scores.shape
    bonus = (end.last == end.top[:, None]) & (np.arange(n) != end.winner[:, None])
    new = np.where(bonus, np.maximum(scores - end.top[:, None], 0), scores)
    new[np.arange(rows), end.winner] += end.top
    return new


@dataclass(frozen=True, slots=True)
class Matches:
    scores: IntArray
    """Final scores ``(games, seats)``."""
    cucumbers: IntArray
    loser: IntArray
    """The losing seat of each game; -1 for a game stopped at the hand limit."""
    hands: IntArray
    """Hands each game lasted."""


def deal(decks: IntArray, players: int, dealer: IntArray, num_cards: int) -> IntArray:
    """R5 for a batch: card i goes to seat (dealer + i) mod n, as its (i // n)-th card; values out."""
    rows = decks.shape[0]
    i = np.arange(players * num_cards)
    hands = np.zeros((rows, players, num_cards), dtype=np.int64)
    seat = (dealer[:, None] + i) % players
    hands[np.arange(rows)[:, None], seat, i // players] = decks[:, : players * num_cards] % 13 + 2
    return hands


def play_games(
    policies: Sequence[Policy],
    games: int,
    rng: np.random.Generator,
    *,
    num_cards: int = 7,
    target: int = 21,
    dealer: int = 0,
    cucumbers: bool = False,
    hand_limit: int = 1000,
    decks: DeckSource | None = None,
) -> Matches:
    """Play ``games`` whole games, seat s by ``policies[s]``, every game to its end."""
    n = len(policies)
    scores = np.zeros((games, n), dtype=np.int64)
    cukes = np.zeros((games, n), dtype=np.int64)
    loser = np.full(games, -1, dtype=np.int64)
    hands_played = np.zeros(games, dtype=np.int64)
    dealers = np.full(games, dealer, dtype=np.int64)
    active = np.arange(games)
    number = 0

    def shuffled(ids: IntArray, _: int) -> IntArray:
        return rng.permuted(np.broadcast_to(np.arange(52), (ids.size, 52)), axis=1)

    source = decks or shuffled
    while active.size and number < hand_limit:
        number += 1
        d = dealers[active]
        end = finish_hands(deal(source(active, number), n, d, num_cards), (d + 1) % n, policies, rng)
        s = score(scores[active], end)
        rows = np.arange(active.size)
        over = s[rows, end.winner] >= target
        if cucumbers:
            first = over & (cukes[active, end.winner] == 0)
            cukes[active[over], end.winner[over]] += 1
            others = np.where(np.arange(n) == end.winner[:, None], -1, s).max(axis=1)
            s[rows[first], end.winner[first]] = others[first]
            over &= ~first
        scores[active] = s
        hands_played[active] = number
        loser[active[over]] = end.winner[over]
        dealers[active] = (d + 1) % n
        active = active[~over]
    return Matches(scores, cukes, loser, hands_played)
