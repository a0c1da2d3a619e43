"""A busy or full database is a sentence at the terminal, not a traceback: what happened, which file,
and that the game is kept; the game then goes on where it stopped."""

from __future__ import annotations

import errno
import io
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import storage.sqlite as sqlite_backend
from bot.cli import main, trouble
from storage.events import StoreError


def test_a_database_locked_mid_game_is_said_in_words_and_the_game_goes_on(tmp_path: Path) -> None:
    env = {**os.environ, "HOG_DB": str(tmp_path / "games.sqlite3"), "HOG_CACHE": str(tmp_path / "solutions")}
    command = [sys.executable, "-m", "bot", "hog", "--name", "Ada", "--house", "easy", "--goal", "50"]
    game = subprocess.Popen(
        [*command, "--new"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    assert game.stdin is not None and game.stdout is not None
    seen = ""
    while "dice" not in seen:  # the first question: the game is stored
        read = game.stdout.read(1)
        assert read, seen
        seen += read
    holder = sqlite3.connect(tmp_path / "games.sqlite3", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program writing, and holding on
    try:
        _, err = game.communicate("5\n", timeout=120)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert game.returncode == 1, err
    assert "Traceback" not in err and f"The database {tmp_path / 'games.sqlite3'} is busy" in err, err
    assert "Nothing is lost" in err
    again = subprocess.run(command, input="y\n" + "5\n" * 30, capture_output=True, text=True, env=env, timeout=120)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("You have an unfinished game") and "playing 0–0" in again.stdout
    assert "check every one of the dice: python -m bot verify" in again.stdout  # played to its end


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (StoreError("the append could not be stored: database is locked"), "is busy"),
        (sqlite3.OperationalError("database or disk is full"), "is full, or cannot be written"),
        (sqlite3.OperationalError("disk I/O error"), "is full, or cannot be written"),
        (OSError(errno.ENOSPC, "No space left on device"), "is full, or cannot be written"),
        (sqlite3.OperationalError("attempt to write a readonly database"), "is read-only to you"),
        (OSError(errno.EADDRINUSE, "address already in use"), "Another program is listening on that port"),
    ],
)
def test_each_trouble_is_named(error: Exception, words: str) -> None:
    assert words in trouble("games.sqlite3", error)


def test_a_database_this_user_may_only_read_is_read_and_never_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Another user's file (or one in a folder this user may not write): history, stats, replays and
    exports read it as it is, nothing of it changes, and a new game is refused in a sentence. (As
    root every file is writable: ``writable`` is told the answer another user would get.)"""
    db = tmp_path / "games.sqlite3"
    monkeypatch.setenv("HOG_DB", str(db))
    monkeypatch.setenv("HOG_CACHE", str(tmp_path / "solutions"))
    assert (
        main(["--name", "Ada", "--house", "easy", "--goal", "20", "--new"], io.StringIO("5\n" * 30), io.StringIO()) == 0
    )
    before = {p.name: p.read_bytes() for p in tmp_path.glob("games.sqlite3*")}
    monkeypatch.setattr(sqlite_backend, "writable", lambda path: False)
    listed = io.StringIO()
    assert main(["history"], None, listed) == 0 and "Ada" in listed.getvalue()
    game_id = listed.getvalue().split()[0]
    for argv in (["stats", "--name", "Ada"], ["replay", game_id, "--all"], ["verify", game_id], ["export"]):
        out = io.StringIO()
        assert main(argv, None, out) == 0, argv
    capsys.readouterr()
    assert main(["--name", "Ada", "--house", "easy", "--new"], io.StringIO("5\n"), io.StringIO()) == 1
    assert f"The database {db} is read-only to you" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in tmp_path.glob("games.sqlite3*")} == before  # not a byte written
