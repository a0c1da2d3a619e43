"""The real discord.py client against the fake Discord: a house game from the slash command on."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import yarl

from bot.discord_app import HogBot
from bot.projection import Projector
from bot.service import GameService
from hog_core.game import Dice
from hog_core.rulesets import RULE_SETS
from hog_core.solver import Solution
from storage.events import SqliteEventStore
from storage.games import GameViews
from storage.solutions import SolutionCache
from tests.fake_discord import APP_ID, CHANNEL_ID, GUILD_ID, FakeDiscord, Sent, member


def fives(dice: Dice) -> tuple[int, ...]:
    return (5,) * dice.count


@pytest.fixture
async def discord_world(
    tmp_path: Path, solutions: dict[str, Solution], monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[FakeDiscord, HogBot]]:
    fake = FakeDiscord()
    await fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway))
    cache = SolutionCache(tmp_path / "solutions")
    for rules, solution in solutions.items():
        cache.save(solution, RULE_SETS[rules], 100)
    store = await SqliteEventStore.open(tmp_path / "hog.sqlite3")
    views = await GameViews.open(tmp_path / "hog.sqlite3")
    bot = HogBot(GameService(store, cache, Projector(store, views), dice=fives), guild_id=int(GUILD_ID))
    running = asyncio.create_task(bot.start("a-token"))
    await fake.ready()
    yield fake, bot
    await bot.close()
    await running
    await fake.stop()
    assert fake.refused == []  # every body the bot sent is one Discord accepts
    await views.close()
    await store.close()


def where(channel: str = CHANNEL_ID) -> dict[str, Any]:
    return {
        "application_id": APP_ID,
        "guild_id": GUILD_ID,
        "channel_id": channel,
        "channel": {"id": channel, "type": 0, "guild_id": GUILD_ID, "name": "hog", "position": 0},
        "version": 1,
        "locale": "en-US",
        "guild_locale": "en-US",
        "app_permissions": "2147483647",
        "entitlements": [],
        "authorizing_integration_owners": {"0": GUILD_ID},
        "context": 0,
        "attachment_size_limit": 10485760,
    }


def subcommand(
    name: str, options: list[dict[str, Any]] | None = None, who: str = "1001", person: str = "Ada"
) -> dict[str, Any]:
    """``/hog <name>`` as Discord sends it."""
    return {
        "type": 2,
        **where(),
        "member": member(who, person),
        "data": {"id": "1", "name": "hog", "type": 1, "options": [{"name": name, "type": 1, "options": options or []}]},
    }


def click(custom_id: str, message: dict[str, Any], who: str = "1001", person: str = "Ada") -> dict[str, Any]:
    """A button press on ``message`` as Discord sends it (with the message and its components)."""
    return {
        "type": 3,
        **where(),
        "member": member(who, person),
        "message": message,
        "data": {"custom_id": custom_id, "component_type": 2},
    }


async def press(fake: FakeDiscord, who: str, name: str, message: dict[str, Any], custom_id: str) -> dict[str, Any]:
    """Press a button and wait for the bot's answer to it."""
    pressed = await fake.interact(click(custom_id, message, who, name))
    sent = await fake.wait_for(lambda s: s.path == f"/interactions/{pressed}/token{pressed}/callback")
    return dict(sent.body)


async def board_of(fake: FakeDiscord, command: str) -> Sent:
    """The board the bot posted in answer to ``command``."""
    return await fake.wait_for(lambda s: s.method == "PATCH" and s.path.endswith(f"token{command}/messages/@original"))


def button(board: Sent, label: str) -> str:
    return str(
        next(c["custom_id"] for row in board.body["components"] for c in row["components"] if c["label"] == label)
    )


async def test_a_house_game_from_the_slash_command(discord_world: tuple[FakeDiscord, HogBot]) -> None:
    fake, _ = discord_world
    synced = await fake.wait_for(lambda s: s.method == "PUT" and s.path.endswith(f"/guilds/{GUILD_ID}/commands"))
    assert [c["name"] for c in synced.body] == ["hog"]

    command = await fake.interact(subcommand("house", [{"name": "difficulty", "type": 3, "value": "easy"}]))
    await fake.wait_for(lambda s: s.path == f"/interactions/{command}/token{command}/callback")  # deferred
    shown = await board_of(fake, command)
    (board,) = shown.body["embeds"]
    assert board["footer"]["text"] == "Ada to move."
    buttons = [c for row in shown.body["components"] for c in row["components"]]
    assert len(buttons) == 11 and buttons[3]["label"] == "3"
    assert buttons[3]["custom_id"].startswith("hog:move:") and buttons[3]["custom_id"].endswith(":1:3")

    update = await press(fake, "1001", "Ada", fake.messages[f"original:token{command}"], buttons[3]["custom_id"])
    assert update["type"] == 7  # the board message itself is edited
    (after,) = update["data"]["embeds"]
    assert "Ada rolls 5, 5, 5 for 15." in after["description"]
    assert "The house rolls 5, 5, 5, 5 for 20." in after["description"]
    assert after["footer"]["text"] == "Ada to move."


