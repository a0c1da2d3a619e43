"""A board as a player sees it: the payload the bot sent the fake Discord, drawn as Discord draws it
(``tests/discord/render.py``) in a real browser, on a phone and on a desktop: the dice are the bot's
own pictures, named for a screen reader; the countdown counts; nothing is wider than the window.
With ``HOGBOT_SHOTS`` set, the board's picture is kept there (the README's ``docs/board.png``)."""

from __future__ import annotations

import os
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.common.by import By

from bot.discord.client import GameBot
from tests.discord.boards import buttons
from tests.discord.discord_world import board_of, subcommand
from tests.discord.fake_discord import FakeDiscord
from tests.discord.render import page
from tests.discord.test_discord_anywhere import ADA, in_group_dm, pressed
from tests.fake_clock import FakeClock
from tests.web.browser import at_each_width, overflow


async def test_a_board_drawn_as_discord_draws_it(
    discord_world: tuple[FakeDiscord, GameBot], clock: FakeClock, browser: webdriver.Chrome, tmp_path: Path
) -> None:
    fake, _ = discord_world
    options = [{"name": "difficulty", "type": 3, "value": "medium"}]
    command = await fake.interact(in_group_dm(subcommand("house", options, *ADA)))
    await board_of(fake, command)
    board = fake.messages[f"original:token{command}"]
    three = next(b["custom_id"] for b in buttons(board) if b.get("label") == "3")
    moved = (await pressed(fake, ADA, board, three)).body["data"]
    drawn = tmp_path / "board.html"
    drawn.write_text(page(moved["components"], fake.emoji_images, {ADA[0]: ADA[1]}, clock.now()))
    browser.get(drawn.as_uri())

    dice = browser.find_elements(By.CSS_SELECTOR, "img.emoji")
    assert [d.get_attribute("alt") for d in dice[:3]] == [":die_5:"] * 3  # Ada's three fives, named
    assert all(browser.execute_script("return arguments[0].naturalWidth", d) == 128 for d in dice)  # drawn
    said = browser.find_element(By.TAG_NAME, "body").text
    assert "Ada's turn ends in 10 minutes" in said and "Ada rolls 5, 5, 5 for 15." in said
    assert at_each_width(browser, lambda width: overflow(browser)) == [0, 0]
    if shots := os.environ.get("HOGBOT_SHOTS"):
        browser.set_window_size(720, 1100)
        browser.find_element(By.CLASS_NAME, "container").screenshot(str(Path(shots) / "discord-board.png"))
