"""The picture of a finished Cucumber game: the score race hand by hand and the last hand's tricks."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from bot.games.cucumber.picture import animate, chart, charts, render
from bot.platform.drawing import HEIGHT, WIDTH
from cucumber_core.bots import BOTS
from cucumber_core.events import CardPlayed, Event, HandScored, Seat, TrickWon
from cucumber_core.game import CreateGame
from cucumber_core.match import play_match
from tests.helpers import frames


def a_game(players: int = 4) -> list[Event]:
    log: list[Event] = []
    seats = tuple(
        Seat(str(i), name, "strong") for i, name in enumerate(("Ada", "Bob", "Cy", "Di", "Eve", "Fay")[:players])
    )
    play_match(CreateGame("g", seats, cucumbers=True), [BOTS["magic"]] * players, np.random.default_rng(4), log=log)
    return log


def test_the_chart_holds_every_hand_and_only_played_cards() -> None:
    log = a_game()
    c = chart(log)
    hands = sum(isinstance(e, HandScored) for e in log)
    assert len(c.scores) == hands + 1 and c.scores[0] == (0, 0, 0, 0)
    assert c.loser is not None and c.scores[-1][c.loser] >= 21
    played = {e.card for e in log if isinstance(e, CardPlayed)}
    assert {card for _, plays in c.last_hand for _, card in plays} <= played
    assert len(c.last_hand) == 7 and all(len(plays) == 4 for _, plays in c.last_hand)


def test_it_is_drawn_as_a_png_for_six_seats() -> None:
    image = Image.open(io.BytesIO(render(chart(a_game(6)))))
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)


def test_the_animation_goes_trick_by_trick_and_shows_only_tricks_taken() -> None:
    log = a_game(3)
    drawn = list(charts(log))
    taken = [e for e in log if isinstance(e, TrickWon)]
    assert len(drawn) == len(taken) + 1 and drawn[-1] == chart(log)
    for frame in drawn[:-1]:
        assert frame.hand >= 1 and frame.loser is None and all(len(plays) == 3 for _, plays in frame.last_hand)
    assert [len(f.last_hand) for f in drawn[:7]] == list(range(1, 8))  # the first hand, one more trick a frame
    gif = animate(drawn)
    assert Image.open(io.BytesIO(gif)).size == (WIDTH, HEIGHT) and frames(gif) == min(len(drawn), 81)


def test_a_game_under_way_is_drawn_in_its_hand_not_past_its_last() -> None:
    """Stopped in the middle of the first hand, the picture names hand 1 (it said "The last hand")."""
    log = a_game()
    first_trick = next(n for n, e in enumerate(log) if isinstance(e, TrickWon))
    under_way = chart(log[: first_trick + 2])
    assert under_way.hand == 1 and under_way.loser is None
    assert chart(log).hand == 0  # the game over: its last hand
