"""Seasons: calendar months (or weeks) numbered from the server's first game, a change of length
taking effect when the season ends, a stretch of none; a season's leaderboard from its own games only,
people only, bots rated only where and while the server's admins let them."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.cli import main
from bot.platform import seasons
from bot.platform.compose import Platform, platform
from bot.platform.recent import Recent
from bot.platform.registry import installed_modules
from bot.platform.seasons import Season
from bot.platform.settings import Settings
from bot.web.app import make_app
from hog_core.events import Player
from hog_core.game import CreateGame, Forfeit

SERVER, PLACE = "500", "501"


def at(day: str) -> float:
    return datetime.fromisoformat(day).replace(tzinfo=UTC).timestamp()


def test_months_numbered_from_the_first_game() -> None:
    found = seasons.seasons([], at("2026-11-15T10:00"), at("2027-01-02T00:00"))
    assert [(s.number, s.title) for s in found] == [
        (1, "Season 1 (November 2026)"),
        (2, "Season 2 (December 2026)"),
        (3, "Season 3 (January 2027)"),
    ]
    assert found[0].start == at("2026-11-01") and found[0].end == found[1].start == at("2026-12-01")


def test_a_new_length_starts_when_the_season_ends_and_none_pauses_them() -> None:
    changes = [(at("2026-12-10"), "week"), (at("2027-01-13"), "none"), (at("2027-02-03T12:00"), "month")]
    found = seasons.seasons(changes, at("2026-11-15"), at("2027-02-20"))
    starts = [datetime.fromtimestamp(s.start, UTC).date().isoformat() for s in found]
    assert starts == ["2026-11-01", "2026-12-01", "2027-01-01", "2027-01-04", "2027-01-11", "2027-02-01"]
    assert [s.length for s in found] == ["month", "month", "week", "week", "week", "month"]
    assert found[2].end == at("2027-01-04"), "the week begun in December ends on Monday, starting after December"
    assert found[3].title == "Season 4 (the week of 4 Jan 2027)"
    assert seasons.seasons([], None, time.time()) == []


@pytest.fixture
async def world(tmp_path: Path, solved_folder: Path) -> AsyncIterator[Platform]:
    async with platform(Settings(db=tmp_path / "s.sqlite3", cache=solved_folder), installed_modules("hogbot")) as p:
        await p.views.ratings.locate(PLACE, SERVER)
        yield p


async def game(p: Platform, game_id: str, a: str, b: str | None, loser: str) -> float:
    """A game of Hog between ``a`` and ``b`` (the house when ``None``), lost by ``loser``; when it ended."""
    rival = Player(b, b.title()) if b else Player("house:easy", "The house", house="easy")
    await p.service("hog").create(game_id, CreateGame(game_id, (Player(a, a.title()), rival), place=PLACE), game_id)
    await p.service("hog").execute(game_id, lambda s, c: [Forfeit(loser)], f"end:{game_id}")
    return time.time()


async def test_each_season_starts_everyone_afresh(world: Platform) -> None:
    p = world
    began = time.time()
    await game(p, "g1", "ada", "bob", "bob")
    await game(p, "g2", "ada", "bob", "bob")
    middle = time.time()
    await game(p, "g3", "ada", "bob", "ada")
    first, second = Season(1, began - 1, middle, "month"), Season(2, middle, time.time() + 1, "month")
    one = await p.seasons.standings(SERVER, "hog", first)
    two = await p.seasons.standings(SERVER, "hog", second)
    assert [r.rating.player_id for r in one] == ["ada", "bob"] and one[0].rating.games == 2
    assert [r.rating.player_id for r in two] == ["bob", "ada"] and two[0].rating.games == 1
    everyone = await (await p.settled_views()).ratings.standings("hog", "ada")
    assert everyone.page[0].rating.player_id == "ada" and everyone.page[0].rating.games == 3, "all time stays"
    assert await p.seasons.standings("another server", "hog", second) == []


def seasons_read_from(p: Platform, monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Where each read of a season's finished games begins, as they are read."""
    asked: list[float] = []
    finished_in = type(p.views).finished_in

    async def spied(views: object, server: str, game: str, since: float, until: float) -> object:
        asked.append(since)
        return await finished_in(views, server, game, since, until)  # type: ignore[arg-type]

    monkeypatch.setattr(type(p.views), "finished_in", spied)
    return asked


