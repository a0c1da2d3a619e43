"""The board: whose turn, how it ended, win chances and what they mean, the hint."""

from __future__ import annotations

from msgspec.structs import replace

from bot.games.hog.analysis import accuracy_words
from bot.games.hog.board import board, hint, percent, text
from bot.games.hog.html_board import html
from hog_core.events import Player
from hog_core.game import (
    AcceptChallenge,
    CreateGame,
    DeclineChallenge,
    ExpireChallenge,
    Forfeit,
    GameState,
    Status,
    decide,
    evolve,
    replay,
)
from hog_core.solver import Solution
from tests.helpers import ALICE, move, new_game


def test_a_live_board() -> None:
    state, _ = new_game("sp16")
    state = move(state, 2, 4, 3)  # d4 at 0-0: Alice 7 -> Hogtimus Prime 11
    shown = text(board(state, ("Alice rolls 4, 3 for 7.",), (0.25, 0.75)))
    assert shown.splitlines() == [
        "── Hog · Spring 2016: Pig Out, Free Bacon, Hogtimus Prime, Hog Wild, Piggy Back, Swine Swap · first to 100 ──",
        "  Alice rolls 4, 3 for 7.",
        "  Alice 11 · Bob 0    win chance (perfect play) 25.0% · 75.0%",
        "  Bob to move.",
    ]


def test_how_a_game_ended() -> None:
    challenged, _ = new_game(challenge=True)
    assert board(challenged).status == "Waiting for Bob to accept."
    assert board(replay(decide(challenged, DeclineChallenge("b")), challenged)).status == "Bob declined."
    assert board(replay(decide(challenged, ExpireChallenge()), challenged)).status == "The challenge expired."
    playing = replay(decide(challenged, AcceptChallenge("b")), challenged)
    resigned = replay(decide(playing, Forfeit("a")), playing)
    assert board(resigned).status == "Bob won: Alice forfeited."
    won = move(replace(playing, scores=(95, 0)), 1, 6)
    assert board(won).status == "Alice won."
    assert board(replace(won, status=Status.DRAWN, winner=None)).status == "A draw."
    bacon = move(new_game()[0], 0)
    assert "win chance" not in text(board(bacon))


def test_a_forfeit_after_a_turn_shows_no_stale_roll() -> None:
    """The board tells the last command's story alone: after a forfeit, not the roll before it."""
    state = move(new_game()[0], 3, 4, 4, 4)
    resigned = replay(decide(state, Forfeit("b")), state)
    shown = text(board(resigned, ("Bob resigns: Alice wins (12 to 0).",)))
    assert "rolled" not in shown and "rolls" not in shown


def test_a_hint_is_the_perfect_move(solutions: dict[str, Solution]) -> None:
    state = move(new_game()[0], 3, 4, 4, 4)
    fa18 = solutions["fa18"]
    k, chance = fa18.best_move(state), fa18.win_chances(state)[1]
    assert hint(state, fa18) == (
        f"Best move for Bob: roll {k} dice. With perfect play from here, Bob wins {percent(chance)} of games."
    )
    assert hint(state, None) == "No hints in this game: its goal is past what is solved for perfect play."
    assert hint(replay(decide(state, Forfeit("b")), state), fa18).startswith("There is no move to hint at")


def test_the_title_names_the_goal_and_the_houses_level() -> None:
    state, _ = new_game("fa18", goal=50)
    assert text(board(state)).startswith("── Hog · Fall 2018: Pig Out, Free Bacon, Swine Swap · first to 50 ──")
    house = Player("house:medium", "The house", house="medium")
    against = evolve(GameState(), decide(GameState(), CreateGame("h1", (ALICE, house), goal=40))[0])
    assert board(against).title.endswith(" · first to 40 · the house plays medium")


def test_a_chance_near_even_or_near_certain_is_told_to_a_tenth() -> None:
    """49.8% beside 50.2% (``50% · 50%`` read as a bug); only a certainty is 100%."""
    assert (percent(0.498), percent(0.502)) == ("49.8%", "50.2%")
    assert (percent(0.9996), percent(1.0), percent(0.0004), percent(0.0)) == ("99.9%", "100%", "0.1%", "0%")
    assert percent(0.25) == "25.0%"


def test_accuracy_is_one_figure_and_100_only_for_perfect_play() -> None:
    """The review, the page and the stats word the same hundredths kept with the seat."""
    assert accuracy_words(9980) == "99.8%" and accuracy_words(9996) == "99.9%", "never a rounded-up 100"
    assert accuracy_words(10_000, flawless=True) == "100%"
    assert accuracy_words(9980 + 9991, games=2) == "99.9%" and accuracy_words(9685) == "96.9%"


def test_the_web_board_says_1_point_and_2_points() -> None:
    state = replace(new_game("fa18")[0], scores=(1, 2))
    shown = str(html(state, (), None))
    assert '<span class="hog-points">1</span> <span class="hog-unit">point</span>' in shown
    assert '<span class="hog-points">2</span> <span class="hog-unit">points</span>' in shown
