"""Every read a person can make, on both databases: the terminal's history, stats and leaderboards,
every web page and the GUI, run over the same games on SQLite and on PostgreSQL. A query only one
dialect takes (``WHERE 1`` once failed every unfiltered list on PostgreSQL) fails here."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.games.hog.contest.entries import Contest
from bot.games.hog.contest.web import CONTESTS
from bot.platform.compose import Platform, platform
from bot.platform.settings import Settings
from bot.web.app import make_app
from hog_core.events import Player
from tests.postgres_server import create_database, drop_database
from tests.web.test_gui import free_port
from tests.web.test_pages import ADA, HOUSE, finished_hog, rated_hog, running_cucumber

BOB = Player("3", "Bob")


@pytest.fixture(params=["sqlite", "postgres"])
async def played(request: pytest.FixtureRequest, tmp_path: Path, postgres_server: str) -> AsyncIterator[Platform]:
    """A finished Hog game against the house, one between people, and a running Cucumber table, on
    each database."""
    url = await create_database(postgres_server) if request.param == "postgres" else None
    settings = Settings(db=tmp_path / "games.sqlite3", database_url=url, cache=tmp_path / "solutions")
    try:
        async with platform(settings) as p:
            await finished_hog(p)
            await running_cucumber(p)
            await rated_hog(p, "hrated", ADA, BOB)
            await p.settled_views()
            yield p
    finally:
        if url:
            await drop_database(postgres_server, url)


async def test_every_read_of_the_views_answers(played: Platform) -> None:
    views = played.views
    assert {row.game_id for row in await views.history()} == {"hfin", "crun", "hrated"}
    assert {row.game_id for row in await views.history(ADA.id, game="hog")} == {"hfin", "hrated"}
    assert {row.game_id for row in await views.history(place="c1", seat_name="Ada")} == {"hfin", "hrated"}
    assert [row.game_id for row in await views.live_games()] == ["crun"]
    stats = await views.stats(ADA.id, "hog", by="rules", best="turn")
    assert stats.total.games == 2
    standings = await views.ratings.standings("hog", ADA.id, None, limit=10)
    assert standings.total == 2 and standings.mine is not None  # Ada and Bob: the house is not rated
    assert await views.count() == 3 and await views.damaged() == []


async def test_every_page_answers(played: Platform) -> None:
    port = free_port()
    server = TestServer(make_app(played, gui_port=port), host="127.0.0.1", port=port)
    async with TestClient(server) as client:
        pages = [
            "/", "/?page=2", "/games/hfin", "/games/hfin?step=2", "/games/hfin.png", "/games/hfin.gif",
            "/games/hfin/embed", "/games/crun", f"/players/{ADA.id}", f"/players/{HOUSE.id}", "/leaderboards/hog",
            "/leaderboards/cucumber", "/leaderboards/hog?server=1", "/tournaments", "/contests/contest", "/healthz",
            "/metrics", "/play", "/play/new/hog", "/play/new/cucumber",
        ]  # fmt: skip
        for path in pages:
            answer = await client.get(path)
            working = path.startswith("/contests")  # its standings are worked out after the first asks
            assert answer.status == (202 if working else 200), (path, await answer.text())
        await server.app[CONTESTS].results(Contest("contest"))
        assert (await client.get("/contests/contest")).status == 200
