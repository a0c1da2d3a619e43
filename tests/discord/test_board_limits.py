"""Every board fits in what Discord takes (a Components V2 message: 40 components, 4,000 characters
of text), at every moment of the longest games: Hog to 1,000 between two 32-character names, each
board telling the whole game so far (more than any one command tells), every button, the review, the
picture, the seal and the web link; Cucumber at two and six seats of 32-character names, as many cards as a deck deals,
every commentary line so far, and each seat's hand (ten cards at two seats, eight at six)."""

from __future__ import annotations

import numpy as np
import pytest

from bot.discord.buttons import Buttons
from bot.discord.front import web_link
from bot.discord.layout import COMPONENT_LIMIT, TEXT_LIMIT, Board, Picture
from bot.discord.pictures import PictureButton
from bot.games.cucumber.discord.embeds import board_table, board_view, hand_message
from bot.games.cucumber.module import CucumberGame
from bot.games.hog.discord.buttons import RematchButton
from bot.games.hog.discord.front import moves_view
from bot.games.hog.discord.table import table
from bot.games.hog.module import HogGame
from bot.platform.chance import seal_words
from cucumber_core.bots import BOTS
from cucumber_core.events import Event as CucumberEvent
from cucumber_core.events import Seat
from cucumber_core.game import CreateGame as NewTable
from cucumber_core.match import play_match
from hog_core.events import Event, Player
from hog_core.game import CreateGame, GameState, TakeTurn, decide, evolve
from tests.discord.fake_discord import nested

LONG = "W" * 31 + "😀"
"""A name as long as one can be (``MAX_NAME``), wide letters and an emoji."""
SEAL = seal_words("dice", bytes(32), False, "", short=True)


def emoji(name: str, fallback: str) -> str:
    return f"<:{name}:950000000000000123>"


def fits(board: Board) -> tuple[int, int]:
    """The board's components and characters of text, checked against Discord's limits."""
    components = nested(board.view().to_components())
    text = sum(len(c.get("content", "")) for c in components)
    assert len(components) <= COMPONENT_LIMIT and text <= TEXT_LIMIT, (len(components), text)
    return len(components), text


def a_long_hog_game() -> list[Event]:
    players = (Player("1", LONG), Player("2", LONG + "2"))
    events: list[Event] = list(decide(GameState(), CreateGame("g", players, rules="porkchop", goal=1000)))
    state = GameState()
    for e in events:
        state = evolve(state, e)
    while not state.is_over:
        for e in decide(state, TakeTurn(state.players[state.mover].id, 10, (2,) * 10)):
            events.append(e)
            state = evolve(state, e)
    return events


def test_every_hog_board_of_the_longest_game_fits() -> None:
    told = list(HogGame().narrate(a_long_hog_game()))
    most = (0, 0)
    for n in range(1, len(told) + 1):
        state = told[n - 1][1]
        board = table(state, tuple(told[:n]), (0.499, 0.501), 1795816271.5, emoji)
        board.buttons = moves_view(state) if not state.is_over else Buttons()
        web_link(board.buttons, "https://hog.example", state.game_id)
        board.note(state.game_id).note(SEAL)
        if state.is_over:
            board.buttons.add_item(RematchButton(state.game_id))
            board.buttons.add_item(PictureButton("hog", state.game_id))
            board.rule().text("**Review** (exact: /hog analyze)\n" + ("x" * 1023))
            board.picture(Picture(b"png", f"hog-{state.game_id}.png", f"{LONG} and {LONG}'s totals turn by turn"))
        most = max(most, fits(board))
    assert most[0] >= 20 and most[1] >= 2400  # the longest is long: the limits were tested, not missed


@pytest.mark.parametrize("seats", [2, 6])
def test_every_cucumber_board_and_hand_of_the_longest_game_fits(seats: int) -> None:
    sat = tuple(Seat(str(i), f"{LONG[:-2]}{i}😀", None) for i in range(seats))
    log: list[CucumberEvent] = []
    play_match(
        NewTable("c", sat, num_cards=52 // seats if seats > 5 else 10, cucumbers=True),
        [BOTS["magic"]] * seats,
        np.random.default_rng(7),
        log=log,
    )
    told = list(CucumberGame().narrate(log))
    lines: tuple[str, ...] = ()
    most = (0, 0)
    for _, state, said in told:
        lines += tuple(said)
        board = board_table(state, lines, 1795816271.5)
        board.buttons = board_view(state)
        web_link(board.buttons, "https://hog.example", state.game_id)
        most = max(most, fits(board.note(SEAL)))
        shown = state.hands and not state.is_over and (state.to_play is None or state.hands[state.to_play])
        for seat in range(seats) if shown else ():  # (not between a hand's last card and its scoring)
            fits(hand_message(state, seat, "You played 10♦."))
    assert most[1] >= 1000
