"""The contest's web pages: the standings, each entry's record with its picture, a server's contest
apart from everyone's, bad addresses as 404 pages; and in a real browser, from the standings to an
entry by its link, the pictures drawn."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import jsonschema
import numpy as np
import pytest
from aiohttp.test_utils import TestClient, TestServer
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from bot.games.hog.contest.entries import EVERYONE, Contest, Entries
from bot.games.hog.contest.web import CONTESTS
from bot.platform.compose import Platform, platform
from bot.platform.settings import Settings
from bot.web.app import make_app
from hog_core.contest import SIZE
from hog_core.solver import Solution
from storage.shelves import FolderShelf
from tests.solved import shelve
from tests.web.browser import at_each_width, checked
from tests.web.test_in_a_browser import free_port, moved_on, text_of

SERVER = "4242"


@pytest.fixture
async def site(tmp_path: Path, solutions: dict[str, Solution]) -> AsyncIterator[tuple[Platform, str]]:
    await shelve(FolderShelf(tmp_path / "solutions"), solutions)
    port = free_port()
    async with platform(Settings(db=tmp_path / "games.sqlite3", cache=tmp_path / "solutions")) as p:
        entries = Entries(p.store)
        fives = np.full((SIZE, SIZE), 5, dtype=np.int8)
        await entries.submit(Contest("contest"), "1", "Ada", "Ada's pigs", fives)
        await entries.submit(Contest("contest", SERVER), "2", "Bob", "Bob & co", np.zeros_like(fives) + 3)
        server = TestServer(make_app(p), host="127.0.0.1", port=port)
        await server.start_server()
        try:
            for contest in (Contest("contest"), Contest("contest", SERVER)):  # worked out before the pages are read
                await server.app[CONTESTS].results(contest)
            yield p, f"http://127.0.0.1:{port}"
        finally:
            await server.close()


async def test_standings_not_worked_out_yet_are_answered_at_once(
    tmp_path: Path, solutions: dict[str, Solution]
) -> None:
    """The first reader of a rule set's standings does not wait a minute: 202, "being worked out",
    with Retry-After, on the page and in the API, and the work goes on; once done, the standings."""
    await shelve(FolderShelf(tmp_path / "solutions"), solutions)
    async with platform(Settings(db=tmp_path / "games.sqlite3", cache=tmp_path / "solutions")) as p:
        app = make_app(p)
        async with TestClient(TestServer(app)) as client:
            api, page = await client.get("/api/contests/contest"), await client.get("/contests/contest")
            assert (api.status, page.status) == (202, 202)
            assert api.headers["Retry-After"] == page.headers["Retry-After"] == "5"
            working = await api.json()
            document = await (await client.get("/api/openapi.json")).json()
            jsonschema.Draft202012Validator({**document, "$ref": "#/components/schemas/Working"}).validate(working)
            assert "being worked out" in working["working"]
            assert '<meta http-equiv="refresh" content="5">' in await page.text()
            await app[CONTESTS].results(Contest("contest"))  # the work begun by the first reader, done
            ready = await client.get("/api/contests/contest")
            assert ready.status == 200 and (await ready.json())["standings"]


async def test_the_standings_as_json_validate_against_the_api_document(site: tuple[Platform, str]) -> None:
    _, origin = site
    import aiohttp
    import jsonschema

    async with aiohttp.ClientSession() as http:
        async with http.get(f"{origin}/api/openapi.json") as answer:
            document = await answer.json()
        async with http.get(f"{origin}/api/contests/contest") as answer:
            found = await answer.json()
            assert answer.headers["Access-Control-Allow-Origin"] == "*"
        async with http.get(f"{origin}/api/contests/nope") as missing:
            error = await missing.json()
    jsonschema.Draft202012Validator({**document, "$ref": "#/components/schemas/ContestStandings"}).validate(found)
    jsonschema.Draft202012Validator({**document, "$ref": "#/components/schemas/Error"}).validate(error)
    names = [s["name"] for s in found["standings"]]
    assert missing.status == 404 and found["server"] is None and "Ada's pigs" in names and "Bob & co" not in names


async def test_the_standings_and_an_entry_over_http(site: tuple[Platform, str]) -> None:
    _, origin = site
    import aiohttp

    async with aiohttp.ClientSession() as http:
        async with http.get(f"{origin}/") as page:
            assert '<a href="/contests/contest">The Hog contest' in await page.text()  # from the front page
        async with http.get(f"{origin}/contests/contest") as page:
            html = await page.text()
        assert page.status == 200 and "Ada&#39;s pigs" in html and "Bob" not in html
        assert "Content-Security-Policy" in page.headers
        async with http.get(f"{origin}/contests/contest?server={SERVER}") as page:
            html = await page.text()
        assert "Bob &amp; co" in html and "Ada" not in html and "this server" in html
        async with http.get(f"{origin}/contests/contest?server={SERVER}&page=2") as page:
            html = await page.text()
        assert f'href="?page=1&amp;server={SERVER}"' in html, "paging keeps the server, escaped once"
        async with http.get(f"{origin}/contests/contest/entries/ada%27s%20pigs") as page:
            html = await page.text()
        assert page.status == 200 and "always_roll(4)" in html and "place 2" in html
        assert "Where it differs from perfect play" in html and "The costliest cells" in html
        assert "Ada&#39;s pigs against perfect play (the best one move over the rules&#39; cycle of 8 turns)" in html
        async with http.get(f"{origin}/contests/contest/entries/Ada%27s%20pigs.png") as picture:
            assert picture.content_type == "image/png" and (await picture.read()).startswith(b"\x89PNG")
        async with http.get(f"{origin}/contests/contest/entries/Ada%27s%20pigs?vs=perfect") as page:
            html = await page.text()
        assert (
            "Ada&#39;s pigs and perfect choose differently in " in html and "<option selected>perfect</option>" in html
        )
        assert 'src="/contests/contest/entries/Ada%27s%20pigs/costs.png?vs=perfect"' in html
        async with http.get(f"{origin}/contests/contest/entries/Ada%27s%20pigs/costs.png?vs=perfect") as picture:
            assert picture.content_type == "image/png" and (await picture.read()).startswith(b"\x89PNG")
        for missing in ("/contests/nope", "/contests/contest/entries/Nobody", "/contests/contest?server=x1",
                        "/contests/contest/entries/Ada%27s%20pigs?vs=Nobody",
                        "/contests/contest/entries/Ada%27s%20pigs/costs.png?vs=Nobody"):  # fmt: skip
            async with http.get(f"{origin}{missing}") as page:
                assert page.status == 404, missing


async def test_from_the_standings_to_an_entry_in_a_browser(
    site: tuple[Platform, str], browser: webdriver.Chrome
) -> None:
    _, origin = site

    def follow() -> tuple[str, str, list[int]]:
        browser.get(f"{origin}/contests/contest?server={EVERYONE}")
        standings = text_of(browser)
        link = browser.find_element(By.LINK_TEXT, "Ada's pigs")
        link.click()
        moved_on(browser, link)
        sizes = [
            int(browser.execute_script("return arguments[0].naturalWidth", image))
            for image in browser.find_elements(By.TAG_NAME, "img")
        ]
        return standings, text_of(browser), sizes

    standings, entry, sizes = await asyncio.to_thread(follow)
    assert "perfect *" in standings and "Ada's pigs" in standings
    assert "Ada's pigs" in entry.splitlines()[1] and "vs perfect" not in entry and "perfect" in entry
    assert sizes == [960, 960]  # its pictures, drawn and loaded: its table, and what each cell gives away


async def test_two_entries_side_by_side_with_the_keyboard_at_a_phones_width_and_a_desktops(
    site: tuple[Platform, str], browser: webdriver.Chrome
) -> None:
    """The standings and an entry's page: no axe-core violation, no sideways scrolling; the comparison
    chosen and sent with the keyboard alone."""
    _, origin = site

    def compare(width: int) -> tuple[list[str], list[int], str]:
        browser.get(f"{origin}/contests/contest")
        text_of(browser)
        standings, across = checked(browser, "contest", width)
        browser.get(f"{origin}/contests/contest/entries/Ada%27s%20pigs")
        text_of(browser)
        found, wide = checked(browser, "entry", width)
        found += standings
        wide = max(wide, across)
        choice = browser.find_element(By.ID, "vs")
        choice.send_keys("always_roll(6)")  # a select takes its option's typed name
        choice.send_keys(Keys.TAB)
        sent = browser.switch_to.active_element
        sent.send_keys(Keys.ENTER)
        moved_on(browser, sent)
        page = text_of(browser)
        more, wider = checked(browser, "entry-beside", width)
        return found + more, [wide, wider], page

    for found, wide, page in await asyncio.to_thread(at_each_width, browser, compare):
        assert found == [] and wide == [0, 0], (found, wide)
        assert "Ada's pigs and always_roll(6) choose differently in " in page
