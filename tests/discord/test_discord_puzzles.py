"""``/hog puzzle`` through the fake Discord: a puzzle for you alone with a button per legal move; a
press says whether it was the best move and every move's chance, on the puzzle's own message."""

from __future__ import annotations

import json
import re
from typing import Any

from bot.discord.client import GameBot
from bot.games.hog import puzzling
from bot.games.hog.discord.front import HogFront
from bot.platform.exercises import shown
from storage.answers import EXERCISE, SOLVER
from tests.discord.discord_world import board_of, click, followup_to, press, subcommand
from tests.discord.fake_discord import FakeDiscord, Sent, nested

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
    puzzle_id = moves[0]["custom_id"].split(":")[2]
    assert puzzle_id not in json.dumps(served.body["embeds"])  # the id names its page, with every chance
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
    assert "Your fa18 puzzle rating: " in judged["description"]  # a first answer is rated
    for forged_id in ("hog:puzzle:fa18-100-150-0-1-000:p:4", "hog:puzzle:fa18-100-1-0-1-000:x:4"):
        forged = await fake.interact(click(forged_id, message))  # a total past the goal; no such mode
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
    while (one := next((c for c in nested(components) if c.get("label") == "1"), None)) is not None:
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
    assert right["embeds"][0]["title"] == "🎯 Found it!" and right["components"] == []
    assert "Trainer: the best move found in 1 position of past games" in await stats_of(fake, "1001", "Ada")


async def served_puzzle(
    fake: FakeDiscord, name: str, who: str, person: str
) -> tuple[Sent, dict[str, Any], dict[str, str]]:
    """``/hog <name>`` asked by ``person``: the board served, its message, its buttons by label."""
    asked = await fake.interact(subcommand(name, [], who, person))
    served = await followup_to(fake, asked, timeout=60)
    message = next(m for m in fake.messages.values() if m.get("embeds") == served.body["embeds"])
    moves = {c["label"]: c["custom_id"] for row in served.body.get("components", ()) for c in row["components"]}
    return served, message, moves


async def test_the_daily_puzzle_is_the_same_for_two_members_and_ratings_move_both_ways(
    discord_world: tuple[FakeDiscord, GameBot],
) -> None:
    """Ada and Grace ask for today's puzzle: the same position. Ada answers right (her rating rises,
    the puzzle's falls), Grace wrong (hers falls, the puzzle's rises); the answer names who solved it,
    and asking again says you did."""
    fake, bot = discord_world
    ada, ada_message, ada_moves = await served_puzzle(fake, "daily", "1001", "Ada")
    grace, grace_message, grace_moves = await served_puzzle(fake, "daily", "1002", "Grace")
    assert ada.body["embeds"][0]["title"].startswith("📅 The puzzle of the day")
    assert ada.body["embeds"][0]["description"] == grace.body["embeds"][0]["description"] and ada_moves == grace_moves
    puzzle_id = ada_moves["0"].split(":")[2]
    hog: HogFront = bot.fronts["hog"]  # type: ignore[assignment]
    found = await hog.puzzles.book.by_id(puzzle_id)
    assert found is not None
    best = "Pork Chop" if found.answer == -1 else str(found.answer)
    wrong = next(label for label in grace_moves if label != best)

    right = (await press(fake, "1001", "Ada", ada_message, ada_moves[best]))["data"]["embeds"][0]
    assert right["title"] == "📅 Solved!" and "Today here: 1 of 1 solved it: Ada." in right["description"]
    missed = (await press(fake, "1002", "Grace", grace_message, grace_moves[wrong]))["data"]["embeds"][0]
    assert missed["title"] == "📅 Not quite" and "Today here: 1 of 2 solved it: Ada." in missed["description"]
    rise, fall = (int(re.search(r"rating: \d+ \(([+-]\d+)\)", e["description"])[1]) for e in (right, missed))  # type: ignore[index]
    assert rise > 0 > fall

    answers = bot.platform.views.answers
    (puzzle,) = await answers.rated("hog", found.rules, EXERCISE, [found.id])
    assert (puzzle.tries, puzzle.solved) == (2, 1)
    again = await fake.interact(subcommand("daily", [], "1001", "Ada"))
    assert "You solved it today already." in (await followup_to(fake, again, timeout=60)).body["content"]
    twice = (await press(fake, "1001", "Ada", ada_message, ada_moves[best]))["data"]["embeds"][0]
    assert "rating" not in twice["description"]  # answered already: not rated again
    (ada_rating,) = await answers.rated("hog", found.rules, SOLVER, ["1001"])
    assert ada_rating.tries == 1
    assert f"rating {shown(ada_rating)} · 1 of 1 solved · streak 1 (best 1)" in await stats_of(fake, "1001", "Ada")


async def test_a_puzzle_served_is_one_you_have_not_answered(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, bot = discord_world
    seen = set()
    for _ in range(3):
        _, message, moves = await served_puzzle(fake, "puzzle", "1001", "Ada")
        puzzle_id = next(iter(moves.values())).split(":")[2]
        assert puzzle_id not in seen
        seen.add(puzzle_id)
        await press(fake, "1001", "Ada", message, moves["4"] if "4" in moves else next(iter(moves.values())))
    assert await bot.platform.views.answers.answered("hog", "1001", "fa18") == seen


async def stats_of(fake: FakeDiscord, who: str, person: str) -> str:
    """``/hog stats`` as ``person`` sees it: every field's name and value."""
    asked = await fake.interact(subcommand("stats", [], who, person))
    embed = (await fake.response(asked)).body["data"]["embeds"][0]
    return "\n".join(f"{f['name']}\n{f['value']}" for f in embed.get("fields", ()))
