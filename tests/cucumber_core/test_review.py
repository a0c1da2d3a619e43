"""The estimated review: each card a person chose, beside the strong bot's choice from the same
view, with both expected costs; the same numbers from the same seed."""

from __future__ import annotations

import numpy as np
import pytest

from cucumber_core import strong
from cucumber_core.cards import Card, value
from cucumber_core.events import CardPlayed, Event, Seat
from cucumber_core.game import CreateGame, GameState, evolve
from cucumber_core.match import play_match
from cucumber_core.review import NOTABLE, CardReview, costliest, review
from cucumber_core.views import SeatView, seat_view

WORLDS = 12


def highest(view: SeatView, rng: np.random.Generator) -> Card:
    """A careless person: always the highest card they may play."""
    return max(view.legal, key=value)


@pytest.fixture(scope="module")
def played() -> list[Event]:
    seats = (Seat("ann", "Ann"), Seat("bob", "Bob", bot="strong"), Seat("cat", "Cat", bot="strong"))
    log: list[Event] = []
    state = play_match(CreateGame("g1", seats, target=15), [highest, strong.choose, strong.choose], rng(7), log=log)
    assert state.is_over
    return log


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def choices(log: list[Event]) -> list[tuple[int, Card, tuple[Card, ...]]]:
    """Each person's card with more than one value to choose from, found here by folding the log."""
    state, found = GameState(), []
    for event in log:
        if isinstance(event, CardPlayed) and state.bots[event.seat] is None:
            legal = state.legal_cards(event.seat)
            if len({value(c) for c in legal}) > 1:
                found.append((event.seat, event.card, legal))
        state = evolve(state, event)
    return found


def test_each_card_a_person_chose_is_reviewed_beside_the_strong_bots_choice(played: list[Event]) -> None:
    reviewed = review(played, rng(1), WORLDS)
    expected = choices(played)
    assert len(expected) >= 5 and [(r.seat, r.played) for r in reviewed] == [(s, c) for s, c, _ in expected]
    for r, (_, _, legal) in zip(reviewed, expected, strict=True):
        assert r.choice in legal and r.cost_choice <= r.cost_played
        assert (r.choice == r.played) == (value(r.choice) == value(r.played))
        assert r.hand >= 1 and r.trick >= 1
    assert review(played, rng(1), WORLDS) == reviewed  # the same seed, the same estimate


def test_the_careless_players_costliest_cards_are_named(played: list[Event]) -> None:
    reviewed = review(played, rng(2), WORLDS)
    worst = costliest(reviewed, 0)
    assert worst and all(r.lost >= NOTABLE for r in worst)
    assert [r.lost for r in worst] == sorted((r.lost for r in worst), reverse=True)
    assert costliest(reviewed, 1) == []  # a bot's seat is not reviewed


def test_the_first_card_reviewed_is_the_strong_bots_own_choice(played: list[Event]) -> None:
    """The review asks the strong bot what it asks when it plays: from the same view and the same
    draws, the same card."""
    state = GameState()
    for event in played:
        if isinstance(event, CardPlayed) and state.bots[event.seat] is None:
            view = seat_view(state, event.seat)
            if len({value(c) for c in view.legal}) > 1:
                break
        state = evolve(state, event)
    first: CardReview = review(played, rng(3), WORLDS)[0]
    assert value(first.choice) == value(strong.choose(view, rng(3), worlds=WORLDS))
