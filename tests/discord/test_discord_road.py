"""One road from a press to the board: the files of ``bot/`` a dice click and a card press pass
through, from the click arriving to each message it edits (the board, the presser's hand), read off
the stack at the edit."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from bot.discord.client import GameBot
from tests.discord.boards import buttons as board_buttons
from tests.discord.cucumber_table import custom_id, playable, to_play
from tests.discord.discord_world import click, subcommand
from tests.discord.fake_discord import FakeDiscord

BOT = Path(__file__).resolve().parents[2] / "bot"


EDITS = {"update_clicked", "edit_message"}
"""The two ways a board (or a hand) is answered or edited (``bot.discord.answers``)."""


@contextmanager
def roads(found: list[list[str]]) -> Iterator[None]:
    """Each road a press takes to an edit of a message: at every call of an edit (``EDITS``), the
    files of ``bot/`` on the stack from the click's arrival to it, outermost first (a file once for
    each time the road enters it)."""

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event != "call" or frame.f_code.co_name not in EDITS or not frame.f_code.co_filename.startswith(str(BOT)):
            return
        stack: list[str] = []
        at: FrameType | None = frame
        while at is not None:
            if at.f_code.co_filename.startswith(str(BOT)):
                name = Path(at.f_code.co_filename).relative_to(BOT.parent).as_posix()
                if not stack or stack[-1] != name:
                    stack.append(name)
            at = at.f_back
        if "bot/discord/client.py" in stack and stack[-1] == "bot/discord/client.py":  # a click's, not a timer's
            found.append(stack[::-1])

    sys.setprofile(profile)
    try:
        yield
    finally:
        sys.setprofile(None)


def one_road(found: list[list[str]]) -> None:
    """Each road crosses at most 8 files of ``bot/`` and enters the Discord client once (where the
    click arrives)."""
    assert found
    for road in found:
        assert len(road) <= 8 and road.count("bot/discord/client.py") == 1, road


async def answered(fake: FakeDiscord, bot: GameBot, interaction: dict[str, Any]) -> tuple[str, str]:
    """Send ``interaction`` and wait until it is answered and counted: its kind and outcome."""
    waiting = bot.wait_for("interaction_counted", timeout=60)
    await fake.interact(interaction)
    _, kind, _, outcome = await waiting
    return kind, outcome


async def test_a_dice_click_takes_one_road_to_the_board(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, bot = discord_world
    await answered(fake, bot, subcommand("house"))
    message = next(m for key, m in fake.messages.items() if key.startswith("original:"))
    move = next(c["custom_id"] for c in board_buttons(message) if c["label"] == "2")
    found: list[list[str]] = []
    with roads(found):
        assert await answered(fake, bot, click(move, message)) == ("move", "moved")
    print("dice click:", found)
    one_road(found)


async def test_a_card_press_takes_the_same_road(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, bot = discord_world
    opened = subcommand("new", [{"name": "players", "type": 4, "value": 3}], group="cucumber")
    assert await answered(fake, bot, opened) == ("/cucumber new", "answered")
    board = next(m for key, m in fake.messages.items() if key.startswith("original:"))
    for label in ("+ strong bot", "+ magic bot", "Start"):
        assert await answered(fake, bot, click(custom_id(fake.message(board["id"]), label), fake.message(board["id"])))
    assert to_play(fake.message(board["id"])) == "Ada"
    await answered(fake, bot, click(custom_id(fake.message(board["id"]), "Show my hand"), fake.message(board["id"])))
    hand = next(
        m for m in reversed(fake.messages.values()) if any("cucumber:card:" in str(c) for c in m.get("components", []))
    )
    found: list[list[str]] = []
    with roads(found):
        assert await answered(fake, bot, click(playable(hand)[0], hand)) == ("card", "moved")
    print("card press:", found)
    one_road(found)
