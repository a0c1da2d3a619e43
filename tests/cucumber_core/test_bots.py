"""The course's bots exactly as CUCUMBER.md §3 describes them, and every named bot plays legally."""

from __future__ import annotations

import numpy as np
import pytest

from cucumber_core import bots
from cucumber_core.cards import value
from cucumber_core.events import Seat
from cucumber_core.game import CreateGame
from cucumber_core.match import play_match

from .helpers import cards


def values(text: str) -> list[int]:
    return [value(c) for c in cards(text)]


@pytest.mark.parametrize(
    ("picker", "hand", "high", "index"),
    [
        (bots.play_first, "7♣ 2♦ A♠", 0, 0),  # §6.20: leads hand[0]
        (bots.play_first, "7♣ 2♦ A♠ 9♥", 8, 2),  # the first card that reaches 8
        (bots.play_first, "5♠ 2♥ 2♣", 9, 1),  # §6.4: forced low, first in hand
        (bots.fimp, "9♥ K♠ 3♦", 9, 0),  # the lowest legal card
        (bots.fimp, "7♣ 2♦ A♠", 0, 1),  # leading: the lowest card
        (bots.fimp, "5♠ 2♥ 2♣", 9, 1),
        (bots.magic, "A♣ 5♥ A♠", 0, 2),  # §6.17: A♠, the second in value order
        (bots.magic, "9♣ K♥ 2♠", 0, 0),
        (bots.magic, "7♥", 0, 0),
        (bots.magic, "9♥ K♠ 3♦", 9, 0),  # following: fimp
    ],
)
def test_course_bots(picker: bots.Picker, hand: str, high: int, index: int) -> None:
    assert picker(values(hand), high) == index


@pytest.mark.parametrize("name", sorted(bots.BOTS))
def test_every_named_bot_finishes_games_legally(name: str) -> None:
    """The engine refuses an illegal card, so a finished game is a legal one."""
    rng = np.random.default_rng(4)
    seats = tuple(Seat(str(i), f"p{i}", name) for i in range(3))
    for options in ({}, {"cucumbers": True, "num_cards": 4, "cut": True}):
        state = play_match(CreateGame("b", seats, **options), [bots.BOTS[name]] * 3, rng)  # type: ignore[arg-type]
        assert state.is_over and state.loser is not None