async def test_strangers_and_stale_boards_get_a_private_word(discord_world: tuple[FakeDiscord, HogBot]) -> None:
    fake, bot = discord_world
    command = await fake.interact(subcommand("house"))
    three = button(await board_of(fake, command), "3")
    message = fake.messages[f"original:token{command}"]

    stranger = await press(fake, "2002", "Mallory", message, three)
    assert stranger["type"] == 4 and stranger["data"]["flags"] == 64  # ephemeral
    assert stranger["data"]["content"] == "You are not playing in this game."
    assert (await bot.service.load(three.split(":")[2])).version == 1  # nothing moved

    assert (await press(fake, "1001", "Ada", message, three))["type"] == 7  # Ada's move: the board updates
    stale = await press(fake, "1001", "Ada", message, three)  # the same old board, clicked again
    assert stale["data"]["flags"] == 64 and "out of date" in stale["data"]["content"]


async def test_the_bot_process_killed_mid_game_plays_on_from_the_old_board(
    tmp_path: Path, solutions: dict[str, Solution]
) -> None:
    """`python -m bot` with a token, exactly as in production, pointed at the fake by environment."""
    fake = FakeDiscord()
    await fake.start()
    cache = SolutionCache(tmp_path / "solutions")
    for rules, solution in solutions.items():
        cache.save(solution, RULE_SETS[rules], 100)
    env = {
        **os.environ,
        "DISCORD_TOKEN": "a-token",
        "HOG_DISCORD_API_BASE": fake.api_base,
        "HOG_DISCORD_GATEWAY_URL": fake.gateway,
        "HOG_GUILD_ID": GUILD_ID,
        "HOG_DB": str(tmp_path / "hog.sqlite3"),
        "HOG_CACHE": str(tmp_path / "solutions"),
    }
    root = Path(__file__).resolve().parent.parent

    async def start_bot() -> asyncio.subprocess.Process:
        fake._identified.clear()
        process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=root, env=env)
        await fake.ready(timeout=60)
        return process

    first = await start_bot()
    try:
        command = await fake.interact(subcommand("house"))
        three = button(await board_of(fake, command), "3")
        message = fake.messages[f"original:token{command}"]
        first.send_signal(signal.SIGKILL)
        assert await first.wait() == -signal.SIGKILL

        second = await start_bot()
        try:
            pressed = await fake.interact(click(three, message))
            update = await fake.wait_for(lambda s: s.path == f"/interactions/{pressed}/token{pressed}/callback", 60)
            assert update.body["type"] == 7
            assert "Ada rolls" in update.body["data"]["embeds"][0]["description"]
        finally:
            second.terminate()
            await second.wait()
        assert fake.refused == []
    finally:
        if first.returncode is None:
            first.kill()
            await first.wait()
        await fake.stop()


def challenge_command(opponent_id: str, opponent_name: str, bot_user: bool = False) -> dict[str, Any]:
    """``/hog challenge opponent:<member>`` as Discord sends it, the member resolved."""
    them = member(opponent_id, opponent_name)
    them["user"]["bot"] = bot_user
    resolved_member = {k: v for k, v in them.items() if k != "user"}
    return {
        "type": 2,
        **where(),
        "member": member("1001", "Ada"),
        "data": {
            "id": "1",
            "name": "hog",
            "type": 1,
            "options": [
                {"name": "challenge", "type": 1, "options": [{"name": "opponent", "type": 6, "value": opponent_id}]}
            ],
            "resolved": {"users": {opponent_id: them["user"]}, "members": {opponent_id: resolved_member}},
        },
    }


