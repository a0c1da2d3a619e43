"""``python -m bot copy-store``: an SQLite history moved to PostgreSQL whole — the same log to the
byte, the seeds that prove its dice, where its boards are — checked by counts and checksums, with
the read models projected from it; and refused, changing nothing, when it cannot be done."""

from __future__ import annotations

import asyncio
import io
import shutil
from pathlib import Path

import pytest

from bot.cli import main
from bot.platform.compose import platform
from bot.platform.settings import Settings
from tests.platform.test_ratings import Cucumber, played_out, six_at_a_table

OLD = Path(__file__).parents[1] / "games" / "hog" / "data" / "before-platform.sqlite3"


async def history(path: Path) -> list[object]:
    """Two sealed six-seat Cucumber games and a board and a server known; what the read models say."""
    async with platform(Settings(db=path, cache=path.parent)) as p:
        service: Cucumber = p.service("cucumber")
        for game_id in ("t1", "t2"):
            await played_out(service, game_id, await six_at_a_table(service, game_id))
        await p.kept.place_board("t1", "c1", "m1", 40)
        await p.views.ratings.locate("c1", "s1")
        views = await p.settled_views()
        return [await views.game("t1"), await views.ratings.standings("cucumber", "1", "s1")]


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), None, out), out.getvalue()


def test_a_history_is_copied_whole_and_checked(
    tmp_path: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOG_CACHE", str(tmp_path))
    source = tmp_path / "games.sqlite3"
    before = asyncio.run(history(source))
    status, said = run("copy-store", "--from", f"sqlite:///{source}", "--to", postgres_url)
    assert status == 0, said
    assert "events of 2 games" in said
    assert "2 seals, 1 board, 1 place, 0 imported games' origins: the copy matches its source." in said

    async def on_postgres() -> list[object]:
        async with platform(Settings(db=tmp_path / "unused.sqlite3", database_url=postgres_url, cache=tmp_path)) as p:
            assert await p.kept.board_message("t1") == ("c1", "m1")
            return [await p.views.game("t1"), await p.views.ratings.standings("cucumber", "1", "s1")]

    assert asyncio.run(on_postgres()) == before  # the same games, ratings and server board, projected there
    monkeypatch.setenv("HOG_DATABASE_URL", postgres_url)
    status, said = run("verify", "t2")  # the seed came along: the copied game still proves its cards
    assert status == 0 and said.startswith("fair: ")
    monkeypatch.delenv("HOG_DATABASE_URL")
    status, said = run("copy-store", "--from", f"sqlite:///{source}", "--to", postgres_url)
    assert status == 1  # never into a database that holds games already


def test_a_history_from_before_the_platform_moves_too(
    tmp_path: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOG_CACHE", str(tmp_path))
    source = tmp_path / "old.sqlite3"
    shutil.copy(OLD, source)
    status, said = run("copy-store", "--from", f"sqlite:///{source}", "--to", postgres_url)
    assert status == 0 and "events of 3 games" in said and "Projected the read models: 3 games." in said


def test_a_copy_that_cannot_be_made_says_why(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOG_CACHE", str(tmp_path))
    assert run("copy-store", "--from", f"sqlite:///{tmp_path}/missing.sqlite3", "--to", postgres_url)[0] == 1
    assert "there is no SQLite file at" in capsys.readouterr().err
    assert not (tmp_path / "missing.sqlite3").exists()  # (not created by looking for it)
    assert run("copy-store", "--from", "mysql://x", "--to", postgres_url)[0] == 1
    assert "--from must be a sqlite:///path URL, not 'mysql://x'" in capsys.readouterr().err
