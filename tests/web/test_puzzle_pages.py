"""Hog's puzzles on the web: ``/puzzles`` (the puzzle of the day, a puzzle by rule set and theme),
a puzzle's page with a link per legal move, the verdict with every move's chance; a bad id or move
is a 404 in words. In headless Chromium at a phone's width and a desktop's: solved with the keyboard
alone, no axe-core violation, no sideways scrolling (screenshots kept in ``HOGBOT_SHOTS`` when set)."""

from __future__ import annotations

import asyncio
import re
import time

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from bot.games.hog.module import turn
from bot.games.hog.puzzle_pages import BOOK
from bot.platform.compose import Platform
from bot.platform.exercises import day_of
from bot.web.render import PLATFORM
from hog_core.events import Player
from hog_core.game import CreateGame
from hog_core.puzzles import facts_of
from hog_core.rulesets import DEFAULT_RULES
from tests.web.browser import at_each_width, checked
from tests.web.site import Site
from tests.web.test_in_a_browser import moved_on, text_of

ADA, BOB = Player("1", "Ada"), Player("2", "Bob")


async def test_the_puzzle_of_the_day_is_the_same_for_everyone_and_answered_with_a_link(site: Site) -> None:
    _, client = site
    index = await client.get("/puzzles")
    page = await index.text()
    book = client.app[BOOK]
    daily = await book.daily("", day_of(time.time()), DEFAULT_RULES)
    assert index.status == 200 and f'href="/puzzles/{daily.id}"' in page and "Swine Swap" in page
    ask = await (await client.get(f"/puzzles/{daily.id}")).text()
    legal = re.findall(r'href="\?move=(\w+)"', ask)
    assert legal == [str(k) for k in range(11)]  # fa18: 0 to 10 dice, no Pork Chop
    wrong = next(k for k in legal if k != str(daily.answer))
    said = await (await client.get(f"/puzzles/{daily.id}?move={wrong}")).text()
    assert "Not quite: " in said and "What decides it: " in said and "points more than the next best" in said
    assert said.count("<tr") == 1 + len(legal) and "(yours)" in said and "(best)" in said
    right = await (await client.get(f"/puzzles/{daily.id}?move={daily.answer}")).text()
    assert f"Right: {daily.answer} dice." in right or f"Right: {daily.answer} die." in right


async def test_a_theme_leads_to_a_puzzle_of_that_theme_and_a_bad_address_is_refused_in_words(site: Site) -> None:
    _, client = site
    theme = await client.get("/puzzles/next?rules=sp21&theme=More%20Boar", allow_redirects=False)
    assert theme.status == 303
    puzzle = await client.app[BOOK].by_id(theme.headers["Location"].removeprefix("/puzzles/"))
    assert puzzle is not None and puzzle.rules == "sp21" and puzzle.theme == "More Boar"
    # the last: another goal than the course's, which no address may start a solve for
    for path in ("/puzzles/fa18-100-100-0-1-000", "/puzzles/nope", "/puzzles/fa18-100-1-1-1-000?move=11",
                 "/puzzles/fa18-100-1-1-1-000?move=chop", "/puzzles?rules=nope",
                 "/puzzles/next?rules=fa18&theme=%3Cscript%3E",
                 "/puzzles/contest-199-1-1-1-000"):  # fmt: skip
        answer = await client.get(path)
        assert answer.status == 404 and "<script>" not in await answer.text(), path


async def test_a_puzzle_from_a_stored_game_links_its_game(site: Site) -> None:
    """The book mines the newest stored games too: a puzzle found there names it."""
    p, client = site
    service = p.service("hog")
    for n in range(6):  # to the course's goal, both rolling two dice
        game_id = f"hp{n}"
        await service.create(game_id, CreateGame(game_id, (ADA, BOB), place="c1"), f"new-{game_id}")
        state = await service.load(game_id)
        while not state.is_over:
            move = turn(state.players[state.mover].id, 2)
            state = (await service.execute(game_id, move, f"{game_id}-{state.version}")).state
    pool = await client.app[BOOK].pool(DEFAULT_RULES)
    sourced = [q for q in pool.values() if q.source is not None]
    assert sourced and all(q.source.startswith("hp") for q in sourced if q.source)
    page = await (await client.get(f"/puzzles/{sourced[0].id}?move={sourced[0].answer}")).text()
    assert f'href="/games/{sourced[0].source}"' in page


async def test_a_puzzle_solved_with_the_keyboard_alone_at_a_phones_width_and_a_desktops(
    live_site: tuple[Platform, str], browser: webdriver.Chrome
) -> None:
    _, origin = live_site

    def solve(width: int) -> tuple[list[str], list[int], str]:
        browser.get(f"{origin}/play")  # the GUI's home: the puzzles are a link away
        start = browser.find_element(By.PARTIAL_LINK_TEXT, "Hog puzzles")
        start.click()
        moved_on(browser, start)
        text_of(browser)
        seen = [checked(browser, "puzzles", width)]
        for _ in range(40):  # Tab to the day's puzzle, then Enter: no mouse
            browser.switch_to.active_element.send_keys(Keys.TAB)
            if browser.switch_to.active_element.text == "Solve today's puzzle":
                break
        link = browser.switch_to.active_element
        puzzle_id = str(link.get_attribute("href")).rsplit("/", 1)[1]
        link.send_keys(Keys.ENTER)
        moved_on(browser, link)
        seen.append(checked(browser, "puzzle", width))
        assert facts_of(puzzle_id) is not None
        for _ in range(40):  # Tab along the moves to four dice, then Enter
            browser.switch_to.active_element.send_keys(Keys.TAB)
            if browser.switch_to.active_element.get_attribute("aria-label") == "4 dice":
                break
        move = browser.switch_to.active_element
        move.send_keys(Keys.ENTER)
        moved_on(browser, move)
        verdict = text_of(browser)
        seen.append(checked(browser, "verdict", width))
        return [v for found, _ in seen for v in found], [wide for _, wide in seen], verdict

    for found, wide, verdict in await asyncio.to_thread(at_each_width, browser, solve):
        assert found == [] and wide == [0, 0, 0], (found, wide)
        assert "Not quite: " in verdict and "(yours)" in verdict  # the baseline's 4 dice is never the answer


async def test_the_front_page_links_the_puzzles(site: Site) -> None:
    p, client = site
    assert client.app[PLATFORM] is p
    assert 'href="/puzzles"' in await (await client.get("/")).text()
