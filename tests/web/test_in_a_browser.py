"""The pages in a real browser (headless Chromium): a finished game stepped through with the arrow keys,
a running game's page following a move by itself within a second, and the GUI playing a Hog game
against the easy house to the end. Selenium's calls block, so they run in a thread beside the
server's event loop."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Callable

import pytest
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

from bot.games.hog.module import turn
from bot.platform.compose import Platform
from hog_core.events import Player
from hog_core.game import CreateGame
from tests.web.browser import DESKTOP, PHONE, at_each_width, checked
from tests.web.test_pages import ADA, finished_cucumber, finished_hog, rated_hog, running_cucumber
from tests.web.test_tournament_pages import EVIL, tournament


def free_port() -> int:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        return int(free.getsockname()[1])


@pytest.fixture
def site(live_site: tuple[Platform, str]) -> tuple[Platform, str]:
    return live_site


SEEN = "return document.readyState === 'complete' && (window.hogbotSeen = true)"
"""A loaded page, marked as one the test has seen."""
FRESH = "return document.readyState === 'complete' && !window.hogbotSeen && (window.hogbotSeen = true)"
"""A loaded page the test has not seen yet, marked now (a new page is a new window object)."""


def settled(driver: webdriver.Chrome) -> None:
    """Wait until the page the browser shows has loaded (a node read while it replaces the last page
    may belong to neither), and mark it as seen."""
    WebDriverWait(driver, 5, ignored_exceptions=(WebDriverException,)).until(lambda d: d.execute_script(SEEN))


def text_of(driver: webdriver.Chrome) -> str:
    settled(driver)
    wait = WebDriverWait(driver, 5, ignored_exceptions=(WebDriverException,))
    return str(wait.until(lambda d: d.find_element(By.TAG_NAME, "body").text))


def moved_on(driver: webdriver.Chrome, shown: WebElement) -> None:
    """Wait until ``shown``'s page has been replaced by the next one, loaded: the old node gone
    (reported stale or, for a moment, of no document), then a loaded page not seen before."""

    def gone(d: webdriver.Chrome) -> bool:
        try:
            shown.is_enabled()
        except WebDriverException:  # StaleElementReferenceException, or a node of no document
            return True
        return False

    WebDriverWait(driver, 5).until(gone)
    WebDriverWait(driver, 5, ignored_exceptions=(WebDriverException,)).until(lambda d: d.execute_script(FRESH))


async def test_a_finished_game_is_stepped_through_with_the_arrow_keys(
    site: tuple[Platform, str], browser: webdriver.Chrome
) -> None:
    p, origin = site
    game_id, steps, n = "", 0, 0
    while steps < 4:  # Home must be a step away from the second step back: a game of 4 steps or more
        game_id, n = f"hfin{n}", n + 1
        await finished_hog(p, game_id)
        steps = len(await p.service("hog").events(game_id))

    def step_back_twice_then_home() -> list[str]:
        seen = []
        browser.get(f"{origin}/games/{game_id}")
        for key in (Keys.ARROW_LEFT, Keys.ARROW_LEFT, Keys.HOME):
            settled(browser)
            shown = browser.find_element(By.TAG_NAME, "body")
            shown.send_keys(key)
            moved_on(browser, shown)  # the next step's page has replaced it
            seen.append(text_of(browser))
        return seen

    seen = await asyncio.to_thread(step_back_twice_then_home)
    assert [f"Step {n} of {steps}" in page for n, page in zip((steps - 1, steps - 2, 1), seen, strict=True)] == [
        True
    ] * 3


async def test_a_running_games_page_follows_a_move_within_a_second(
    site: tuple[Platform, str], browser: webdriver.Chrome
) -> None:
    p, origin = site
    service = p.service("hog")
    await service.create("hlive", CreateGame("hlive", (ADA, Player("3", "Bob")), goal=50, place="c1"), "new")
    await asyncio.to_thread(browser.get, f"{origin}/games/hlive")
    assert "Step 1 of 1" in await asyncio.to_thread(text_of, browser)  # the page is marked as seen
    moved = time.monotonic()
    await service.execute("hlive", turn(ADA.id, 2), "move")

    def followed() -> tuple[float, str, bool]:
        def shown(d: webdriver.Chrome) -> bool:
            return "Step 2 of 2" in d.find_element(By.TAG_NAME, "body").text

        WebDriverWait(browser, 1, ignored_exceptions=(WebDriverException,)).until(shown)
        took = time.monotonic() - moved
        said = WebDriverWait(browser, 1).until(lambda d: d.find_element(By.ID, "announce").text or None)
        return took, str(said), bool(browser.execute_script("return window.hogbotSeen === true"))

    took, said, same_page = await asyncio.to_thread(followed)
    assert took < 1.0 and same_page, "the move is put in place, the page not loaded again"
    assert said.startswith("Ada rolls ") and "Ada " in said, said  # said to a screen reader


IN_VIEW = (
    "return [...document.querySelectorAll('button.choice')].every(b => b.getBoundingClientRect().bottom <= innerHeight)"
)
"""Whether every move's button is in the window, no scrolling needed."""


