"""The command line: the tournament table and the simulation, through ``main``."""

from __future__ import annotations

import asyncio
import io
import json
import re
from pathlib import Path

import pytest

from bot.cli import main
from bot.console import player_id
from bot.games.hog import puzzling
from bot.games.hog.console import table
from bot.games.hog.module import HogGame
from bot.platform.codec import to_record
from bot.platform.compose import platform
from bot.platform.settings import Settings
from hog_core.events import TurnTaken
from hog_core.puzzles import Puzzle
from tests.helpers import FIVES, refused


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOG_CACHE", str(tmp_path))
    monkeypatch.setenv("HOG_DB", str(tmp_path / "games.sqlite3"))  # never the working folder's


def run(*argv: str) -> str:
    out = io.StringIO()
    assert main(list(argv), io.StringIO(), out) == 0
    return out.getvalue()


def test_tournament_prints_exact_win_rates() -> None:
    text = run("compare", "always_roll(4)", "perfect")
    rows = {line.split()[0]: line.split()[1:] for line in text.splitlines()[2:]}
    assert rows["perfect"] == ["0.79915", "0.50000"]
    assert rows["always_roll(4)"] == ["0.50000", "0.20085"]


def test_simulate_reports_simulated_and_exact(capsys: pytest.CaptureFixture[str]) -> None:
    text = run("simulate", "always_roll(4)", "always_roll(6)", "--games", "20000", "--seed", "1")
    assert "20,000 games in" in text
    assert "exact win rate of always_roll(4):     0.47176" in text
    simulated = float(text.split("simulated win rate of always_roll(4): ")[1].split()[0])
    assert abs(simulated - 0.47176) < 0.015


