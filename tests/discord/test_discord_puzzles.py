"""``/hog puzzle`` through the fake Discord: a puzzle for you alone with a button per legal move; a
press says whether it was the best move and every move's chance, on the puzzle's own message."""

from __future__ import annotations

from bot.discord.client import GameBot
from bot.games.hog import puzzling
from tests.discord.discord_world import board_of, click, followup_to, press, subcommand
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
    forged = await fake.interact(click("hog:puzzle:fa18:100:150:0:1:000p:4", message))  # a total past the goal
    assert (await fake.response(forged)).body["data"]["content"] == "That button is not one of mine."


async def test_training_serves_your_own_costly_move_until_you_find_the_best(
    discord_world: tuple[FakeDiscord, GameBot],
) -> None:
    """``/hog train``: a position of Ada's own finished game (the dice all fives: the same every run)
    where rolling one die cost her; a wrong press keeps the buttons and gives nothing away."""
    fake, bot = discord_world
    asked = await fake.interact(subcommand("train"))
    assert "nothing to train on yet" in (await followup_to(fake, asked, timeout=60)).body["content"]
    options = [{"name": "goal", "type": 4, "value": 40}, {"name": "difficulty", "type": 3, "value": "easy"}]
    opened = await fake.interact(subcommand("house", options))
    board = await board_of(fake, opened)
    message = fake.messages[f"original:token{opened}"]
    components = board.body["components"]
    while (
        one := next((c for row in components for c in row["components"] if c.get("label") == "1"), None)
    ) is not None:
        answered = await press(fake, "1001", "Ada", {**message, "components": components}, one["custom_id"])
        components = answered["data"]["components"]
    mistakes = await puzzling.your_mistakes(bot.platform, bot.platform.games["hog"], "1001")  # type: ignore[arg-type]
    assert mistakes and all(m.natural == 1 for m in mistakes)

    command = bot.wait_for("interaction_counted", timeout=60)
    asked = await fake.interact(subcommand("train"))
    served = await followup_to(fake, asked, timeout=60)
    await command
    assert (
        served.body["embeds"][0]["title"].startswith("🎯 From your game")
        and "you played 1 die" in served.body["embeds"][0]["title"]
    )
    message = next(m for m in fake.messages.values() if m.get("embeds") == served.body["embeds"])
    moves = {c["label"]: c["custom_id"] for row in served.body["components"] for c in row["components"]}
    wrong = (await fake.response(await fake.interact(click(moves["1"], message)))).body["data"]
    assert wrong["embeds"][0]["title"] == "🎯 Try again" and "components" not in wrong  # the buttons stay
    assert (
        "Not the best: 1 die wins" in wrong["embeds"][0]["description"]
        and "Every move" not in wrong["embeds"][0]["description"]
    )
    scores = served.body["embeds"][0]["description"].split("You: ")[1].split()
    found = next(m for m in mistakes if m.scores == (int(scores[0]), int(scores[2])))
    best = moves["Pork Chop" if found.answer == -1 else str(found.answer)]
    right = (await fake.response(await fake.interact(click(best, message)))).body["data"]
    assert right["embeds"][0]["title"] == "🧩 Solved!" and right["components"] == []
