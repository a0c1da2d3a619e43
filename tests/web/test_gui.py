"""The course's GUI in a browser, over HTTP: a new game from a form drawn from the game's own console
options, played to the end by lines typed as at the terminal, stored and replayable; your Cucumber
hand on your page and nowhere public; and no write but from its own page."""

from __future__ import annotations

import asyncio
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
from hog_core.rulesets import RULE_SETS

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


def board_form(page: str) -> dict[str, str]:
    """The hidden fields of a table's form: the board's version and the seat to move."""
    return dict(re.findall(r'<input type="hidden" name="(version|seat)" value="([^"]*)">', page))


async def typed(gui: Gui, game_id: str, line: str, who: str = "Ada") -> str:
    """The table after ``who`` types ``line`` on the board as it stands (the form's answer, followed
    to the page)."""
    _, client, origin = gui
    board = await (await client.get(f"/play/{game_id}", params={"as": who})).text()
    form = {"as": who, "line": line, **board_form(board)}
    answer = await client.post(f"/play/{game_id}", data=form, headers={"Origin": origin})
    return await answer.text()


async def test_a_hog_game_against_the_house_is_played_to_the_end_in_the_browser(gui: Gui) -> None:
    p, client, origin = gui
    form = await (await client.get("/play/new/hog")).text()
    assert all(f'name="{option}"' in form for option in ("rules", "goal", "house", "vs", "player"))
    assert ">The score that wins</label>" in form and "default: 100; 10 to 1000" in form  # in words
    assert "python -m bot" not in form and ">goal<" not in form and ">vs<" not in form  # not the terminal's
    table = await start(client, origin, "hog", player="Ada", rules="sp21", goal="30", house="easy")
    game_id = re.fullmatch(r"/play/(c[0-9a-f]+)\?as=Ada", table)[1]  # type: ignore[index]
    page = await (await client.get(table)).text()
    assert "Spring 2021" in page and "first to 30" in page and "Ada, how many dice?" in page
    assert "Best move for Ada" in await typed(gui, game_id, "hint")
    assert "Choose between 0 and 10 dice, not 11." in await typed(gui, game_id, "11")
    assert [f'value="{k}"' in page for k in range(11)] == [True] * 11 and 'data-key="4"' in page  # a button a move
    version = board_form(page)["version"]
    hint = await client.post(f"/play/{game_id}", data={"as": "Ada", "ask": "hint", "typed": "", **board_form(page)},
                             headers={"Origin": origin})  # fmt: skip
    assert "Best move for Ada" in await hint.text()  # the Hint button, beside an empty box
    left = await client.post(f"/play/{game_id}", data={"as": "Ada", "ask": "quit", **board_form(page)},
                             headers={"Origin": origin}, allow_redirects=False)  # fmt: skip
    assert left.status == 303 and left.headers["Location"] == "/play"  # kept for later, as at the terminal
    assert board_form(await (await client.get(table)).text())["version"] == version
    page = await typed(gui, game_id, "5")
    faces = re.findall(r'aria-label="Ada&#39;s dice: ([^"]*)"|aria-label="Ada\'s dice: ([^"]*)"', page)[0]
    assert len("".join(faces).split(", ")) == 5 and page.count('<svg class="hog-die') >= 5  # her dice, drawn
    assert '<section class="review"' in page and "This move: " in page  # the exact review's verdict, move by move
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


@pytest.mark.parametrize("path", ["/api/games", "/api/openapi.json", "/api/leaderboards/hog"])
async def test_the_guis_api_is_read_by_its_own_pages_alone(gui: Gui, path: str) -> None:
    """No CORS header on any answer, and another site's script (its Origin) is refused: a page you
    visit cannot read your games from the GUI (the web front's read API stays open to all)."""
    _, client, origin = gui
    await start(client, origin, "hog", player="Ada")
    own = await client.get(path)
    assert own.status == 200 and not [h for h in own.headers if h.lower().startswith("access-control")]
    assert (await client.get(path, headers={"Origin": origin})).status == 200
    for foreign in ("http://evil.example", "null", "http://127.0.0.1:1"):
        refused = await client.get(path, headers={"Origin": foreign})
        assert refused.status == 403 and "access-control-allow-origin" not in {h.lower() for h in refused.headers}


async def test_a_rebound_host_is_refused(gui: Gui) -> None:
    p, client, origin = gui
    headers = {"Origin": "http://attacker.example", "Host": "attacker.example"}  # a name rebound to this address
    answer = await client.post("/play/new/hog", data={"player": "Ada"}, headers=headers, allow_redirects=False)
    assert answer.status == 403 and await p.views.count() == 0
    table = await start(client, origin, "cucumber", player="Ann", players="3")
    for path in (table, "/play", "/"):  # reading too: another site's script could read a hand through it
        assert (await client.get(path, headers={"Host": "attacker.example:80"})).status == 403, path
    assert (await client.get(table)).status == 200


