"""Cucumber at the terminal: a table against bots played, stored, left and resumed, and replayed
trick by trick with every hand once it is over."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image

from bot.cli import main
from bot.platform.chance import commitment
from tests.helpers import frames, refused


def test_the_console_plays_a_table_against_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOG_DB", str(tmp_path / "c.sqlite3"))
    out = io.StringIO()
    keys = "9\nzz\n" + "3\n2\n1\n" * 300  # one of the three is a legal card
    status = main(
        ["cucumber", "--name", "Ann", "--bots", "strong,magic", "--cards", "3", "--target", "11"],
        io.StringIO(keys),
        out,
    )
    said = out.getvalue()
    assert status == 0 and "'zz' is not a card" in said
    assert re.search(
        r"led by +\| Ann +\| Strong bot +\| Magic bot", said
    )  # the course's board, columns as wide as their cards
    assert "🏁" in said and "Your hand: 1:" in said
    sealed = re.search(r"🔒 cards sealed: ([0-9a-f]{64}) \(revealed when the game ends\)", said)
    revealed = re.search(r"🔓 seed ([0-9a-f]{64}) · check every one of the cards: python -m bot verify", said)
    assert sealed and revealed and commitment(bytes.fromhex(revealed[1])) == sealed[1]
    assert said.index(sealed[0]) < said.index("🏁") < said.index(revealed[1])  # the seed only once it is over


def test_help_and_hint_answer_at_the_table_and_play_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOG_DB", str(tmp_path / "c.sqlite3"))
    out = io.StringIO()
    argv = ["cucumber", "--name", "Ann", "--players", "4", "--cards", "7", "--target", "21"]
    assert main(argv, io.StringIO("help\nhint\nhint\nquit\n"), out) == 0
    said = out.getvalue()
    assert "is not a card" not in said
    assert "Type a card of your hand: its number (1 to 7) or its name, like Q♠, qs or Queen Spades." in said
    assert "reaching 21 loses" in said and "'hint' asks the strong bot for its card" in said
    hints = [line for line in said.splitlines() if "The strong bot would play" in line or "can be played now" in line]
    assert len(hints) == 2 and hints[0] == hints[1], "the same hint for the same game and moment"
    game = re.search(r"saved as (c[0-9a-f]+)", said)
    assert game is not None
    out = io.StringIO()
    assert main(["replay", game[1]], None, out) == 0 and "Ann plays" not in out.getvalue(), "no card was played"


def test_the_console_refuses_a_table_that_cannot_be(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HOG_DB", str(tmp_path / "c.sqlite3"))
    said = refused(["cucumber", "--players", "4", "--bots", "strong"], capsys)
    assert said == "--players 4 seats 3 bots beside you, but --bots names 1."
    with pytest.raises(SystemExit):
        main(["cucumber", "--bots", "cheater"], io.StringIO(""), io.StringIO())
    assert "no bot cheater: the bots are strong" in capsys.readouterr().err
    assert not (tmp_path / "c.sqlite3").exists()


def test_a_game_left_is_offered_again_and_replayed_with_every_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOG_DB", str(tmp_path / "c.sqlite3"))
    out = io.StringIO()
    assert main(["cucumber", "--name", "Ann", "--cards", "3", "--target", "11"], io.StringIO("1\nquit\n"), out) == 0
    left = re.search(r"saved as (c[0-9a-f]+): go on with python -m bot cucumber --resume \1", out.getvalue())
    assert left is not None
    game_id = left[1]
    out = io.StringIO()
    replayed = main(["replay", game_id], None, out)
    assert replayed == 0 and "Step 1 of" in out.getvalue() and "Cards in hand" not in out.getvalue()  # running
    assert "── Review ──" not in out.getvalue()  # a running game's review would tell about hands still held
    out = io.StringIO()
    keys = "y\n" + "3\n2\n1\n" * 300
    assert main(["cucumber", "--name", "Ann", "--cards", "3", "--target", "11"], io.StringIO(keys), out) == 0
    assert f"You have an unfinished game, {game_id}" in out.getvalue() and "🏁" in out.getvalue()
    out = io.StringIO()
    picture, gif = tmp_path / "game.png", tmp_path / "game.gif"
    assert main(["replay", game_id, "--picture", str(picture), "--gif", str(gif)], None, out) == 0
    said = out.getvalue()
    assert "Cards in hand (shown now that the game is over): Ann " in said and "Cut for dealer:" in said
    assert said.count("Step ") > 3 and f"The animation of the game is in {gif}." in said
    assert Image.open(picture).format == "PNG" and frames(gif) > 3
    review = said[said.index("── Review ──") : said.index("The picture of the game")].splitlines()
    assert (
        review[1] == "  (estimated by the strong bot, from each player's view: expected points by the end of the hand)"
    )
    if review[2] != "  No card to review: each was forced by the rules or played by a bot.":  # the deal decides
        assert re.fullmatch(r"  Ann: \d+ cards? chosen, \d+\.\d points over the bot's.*", review[2])
        assert all(line.startswith("  Ann, hand ") for line in review[3:])  # only Ann's: the bots are not reviewed
    again = io.StringIO()
    assert main(["replay", game_id], None, again) == 0 and again.getvalue() == said.split("The picture")[0]  # seeded
    out = io.StringIO()
    assert main(["replay", game_id, "--step", "2"], None, out) == 0 and out.getvalue().startswith("Step 2 of ")
    out = io.StringIO()
    assert main(["stats", "--game", "cucumber", "--name", "Ann"], None, out) == 0
    said = out.getvalue()
    assert (
        said.startswith("── Ann's Cucumber stats ──") and "1 played, lost " in said and "Average final score: " in said
    )
    assert "3 players: 1 played" in said  # Ann and the two strong bots
