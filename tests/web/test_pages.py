"""The web front over HTTP (aiohttp's own test client, on a real server and the real platform): a game's
page and its step-through replay, 404 pages, escaping and the Content-Security-Policy, a running game's
page that shows no hidden card and no seed, the live stream, and the health check."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
import re
import socket
import sqlite3
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from markupsafe import escape
from PIL import Image

from bot.games.cucumber.moves import play
from bot.games.cucumber.picture import chart
from bot.games.cucumber.replays import steps
from bot.games.hog.analysis import move_words, player_line
from bot.games.hog.module import resign, turn
from bot.platform.chance import commitment
from bot.platform.compose import Platform, platform
from bot.platform.drawing import HEIGHT, WIDTH
from bot.platform.ratings import shown
from bot.platform.settings import Settings, SettingsError
from bot.web.app import make_app
from bot.web.icons import icon
from cucumber_core.cards import short
from cucumber_core.events import CardPlayed, DealerCut, Seat
from cucumber_core.game import GameState, OpenLobby, StartGame
from hog_core.events import Player, TurnTaken
from hog_core.game import CreateGame
from tests.helpers import Seeded, frames
from tests.web.site import Site

ADA, HOUSE = Player("1", "Ada"), Player("house:easy", "The house", house="easy")
HEALTHY = {"store": "ok", "read_models": "ok", "role": "web", "read_models_behind": 0, "quarantined": 0}
MALLORY = Player("2", "<script>alert(1)</script>")


async def finished_hog(p: Platform, game_id: str = "hfin", players: tuple[Player, Player] = (ADA, HOUSE)) -> None:
    service = p.service("hog")
    await service.create(game_id, CreateGame(game_id, players, goal=20, place="c1"), f"new-{game_id}")
    state, n = await service.load(game_id), 0
    while not state.is_over:
        mover = state.players[state.mover].id
        state = (await service.execute(game_id, turn(mover, 3), f"{game_id}-{n}")).state
        n += 1


async def test_a_finished_game_is_a_page_stepped_through_with_its_commentary_and_seed(
    site: Site,
) -> None:
    p, client = site
    await finished_hog(p)
    told = list(p.games["hog"].narrate(await p.service("hog").events("hfin")))
    answer = await client.get("/games/hfin")
    page = await answer.text()
    assert answer.status == 200 and answer.content_type == "text/html"
    assert f"Step {len(told)} of {len(told)}" in page and "Ada" in page and "won" in page
    seed = await p.kept.seed("hfin")
    assert seed is not None and f"{icon('🔓')} seed {seed.hex()} · every draw matches it" in page
    assert icon("🏆") in page and 'aria-label="trophy"' in page, "the win's emoji is drawn, no emoji font needed"
    second = await (await client.get("/games/hfin?step=2")).text()
    assert f"Step 2 of {len(told)}" in second and all(str(escape(line)) in second for line in told[1][2])
    assert 'href="?step=1"' in second and 'href="?step=3"' in second
    assert "Step 1 of" in await (await client.get("/games/hfin?step=0")).text()  # clamped, not refused
    moves = await p.games["hog"].review(await p.service("hog").events("hfin"))  # type: ignore[attr-defined]
    assert f"<li>{escape(player_line('Ada', [m for m in moves if m.mover == 0]))}" in page  # the exact review
    first_turn = next(i for i, (event, _, _) in enumerate(told, start=1) if isinstance(event, TurnTaken))
    marked = await (await client.get(f"/games/hfin?step={first_turn}")).text()
    assert f"<li>This move: {escape(move_words(moves[0]))}</li>" in marked
    assert "This move:" not in await (await client.get("/games/hfin?step=1")).text()  # the game's start: no move
    listed = await (await client.get("/")).text()
    assert 'href="/games/hfin"' in listed


@pytest.mark.parametrize("address", ["/games/nope", "/games/%3Cscript%3E", "/games/hfin?step=x", "/nowhere"])
async def test_an_unknown_or_malformed_address_is_a_404_page(site: Site, address: str) -> None:
    p, client = site
    await finished_hog(p)
    answer = await client.get(address)
    page = await answer.text()
    assert answer.status == 404 and "Not found" in page and "Traceback" not in page and "<script>" not in page
    assert "script-src 'self'" in answer.headers["Content-Security-Policy"]


async def test_every_name_is_escaped_and_no_inline_script_may_run(site: Site) -> None:
    p, client = site
    await finished_hog(p, "hbad", (MALLORY, HOUSE))
    for address in ("/games/hbad", "/"):
        answer = await client.get(address)
        page = await answer.text()
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page
        assert all(src == "/static/game.js" for src in re.findall(r'<script src="([^"]*)"', page))
        assert "<script>" not in page and "'unsafe-inline'" not in answer.headers["Content-Security-Policy"]


async def running_cucumber(p: Platform) -> GameState:
    service = p.service("cucumber")
    ann = Seat("1", "Ann")
    await service.create("crun", OpenLobby("crun", ann, 3, num_cards=5, target=21, place="c1"), "open")
    state: GameState = (await service.execute("crun", lambda s, c: [StartGame(ann.id, fill="magic")], "start")).state
    for move in range(3):
        seat = state.to_play
        assert seat is not None
        state = (
            await service.execute("crun", play(ann.id, state.legal_cards(seat)[0], state.moment), f"m{move}")
        ).state
    return state


async def test_a_finished_card_games_page_shows_its_estimated_review(tmp_path: Path) -> None:
    async with platform(Settings(db=tmp_path / "games.sqlite3"), chance=Seeded(3)) as p:  # the same deals each run
        client = TestClient(TestServer(make_app(p)))
        await client.start_server()
        try:
            await estimated_review_shown(p, client)
        finally:
            await client.close()


async def finished_cucumber(p: Platform) -> GameState:
    """``cfin``: Ann and two magic bots to 11, Ann always playing high (costly, often)."""
    service = p.service("cucumber")
    ann = Seat("1", "Ann")
    await service.create("cfin", OpenLobby("cfin", ann, 3, num_cards=4, target=11, place="c1"), "cfin-open")
    started = await service.execute("cfin", lambda s, c: [StartGame(ann.id, fill="magic")], "cfin-start")
    state: GameState = started.state
    for move in range(500):
        if state.is_over:
            break
        card = max(state.legal_cards(0), key=lambda c: c % 13)
        state = (await service.execute("cfin", play(ann.id, card, state.moment), f"cfin-m{move}")).state
    assert state.is_over
    return state


async def estimated_review_shown(p: Platform, client: TestClient[web.Request, web.Application]) -> None:
    service = p.service("cucumber")
    await finished_cucumber(p)
    events = await service.events("cfin")
    reviewed = await p.games["cucumber"].review(events)  # type: ignore[attr-defined]
    assert reviewed and {r.seat for r in reviewed} == {0}
    page = await (await client.get("/games/cfin")).text()
    assert '<section class="review">' in page and "<li>Ann: " in page and "estimated by the strong bot" in page
    ends = p.games["cucumber"].replay_steps(list(p.games["cucumber"].narrate(events)))  # type: ignore[attr-defined]
    step = next(n for n, end in enumerate(ends, 1) if end > reviewed[0].at)  # a trick a step, as at the terminal
    marked = await (await client.get(f"/games/cfin?step={step}")).text()
    first = reviewed[0]
    assert f"<li>This trick: Ann, hand {first.hand}, trick {first.trick}: {short(first.played)}" in marked
    assert f"Step {step} of {len(ends)}" in marked and len(ends) < len(events)
    assert len(ends) == len(steps(p.games["cucumber"].narrate(events)))  # the terminal's and Discord's steps


async def test_a_running_card_games_pages_show_no_hidden_card_and_no_seed(site: Site) -> None:
    p, client = site
    state = await running_cucumber(p)
    assert not state.is_over and state.hands
    seed = await p.kept.seed("crun")
    assert seed is not None
    events = await p.service("cucumber").events("crun")
    cut = {card for event in events if isinstance(event, DealerCut) for card in event.cards}  # public, dealt again
    held = [short(card) for hand in state.hands for card in hand if card not in cut]
    for step in ["", *(f"?step={n}" for n in range(1, state.version + 1))]:
        page = await (await client.get(f"/games/crun{step}")).text()
        assert not [card for card in held if card in page], step
        assert seed.hex() not in page and 'class="review"' not in page
    assert commitment(seed) in await (await client.get("/games/crun")).text()


async def test_a_cucumber_score_meter_reads_points_as_bad(site: Site) -> None:
    """In Cucumber points are bad: each seat's meter is at its best empty (``optimum`` 0), so a browser
    draws the loser's full meter as a warning, not as green."""
    p, client = site
    await running_cucumber(p)
    page = await (await client.get("/games/crun")).text()
    meters = re.findall(r"<meter [^>]*>", page)
    assert meters and all('optimum="0"' in m and 'low="10"' in m and 'high="16"' in m for m in meters), meters


