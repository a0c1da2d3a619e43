"""The whole platform on PostgreSQL (``HOG_DATABASE_URL``): games played through the real services
into a real server, the read models and ratings projected there and equal to a rebuild, and the
command line's migrate, leaderboard and verify against it."""

from __future__ import annotations

import asyncio
import io
import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.platform.compose import Platform, platform
from bot.platform.projection import Projector
from bot.platform.registry import Games
from bot.platform.settings import Settings
from storage.games import GameViews
from storage.postgres.database import PostgresDatabase
from storage.postgres.store import PostgresEventStore
from tests.helpers import HOG, Seeded
from tests.platform.test_ratings import SIX, Cucumber, hog_games, played_out, six_at_a_table


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
        asides = await p.views._db.fetch(
            "SELECT schema_name FROM information_schema.schemata WHERE schema_name = 'rebuild'"
        )
        assert asides == [], "the schema the rebuild wrote aside is gone once adopted"
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
    # how many hands, so how many cards, the drawn seed makes is its own: the words and the verdict are the test's
    assert status == 0 and re.match(r"fair: all \d+ cards of game t0 match the sealed seed\.\n", said), said
    assert list(tmp_path.glob("*.sqlite3")) == []


async def test_two_projectors_on_one_database_never_rate_a_game_twice(postgres_url: str) -> None:
    """Two processes' projectors catch up at once, in small batches, over games being played: each
    batch is stored only if the checkpoint it started from still stands, so the ratings they reach
    are those of one projector alone (a rebuild's)."""
    rng = random.Random(3)
    sides = [
        (await PostgresEventStore.open(postgres_url), GameViews(await PostgresDatabase.open(postgres_url)))
        for _ in range(2)
    ]
    projectors = [Projector(store, views, Games({"hog": HOG})) for store, views in sides]

    async def both_now_and_then() -> None:
        if rng.random() < 0.15:
            await asyncio.gather(*(p.catch_up(batch=4) for p in projectors))

    try:
        await hog_games(sides[0][0], rng, people=5, games=12, between=both_now_and_then)
        await asyncio.gather(*(p.catch_up(batch=4) for p in projectors))
        views = sides[1][1]
        followed = (await views.ratings.standings("hog", "", limit=100), await views.checkpoint())
        assert followed[0].total == 5
        await projectors[0].rebuild()
        assert (await views.ratings.standings("hog", "", limit=100), await views.checkpoint()) == followed
    finally:
        for store_, views_ in sides:
            await views_.close()
            await store_.close()


async def test_a_projector_that_falls_behind_another_stores_nothing_stale(postgres_url: str) -> None:
    """The other process's projector catches up to the end while this one holds a batch it read
    before: this one's batch is refused (the checkpoint moved), and it goes on from the new one."""
    rng = random.Random(8)
    sides = [
        (await PostgresEventStore.open(postgres_url), GameViews(await PostgresDatabase.open(postgres_url)))
        for _ in range(2)
    ]
    first, second = (Projector(store, views, Games({"hog": HOG})) for store, views in sides)
    try:
        for n in range(4):  # one game after the other: each batch of 8 events decides a game or so
            await hog_games(sides[0][0], rng, people=3, games=1, first=n)
        slow = sides[1][1]
        on_time = slow.apply

        async def late_apply(*args: Any, **kwargs: Any) -> None:
            slow.apply = on_time  # type: ignore[method-assign]
            await first.catch_up(batch=8)  # the other process gets there first, all the way
            await on_time(*args, **kwargs)

        slow.apply = late_apply  # type: ignore[method-assign]
        await second.catch_up(batch=8)
        after = (await slow.ratings.standings("hog", "", limit=10), await slow.checkpoint())
        await first.rebuild()
        assert (await slow.ratings.standings("hog", "", limit=10), await slow.checkpoint()) == after
        assert after[0].total == 3 and sum(r.rating.games for r in after[0].page) == 8
    finally:
        for store_, views_ in sides:
            await views_.close()
            await store_.close()
