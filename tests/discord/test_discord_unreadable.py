"""An interaction discord.py cannot read (Discord's payloads drift) is logged once and skipped: the
bot stays connected and the next command is answered as usual."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest

from bot.discord.client import GameBot
from tests.discord.discord_world import answer_to, board_of, subcommand
from tests.discord.fake_discord import FakeDiscord


def without(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda payload: payload.pop(key)


def user_id(value: str) -> Callable[[dict[str, Any]], None]:
    return lambda payload: payload["member"]["user"].__setitem__("id", value)


def no_custom_id(payload: dict[str, Any]) -> None:
    payload.update(type=3, message={"id": "1"}, data={"component_type": 2})


@pytest.mark.parametrize(
    "broken",
    [without("attachment_size_limit"), user_id("not-a-number"), no_custom_id, without("member")],
    ids=["no attachment_size_limit", "a user id not a number", "a click with no custom_id", "no one sent it"],
)
async def test_an_unreadable_interaction_is_skipped_and_the_bot_plays_on(
    discord_world: tuple[FakeDiscord, GameBot],
    caplog: pytest.LogCaptureFixture,
    broken: Callable[[dict[str, Any]], None],
) -> None:
    fake, bot = discord_world
    for _ in range(2):  # twice: the second is skipped without a word
        payload = subcommand("house")
        broken(payload)
        with caplog.at_level(logging.ERROR, logger="bot.discord.gateway"):
            await fake.interact(payload)
    command = await fake.interact(subcommand("house"))  # read after the broken ones, on the same connection
    board = await board_of(fake, command)
    assert board.body and not bot.is_closed()
    told = [r for r in caplog.records if r.name == "bot.discord.gateway"]
    assert len(told) <= 1 and all("INTERACTION_CREATE" in r.getMessage() for r in told)
    assert all("Ada" not in r.getMessage() for r in told)  # none of the payload is logged


@pytest.mark.parametrize(
    ("name", "options", "said"),
    [
        ("challenge", [{"name": "opponent", "type": 6, "value": "2002"}, {"name": "goal", "type": 4, "value": 9}],
         "`goal` must be from 10 to 1000, not 9."),
        ("puzzle", [{"name": "rules", "type": 3, "value": "chess"}], "`rules` must be one of the choices offered"),
        ("house", [{"name": "rules", "type": 3, "value": ""}], "rule set"),
    ],
    ids=["challenge goal 9", "rules no choice", "rules empty"],
)  # fmt: skip
async def test_an_option_outside_what_the_command_declares_is_refused_in_words(
    discord_world: tuple[FakeDiscord, GameBot], name: str, options: list[dict[str, Any]], said: str
) -> None:
    """Discord's client keeps options in range; a request made by hand need not: 0 is not "absent"."""
    fake, bot = discord_world
    command = await fake.interact(subcommand(name, options))
    answer = await answer_to(fake, command)
    content = answer.body["data"]["content"]
    assert said in content and answer.body["data"]["flags"] & 64, content  # to the asker alone
    assert await (await bot.platform.settled_views()).count() == 0  # no game made