async def test_a_running_games_stream_tells_each_new_version(site: Site) -> None:
    p, client = site
    service = p.service("hog")
    players = (ADA, Player("3", "Bob"))
    await service.create("hlive", CreateGame("hlive", players, goal=50, place="c1"), "new")
    page = await (await client.get("/games/hlive")).text()
    assert 'data-live="/games/hlive/events"' in page
    stream = await client.get("/games/hlive/events")
    assert stream.headers["Content-Type"] == "text/event-stream"

    async def version() -> int:
        while True:
            line = (await stream.content.readline()).decode()
            if line.startswith("data: "):
                return int(line.removeprefix("data: "))

    assert await asyncio.wait_for(version(), 10) == 1
    await service.execute("hlive", turn(ADA.id, 2), "move")
    assert await asyncio.wait_for(version(), 1) == 2  # within a second of the move
    stream.close()


async def test_the_health_check_says_the_store_answers(site: Site) -> None:
    _, client = site
    answer = await client.get("/healthz")
    assert answer.status == 200 and await answer.json() == {
        "store": "ok",
        "read_models": "ok",
        "role": "web",
        "read_models_behind": 0,
        "quarantined": 0,
    }


async def test_python_m_bot_web_serves_a_game_another_process_plays_live(tmp_path: Path) -> None:
    """The bot (here, this test's process) stores the moves; ``python -m bot web``, in a process of its
    own on the same SQLite file, serves the page and tells its watchers of each move."""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    settings = Settings(db=tmp_path / "games.sqlite3", cache=tmp_path / "solutions")
    env = {**os.environ, "HOG_DB": str(settings.db), "HOG_CACHE": str(settings.cache)}
    async with platform(settings) as p:
        service = p.service("hog")
        await service.create("hweb", CreateGame("hweb", (ADA, Player("3", "Bob")), goal=50, place="c1"), "new")
        web_process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "web", "--port", str(port), env=env, stdout=asyncio.subprocess.PIPE
        )
        try:
            assert web_process.stdout is not None
            said = (await asyncio.wait_for(web_process.stdout.readline(), 60)).decode()
            assert said.startswith(f"Serving the games of {settings.db} at http://127.0.0.1:{port}/")
            async with aiohttp.ClientSession(f"http://127.0.0.1:{port}") as session:
                for _ in range(100):  # the line comes just before the server listens
                    with contextlib.suppress(aiohttp.ClientConnectionError):
                        async with session.get("/games/hweb") as answer:
                            assert answer.status == 200 and "Step 1 of 1" in await answer.text()
                            break
                    await asyncio.sleep(0.1)
                async with session.get("/games/hweb/events") as stream:
                    first = await asyncio.wait_for(stream.content.readline(), 10)
                    assert first == b"event: version\n" and await stream.content.readline() == b"data: 1\n"
                    await service.execute("hweb", turn(ADA.id, 2), "move")  # stored by this process
                    lines = [await asyncio.wait_for(stream.content.readline(), 1) for _ in range(3)]
                    assert lines[1:] == [b"event: version\n", b"data: 2\n"]  # within a second
                    web_process.terminate()  # as docker stop does, a watcher still connected
                    assert await asyncio.wait_for(web_process.wait(), 10) == 0  # at once, cleanly
        finally:
            if web_process.returncode is None:
                web_process.terminate()
                await web_process.wait()


