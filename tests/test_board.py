"""The board: whose turn, how it ended, the dice as faces, win chances."""

from __future__ import annotations

from msgspec.structs import replace

from bot.board import board, dice_faces, text
from hog_core.game import AcceptChallenge, DeclineChallenge, ExpireChallenge, Forfeit, Status, decide, replay
from tests.helpers import move, new_game


def test_dice_faces() -> None:
    assert dice_faces((1, 6, 3), 6) == "⚀ ⚅ ⚂"
    assert dice_faces((4, 2), 4) == "4 2 (d4)" and dice_faces((8,), 8) == "8 (d8)"


def test_a_live_board() -> None:
    state, _ = new_game("sp16")
    state = move(state, 2, 4, 3)  # d4 at 0-0: Alice 7 -> Hogtimus Prime 11
    shown = text(board(state, ("Alice rolls 4, 3 for 7.",), (0.25, 0.75)))
    assert shown.splitlines() == [
        "── Hog · Spring 2016: Pig Out, Free Bacon, Hogtimus Prime, Hog Wild, Piggy Back, Swine Swap · first to 100 ──",
        "  Alice rolled 4 3 (d4)",
        "  Alice rolls 4, 3 for 7.",
        "  Alice 11 · Bob 0    win chance 25% · 75%",
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
    assert board(won).status == "Alice won." and board(won).last_roll == "Alice rolled ⚅"
    assert board(replace(won, status=Status.DRAWN, winner=None)).status == "A draw."
    chop, _ = new_game("porkchop")
    assert board(move(chop, -1)).last_roll == "Alice used Pork Chop"
    bacon = move(new_game()[0], 0)
    assert board(bacon).last_roll == "Alice rolled no dice" and "win chance" not in text(board(bacon))
