"""The console table, driven through its input like a person at a keyboard."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot.cli import main, replay_any, show_stats
from bot.console import list_history, player_id
from bot.games.hog.analysis import accuracy_words, hundredths, perfect
from bot.games.hog.console import table
from bot.platform.compose import platform
from bot.platform.contract import Replay
from bot.platform.settings import Settings
from hog_core.events import Event
from hog_core.game import Status, replay
from storage.sqlite.store import SqliteEventStore
from tests.helpers import FIVES, frames, hog_events, interrupted_at, refused


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(db=tmp_path / "hog.sqlite3", cache=tmp_path / "solutions")


async def stored_events(settings: Settings, game_id: str) -> list[Event]:
    store = await SqliteEventStore.open(settings.db)
    try:
        return hog_events(await store.load(game_id))
    finally:
        await store.close()


async def stored_game(settings: Settings, game_id: str) -> Status:
    return replay(await stored_events(settings, game_id)).status


async def test_a_full_game_against_the_house_with_bad_input_along_the_way(settings: Settings) -> None:
    out = io.StringIO()
    keys = io.StringIO("x\n11\nchop\nhelp\n" + "3\n" * 5)
    state = await table(keys, out, settings, goal=40, name="Ada", house="easy", chance=FIVES)
    said = out.getvalue()
    assert "'x' is not a number of dice." in said
    assert "Choose between 0 and 10 dice, not 11." in said
    assert "Pork Chop is no rule of this game: type a number of dice (0 to 10)." in said
    assert "Type a number of dice (0 to 10), 'hint' for the best move" in said
    assert "'chop'" not in said, "no Pork Chop is offered in a rule set without one"
    # Ada rolls 15 a turn, the house (easy: 4 dice) 20: 15-0, 15-20, 30-20, 30-40
    assert state.status is Status.FINISHED and state.scores == (30, 40) and state.winner == 1
    assert "Ada rolls 5, 5, 5 for 15." in said and "The house rolls 5, 5, 5, 5 for 20." in said
    assert "🏆 The house wins 40 to 30!" in said or "The house wins, 40 to 30." in said
    assert "win chance" in said and said.split("── Review ──")[0].rstrip().endswith("The house won.")
    assert re.search(r"── Review ──\n  Ada \d+\.\d% accuracy", said), said[-400:]  # the finished game reviewed
    assert await stored_game(settings, state.game_id) is Status.FINISHED  # the game is in HOG_DB


async def test_two_players_at_one_keyboard(settings: Settings) -> None:
    out = io.StringIO()
    state = await table(io.StringIO("2\n3\n" * 10), out, settings, goal=30, name="Ada", vs="Bob", chance=FIVES)
    said = out.getvalue()
    assert "Ada, how many dice?" in said and "Bob, how many dice?" in said
    assert state.is_over and {p.name for p in state.players} == {"Ada", "Bob"}


async def test_forfeit_and_quit(settings: Settings) -> None:
    out = io.StringIO()
    resigned = await table(io.StringIO("forfeit\ny\n"), out, settings, name="Ada", vs="Bob", chance=FIVES)
    assert "Resign this game? It counts as a loss. [y/N] " in out.getvalue()
    assert resigned.winner == 1 and "Ada resigns: Bob wins (0 to 0)." in out.getvalue()
    out = io.StringIO()
    left = await table(io.StringIO("forfeit\nn\n2\nquit\n"), out, settings, name="Ada", vs="Bob", chance=FIVES)
    assert "Not resigned: play on." in out.getvalue() and "resigns" not in out.getvalue()
    assert left.status is Status.ACTIVE
    assert f"The game is saved as {left.game_id}: go on with python -m bot --resume {left.game_id}" in out.getvalue()
    assert await stored_game(settings, left.game_id) is Status.ACTIVE


def test_the_entry_point_plays_a_real_game(tmp_path: Path) -> None:
    env = {**os.environ, "HOG_DB": str(tmp_path / "hog.sqlite3"), "HOG_CACHE": str(tmp_path / "solutions")}
    result = subprocess.run(
        [sys.executable, "-m", "bot", "--rules", "sp21", "--goal", "30", "--house", "medium", "--name", "Ada"],
        input="10\n" * 80,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env=env,
    )
    assert "Spring 2021" in result.stdout
    assert "Ada won." in result.stdout or "The house won." in result.stdout


def test_options_reach_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOG_DB", str(tmp_path / "hog.sqlite3"))
    monkeypatch.setenv("HOG_CACHE", str(tmp_path / "solutions"))
    out = io.StringIO()
    assert main(["--rules", "porkchop", "--goal", "20", "--vs", "Bob"], io.StringIO("q\n"), out) == 0
    assert "Pork Chop" in out.getvalue() and "'chop'" in out.getvalue()
    out = io.StringIO()
    assert main(["--rules", "porkchop", "--goal", "20", "--vs", "Bob", "--new"], io.StringIO("help\nq\n"), out) == 0
    assert "Type a number of dice (0 to 10), 'chop' for Pork Chop, 'hint'" in out.getvalue()


async def test_a_stored_game_is_replayed_listed_and_counted(settings: Settings, tmp_path: Path) -> None:
    out = io.StringIO()
    state = await table(io.StringIO("3\n" * 5), out, settings, goal=40, name="Ada", house="easy", chance=FIVES)
    played = out.getvalue()

    told = io.StringIO()
    async with platform(settings) as p:
        await replay_any(p, state.game_id, told, Replay())
    replayed = told.getvalue()
    count = len(await stored_events(settings, state.game_id))
    headers = [line for line in replayed.splitlines() if line.startswith("Step ")]
    assert len(headers) == count and headers[-1] == f"Step {count} of {count}    win chance before 51.2% · 48.8%"

    def rolls(said: str) -> list[str]:
        return [line.strip() for line in said.splitlines() if " rolls " in line]

    assert rolls(replayed) == rolls(played) and len(rolls(played)) == 4  # every turn, in order
    assert replayed.count("\n  this move: ") == 4  # each turn marked by the exact review
    assert replayed.endswith("Ada 30 · The house 40    win chance (perfect play) 0% · 100%\n  The house won.\n")

    one, png, gif = io.StringIO(), tmp_path / "game.png", tmp_path / "game.gif"
    async with platform(settings) as p:
        await replay_any(p, state.game_id, one, Replay(3, png, gif))
    assert f"The animation of the game is in {gif}." in one.getvalue() and frames(gif) == 5
    assert one.getvalue().startswith(f"Step 3 of {count}    win chance before ")
    assert one.getvalue().count("Step ") == 1 and f"The picture of the game is in {png}." in one.getvalue()
    assert Image.open(png).size == (960, 540)

    listed = io.StringIO()
    async with platform(settings) as p:
        await list_history(p, listed, name="Ada")
    assert listed.getvalue().startswith(state.game_id)
    assert "vs The house (easy) · Fall 2018 to 40 · lost 30–40" in listed.getvalue()

    counted = io.StringIO()
    async with platform(settings) as p:
        await show_stats(p, "hog", player_id("Ada"), counted)
    assert "── Ada's Hog stats ──" in counted.getvalue() and "1 played, 0 won, 1 lost (0%)" in counted.getvalue()
    assert f"Biggest single turn: 15 points, in game {state.game_id}" in counted.getvalue()
    async with platform(settings) as p:
        moves = await p.games["hog"].review(await stored_events(settings, state.game_id))  # type: ignore[attr-defined]
    mine = [m for m in moves if m.mover == 0]
    figure = accuracy_words(hundredths(mine), flawless=perfect(mine))
    shown = f"  Play, by the exact review\n    Average accuracy: {figure} over 1 game\n"
    assert shown in counted.getvalue() and f"win chance, in game {state.game_id}" in counted.getvalue()


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["replay", "gnone"], "There is no game 'gnone' in {db}."),
        (["replay", "c1a2b3c4d", "--step", "99"], "There is no game 'c1a2b3c4d' in {db}."),
        (["history", "--page", "0"], "Pages start at 1, not 0."),
        (["leaderboard", "--page", "0"], "Pages start at 1, not 0."),
        (["--goal", "5000"], "The goal must be between 10 and 1000, not 5000."),
        (["--goal", "300"], "The medium and perfect house play to goals up to 200; for a longer game choose easy."),
        (["simulate", "nonsense", "easy"], "Unknown strategy 'nonsense': use a name or module:function."),
    ],
)
def test_a_request_that_cannot_be_done_is_one_line_without_usage(
    argv: list[str], said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HOG_DB", str(tmp_path / "hog.sqlite3"))
    monkeypatch.setenv("HOG_CACHE", str(tmp_path / "solutions"))
    assert refused(argv, capsys) == said.format(db=tmp_path / "hog.sqlite3")


def test_a_malformed_command_line_shows_its_usage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HOG_DB", str(tmp_path / "hog.sqlite3"))
    with pytest.raises(SystemExit) as exited:
        main(["replay", "gnone", "--step", "x"], io.StringIO(), io.StringIO())
    err = capsys.readouterr().err
    assert exited.value.code == 2 and "argument --step: invalid int value: 'x'" in err
    assert err.startswith("usage: python -m bot replay [-h]")


async def test_an_empty_line_asks_again_and_the_end_of_input_saves(settings: Settings) -> None:
    out = io.StringIO()
    state = await table(io.StringIO("\n\n3\n"), out, settings, name="Ada", house="easy", chance=FIVES)
    assert state.scores == (15, 20) and state.status is Status.ACTIVE  # the empty lines did not quit
    assert out.getvalue().count("Ada, how many dice?") == 4
    assert f"The game is saved as {state.game_id}" in out.getvalue()


async def test_a_saved_game_is_offered_and_resumed(settings: Settings) -> None:
    first = await table(io.StringIO("3\nquit\n"), io.StringIO(), settings, name="Ada", house="easy", chance=FIVES)
    out = io.StringIO()
    again = await table(io.StringIO("y\n3\nquit\n"), out, settings, name="Ada", house="easy", chance=FIVES)
    assert again.game_id == first.game_id and again.scores == (30, 40)
    offered = f"You have an unfinished game, {first.game_id} (vs The house (easy) · Fall 2018 to 100 · playing 15–20)"
    assert f"{offered}. Go on with it? [Y/n]" in out.getvalue()
    other = await table(io.StringIO("quit\n"), io.StringIO(), settings, name="Bob", house="easy", chance=FIVES)
    assert other.game_id != first.game_id, "Bob is not offered Ada's game"
    declined = await table(io.StringIO("n\nquit\n"), io.StringIO(), settings, name="Ada", chance=FIVES)
    assert declined.game_id != first.game_id
    resumed = await table(
        io.StringIO("quit\n"), io.StringIO(), settings, name="Ada", resume=first.game_id, chance=FIVES
    )
    assert resumed.game_id == first.game_id


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--resume", "cnone"], "There is no game 'cnone' in"),
        (
            ["--name", "Bob", "--resume", "{game}"],
            "is not Bob's: it is played by Ada. Go on with it as Ada: python -m bot",
        ),
        (["--vs", "Ada", "--name", "Ada"], "Two players need two names"),
        (["simulate", "easy", "perfect", "--games", "0"], "argument --games: must be at least 1, not 0"),
        (["replay", "{game}", "--picture", "nowhere/x.png"], "there is no folder 'nowhere' to write x.png in"),
        (["replay", "{game}", "--picture", "x.jpg"], "'x.jpg' must end in .png"),
        (["replay", "{game}", "--gif", "x.png"], "'x.png' must end in .gif"),
    ],
)
def test_bad_play_requests_are_refused_in_words(
    argv: list[str], said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HOG_DB", str(tmp_path / "hog.sqlite3"))
    monkeypatch.setenv("HOG_CACHE", str(tmp_path / "solutions"))
    monkeypatch.chdir(tmp_path)
    main(["--name", "Ada", "--house", "easy"], io.StringIO("quit\n"), io.StringIO())
    game = next(line.split()[0] for line in _history(tmp_path))
    argv = [a.format(game=game) for a in argv]
    if said.startswith(("argument", "there is", "'x")):  # a malformed command line: usage, then the error
        with pytest.raises(SystemExit) as exited:
            main(argv, io.StringIO("n\nquit\n"), io.StringIO())
        err = capsys.readouterr().err
        assert exited.value.code == 2 and said in err and "Traceback" not in err
    else:
        assert said in refused(argv, capsys, "n\nquit\n")


def _history(tmp_path: Path) -> list[str]:
    out = io.StringIO()
    main(["history", "--name", "Ada"], io.StringIO(), out)
    return out.getvalue().splitlines()[:-1]


def test_rules_are_explained_in_the_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    assert main(["rules", "sp21"], io.StringIO(), out) == 0
    text = out.getvalue()
    assert text.startswith("Spring 2021: Sow Sad, Piggy Points, More Boar\n") and "More Boar" in text
    assert "**" not in text and "__" not in text


def test_ctrl_c_quits_at_once_with_the_game_saved(tmp_path: Path) -> None:
    """SIGINT while the table waits for a line: exit 130 straight away, no traceback, the game kept."""
    env = {**os.environ, "HOG_DB": str(tmp_path / "hog.sqlite3"), "HOG_CACHE": str(tmp_path / "solutions")}
    status, said, err = interrupted_at(b"how many dice?", ["--house", "easy", "--name", "Ada"], env)
    assert status == 130, err
    assert "Bye! The game is saved as c" in said and "Traceback" not in err
