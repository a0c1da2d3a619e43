"""``python -m cucumber_core``: play, tournament and simulate, as a user runs them."""

from __future__ import annotations

import ast
import io
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cucumber_core import tournament
from cucumber_core.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def test_tournament_of_course_bots_prints_standings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--bots", "fimp,magic,play_first,random", "--games", "400", "--seed", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "400 games, 4 seats rotating, 7 cards, to 21"
    assert out[1].split() == ["bot", "losses", "shared", "wins", "mean", "score"]
    assert [line.split()[0] for line in out[2:]] == ["random", "play_first", "magic", "fimp"]  # fewest losses first
    assert sum(int(line.split()[1]) for line in out[2:]) == 400


def test_the_same_seed_gives_the_same_table(capsys: pytest.CaptureFixture[str]) -> None:
    for _ in range(2):
        main(["tournament", "--bots", "strong,magic", "--games", "6", "--seed", "4", "--cards", "4"])
    first, second = capsys.readouterr().out.split("6 games")[1:]
    assert first == second


def test_a_users_bot_plays_by_module_or_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bot = tmp_path / "mybot.py"
    bot.write_text(
        "from cucumber_core.course import get_highest_in_trick, playable, highest_card, lowest_card\n"
        "def shed(board, player, hand):\n"
        "    options = playable(hand, get_highest_in_trick(board))\n"
        "    return highest_card(options) if options else lowest_card(hand)\n"
        "def cheat(board, player, hand):\n"
        "    return 'Ace Spades' if 'Ace Spades' not in hand else hand[0]\n"
    )
    assert main(["tournament", "--bots", f"{bot}:shed,magic,random", "--games", "30"]) == 0
    assert f"{bot}:shed" in capsys.readouterr().out
    assert main(["tournament", "--bots", f"{bot}:cheat,magic", "--games", "5"]) == 2
    assert "cheat's strategy played 'Ace Spades', which is not a legal play: You do not hold A♠." in (
        capsys.readouterr().err
    )
    ran = subprocess.run(
        [sys.executable, "-m", "cucumber_core", "tournament", "--bots", "mybot:shed,play_first", "--games", "5"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0 and "mybot:shed" in ran.stdout, ran.stderr


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tournament", "--bots", "nosuch,magic"], "unknown bot 'nosuch': choose from strong, magic"),
        (["tournament", "--bots", "no_such_module:f,magic"], "cannot load no_such_module: ModuleNotFoundError"),
        (["tournament", "--bots", "json:nothing,magic"], "json has no function 'nothing'"),
        (["tournament", "--bots", "missing.py:f,magic"], "no Python file at missing.py"),
        (["tournament", "--bots", ",".join(["magic"] * 8)], "8 players × 7 cards need 56 cards"),
    ],
)
def test_bad_requests_get_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*argv, "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("argv", [["simulate", "--games", "0"], ["tournament", "--bots", "magic"]])
def test_bad_numbers_are_usage_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2 and "error:" in capsys.readouterr().err


def test_simulate_reports_games_per_second(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "2000"]) == 0  # the course's bots and random, on arrays, by default
    out = capsys.readouterr().out
    assert "games/s (2000 games in" in out


def test_play_is_the_courses_little_example(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """You against three bots, typing the cards of your hand in turn until one is accepted."""
    hand: list[str] = []
    tries = 0
    transcript: list[str] = []

    def typist(prompt: str) -> str:
        nonlocal hand, tries
        out = capsys.readouterr().out
        transcript.append(out)
        if "You current hand " in out:
            hand, tries = ast.literal_eval(out.rsplit("You current hand ", 1)[1].splitlines()[0]), 0
        tries += 1
        return hand[tries - 1]

    monkeypatch.setattr("builtins.input", typist)
    assert main(["play", "--bots", "strong,magic,play_first"]) == 0
    text = "".join(transcript) + capsys.readouterr().out
    assert "Winner: " in text and text.rstrip().endswith(("you lose.", "you win!"))
    assert "lead | You" in text


def test_play_ends_quietly_on_end_of_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play"]) == 130
    assert capsys.readouterr().err == "\nGame abandoned.\n"


def test_shared_wins_split_ties() -> None:
    results = tournament.Results(
        scores=np.array([[21, 3, 3], [5, 22, 9], [0, 0, 0]]),
        cucumbers=np.zeros((3, 3), dtype=np.int64),
        loser=np.array([0, 1, -1]),
    )
    rows = tournament.standings(["a", "b", "c"], results)
    assert [r.losses for r in rows] == [1, 1, 0]
    assert [round(r.wins.mean * 3, 3) for r in rows] == [1.0, 0.5, 0.5]  # game 3 hit the hand limit: no winner


@pytest.mark.parametrize("command", ["tournament", "simulate"])
def test_a_reader_that_leaves_early_is_no_error(command: str) -> None:
    """``python -m cucumber_core tournament | head -1``: the pipe closes before the table is printed."""
    reader, writer = os.pipe()
    os.close(reader)  # the reader has gone
    try:
        done = subprocess.run(
            [sys.executable, "-m", "cucumber_core", command, "--games", "50"],
            stdout=writer,
            stderr=subprocess.PIPE,
            timeout=60,
            cwd=ROOT,
        )
    finally:
        os.close(writer)
    assert done.returncode == 0 and done.stderr == b""
