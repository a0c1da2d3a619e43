"""The whole platform on PostgreSQL (``HOG_DATABASE_URL``): games played through the real services
into a real server, the read models and ratings projected there and equal to a rebuild, and the
command line's migrate, leaderboard and verify against it."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.platform.compose import Platform, platform
from bot.platform.settings import Settings
from tests.helpers import Seeded
from tests.platform.test_ratings import SIX, Cucumber, played_out, six_at_a_table


async def everything(p: Platform) -> tuple[Any, ...]:
    """What the read models say about every player and game, for comparing two projections."""
    views = p.views
    games = [await views.game(f"t{n}") for n in range(3)]
    standings = await views.ratings.standings("cucumber", SIX[0].id, limit=100)
    stats = [await views.stats(s.id, "cucumber", by="players", best="worst") for s in SIX]
    return games, standings, stats, await views.live_games(), await views.checkpoint()


async def test_games_are_stored_projected_and_rated_in_postgres(tmp_path: Path, postgres_url: str) -> None:
    settings = Settings(db=tmp_path / "unused.sqlite3", database_url=postgres_url, cache=tmp_path)
    async with platform(settings, chance=Seeded(5)) as p:
        service: Cucumber = p.service("cucumber")
        for n in range(3):
            await played_out(service, f"t{n}", await six_at_a_table(service, f"t{n}"))
        await p.settled_views()
        live = await everything(p)
        standings = live[1]
        assert standings.total == 6 and all(r.rating.games == 3 for r in standings.page)
        assert all(g is not None and g.status == "finished" for g in live[0])
        await p.projector.rebuild()
        assert await everything(p) == live
    assert not (tmp_path / "unused.sqlite3").exists()  # nothing was kept in SQLite
    async with platform(settings) as again:  # another process, later: the same games
        assert await everything(again) == live


def test_the_command_line_works_on_postgres(tmp_path: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOG_DATABASE_URL", postgres_url)
    monkeypatch.setenv("HOG_CACHE", str(tmp_path))
    monkeypatch.chdir(tmp_path)

    def run(*argv: str) -> tuple[int, str]:
        out = io.StringIO()
        return main(list(argv), None, out), out.getvalue()

    assert run("migrate") == (0, f"The database {Settings.from_env().where} is ready (its schema is up to date).\n")

    async def play() -> None:
        async with platform(Settings.from_env()) as p:  # sealed: a seed drawn, kept in PostgreSQL
            service: Cucumber = p.service("cucumber")
            await played_out(service, "t0", await six_at_a_table(service, "t0"))

    asyncio.run(play())
    status, said = run("leaderboard", "--game", "cucumber")
    assert status == 0 and said.startswith("Cucumber leaderboard, everyone: 6 rated")
    status, said = run("verify", "t0")
    assert status == 0 and said.startswith("fair: all 24 cards of game t0 match the sealed seed."), said
    assert list(tmp_path.glob("*.sqlite3")) == []