def test_simulate_takes_any_python_function() -> None:
    text = run("simulate", "hog_core.strategies:swap_strategy", "easy", "--games", "1000", "--rules", "sp21")
    assert "hog_core.strategies:swap_strategy vs easy (sp21" in text


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["simulate", "bogus:x", "easy"], "Cannot load strategy 'bogus:x'"),
        (["simulate", "nonsense", "easy"], "Unknown strategy 'nonsense'"),
        (["compare", "always_roll(12)"], "chose 12 dice; fa18 allows 0 to 10"),
        (["simulate", "hog_core.classic:house_strategy", "easy"], "The strategy failed at score 0, opponent 0"),
        (["play", "--goal", "0"], "The goal must be between 10 and 1000, not 0."),
        (["play", "--goal", "5000", "--house", "easy"], "The goal must be between 10 and 1000, not 5000."),
    ],
)
def test_bad_input_is_one_line(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert words in refused(argv, capsys, "q\n")


def test_timeouts_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    hog = HogGame(Settings.from_env({"HOG_CHALLENGE_TIMEOUT": "60", "HOG_TURN_TIMEOUT": "0"}))
    assert (hog.challenge_timeout, hog.turn_timeout) == (60, 0)
    assert (HogGame(Settings.from_env({})).challenge_timeout, HogGame(Settings()).turn_timeout) == (600, 600)

    monkeypatch.setenv("HOG_TURN_TIMEOUT", "ten minutes")
    assert refused([], capsys, "q\n") == "HOG_TURN_TIMEOUT must be a whole number, not 'ten minutes'."
    monkeypatch.setenv("HOG_TURN_TIMEOUT", "-5")
    assert refused([], capsys, "q\n") == "HOG_TURN_TIMEOUT must be zero or more, not -5."


def test_analyze_reviews_a_stored_game_in_words_and_as_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HOG_DB", str(tmp_path / "hog.sqlite3"))
    main(["--name", "Ada", "--house", "perfect", "--goal", "30"], io.StringIO("10\n" * 40), io.StringIO())
    game_id = run("history").split()[0]
    said = run("analyze", game_id)
    assert said.startswith(f"{game_id} · Fall 2018") and "The house 100% accuracy" in said
    figure = re.search(r"\nAda (\d+\.\d%) accuracy", said)  # ten dice every turn: never perfect
    assert figure is not None, said
    assert f"Average accuracy: {figure[1]} over 1 game" in run("stats", "--name", "Ada"), "one figure everywhere"
    moves = json.loads(run("analyze", game_id, "--json"))
    assert moves and {"turn", "mover", "scores", "dice", "best", "chance_best", "chance_played"} <= set(moves[0])
    theirs = [m for m in moves if m["mover"] == 1]
    assert all(m["dice"] in m["best"] and m["chance_played"] == m["chance_best"] for m in theirs)  # the house: perfect
    ada = [m for m in moves if m["mover"] == 0]
    assert all(m["dice"] == 10 and 0 <= m["chance_played"] <= m["chance_best"] for m in ada)
    assert refused(["analyze", "nope"], capsys).startswith("There is no game 'nope'")
    main(["cucumber", "--name", "Ada"], io.StringIO("q\n"), io.StringIO())
    table = io.StringIO()
    main(["history", "--name", "Ada"], io.StringIO(), table)
    cucumber = next(line.split()[0] for line in table.getvalue().splitlines() if "(to 21)" in line)
    assert (
        refused(["analyze", cucumber], capsys)
        == f"Game {cucumber} is a game of Cucumber: an exact review is for Hog games."
    )


def test_a_turn_forged_after_the_end_is_found_damaged_and_replayed_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HOG_DB", str(tmp_path / "hog.sqlite3"))
    main(["--name", "Ada", "--vs", "Bob"], io.StringIO("forfeit\ny\n"), io.StringIO())
    game_id = run("history").split()[0]

    async def forge() -> None:
        async with platform(Settings.from_env()) as p:
            turn = to_record(p.games["hog"], TurnTaken(seat=1, k=2, outcomes=(3, 4), sides=6))
            await p.store.append(game_id, [turn], await p.store.version(game_id), "forged")

    asyncio.run(forge())
    out = io.StringIO()
    assert main(["damaged"], io.StringIO(), out) == 1
    assert f"{game_id}  DamagedLog: its log is damaged: event 3 is a turn in a game that is finished" in out.getvalue()
    said = refused(["replay", game_id], capsys)
    assert said == (
        f"Game {game_id} cannot be replayed: DamagedLog: its log is damaged: event 3 is a turn in a game that "
        "is finished. python -m bot damaged lists every game set aside."
    )


def test_puzzles_at_the_terminal_say_right_or_wrong_and_every_moves_chance(monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m bot puzzle``: the first puzzle answered right (its answer read off the reveal of a
    wrong try on the same seed), a streak kept, a word that is no move refused in words."""
    monkeypatch.setattr("sys.stdin", io.StringIO("99\n" + "4\n" * 3 + "quit\n"))
    first = run("puzzle", "--seed", "5", "--theme", "bacon")
    assert "'99' is not a move here" in first and "What decides it: Free Bacon" in first
    answer = re.search(r"(?:Right|Not quite): (\d+) dice? wins", first)
    assert answer is not None and "Every move: " in first
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{answer[1]}\nquit\n"))
    again = run("puzzle", "--seed", "5", "--theme", "bacon")
    assert "Right: " in again and again.rstrip().endswith("Solved 1 of 1.")


def test_puzzles_at_the_terminal_are_rated_and_the_streak_kept_under_your_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each first answer moves Ada's puzzle rating as Discord's do, kept in the database: a second
    session goes on from the first's rating and streak; an answer given again is not rated again."""
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    shown = run("puzzle", "--seed", "7", "--count", "3", "--json")
    answers = [json.loads(line)["answer"] for line in shown.splitlines()]
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{answers[0]}\nquit\n"))
    first = run("puzzle", "--seed", "7", "--count", "3", "--name", "Ada")
    rating = re.search(r"Your fa18 puzzle rating: (\d+) \(\+(\d+)\)", first)
    assert rating is not None and int(rating[2]) > 0, first
    keys = "\n".join(str(a) for a in answers) + "\nquit\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(keys))
    second = run("puzzle", "--seed", "7", "--count", "3", "--name", "Ada")
    ratings = re.findall(r"Your fa18 puzzle rating: (\d+) \(\+\d+\)( · streak (\d+))?", second)
    assert len(ratings) == 2, "the first puzzle, answered before, is not rated again: " + second
    assert int(ratings[0][0]) > int(rating[1]) and ratings[-1][2] == "3", ratings  # the streak went on: 1, 2, 3
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    stats = run("stats", "--name", "Ada")
    assert "puzzle" in stats.lower(), stats


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--theme", "no such theme"], "No puzzle's theme holds 'no such theme': the themes are "),
        (["--goal", "500"], "Puzzles come from the solved game: goals 10 to 200, not 500."),
    ],
)
def test_a_puzzle_that_cannot_be_is_refused_in_words(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert refused(["puzzle", "--seed", "5", *argv], capsys).startswith(said)


def test_training_serves_your_own_costly_moves_until_you_find_the_best(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``python -m bot train``: the positions of Ada's three finished games where rolling one die cost
    her five points of chance or more (the dice all fives: the same game every run), the answer never
    given away, each until she finds the best move; read two at a time from the read models."""
    monkeypatch.setenv("HOG_DB", str(tmp_path / "games.sqlite3"))
    settings = Settings.from_env()
    for _ in range(3):
        asyncio.run(
            table(io.StringIO("1\n" * 30), io.StringIO(), settings, goal=40, name="Ada", house="easy", chance=FIVES)
        )

    async def mistakes() -> list[Puzzle]:
        async with platform(settings) as p:
            return await puzzling.your_mistakes(p, p.games["hog"], player_id("Ada"))  # type: ignore[arg-type]

    found = asyncio.run(mistakes())
    assert len(found) > 2 and all(m.natural == 1 and m.chances[m.answer] - m.chances[1] >= 0.05 for m in found)
    monkeypatch.setattr("bot.games.hog.puzzling.TRAINING_PAGE", 2)  # the trainer's pages, several
    answers = "\n".join("chop" if m.answer == -1 else str(m.answer) for m in found)
    monkeypatch.setattr("sys.stdin", io.StringIO(f"1\n{answers}\n"))
    said = run("train", "--name", "Ada")
    assert "you played 1 die" in said and "Not the best: 1 die wins" in said and "Try again." in said
    assert said.count("Right: ") == len(found) and said.rstrip().endswith(f"Found the best move in all {len(found)}.")
    assert "nothing to train on yet" in run("train", "--name", "Bob")


def test_puzzles_for_scripts_are_one_json_object_a_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    said = run("puzzle", "--json", "--rules", "porkchop", "--count", "5", "--seed", "1").splitlines()
    assert len(said) == 5
    keys = {
        "id",
        "rules",
        "goal",
        "scores",
        "mover",
        "turn",
        "extra_turn",
        "pork_chop_left",
        "feral_hogs_memory",
        "answer",
        "chances",
    }
    for line in said:
        puzzle = json.loads(line)
        assert keys | {"margin", "theme", "game"} == set(puzzle) and puzzle["rules"] == "porkchop"
        assert len(puzzle["pork_chop_left"]) == 2 and puzzle["game"] is None  # a fresh install: the strategies' games
        best = max(puzzle["chances"].values())
        assert puzzle["chances"][str(puzzle["answer"])] == best and puzzle["margin"] >= 0.02
    assert run("puzzle", "--json", "--rules", "porkchop", "--count", "5", "--seed", "1").splitlines() == said
    assert refused(["puzzle", "--json", "--count", "0"], capsys) == "--count is how many puzzles: 1 or more, not 0."


def test_a_game_without_some_of_its_rules_at_the_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    said = run(
        "--name", "Ada", "--house", "easy", "--rules", "sp16", "--without", "swine_swap", "--without", "hog_wild"
    )
    assert (
        "Hog · Spring 2016 without Swine Swap, Hog Wild · first to 100" in said and "win chance (perfect play)" in said
    )
    assert refused(["--name", "Bo", "--rules", "sp21", "--without", "hog_wild"], capsys) == (
        "Spring 2021 cannot play without hog_wild: its rules that may be turned off are more_boar."
    )
