"""``/hog puzzle`` through the fake Discord: a puzzle for you alone with a button per legal move; a
press says whether it was the best move and every move's chance, on the puzzle's own message."""

from __future__ import annotations

from bot.discord.client import GameBot
from tests.discord.discord_world import click, followup_to, subcommand
from tests.discord.fake_discord import FakeDiscord

EPHEMERAL = 64


async def test_a_puzzle_for_you_alone_answered_by_a_button(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, bot = discord_world
    command = bot.wait_for("interaction_counted", timeout=60)
    asked = await fake.interact(subcommand("puzzle", [{"name": "rules", "type": 3, "value": "fa18"}]))
    served = await followup_to(fake, asked, timeout=60)
    await command
    assert served.body["flags"] & EPHEMERAL and served.body["embeds"][0]["title"].startswith("🧩 A Hog puzzle")
    moves = [c for row in served.body["components"] for c in row["components"]]
    assert [m["label"] for m in moves] == [str(k) for k in range(11)]  # fa18: no Pork Chop
    message = fake.message(
        served.body.get("id")
        or next(m["id"] for m in fake.messages.values() if m.get("embeds") == served.body["embeds"])
    )
    waiting = bot.wait_for("interaction_counted", timeout=60)
    pressed = await fake.interact(click(moves[4]["custom_id"], message))
    _, kind, _, _ = await waiting
    answer = (await fake.response(pressed)).body
    assert kind == "puzzle" and answer["type"] == 7
    judged = answer["data"]["embeds"][0]
    assert judged["title"] in ("🧩 Solved!", "🧩 Not quite") and "Every move: " in judged["description"]
    assert "What decides it: " in judged["description"] and answer["data"]["components"] == []
    forged = await fake.interact(click("hog:puzzle:fa18:100:150:0:1:000:4", message))  # a total past the goal
    assert (await fake.response(forged)).body["data"]["content"] == "That button is not one of mine."
