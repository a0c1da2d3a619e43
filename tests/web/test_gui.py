"""The course's GUI in a browser, over HTTP: a new game from a form drawn from the game's own console
options, played to the end by lines typed as at the terminal, stored and replayable; your Cucumber
hand on your page and nowhere public; and no write but from its own page."""

from __future__ import annotations

import re
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.platform.compose import Platform, platform
from bot.platform.settings import Settings
from bot.web.app import make_app
from cucumber_core.cards import short

Gui = tuple[Platform, TestClient[web.Request, web.Application], str]


def free_port() -> int:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        return int(free.getsockname()[1])


@pytest.fixture
async def gui(tmp_path: Path) -> AsyncIterator[Gui]:
    port = free_port()
    settings = Settings(db=tmp_path / "games.sqlite3", cache=tmp_path / "solutions")
    async with platform(settings) as p:
        server = TestServer(make_app(p, gui_port=port), host="127.0.0.1", port=port)
        async with TestClient(server) as client:
            yield p, client, f"http://127.0.0.1:{port}"


async def start(client: TestClient[web.Request, web.Application], origin: str, game: str, **form: str) -> str:
    """A new game from the form; the address of its table."""
    answer = await client.post(f"/play/new/{game}", data=form, headers={"Origin": origin}, allow_redirects=False)
    assert answer.status == 303, await answer.text()
    return answer.headers["Location"]


async def typed(gui: Gui, game_id: str, line: str) -> str:
    """The table after Ada types ``line`` there (the form's answer, followed to the page)."""
    _, client, origin = gui
    answer = await client.post(f"/play/{game_id}", data={"as": "Ada", "line": line}, headers={"Origin": origin})
    return await answer.text()


async def test_a_hog_game_against_the_house_is_played_to_the_end_in_the_browser(gui: Gui) -> None:
    p, client, origin = gui
    form = await (await client.get("/play/new/hog")).text()
    assert all(f'name="{option}"' in form for option in ("rules", "goal", "house", "vs", "player"))
    table = await start(client, origin, "hog", player="Ada", rules="sp21", goal="30", house="easy")
    game_id = re.fullmatch(r"/play/(c[0-9a-f]+)\?as=Ada", table)[1]  # type: ignore[index]
    page = await (await client.get(table)).text()
    assert "Spring 2021" in page and "first to 30" in page and "Ada, how many dice?" in page
    assert "Best move for Ada" in await typed(gui, game_id, "hint")
    assert "Choose between 0 and 10 dice, not 11." in await typed(gui, game_id, "11")
    page = await typed(gui, game_id, "5")
    faces = re.findall(r'aria-label="Ada rolled ([^"]*)"', page)[0]  # her dice, drawn rolling
    assert len(faces.split(", ")) == 5 and set(faces.replace(", ", "")) <= set("⚀⚁⚂⚃⚄⚅")
    for _ in range(60):
        if "how many dice?" not in page:
            break
        page = await typed(gui, game_id, "5")
    assert "The game is over." in page and ("Ada won." in page or "The house won." in page)
    assert (await p.service("hog").load(game_id)).is_over  # stored like every game
    assert (await client.get(f"/games/{game_id}")).status == 200


async def test_your_cucumber_hand_is_on_your_page_and_on_no_public_one(gui: Gui) -> None:
    p, client, origin = gui
    table = await start(client, origin, "cucumber", player="Ann", players="3", cards="5")
    game_id = table.split("/")[2].split("?")[0]
    page = await (await client.get(table)).text()
    state = await p.service("cucumber").load(game_id)
    seat = state.seat_of("console:Ann")
    assert seat is not None and "Your hand:" in page
    mine = [short(card) for card in state.hands[seat]]
    assert all(card in page for card in mine)
    public = await (await client.get(f"/games/{game_id}")).text()
    others = [short(c) for i, hand in enumerate(state.hands) for c in hand if i != seat]
    assert "Your hand" not in public and not [c for c in mine + others if c in public.split("Cut for dealer")[0]]


@pytest.mark.parametrize(
    "headers",
    [{}, {"Origin": "http://evil.example"}, {"Origin": "http://127.0.0.1:1"}, {"Origin": "null"}],
    ids=["no origin", "another site", "another port", "opaque"],
)
async def test_a_write_from_anywhere_but_its_own_page_is_refused(gui: Gui, headers: dict[str, str]) -> None:
    p, client, _ = gui
    answer = await client.post("/play/new/hog", data={"player": "Ada"}, headers=headers, allow_redirects=False)
    assert answer.status == 403 and await p.views.count() == 0


async def test_a_rebound_host_is_refused(gui: Gui) -> None:
    p, client, _ = gui
    headers = {"Origin": "http://attacker.example", "Host": "attacker.example"}  # a name rebound to this address
    answer = await client.post("/play/new/hog", data={"player": "Ada"}, headers=headers, allow_redirects=False)
    assert answer.status == 403 and await p.views.count() == 0


async def test_a_game_that_cannot_be_is_refused_in_words(gui: Gui) -> None:
    p, client, origin = gui
    answer = await client.post("/play/new/hog", data={"player": "Ada", "goal": "5000"}, headers={"Origin": origin})
    assert answer.status == 400 and "The goal must be between 10 and 1000, not 5000." in await answer.text()
    answer = await client.post("/play/new/hog", data={"player": "Ada", "goal": "many"}, headers={"Origin": origin})
    assert answer.status == 400 and "invalid int value" in await answer.text()
    assert await p.views.count() == 0
    assert (await client.get("/play/new/chess")).status == 404
