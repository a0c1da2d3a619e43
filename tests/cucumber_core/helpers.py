"""Building Cucumber games card by card, by name."""

from __future__ import annotations

from collections.abc import Sequence

from cucumber_core.cards import Card, parse
from cucumber_core.events import Event, Seat
from cucumber_core.game import Command, CreateGame, DealHand, GameState, PlayCard, run

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


def card(short: str) -> Card:
    """``'Q♠'`` / ``'10♥'`` -> the card."""
    nums = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
    suits = {"♣": "Clubs", "♦": "Diamonds", "♥": "Hearts", "♠": "Spades"}
    found = parse(f"{nums.get(short[:-1], short[:-1])} {suits[short[-1]]}")
    assert found is not None, short
    return found


def cards(text: str) -> tuple[Card, ...]:
    return tuple(card(c) for c in text.split())


def seats(n: int) -> tuple[Seat, ...]:
    return tuple(Seat(name.lower(), name) for name in NAMES[:n])


def new_game(n: int = 4, **options: object) -> GameState:
    state, _ = run(GameState(), CreateGame("g1", seats(n), **options))  # type: ignore[arg-type]
    return state


def dealt(state: GameState, *hands: str) -> GameState:
    state, _ = run(state, DealHand(tuple(cards(h) for h in hands)))
    return state


def play(state: GameState, *plays: str) -> tuple[GameState, list[Event]]:
    """Each play is a card by its short name, played by whoever is to play."""
    events: list[Event] = []
    for short in plays:
        seat = state.to_play
        assert seat is not None
        state, new = run(state, PlayCard(state.seats[seat].id, card(short)))
        events += new
    return state, events


def apply(state: GameState, commands: Sequence[Command]) -> GameState:
    for command in commands:
        state, _ = run(state, command)
    return state