async def test_the_gui_plays_a_hog_game_against_the_easy_house_to_the_end_with_the_keyboard_alone(
    site: tuple[Platform, str], browser: webdriver.Chrome
) -> None:
    """No mouse: Tab and Enter to a new game, its form filled by typing, then a number key a move (the
    GUI's keys press the move's button) to the end; every page of it with no axe-core violation and
    no sideways scrolling, at a phone's width and a desktop's."""
    p, origin = site

    def tab_to(matches: Callable[[WebElement], bool]) -> WebElement:
        for _ in range(40):
            browser.switch_to.active_element.send_keys(Keys.TAB)
            if matches(browser.switch_to.active_element):
                return browser.switch_to.active_element
        raise AssertionError("not reached with Tab")

    def play(width: int) -> tuple[list[str], list[int], str, list[bool]]:
        if width > PHONE[0]:
            browser.set_window_size(1280, 900)  # a laptop's screen: every move's button in view
        browser.get(f"{origin}/play")
        seen = [checked(browser, "gui-home", width)]
        link = tab_to(lambda e: e.text.startswith("A new game of Hog"))
        link.send_keys(Keys.ENTER)
        moved_on(browser, link)
        seen.append(checked(browser, "gui-new", width))
        name = tab_to(lambda e: e.get_attribute("name") == "player")
        name.send_keys(Keys.CONTROL, "a")
        name.send_keys("Ada")
        tab_to(lambda e: e.get_attribute("name") == "goal").send_keys("30")
        tab_to(lambda e: e.get_attribute("name") == "house").send_keys("easy")
        start = tab_to(lambda e: e.text == "Start")
        in_view: list[bool] = []
        start.send_keys(Keys.ENTER)
        moved_on(browser, start)
        seen.append(checked(browser, "gui-table", width))
        for _ in range(60):
            if "The game is over." in text_of(browser):
                break
            board = browser.find_element(By.ID, "board")
            if width > PHONE[0]:
                in_view.append(browser.execute_script(IN_VIEW))
            browser.find_element(By.TAG_NAME, "body").send_keys("5")  # five dice, by its key
            moved_on(browser, board)  # the table after the move has replaced it
        seen.append(checked(browser, "gui-over", width))
        return [v for found, _ in seen for v in found], [wide for _, wide in seen], text_of(browser), in_view

    for found, wide, page, in_view in await asyncio.to_thread(at_each_width, browser, play):
        assert found == [] and wide == [0] * 4, (found, wide)
        assert all(in_view), in_view
        assert "The game is over." in page and ("Ada won." in page or "The house won." in page)
    rows = await (await p.settled_views()).history(None)
    assert len(rows) == 2 and all(r.status == "finished" and {s.name for s in r.seats} == {"Ada", "The house"}
                                  for r in rows)  # fmt: skip


