"""The console table, driven through its input like a person at a keyboard."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.console import table
from bot.settings import Settings
from hog_core.game import Dice, Status, replay
from storage.codec import from_records
from storage.events import SqliteEventStore


def fives(dice: Dice) -> tuple[int, ...]:
    return (5,) * dice.count


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(db=tmp_path / "hog.sqlite3", cache=tmp_path / "solutions")


async def stored_game(settings: Settings, game_id: str) -> Status:
    store = await SqliteEventStore.open(settings.db)
    try:
        return replay(from_records(await store.load(game_id))).status
    finally:
        await store.close()


async def test_a_full_game_against_the_house_with_bad_input_along_the_way(settings: Settings) -> None:
    out = io.StringIO()
    keys = io.StringIO("x\n11\nchop\nhelp\n" + "3\n" * 5)
    state = await table(keys, out, settings, goal=40, name="Ada", house="easy", dice=fives)
    said = out.getvalue()
    assert "'x' is not a number of dice." in said
    assert "Choose between 0 and 10 dice, not 11." in said
    assert "There is no Pork Chop in fa18" in said
    assert "Type a number of dice, 'chop' for Pork Chop" in said
    # Ada rolls 15 a turn, the house (easy: 4 dice) 20: 15-0, 15-20, 30-20, 30-40
    assert state.status is Status.FINISHED and state.scores == (30, 40) and state.winner == 1
    assert "Ada rolls 5, 5, 5 for 15." in said and "The house rolls 5, 5, 5, 5 for 20." in said
    assert "🏆 The house wins 40 to 30!" in said or "The house wins, 40 to 30." in said
    assert "win chance" in said and said.rstrip().endswith("The house won.")
    assert await stored_game(settings, state.game_id) is Status.FINISHED  # the game is in HOG_DB


async def test_two_players_at_one_keyboard(settings: Settings) -> None:
    out = io.StringIO()
    state = await table(io.StringIO("2\n3\n" * 10), out, settings, goal=30, name="Ada", vs="Bob", dice=fives)
    said = out.getvalue()
    assert "Ada, how many dice?" in said and "Bob, how many dice?" in said
    assert state.is_over and {p.name for p in state.players} == {"Ada", "Bob"}


async def test_forfeit_and_quit(settings: Settings) -> None:
    out = io.StringIO()
    resigned = await table(io.StringIO("forfeit\n"), out, settings, name="Ada", vs="Bob", dice=fives)
    assert resigned.winner == 1 and "Ada resigns: Bob wins (0 to 0)." in out.getvalue()
    out = io.StringIO()
    left = await table(io.StringIO("2\nquit\n"), out, settings, name="Ada", vs="Bob", dice=fives)
    assert left.status is Status.ACTIVE
    assert f"The game is saved as {left.game_id}." in out.getvalue()
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