async def test_a_game_that_cannot_be_is_refused_in_words(gui: Gui) -> None:
    p, client, origin = gui
    answer = await client.post("/play/new/hog", data={"player": "Ada", "goal": "5000"}, headers={"Origin": origin})
    assert answer.status == 400 and "The goal must be between 10 and 1000, not 5000." in await answer.text()
    answer = await client.post("/play/new/hog", data={"player": "Ada", "goal": "many"}, headers={"Origin": origin})
    assert answer.status == 400 and "invalid int value" in await answer.text()
    both = {"player": "A\u200bda", "goal": "5000", "rules": "sp21"}
    answer = await client.post("/play/new/hog", data=both, headers={"Origin": origin})
    said = await answer.text()
    assert answer.status == 400 and "Your name can&#39;t hold control or invisible characters" in said
    assert "The goal must be between 10 and 1000, not 5000." in said, "every mistake said at once"
    assert 'value="5000"' in said and '<option value="sp21" selected>' in said  # the answers stay
    assert await p.views.count() == 0
    assert (await client.get("/play/new/chess")).status == 404


async def test_a_move_is_played_only_on_the_board_it_was_made_on(gui: Gui) -> None:
    """A double click, a second tab's board, the other player's turn at one keyboard, 50 identical
    posts at once: exactly one move lands, and the others say so and change nothing."""
    p, client, origin = gui
    table = await start(client, origin, "hog", player="Ada", vs="Bob", goal="50")
    game_id = table.split("/")[2].split("?")[0]
    board = board_form(await (await client.get(table)).text())
    assert board == {"version": "1", "seat": "console:Ada"}
    form = {"as": "Ada", "line": "3", **board}
    answers = await asyncio.gather(
        *(client.post(f"/play/{game_id}", data=form, headers={"Origin": origin}, allow_redirects=False)
          for _ in range(50))
    )  # fmt: skip
    assert sorted(a.status for a in answers) == [303] + [409] * 49
    stale = await answers[[a.status for a in answers].index(409)].text()
    assert "board was out of date: here is the game as it stands" in stale and "Bob, how many dice?" in stale
    *_, last = await p.service("hog").events(game_id)
    assert (await p.service("hog").load(game_id)).version == 2 and last.seat == 0, "one move, Ada's, not Bob's"
    again = await client.post(f"/play/{game_id}", data=form, headers={"Origin": origin}, allow_redirects=False)
    assert again.status == 409 and (await p.service("hog").load(game_id)).version == 2
    odd = await client.post(f"/play/{game_id}", data={**form, "version": "²"}, headers={"Origin": origin})
    assert odd.status == 409, "a version that is no number is no board of this game"


async def test_words_come_from_the_game_never_from_the_address(gui: Gui) -> None:
    _, client, origin = gui
    table = await start(client, origin, "hog", player="Ada", house="easy")
    page = await (await client.get(table, params={"said": "Your account is locked: call 555-0100"})).text()
    assert "555-0100" not in page
    game_id = table.split("/")[2].split("?")[0]
    hint = await typed(gui, game_id, "hint")
    assert "Best move for Ada" in hint and "said=" not in hint


async def test_a_hog_game_of_ones_own_rules_is_solved_and_played(gui: Gui) -> None:
    """The course's rule toggles: Fall 2018 without Swine Swap, chosen by a checkbox, solved exactly
    before the first move (the hint and the chances work), stored so its replay is exact."""
    p, client, origin = gui
    form = await (await client.get("/play/new/hog")).text()
    assert 'name="without.swine_swap"' in form and "Turn off one of the rule set" in form
    table = await start(client, origin, "hog", player="Ada", house="easy", **{"without.swine_swap": "on"})
    game_id = re.fullmatch(r"/play/(c[0-9a-f]+)\?as=Ada", table)[1]  # type: ignore[index]
    page = await (await client.get(table)).text()
    assert "Fall 2018 without Swine Swap" in page and "to win (perfect play)" in page
    assert "Best move for Ada" in await typed(gui, game_id, "hint")
    state = await p.service("hog").load(game_id)
    assert state.rules.id == "fa18~swine_swap" and state.rules.name == "Fall 2018 without Swine Swap"
    refused = await client.post("/play/new/hog", data={"player": "Bo", "rules": "sp21", "without.swine_swap": "on"},
                                headers={"Origin": origin})  # fmt: skip
    assert refused.status == 400 and "Spring 2021 cannot play without swine_swap" in await refused.text()