async def test_a_game_is_drawn_at_each_step_and_animated(site: Site) -> None:
    p, client = site
    await finished_hog(p)
    final = await client.get("/games/hfin.png")
    assert final.status == 200 and final.content_type == "image/png"
    png = await final.read()
    assert Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT)
    assert await (await client.get("/games/hfin.png?step=2")).read() != png  # that step's turn marked
    gif = await client.get("/games/hfin.gif")
    assert gif.content_type == "image/gif" and frames(await gif.read()) > 2
    assert (await client.get("/games/hfin.png?step=x")).status == 404
    assert (await client.get("/games/nope.png")).status == 404


async def test_a_running_card_games_pictures_hold_only_played_cards(site: Site) -> None:
    p, client = site
    await running_cucumber(p)
    events = await p.service("cucumber").events("crun")
    for step in range(1, len(events) + 1):
        played = {e.card for e in events[:step] if isinstance(e, CardPlayed)}
        drawn = chart(events[:step])
        assert {card for _, plays in drawn.last_hand for _, card in plays} <= played
        answer = await client.get(f"/games/crun.png?step={step}")
        assert answer.status == 200 and answer.content_type == "image/png"


async def test_a_link_unfurls_with_the_picture_and_embeds(site: Site) -> None:
    p, client = site
    await finished_hog(p)
    page = await (await client.get("/games/hfin")).text()
    origin = str(client.make_url("/")).rstrip("/")
    assert '<meta property="og:title" content="Ada v The house · Hog">' in page
    assert f'<meta property="og:image" content="{origin}/games/hfin.png">' in page
    assert '<meta name="twitter:card" content="summary_large_image">' in page
    assert 'content="Ada ' in page and "Fall 2018 to 20" in page  # the line of result
    embedded = await client.get("/games/hfin/embed")
    assert embedded.status == 200 and "frame-ancestors *" in embedded.headers["Content-Security-Policy"]
    assert "<header>" not in await embedded.text()
    assert "frame-ancestors 'self'" in (await client.get("/games/hfin")).headers["Content-Security-Policy"]
    assert (await client.get("/games/nope/embed")).status == 404


