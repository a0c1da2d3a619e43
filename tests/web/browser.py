"""A real browser for the web tests: Debian's headless Chromium, driven by Selenium through Debian's
chromedriver (nothing downloaded). Missing, its tests are skipped with a one-line reason; under CI
(``CI=true``, where ``.ci/run`` installs it) a missing browser is a failure."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from axe_core_python.selenium import Axe
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")
T = TypeVar("T")


@pytest.fixture(scope="session")
def browser() -> Iterator[webdriver.Chrome]:
    if CHROMIUM is None or CHROMEDRIVER is None:
        reason = "no headless browser here: apt-get install chromium chromium-driver"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    options = Options()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1100"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def violations(driver: webdriver.Chrome) -> list[str]:
    """What axe-core (bundled with axe-core-python: no CDN) finds against WCAG 2.1 A and AA on the
    page shown: each violation's rule and the first node it names."""
    wcag = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}
    found = Axe().run(driver, options=wcag)
    return [f"{v['id']}: {v['nodes'][0]['html'][:120]}" for v in found["violations"]]


def overflow(driver: webdriver.Chrome) -> int:
    """How many pixels the page is wider than the window (0: no sideways scrolling)."""
    scrolled = "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    return max(0, int(driver.execute_script(scrolled)))


PHONE, DESKTOP = (390, 844), (1280, 1100)
"""Window sizes every page is looked at in."""


def checked(driver: webdriver.Chrome, name: str, width: int) -> tuple[list[str], int]:
    """The page shown, as a person would meet it: axe-core's violations and how far it scrolls
    sideways; its screenshot kept as ``NAME-WIDTH.png`` in ``HOGBOT_SHOTS`` when that is set."""
    if shots := os.environ.get("HOGBOT_SHOTS"):
        driver.save_screenshot(str(Path(shots) / f"{name}-{width}.png"))
    return violations(driver), overflow(driver)


def at_each_width(driver: webdriver.Chrome, look: Callable[[int], T]) -> list[T]:
    """``look(width)`` with the window a phone's, then a desktop's (left a desktop's afterwards)."""
    seen = []
    for width, height in (PHONE, DESKTOP):
        driver.set_window_size(width, height)
        try:
            seen.append(look(width))
        finally:
            driver.set_window_size(*DESKTOP)
    return seen
