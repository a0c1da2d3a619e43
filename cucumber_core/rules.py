"""The rules of CUCUMBER.md §1 as small pure functions over card values, shared by the engine,
the course's API and the bots. Cards here are anything with a value: the callers pass values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from cucumber_core.cards import Card, value
from cucumber_core.errors import InvalidGame

T = TypeVar("T")

DECK_SIZE = 52
MIN_PLAYERS = 2


def check_table(players: int, num_cards: int) -> None:
    """R3: at least two players, at least one card each, and enough cards in one deck."""
    if players < MIN_PLAYERS:
        raise InvalidGame(f"Cucumber needs at least {MIN_PLAYERS} players, not {players}.")
    if num_cards < 1:
        raise InvalidGame(f"Each hand deals at least one card, not {num_cards}.")
    if players * num_cards > DECK_SIZE:
        raise InvalidGame(
            f"{players} players × {num_cards} cards need {players * num_cards} cards; a deck has {DECK_SIZE}."
        )


def deal(deck: Sequence[T], players: int, dealer: int, num_cards: int) -> list[list[T]]:
    """R5: card i goes to player (dealer + i) mod n, so the dealer receives the first card."""
    check_table(players, num_cards)
    hands: list[list[T]] = [[] for _ in range(players)]
    for i in range(players * num_cards):
        hands[(dealer + i) % players].append(deck[i])
    return hands


def cut(cards: Sequence[Card]) -> int:
    """R4: the seat dealt the highest card deals; equal values go to the higher suit."""
    return max(range(len(cards)), key=lambda seat: (value(cards[seat]), cards[seat] // 13))


def legal(values: Sequence[int], high: int) -> list[int]:
    """R7: the indices of the cards that may be played when ``high`` is the highest value in the trick
    (0 for the leader): every card of value >= high, or if there is none, every card of the lowest value."""
    reach = [i for i, v in enumerate(values) if v >= high]
    if reach:
        return reach
    low = min(values)
    return [i for i, v in enumerate(values) if v == low]


def trick_winner(values: Sequence[int]) -> int:
    """R8: the position, in play order, of the last card of the trick's highest value."""
    top = max(values)
    return len(values) - 1 - list(reversed(values)).index(top)


def score_hand(scores: Sequence[int], last_trick: Sequence[tuple[int, int]], winner: int) -> tuple[int, ...]:
    """R9: the winner of the last trick adds its card's value; every other player who played that
    value in the last trick subtracts it, floored at 0. ``last_trick`` is ``(seat, value)`` pairs."""
    top = dict(last_trick)[winner]
    new = list(scores)
    new[winner] += top
    for seat, v in last_trick:
        if seat != winner and v == top:
            new[seat] = max(0, new[seat] - top)
    return tuple(new)


def lowest_others(scores: Sequence[int], cucumbers: Sequence[int], loser: int) -> tuple[int, ...]:
    """R10/R11 [choice]: the winners are the other players with the fewest cucumbers, then the lowest score."""
    others = [s for s in range(len(scores)) if s != loser]
    best = min((cucumbers[s], scores[s]) for s in others)
    return tuple(s for s in others if (cucumbers[s], scores[s]) == best)