async def test_a_running_season_is_carried_forward_and_a_past_one_kept(
    world: Platform, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The running season rates only the games finished since it was last asked for, and agrees
    with the same season worked out afresh; a past season is worked out once and then read as kept."""
    p, began = world, time.time()
    asked = seasons_read_from(p, monkeypatch)
    monkeypatch.setattr(seasons, "SLACK", 0.0)  # no look back: every game here ends within a second
    season = Season(1, began - 1, began + 3600, "month")
    for n, loser in enumerate(["bob", "ada", "bob", "bob"]):
        await game(p, f"g{n}", "ada", "bob", loser)
        running = await p.seasons.standings(SERVER, "hog", season, now=began)
    assert asked[0] == season.start and all(since > season.start for since in asked[1:]), "from the last rated on"
    afresh = await p.seasons.standings(SERVER, "hog", season, now=season.end)  # over: worked out once
    assert afresh == running and running[0].rating.games == 3  # the fourth in an hour is farming
    asked.clear()
    assert await p.seasons.standings(SERVER, "hog", season, now=season.end) == afresh and asked == [], "kept"


async def test_a_process_that_starts_goes_on_with_the_running_season_from_where_it_was_kept(
    world: Platform, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A running season's ratings are kept as far as they were carried: a process that starts (its
    memory empty) reads only the games finished since, and its table is the one worked out afresh;
    at the season's end the table is finished from there, once."""
    p, began = world, time.time()
    season = Season(1, began - 1, began + 3600, "month")
    monkeypatch.setattr(seasons, "SLACK", 0.0)
    for n, loser in enumerate(["bob", "ada"]):
        await game(p, f"g{n}", "ada", "bob", loser)
        await p.seasons.standings(SERVER, "hog", season, now=began)
    asked = seasons_read_from(p, monkeypatch)
    for n, (a, loser) in enumerate([("ada", "bob"), ("ada", "ada"), ("carol", "bob")], start=2):
        p.seasons.running = Recent(seasons.RUNNING_KEPT)  # a process that starts: nothing in memory
        last = await game(p, f"g{n}", a, "bob", loser)
        running = await p.seasons.standings(SERVER, "hog", season, now=began)
        assert asked[-1] > began and asked[-1] <= last, "from the last game it had rated, not the season's start"
    # the fourth game of Ada and Bob within an hour is farming, across a start too
    assert {r.rating.player_id: r.rating.games for r in running} == {"ada": 3, "bob": 4, "carol": 1}
    p.seasons.running = Recent(seasons.RUNNING_KEPT)
    asked.clear()
    afresh = await seasons.Running(season).carried(await p.settled_views(), p.seasons.settings, SERVER, "hog")
    assert afresh.table("hog") == running, "the same as the season rated from its start"
    asked.clear()
    over = await p.seasons.standings(SERVER, "hog", season, now=season.end)
    assert over == running and asked and asked[0] > began, "finished from where it was kept"
    assert await (await p.settled_views()).ratings.running(SERVER, "hog", season.start) is None


async def test_bots_are_rated_only_where_and_while_the_admins_let_them(world: Platform) -> None:
    p = world
    began = time.time()
    await game(p, "g1", "ada", None, "house:easy")  # not rated: bots-rated is no
    await p.server_settings.set(SERVER, "bots-rated", "yes", "admin", "Admin", manages=True)
    await game(p, "g2", "bob", None, "house:easy")  # rated in the season: the house is beaten
    season = Season(1, began - 1, time.time() + 1, "month")
    ranked = await p.seasons.standings(SERVER, "hog", season)
    assert [(r.rating.player_id, r.rating.games) for r in ranked] == [("bob", 1)], "the house is never on the board"
    everyone = await (await p.settled_views()).ratings.standings("hog", "bob")
    assert everyone.total == 0, "all-time ratings are between people only"


async def test_the_terminal_shows_a_servers_season(
    tmp_path: Path, solved_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "s.sqlite3"
    async with platform(Settings(db=db, cache=solved_folder), installed_modules("hogbot")) as p:
        await p.views.ratings.locate(PLACE, SERVER)
        await game(p, "g1", "ada", "bob", "bob")
    monkeypatch.setenv("HOG_DB", str(db))
    monkeypatch.setenv("HOG_CACHE", str(solved_folder))
    out = io.StringIO()
    argv = ["leaderboard", "--server", SERVER, "--season", "0", "--player", "ada"]
    assert await asyncio.to_thread(main, argv, stdout=out) == 0
    month = datetime.now(UTC).strftime("%B %Y")
    assert out.getvalue().splitlines()[0] == f"Hog leaderboard, server {SERVER}, Season 1 ({month}): 2 rated"
    assert out.getvalue().splitlines()[1].startswith("1. Ada · ") and "You: #1 of 2" in out.getvalue()
    wrong = io.StringIO()
    assert await asyncio.to_thread(main, ["leaderboard", "--season", "2"], stdout=wrong) != 0


async def test_a_servers_season_on_the_web(world: Platform) -> None:
    p = world
    await game(p, "g1", "ada", "bob", "bob")
    client = TestClient(TestServer(make_app(p)))
    await client.start_server()
    try:
        month = datetime.now(UTC).strftime("%B %Y")
        for asked in ("0", "1"):
            answer = await client.get(f"/leaderboards/hog?server={SERVER}&season={asked}")
            html = await answer.text()
            assert answer.status == 200 and f"server {SERVER}, Season 1 ({month})" in html
            assert html.index("Ada") < html.index("Bob")
        for missing in (f"?server={SERVER}&season=2", "?season=1", f"?server={SERVER}&season=x"):
            assert (await client.get(f"/leaderboards/hog{missing}")).status == 404, missing
    finally:
        await client.close()
