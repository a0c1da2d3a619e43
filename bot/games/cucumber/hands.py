"""A hand as its owner sees it, for every front end: cards in value order, which may be played now,
and why the others may not."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from cucumber_core.cards import Card, listing, value, value_name
from cucumber_core.game import GameState, Phase


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