async def test_a_tournaments_page_shows_its_standings_and_picture(
    site: tuple[Platform, str], browser: webdriver.Chrome
) -> None:
    p, origin = site
    await tournament(p)

    def shown() -> tuple[str, int, str]:
        browser.get(f"{origin}/tournaments/0000abcd")
        text = text_of(browser)
        loaded = "const i = document.querySelector('img.picture'); return i.complete && i.naturalWidth"
        width = WebDriverWait(browser, 5).until(lambda d: d.execute_script(loaded))
        page = browser.find_element(By.TAG_NAME, "body")
        browser.find_element(By.PARTIAL_LINK_TEXT, "t0000abcdr1g1").click()
        moved_on(browser, page)  # the game's page has replaced the tournament's
        moved = text_of(browser)
        return text, int(width), moved

    text, width, game_page = await asyncio.to_thread(shown)
    assert "Hog tournament 0000abcd · Swiss" in text and EVIL in text, "the name shown as text, not run"
    assert width == 960, "its standings' picture loads"
    assert "Step " in game_page and "Hog tournament" not in game_page, "a round's game links to its page"


async def test_every_kind_of_page_is_accessible_and_fits_a_phone(
    site: tuple[Platform, str], browser: webdriver.Chrome
) -> None:
    """The front page (a game being played drawn as a tile), a game's page running, finished and at a
    step, its embed, a player's page (a rating chart), a leaderboard, the tournaments and a tournament,
    a Cucumber game's page, a missing page: no axe-core violation (WCAG 2.1 A and AA), nothing wider
    than the window, at 390 px and at 1280 px."""
    p, origin = site
    await finished_hog(p, "hfin")
    await rated_hog(p, "hrated", ADA, Player("5", "Cy"))  # a rating, drawn on Ada's page
    await p.service("hog").create("hrun", CreateGame("hrun", (ADA, Player("3", "Bob")), place="c1"), "new")
    await p.service("hog").execute("hrun", turn(ADA.id, 4), "move")
    await tournament(p)
    await running_cucumber(p)
    await finished_cucumber(p)  # a seat "lost", in red
    await p.settled_views()
    paths = ["/", "/games/hrun", "/games/hfin", "/games/hfin?step=2", "/games/hfin/embed", f"/players/{ADA.id}"]
    paths += ["/leaderboards/hog", "/leaderboards/cucumber", "/tournaments", "/tournaments/0000abcd", "/games/crun"]
    paths += ["/games/cfin"]
    paths += ["/games/nope"]

    def look(width: int) -> dict[str, tuple[list[str], int]]:
        seen = {}
        for path in paths:
            browser.get(f"{origin}{path}")
            text_of(browser)
            seen[path] = checked(browser, "page" + path.replace("/", "-").replace("?", "-"), width)
        return seen

    for seen in await asyncio.to_thread(at_each_width, browser, look):
        assert {path: found for path, found in seen.items() if found != ([], 0)} == {}


LOOKS = """
const buttons = [...document.querySelectorAll("button.choice")];
const hand = document.querySelector(".cuc-hand");
const red = buttons.filter(b => /[♥♦]/.test(b.textContent));
return [
  !hand || hand.offsetParent === null,
  red.every(b => getComputedStyle(b).color === "rgb(179, 38, 30)"),
  buttons.every(b => b.getBoundingClientRect().bottom <= window.innerHeight),
];
"""
"""Whether the GUI's Cucumber table at 1280 x 900 shows the hand once (as its buttons), each red suit's
card in red, and every card's button without scrolling."""