async def test_links_use_the_public_address_when_there_is_one(tmp_path: Path) -> None:
    settings = Settings(db=tmp_path / "games.sqlite3", cache=tmp_path, public_url="https://hog.example")
    async with platform(settings) as p:
        await finished_hog(p)
        async with TestClient(TestServer(make_app(p))) as client:
            page = await (await client.get("/games/hfin")).text()
    assert '<meta property="og:image" content="https://hog.example/games/hfin.png">' in page
    assert Settings.from_env({"HOG_PUBLIC_URL": "https://hog.example/"}).public_url == "https://hog.example"
    with pytest.raises(SettingsError, match="HOG_PUBLIC_URL must be an http:// or https:// address"):
        Settings.from_env({"HOG_PUBLIC_URL": "hog.example"})


async def rated_hog(p: Platform, game_id: str, winner: Player, loser: Player) -> None:
    """A game between two people, rated: ``loser`` resigns at once."""
    service = p.service("hog")
    await service.create(game_id, CreateGame(game_id, (winner, loser), place="c1"), f"new-{game_id}")
    await service.execute(game_id, resign(loser.id), f"end-{game_id}")


async def test_a_players_page_and_the_leaderboards_are_paged(site: Site) -> None:
    p, client = site
    bob, cy = Player("3", "Bob"), Player("4", "Cy")
    await rated_hog(p, "r1", ADA, bob)
    await rated_hog(p, "r2", ADA, cy)
    await finished_hog(p, "solo", (ADA, HOUSE))
    page = await (await client.get("/players/1")).text()
    assert "<h1>Ada</h1>" in page and all(f'href="/games/{g}"' in page for g in ("r1", "r2", "solo"))
    assert '<h2 id="r-hog">Hog</h2>' in page and "<dt>Games</dt><dd>3</dd>" in page and "3 played, " in page
    assert 'id="r-cucumber"' not in page, "a game they never finished has no record drawn"
    ada = (await (await p.settled_views()).ratings.of("hog", ["1"]))["1"]
    assert f'<a href="/leaderboards/hog">{shown(ada)}</a> <small>after 2 rated games</small>' in page
    chart = re.search(r'<svg class="chart"[^>]*aria-label="([^"]*)"', page)
    assert chart and chart[1].startswith("Hog rating: ") and f"{shown(ada)} after game 2" in chart[1]
    assert chart[0].count("<polyline") == 0 and page.count("<polyline") == 1  # one line, two points
    board = await (await client.get("/leaderboards/hog")).text()
    assert "3 rated" in board and board.index("Ada") < board.index("Bob")
    assert '<td data-label="Place">1</td><td data-label="Player"><a href="/players/1">Ada</a></td>' in board
    assert "1. 1." not in board and "<ol" not in board  # each place numbered once; each name its page's link
    assert "Nobody is rated yet" in await (await client.get("/leaderboards/cucumber")).text()
    assert "No more players." in await (await client.get("/leaderboards/hog?page=2")).text()
    assert "0 rated" in await (await client.get("/leaderboards/hog?server=123")).text()
    home = await (await client.get("/")).text()
    assert 'href="/leaderboards/hog"' in home and 'href="/players/1"' in home
    assert "Being played now" not in home, "no game under way: no tiles"
    for bad in (
        "/leaderboards/chess",
        "/leaderboards/hog?page=0",
        "/leaderboards/hog?server=x",
        "/players/nobody",
        "/players/1?page=-1",
        "/?page=99999999",
    ):
        assert (await client.get(bad)).status == 404, bad


