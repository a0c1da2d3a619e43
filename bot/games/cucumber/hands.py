"""A hand as its owner sees it, for every front end: cards in value order, which may be played now,
and why the others may not."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from cucumber_core import strong
from cucumber_core.cards import Card, listing, short, value, value_name
from cucumber_core.game import GameState, Phase
from cucumber_core.views import seat_view


@dataclass(frozen=True, slots=True)
class Hand:
    cards: tuple[Card, ...]
    """In value order (suit breaking ties), as a player sorts a hand."""
    legal: frozenset[Card]
    why: str
    """One line: whose turn it is, or what the rule asks of this player now."""


def in_value_order(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards as a player sorts a hand: by value, the suit breaking ties."""
    return tuple(sorted(cards, key=lambda c: (value(c), c)))


def hand_of(state: GameState, seat: int) -> Hand:
    cards = in_value_order(state.hands[seat] if state.hands else ())
    legal = frozenset(state.legal_cards(seat))
    if state.phase is not Phase.PLAY:
        why = "The game is over." if state.is_over else "The cards are being dealt."
    elif state.bots[seat] is not None:
        why = "A bot is playing your seat: press I'm back on the board to play it yourself."
    elif state.to_play != seat:
        why = f"{state.seats[state.to_play or 0].name} is to play; your cards wait for your turn."
    elif not state.trick.plays:
        why = "Your lead: play any card."
    elif any(value(c) >= state.trick.high for c in cards):
        why = f"Play {value_name(state.trick.high)} or higher."
    else:
        lowest = listing(sorted(legal), "or")
        why = f"You hold nothing of {value_name(state.trick.high)} or higher: play your lowest, {lowest}."
    return Hand(cards, legal, why)


def seeded(key: str) -> np.random.Generator:
    """A source of numbers that ``key`` alone decides: the same draws every time it is asked again."""
    return np.random.default_rng(int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big"))


def hint_source(state: GameState) -> np.random.Generator:
    """Where a hint in ``state`` draws its worlds from, and the review of that position too: asked
    twice, or hinted and then reviewed, the same estimate, so the review never calls the hint's card
    a mistake."""
    return seeded(f"{state.game_id}:{state.version}:hint")


def hint(state: GameState, seat: int, rng: np.random.Generator) -> str:
    """The strong bot's card for ``seat`` now, with what each playable value is expected to cost by the
    end of the hand (points taken, and far more for reaching the target), from the seat's own view."""
    view = seat_view(state, seat)
    values = sorted({value(c) for c in view.legal})
    if len(values) == 1:
        if len(view.legal) == 1:
            return f"Only {short(view.legal[0])} can be played now: the rules leave no choice."
        cards = listing(sorted(view.legal), "or")
        return f"Only a {value_name(values[0])} can be played now ({cards}: suits never matter), so no hint is needed."
    costs = dict(zip(values, strong.costs(view, values, rng).tolist(), strict=True))
    best = min(values, key=costs.__getitem__)

    def card(v: int) -> str:
        return short(next(c for c in in_value_order(view.legal) if value(c) == v))

    others = ", ".join(f"{card(v)} {costs[v]:.1f}" for v in values if v != best)
    return (
        f"The strong bot would play {card(best)}: about {costs[best]:.1f} points by the end of the hand "
        f"(expected, reaching {state.target} counted as {strong.LOSS_PENALTY} more), against {others}."
    )
