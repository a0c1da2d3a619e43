"""Cards as small integers: ``suit * 13 + rank``, so 0 is the 2 of Clubs and 51 the Ace of Spades (R1).

Only a card's value (2..14, R2) matters for play and scoring; the suit breaks ties in the cut for
dealer alone (Clubs < Diamonds < Hearts < Spades), which is also the integer order within a value.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Card = int

NUMS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace")
SUITS = ("Clubs", "Diamonds", "Hearts", "Spades")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
SHORT_NUMS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
DECK: tuple[Card, ...] = tuple(range(52))
"""The canonical order: Clubs, Diamonds, Hearts, Spades, each 2..Ace."""

_BY_NAME = {f"{num} {suit}": s * 13 + n for s, suit in enumerate(SUITS) for n, num in enumerate(NUMS)}


def value(card: Card) -> int:
    """2..14: numbers count their face, Jack 11, Queen 12, King 13, Ace 14."""
    return card % 13 + 2


def name(card: Card) -> str:
    """The course's spelling: ``'Queen Spades'``."""
    return f"{NUMS[card % 13]} {SUITS[card // 13]}"


def short(card: Card) -> str:
    """A compact spelling for boards and messages: ``'Q♠'``."""
    return f"{SHORT_NUMS[card % 13]}{SUIT_SYMBOLS[card // 13]}"


def parse(text: str) -> Card | None:
    """The card a course string names, or ``None`` when it names none (``'*NOT PLAYED*'``)."""
    return _BY_NAME.get(text)


def listing(cards: Iterable[Card], conjunction: str = "and") -> str:
    """``'K♠, 9♥ and 3♦'`` (or ``'2♥ or 2♣'``)."""
    names = [short(c) for c in cards]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {conjunction} " + names[-1]


def value_name(v: int) -> str:
    """``'9'``, ``'Jack'``: a value as a player says it."""
    return NUMS[v - 2]


def first_max(values: Sequence[int]) -> int:
    """The index of the first highest value: the course's tie-break, earlier in the hand wins."""
    return max(range(len(values)), key=values.__getitem__)


def first_min(values: Sequence[int]) -> int:
    """The index of the first lowest value."""
    return min(range(len(values)), key=values.__getitem__)