async def test_the_metrics_are_in_prometheus_text_format(site: Site) -> None:
    p, client = site
    await finished_hog(p)
    await client.get("/games/hfin")
    await client.get("/games/nope")
    answer = await client.get("/metrics")
    text = await answer.text()
    assert answer.status == 200 and answer.content_type == "text/plain"
    samples = {line.split(" ")[0]: line.split(" ")[-1] for line in text.splitlines() if not line.startswith("#")}
    assert float(samples["hogbot_append_seconds_count"]) >= 2  # the game's creation and its moves
    assert samples["hogbot_live_games"] == "0.0" and samples["hogbot_read_model_lag_events"] == "0.0"
    assert float(samples['hogbot_web_requests_total{route="/games/{game_id}",status="200"}']) >= 1
    assert float(samples['hogbot_web_requests_total{route="/games/{game_id}",status="404"}']) >= 1
    # declared before any interaction (counted by kind as they come: tests/discord/test_discord_metrics.py)
    assert "# TYPE hogbot_acknowledgement_seconds histogram" in text
    assert "# TYPE hogbot_interactions_total counter" in text
    health = await (await client.get("/healthz")).json()
    assert health == HEALTHY


async def test_the_health_check_says_503_when_the_store_does_not_answer(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    p, client = site

    async def unreachable(*args: object) -> list[object]:
        raise OSError("connection refused")

    monkeypatch.setattr(p.store, "read_all", unreachable)
    answer = await client.get("/healthz")
    assert answer.status == 503 and await answer.json() == {"store": "unreachable: OSError", "role": "web"}


async def test_a_failing_read_path_or_a_set_aside_game_is_said_in_words(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game set aside has a page saying so (410), its picture and embed too; ``/healthz`` counts
    it; read models that cannot be read make ``/healthz`` 503 and ``/`` a page in words, not a bare 500."""
    p, client = site
    await p.service("hog").create("hbad", CreateGame("hbad", (ADA, HOUSE), place="c1"), "c1")
    await p.settled_views()
    await p.views.apply([], await p.views.checkpoint(), [("hbad", "ValueError: a turn after the end")])
    for path in ("/games/hbad", "/games/hbad.png", "/games/hbad/embed"):
        answer = await client.get(path)
        page = await answer.text()
        assert answer.status == 410, path
        assert "Game hbad is set aside: ValueError: a turn after the end." in page and "Traceback" not in page
    assert (await (await client.get("/healthz")).json())["quarantined"] == 1

    async def broken(*args: object, **kwargs: object) -> list[object]:
        raise sqlite3.DatabaseError("file is not a database")

    monkeypatch.setattr(p.views, "history", broken)
    health = await client.get("/healthz")
    assert health.status == 503 and (await health.json())["read_models"] == "failing: DatabaseError"
    front = await client.get("/")
    words = await front.text()
    assert front.status == 500 and "Something went wrong on our side" in words and "DatabaseError" not in words
    assert front.headers["Content-Security-Policy"].startswith("default-src 'none'")


@pytest.mark.parametrize("number", ["²", "٣", "1" * 4_400, "-1", "0x1"])
async def test_numbers_in_an_address_are_ascii_digits_in_range_or_the_page_is_not_found(
    site: Site, number: str
) -> None:
    p, client = site
    await finished_hog(p)
    for path in ("/", "/games/hfin", "/games/hfin.png", "/leaderboards/hog", "/players/1", "/contests/contest"):
        key = "step" if path.startswith("/games") else "page"
        answer = await client.get(path, params={key: number})
        assert answer.status == 404, (path, number)
    assert (await client.get("/leaderboards/hog", params={"server": "²"})).status == 404


async def test_pictures_are_drawn_once_for_many_asking_and_never_for_each_step_past_the_end(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    p, client = site
    await finished_hog(p)
    hog, drawn = p.games["hog"], Counter[str]()
    animation, picture = hog.animation, hog.picture

    async def counted_animation(events: Any) -> Any:
        drawn["gif"] += 1
        return await animation(events)

    async def counted_picture(events: Any, step: Any) -> Any:
        drawn["png"] += 1
        return await picture(events, step)

    monkeypatch.setattr(hog, "animation", counted_animation)
    monkeypatch.setattr(hog, "picture", counted_picture)
    answers = await asyncio.gather(*(client.get("/games/hfin.gif") for _ in range(6)))
    assert {a.status for a in answers} == {200} and drawn["gif"] == 1, "six at once share one drawing"
    assert (await client.get("/games/hfin.gif", params={"step": "3"})).status == 404, "an animation has no step"
    version = await p.store.version("hfin")
    for step in (version, version + 1, version + 50, 99_999):
        assert (await client.get("/games/hfin.png", params={"step": str(step)})).status == 200
    assert drawn["png"] == 1, "every step past the end is the end, drawn once"


async def test_links_are_made_from_the_servers_own_address_never_the_host_header(site: Site) -> None:
    p, client = site
    await finished_hog(p)
    page = await (await client.get("/games/hfin", headers={"Host": "evil.example"})).text()
    assert "evil.example" not in page and f"http://127.0.0.1:{client.port}/games/hfin" in page


async def test_a_hog_page_draws_the_board_as_a_table_with_its_dice_and_links_its_players(site: Site) -> None:
    """The board as Hog draws it in HTML (no console text): both panels with their scores, whose turn
    in words, each die of the step's roll drawn and said; the players linked (a name with "/" too);
    the last step's Next and Last are not links to itself; the favicon is there."""
    p, client = site
    slash = Player("console:Bob/Builder", "Bob/Builder")
    await finished_hog(p, "hslash", (ADA, slash))
    events = await p.service("hog").events("hslash")
    page = await (await client.get("/games/hslash")).text()
    assert '<section class="hog-board"' in page and '<pre class="board">' not in page
    assert 'href="/boards/hog.css"' in page and (await client.get("/boards/hog.css")).status == 200
    last = next(e for e in reversed(events) if isinstance(e, TurnTaken))
    faces = ", ".join(map(str, last.outcomes))
    assert f"Bob/Builder's dice: {faces}\"" in page or f"Ada's dice: {faces}\"" in page  # the last step: the last roll
    assert page.count('<svg class="hog-die') == len(last.outcomes)
    assert '<span class="hog-tag">won</span>' in page
    assert 'href="/players/1"' in page and 'href="/players/console%3ABob/Builder"' in page
    player = await client.get("/players/console%3ABob/Builder")
    assert player.status == 200 and "Bob/Builder" in await player.text()
    assert 'rel="next"' not in page and 'rel="last"' not in page and '<span class="off">Last »</span>' in page
    first = await (await client.get("/games/hslash?step=1")).text()
    assert 'rel="first"' not in first and 'rel="next"' in first
    icon = await client.get("/favicon.ico")
    assert icon.status == 200 and icon.content_type == "image/svg+xml"
    missing = await (await client.get("/games/nonexist")).text()
    assert "There is no game nonexist here." in missing


async def test_the_picture_at_a_step_is_the_game_as_it_stood_then(site: Site) -> None:
    """A step's picture draws the turns up to that step, nothing after it (not the finished game with a
    mark); before the first turn, the empty board (both totals at 0)."""
    p, client = site
    await finished_hog(p, "hpic")
    steps = len(await p.service("hog").events("hpic"))
    assert steps > 2
    pictures = [await (await client.get(f"/games/hpic.png?step={n}")).read() for n in (2, steps)]
    assert len(set(pictures)) == 2 and pictures[-1] == await (await client.get("/games/hpic.png")).read()
    empty = await client.get("/games/hpic.png?step=1")
    assert empty.status == 200 and empty.content_type == "image/png"
    assert await empty.read() not in pictures
    page = await (await client.get("/games/hpic?step=2")).text()
    assert 'alt="Ada v The house\'s totals turn by turn, up to step 2"' in page


async def test_a_request_too_long_to_read_is_refused_in_one_line_not_a_traceback(
    site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    _, client = site
    with caplog.at_level(logging.INFO, logger="aiohttp.server"):
        answer = await client.get("/games/" + "x" * 10_000)
    assert answer.status == 400
    told = [r for r in caplog.records if r.name == "aiohttp.server"]
    assert told and all(r.exc_info is None and r.levelno == logging.WARNING for r in told)
    assert "LineTooLong" in told[0].getMessage()


async def test_the_front_page_sets_the_games_being_played_apart_drawn_as_tiles(site: Site) -> None:
    p, client = site
    await finished_hog(p, "done")
    service = p.service("hog")
    await service.create("live", CreateGame("live", (ADA, HOUSE), goal=50, place="c1"), "new-live")
    await service.execute("live", turn("1", 2), "live-0")
    page = await (await client.get("/")).text()
    assert page.index("<h1>Being played now</h1>") < page.index("<h2>Recent games</h2>")
    tiles = page[page.index('<ul class="tiles">') : page.index("<h2>Recent games</h2>")]
    assert '<a class="tile-link" href="/games/live">' in tiles and '<img src="/games/live.png" alt=""' in tiles
    assert "done" not in tiles, "a finished game is no tile"
    recent = page[page.index("<h2>Recent games</h2>") :]
    assert '<table class="games cards">' in recent and 'href="/games/done"' in recent and 'href="/games/live"' in recent
    assert '<td data-label="Game">Hog</td>' in recent and re.search(
        r"<time>\d{4}-\d\d-\d\d \d\d:\d\d UTC</time>", recent
    )
    assert "Being played now" not in await (await client.get("/?page=2")).text()


async def test_lists_are_paged_by_the_game_a_page_ends_at_older_and_newer_alike(site: Site) -> None:
    """The front page and a player's page link their neighbours by the game a page begins or ends
    with (an index seek however deep), walking every game once, older then newer; a cursor that is
    not one is a 404, as a page number out of range is."""
    p, client = site
    bob = Player("3", "Bob")
    for n in range(45):
        await rated_hog(p, f"k{n:02d}", ADA, bob)
    newest_first = [f"k{n:02d}" for n in reversed(range(45))]
    for first in ("/", "/players/1"):
        pages, path = [], first
        while path:
            html = await (await client.get(path)).text()
            pages.append(re.findall(r'<a href="/games/(k\d\d)">', html))
            older = re.search(r'<a rel="next" href="\?(before=[^"]+)">Older', html)
            path = f"{first}?{older[1].replace('&amp;', '&')}" if older else ""
        assert [len(games) for games in pages] == [20, 20, 5], first
        assert [g for games in pages for g in games] == newest_first, first
        assert "No more games." not in html and 'rel="prev"' in html
        back = []
        while (newer := re.search(r'<a rel="prev" href="\?([^"]*)">◀ Newer', html)) is not None:
            html = await (await client.get(f"{first}?{newer[1]}")).text()
            back.append(re.findall(r'<a href="/games/(k\d\d)">', html))
        assert back == pages[-2::-1], "newer pages are the same pages, back to the first"
    assert "Being played now" not in await (await client.get(f"/?{older_than('k05')}")).text()
    for bad in ("before=1e9~k01", "before=1.0~", "after=x~k01", "before=1.0~k01&after=1.0~k02", "before=1.0~a%20b"):
        assert (await client.get(f"/?{bad}")).status == 404, bad
        assert (await client.get(f"/players/1?{bad}")).status == 404, bad


def older_than(game_id: str) -> str:
    return f"before=1.0~{game_id}"