async def test_the_new_game_form_picks_a_semester_by_its_name_and_offers_its_own_rules(gui: Gui) -> None:
    """Every semester in the picker by its name, newest first; each rule's box says which semesters
    have it (the page shows the chosen one's); a refused form keeps what was typed; this year's Hog is
    made from it."""
    p, client, origin = gui
    form = await (await client.get("/play/new/hog")).text()
    picked = re.findall(r'<option value="([a-z0-9_]+)"[^>]*>([^<]*)</option>', form)
    assert picked[0] == ("fa23", "Summer 2023 to Fall 2025 (fa23, su23, sp24, su24, fa24, sp25, su25, fa25)")
    assert ("sp14", "Spring 2014 (sp14)") in picked and len([r for r, _ in picked if r in RULE_SETS]) == 24
    assert 'data-default="fa18"' in form and 'placeholder="Player"' in form
    assert re.search(r'data-in="fa23"><input type="checkbox" name="without.sus_fuss"', form)
    assert re.search(r'data-in="[^"]*\bfa18\b[^"]*"><input type="checkbox" name="without.swine_swap"', form)
    refused = await client.post("/play/new/hog", data={"player": "Bo", "rules": "fa23", "goal": "5000"},
                                headers={"Origin": origin})  # fmt: skip
    page = await refused.text()
    assert refused.status == 400 and '<option value="fa23" selected>' in page and 'value="5000"' in page
    assert 'name="player" value="Bo"' in page
    table = await start(client, origin, "hog", player="Ada", rules="fa23", house="easy", **{"without.sus_fuss": "on"})
    game_id = re.fullmatch(r"/play/(c[0-9a-f]+)\?as=Ada", table)[1]  # type: ignore[index]
    assert (await p.service("hog").load(game_id)).rules.id == "fa23~sus_fuss"


async def test_a_cucumber_card_you_may_not_play_looks_it_and_says_why(gui: Gui) -> None:
    """Cards the rule forbids now are disabled, drawn apart (CSS) and explained in words beside them,
    not in a tooltip alone; the keys are said in the game's own words (nothing of Hog's dice)."""
    p, client, origin = gui
    table = await start(client, origin, "cucumber", player="Ann", players="3", cards="7")
    game_id = table.split("/")[2].split("?")[0]
    for _ in range(40):  # until Ann must follow a high card and may not play some of hers
        page = await (await client.get(table)).text()
        state = await p.service("cucumber").load(game_id)
        seat = state.seat_of("console:Ann")
        if state.is_over or seat is None or state.to_play != seat:
            break
        if len(state.legal_cards(seat)) < len(state.hands[seat]):
            break
        page = await typed(gui, game_id, short(state.legal_cards(seat)[-1]), "Ann")  # her highest: she leads on
    assert "the number of dice" not in page and "Press a button, or its key (" in page
    refused = re.findall(
        r'<button type="submit" name="line" value="[^"]*" class="choice"[^>]* disabled title="([^"]*)"', page
    )
    if refused:  # the deal gave Ann a hand the rule limits: the reason is on the page, once
        assert f"Greyed out: {refused[0]}" in page


async def test_the_lobby_shows_games_under_way_drawn_first_then_a_tile_a_game(gui: Gui) -> None:
    _, client, origin = gui
    lobby = await (await client.get("/play")).text()
    assert "<h1>Play a game</h1>" in lobby and "under way" not in lobby  # nothing started yet
    for game in ("hog", "cucumber"):
        assert f'<a class="tile-link" href="/play/new/{game}">' in lobby and f'src="/emblems/{game}.svg"' in lobby
        emblem = await client.get(f"/emblems/{game}.svg")
        assert emblem.status == 200 and emblem.content_type == "image/svg+xml" and "<svg" in await emblem.text()
    assert "CS 61A" in lobby and "CS 88" in lobby  # a sentence says what each game is
    assert (await client.get("/emblems/chess.svg")).status == 404
    table = await start(client, origin, "cucumber", player="Ann", players="2", bots="random")
    game_id = table.split("/")[2].split("?")[0]
    lobby = await (await client.get("/play")).text()
    assert lobby.index("<h1>Your games under way</h1>") < lobby.index("<h2>A new game</h2>")
    tile = f'<a class="tile-link" href="/play/{game_id}?as=Ann">'
    assert tile in lobby and f'<img src="/games/{game_id}.png" alt=""' in lobby
    picture = await client.get(f"/games/{game_id}.png")
    assert picture.status == 200 and picture.content_type == "image/png"
