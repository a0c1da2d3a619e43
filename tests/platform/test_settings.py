"""Settings from the environment that say where the games are kept and which shards a process runs:
checked when the process starts, with a message that says what is wrong."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.cli import main
from bot.platform.settings import Settings, SettingsError


def test_the_database_url_is_checked_and_never_shown_with_its_password() -> None:
    url = "postgresql://bot:s3cret@db.example:5432/hogbot"
    settings = Settings.from_env({"HOG_DATABASE_URL": url})
    assert settings.database_url == url and settings.where == "postgresql://bot:***@db.example:5432/hogbot"
    assert "s3cret" not in repr(settings)
    assert Settings.from_env({"HOG_DATABASE_URL": ""}).database_url is None
    with pytest.raises(SettingsError, match="must be a postgresql:// URL, not 'sqlite'"):
        Settings.from_env({"HOG_DATABASE_URL": "sqlite:///games.db"})


def test_a_process_runs_the_shards_it_is_given() -> None:
    settings = Settings.from_env({"HOG_SHARD_COUNT": "4", "HOG_SHARD_IDS": "2, 3"})
    assert (settings.shard_count, settings.shard_ids) == (4, (2, 3))
    assert (Settings.from_env({}).shard_count, Settings.from_env({}).shard_ids) == (None, None)  # as Discord says
    for ids, count, words in [
        ("0,1", None, "HOG_SHARD_IDS needs HOG_SHARD_COUNT"),
        ("0,4", "4", "different numbers from 0 to 3, not '0,4'"),
        ("1,1", "4", "different numbers from 0 to 3"),
        ("one", "4", "shard numbers separated by commas, like 0,1, not 'one'"),
    ]:
        env = {"HOG_SHARD_IDS": ids} | ({"HOG_SHARD_COUNT": count} if count else {})
        with pytest.raises(SettingsError, match=words):
            Settings.from_env(env)


def test_a_database_that_cannot_be_reached_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HOG_DATABASE_URL", f"postgresql://bot:s3cret@/games?host={tmp_path}/nowhere")
    assert main(["leaderboard"], None, io.StringIO()) == 1
    said = capsys.readouterr().err
    assert said.startswith("python -m bot: cannot use the database postgresql://bot:***@/games")
    assert "s3cret" not in said
    assert said.count("\n") == 1  # no traceback


def test_solutions_are_kept_in_the_users_cache_folder_by_the_xdg_rule(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert Settings().cache == tmp_path / "hogbot"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")  # the rule: a relative path is not one
    assert Settings().cache == Path.home() / ".cache" / "hogbot"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert Settings().cache == Path.home() / ".cache" / "hogbot"
    assert Settings.from_env({"HOG_CACHE": str(tmp_path / "x")}).cache == tmp_path / "x"