async def test_the_gui_plays_cucumber_against_bots_to_the_end_by_pressing_cards(
    site: tuple[Platform, str], browser: webdriver.Chrome
) -> None:
    """Your hand as cards you press (those the rules forbid now disabled, with the rule in words), the
    table drawn, to the game's end: each press a card of yours, never another seat's card shown; the
    hand shown once, as the cards' buttons in their suits' colours, in view without scrolling."""
    p, origin = site

    def play() -> tuple[str, list[str], str, list[list[bool]]]:
        browser.set_window_size(1280, 900)
        browser.get(f"{origin}/play/new/cucumber")
        browser.find_element(By.NAME, "player").clear()
        browser.find_element(By.NAME, "player").send_keys("Ann")
        browser.find_element(By.NAME, "players").send_keys("3")
        browser.find_element(By.NAME, "cards").send_keys("4")
        browser.find_element(By.NAME, "target").send_keys("8")
        form = browser.find_element(By.CSS_SELECTOR, "form.new-game")
        form.find_element(By.TAG_NAME, "button").send_keys(Keys.ENTER)
        moved_on(browser, form)
        refused: list[str] = []
        looks: list[list[bool]] = []  # the board's copy of the hand hidden, red suits red, in view
        for _ in range(200):
            if "The game is over." in text_of(browser):
                break
            looks.append(browser.execute_script(LOOKS))
            refused += [
                str(b.get_attribute("title")) for b in browser.find_elements(By.CSS_SELECTOR, "button.choice[disabled]")
            ]
            card = browser.find_element(By.CSS_SELECTOR, "button.choice:not([disabled])")
            card.send_keys(Keys.ENTER)  # the keyboard on the card's button
            moved_on(browser, card)
        browser.set_window_size(*DESKTOP)
        return text_of(browser), refused, browser.current_url, looks

    page, refused, url, looks = await asyncio.to_thread(play)
    assert looks and all(look == [True, True, True] for look in looks), looks
    game_id = url.split("/play/")[1].split("?")[0]
    assert "The game is over." in page and (await p.service("cucumber").load(game_id)).is_over
    assert all(r for r in refused) and any("Play " in r or "lowest" in r for r in refused), refused[:3]


async def test_the_new_game_form_shows_the_chosen_semesters_own_rules(
    site: tuple[Platform, str], browser: webdriver.Chrome
) -> None:
    """The picker's semester decides which rules' boxes show: Fall 2018's Swine Swap by default, this
    year's Sus Fuss once Summer 2023 to Fall 2025 is picked, Spring 2016's five for it."""
    _, origin = site

    def shown(rules: str | None) -> list[str]:
        browser.get(f"{origin}/play/new/hog")
        if rules is not None:
            Select(browser.find_element(By.NAME, "rules")).select_by_value(rules)
        boxes = browser.find_elements(By.CSS_SELECTOR, "label.check")
        return [box.text for box in boxes if box.is_displayed()]

    assert await asyncio.to_thread(shown, None) == ["Swine Swap"]
    assert await asyncio.to_thread(shown, "fa23") == ["Sus Fuss"]
    assert await asyncio.to_thread(shown, "sp16") == [
        "Swine Swap", "Hogtimus Prime", "Piggy Back", "Hog Wild",
    ]  # fmt: skip


async def test_a_games_picture_stays_legible_on_a_phone(site: tuple[Platform, str], browser: webdriver.Chrome) -> None:
    """At 390 px the picture is drawn at two thirds of its size or more, in a region that scrolls
    sideways (and takes the keyboard's focus), not shrunk to a third; the page itself never scrolls
    sideways. At 1280 px it fits its column. (The contest's and the tournaments' pictures are drawn
    in the same region.)"""
    p, origin = site
    await finished_hog(p, "hfin")

    def sizes(width: int) -> tuple[float, int, int, bool]:
        browser.get(f"{origin}/games/hfin")
        picture = browser.find_element(By.CSS_SELECTOR, "figure .wide")
        return (
            browser.execute_script("return document.querySelector('figure img').getBoundingClientRect().width"),
            browser.execute_script("return document.documentElement.scrollWidth"),
            width,
            picture.get_attribute("tabindex") == "0",
        )

    phone, desktop = await asyncio.to_thread(at_each_width, browser, sizes)
    assert phone[0] >= 640 and phone[1] <= phone[2] and phone[3], phone
    assert desktop[0] <= 1280 / 2 and desktop[1] <= desktop[2], desktop