async def test_a_challenge_accepted_and_one_declined(discord_world: tuple[FakeDiscord, HogBot]) -> None:
    fake, _ = discord_world
    command = await fake.interact(challenge_command("2002", "Bob"))
    shown = await fake.wait_for(lambda s: s.method == "PATCH" and s.path.endswith(f"token{command}/messages/@original"))
    assert shown.body["content"] == "<@2002>"
    assert shown.body["embeds"][0]["footer"]["text"] == "Waiting for Bob to accept."
    accept, _ = (c["custom_id"] for row in shown.body["components"] for c in row["components"])
    message = fake.messages[f"original:token{command}"]

    ada_tries = await press(fake, "1001", "Ada", message, accept)
    assert ada_tries["data"]["flags"] == 64 and ada_tries["data"]["content"] == "Only Bob can answer this challenge."
    accepted = await press(fake, "2002", "Bob", message, accept)
    assert accepted["type"] == 7
    assert accepted["data"]["embeds"][0]["footer"]["text"] == "Ada to move."
    assert len([c for row in accepted["data"]["components"] for c in row["components"]]) == 11

    again = await fake.interact(challenge_command("2002", "Bob"))
    refused = await fake.wait_for(lambda s: s.path == f"/interactions/{again}/token{again}/callback")
    assert refused.body["data"]["content"] == "You already have a game with Bob in this channel."

    other = await fake.interact(challenge_command("3003", "Cy"))
    shown = await fake.wait_for(lambda s: s.method == "PATCH" and s.path.endswith(f"token{other}/messages/@original"))
    declined = await press(
        fake,
        "3003",
        "Cy",
        fake.messages[f"original:token{other}"],
        shown.body["components"][0]["components"][1]["custom_id"],
    )
    assert declined["data"]["embeds"][0]["footer"]["text"] == "Cy declined."
    assert declined["data"]["components"] == []


@pytest.mark.parametrize(
    ("who", "name", "is_bot", "words"),
    [("1001", "Ada", False, "You can't challenge yourself"), ("4004", "Robo", True, "Robo is a bot.")],
)
async def test_challenges_that_make_no_game(
    discord_world: tuple[FakeDiscord, HogBot], who: str, name: str, is_bot: bool, words: str
) -> None:
    fake, _ = discord_world
    command = await fake.interact(challenge_command(who, name, bot_user=is_bot))
    refused = await fake.wait_for(lambda s: s.path == f"/interactions/{command}/token{command}/callback")
    assert refused.body["data"]["flags"] == 64 and words in refused.body["data"]["content"]


def test_the_spec_check_refuses_what_discord_would() -> None:
    from tests.fake_discord import SPEC, SpecCheck

    spec = SpecCheck.load(SPEC)
    if spec is None:
        pytest.skip("shared/discord-api-spec/openapi.json is not beside this checkout")
    callback = "/interactions/1/token/callback"
    assert spec.errors("POST", callback, {"type": 4, "data": {"content": "hello"}}) == []
    assert spec.errors("POST", callback, {"type": 4, "data": {"content": "x" * 2001}})
    too_long_label = {"type": 1, "components": [{"type": 2, "style": 2, "label": "x" * 81, "custom_id": "a"}]}
    assert spec.errors("PATCH", "/webhooks/1/token/messages/@original", {"components": [too_long_label]})


async def test_forfeit_and_help(discord_world: tuple[FakeDiscord, HogBot]) -> None:
    fake, _ = discord_world

    async def answer(data: dict[str, Any]) -> dict[str, Any]:
        asked = await fake.interact(data)
        sent = await fake.wait_for(lambda s: s.path == f"/interactions/{asked}/token{asked}/callback")
        return dict(sent.body)

    nothing = await answer(subcommand("forfeit"))
    assert nothing["data"]["flags"] == 64 and nothing["data"]["content"] == "You have no game in this channel."

    started = await fake.interact(subcommand("house"))
    await fake.wait_for(lambda s: s.method == "PATCH" and s.path.endswith(f"token{started}/messages/@original"))
    resigned = await answer(subcommand("forfeit"))
    (final,) = resigned["data"]["embeds"]
    assert final["footer"]["text"] == "The house won: Ada forfeited."
    assert "Ada resigns: The house wins (0 to 0)." in final["description"]
    assert (await answer(subcommand("forfeit")))["data"]["content"] == "You have no game in this channel."

    helped = await answer(subcommand("help"))
    assert helped["data"]["flags"] == 64 and helped["data"]["embeds"][0]["title"] == "Hog: how to play"


def test_a_long_story_is_cut_to_what_discord_takes() -> None:
    from bot.discord_app import DESCRIPTION_LIMIT, story_text

    lines = tuple(f"The house rolls 8, 8, 8, 8, 8, 8, 8, 8 for 64. (turn {n})" for n in range(200))
    told = story_text(lines)
    assert told is not None and len(told) <= DESCRIPTION_LIMIT
    assert told.startswith("…\n") and told.endswith("(turn 199)")
    assert story_text(lines[:3]) == "\n".join(lines[:3]) and story_text(()) is None
