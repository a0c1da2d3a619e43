"""``/hog export`` through the fake Discord: your own games as a file only you see, a running game
without its log or seed; none yet, said; more than fits in a file, said with where to get them all."""

from __future__ import annotations

import json

from bot.discord.client import GameBot
from tests.discord.discord_world import board_of, followup_to, subcommand
from tests.discord.fake_discord import FakeDiscord

EPHEMERAL = 64


async def test_your_games_as_a_file_for_you_alone(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, _ = discord_world
    asked = await fake.interact(subcommand("export"))
    none = await followup_to(fake, asked)
    assert none.body["content"] == "You have no hog games here yet." and none.body["flags"] & EPHEMERAL
    opened = await fake.interact(subcommand("house"))
    await board_of(fake, opened)
    asked = await fake.interact(subcommand("export"))
    sent = await followup_to(fake, asked)
    assert sent.body["flags"] & EPHEMERAL and sent.body["content"].startswith("Your 1 hog game, one JSON line a game")
    (name, data), *_ = sent.files.items()
    (game,) = [json.loads(line) for line in data.decode().splitlines()]
    assert name.endswith(".ndjson") and game["players"][0]["id"] == "1001" and game["live"]
    assert "events" not in game and "seed" not in game  # running: its log and seed stay in the bot
    tiny = subcommand("export")
    tiny["attachment_size_limit"] = 100  # a file smaller than one game's line
    too_big = await followup_to(fake, await fake.interact(tiny))
    assert (
        too_big.body["content"]
        == "Your games do not fit in a file here: ask the bot's operator (python -m bot export)."
    )
    assert not too_big.files
