"""An estimated review of a Cucumber game: for each card a person chose, the strong bot's choice
from that seat's view alone, and what the played card and that choice were expected to cost by the
end of the hand (``strong.costs``: the points taken, more for reaching the target), averaged over
sampled worlds. An estimate, not a fact: the worlds are drawn with the ``rng`` given, so the caller
seeds it (from the game) to get the same numbers every time. Only a finished game should be
reviewed: the review of a running one would tell about a hand still held."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from cucumber_core import strong
from cucumber_core.cards import Card, value
from cucumber_core.events import CardPlayed, Event
from cucumber_core.game import GameState, evolve
from cucumber_core.views import seat_view

NOTABLE = 1.0
"""Expected points lost from which a card is worth naming."""


@dataclass(frozen=True, slots=True)
class CardReview:
    at: int
    """The card's event's index in the log (from 0)."""
    hand: int
    """The hand's number (from 1)."""
    trick: int
    """The trick's number in the hand (from 1)."""
    seat: int
    played: Card
    choice: Card
    """The strong bot's card from the seat's view (the played card when they agree in value)."""
    cost_played: float
    cost_choice: float

    @property
    def lost(self) -> float:
        """The expected points the played card cost beyond the strong bot's choice."""
        return max(0.0, self.cost_played - self.cost_choice)


def review(
    events: Iterable[Event],
    rng: np.random.Generator | Callable[[GameState], np.random.Generator],
    worlds: int = strong.WORLDS,
) -> list[CardReview]:
    """Every card a person chose (not one a bot played for them) with more than one value to choose
    from. ``rng`` draws the worlds: one source for the whole game, or one per position (the source a
    hint drew from there: then the review's choice is the hint's card, never called a mistake)."""
    state, reviewed = GameState(), list[CardReview]()
    for at, event in enumerate(events):
        if isinstance(event, CardPlayed) and not event.auto and state.bots[event.seat] is None:
            view = seat_view(state, event.seat)
            values = sorted({value(c) for c in view.legal})
            if len(values) > 1:
                drawn = rng(state) if callable(rng) else rng
                cost = dict(zip(values, strong.costs(view, values, drawn, worlds).tolist(), strict=True))
                best = min(values, key=cost.__getitem__)
                played = event.card
                choice = played if value(played) == best else next(c for c in view.legal if value(c) == best)
                tricks = len(state.tricks)
                reviewed.append(
                    CardReview(
                        at, state.hand_number, tricks, event.seat, played, choice, cost[value(played)], cost[best]
                    )
                )
        state = evolve(state, event)
    return reviewed


def costliest(reviewed: Iterable[CardReview], seat: int, n: int = 3) -> list[CardReview]:
    """The seat's ``n`` cards where the strong bot would have saved the most (at least ``NOTABLE``)."""
    mine = [r for r in reviewed if r.seat == seat and r.lost >= NOTABLE]
    return sorted(mine, key=lambda r: -r.lost)[:n]
