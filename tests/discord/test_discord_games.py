"""Whole games through the fake Discord: a challenge played to the win, a house game in every rule
set, and clicks that race each other."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path
from typing import Any

import pytest

from bot.discord.client import GameBot
from hog_core.game import Status
from hog_core.rulesets import RULE_SETS
from tests.discord.boards import accent, board_text, small_print, texts
from tests.discord.boards import buttons as board_buttons
from tests.discord.discord_world import (
    answer_to,
    board_of,
    button,
    challenge_command,
    click,
    followup_to,
    labels,
    press,
    running_bot,
    subcommand,
)
from tests.discord.fake_discord import FakeDiscord
from tests.fake_clock import FakeClock

PLAYERS = {"Ada": "1001", "Bob": "2002"}


def button_of_labels(answer: dict[str, Any], label: str) -> str:
    """The custom_id of the button labelled ``label`` on a board answered with."""
    rows = answer["data"]["components"]
    return str(next(c["custom_id"] for c in board_buttons({"components": rows}) if c["label"] == label))


def without_countdown(board: dict[str, Any]) -> list[str]:
    """A board's text without its countdown's end (a timer restored after a restart counts from the
    time stored with the last move, a moment after the live one set it: ``countdowns``)."""
    return [re.sub(r"<t:\d+:R>", "<t:…:R>", t) for t in texts(board)]


def countdowns(board: dict[str, Any]) -> list[int]:
    return [int(n) for n in re.findall(r"<t:(\d+):R>", board_text(board))]


def footer(answer: dict[str, Any]) -> str:
    return str(small_print(answer["data"]))


async def play_out(fake: FakeDiscord, message_id: str, answer: dict[str, Any], choice: str) -> dict[str, Any]:
    """Press ``choice`` for whoever is to move until the game ends; returns the last board."""
    for _ in range(200):
        message = next(m for m in fake.messages.values() if m["id"] == message_id)
        if not footer(answer).endswith(("to move.", "to move (an extra turn).")):
            return answer
        name = footer(answer).split(" to move")[0]
        rows = answer["data"]["components"]
        custom_id = next(c["custom_id"] for c in board_buttons({"components": rows}) if c["label"] == choice)
        answer = await press(fake, PLAYERS.get(name, "1001"), name, message, custom_id)
        assert answer["type"] == 7, answer
    raise AssertionError("the game did not end")


async def test_a_challenge_from_the_command_to_the_win(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, bot = discord_world
    command = await fake.interact(challenge_command("2002", "Bob"))
    shown = await board_of(fake, command)
    message = fake.messages[f"original:token{command}"]
    accepted = await press(fake, "2002", "Bob", message, button(shown, "Accept"))
    assert footer(accepted) == "Ada to move."

    final = await play_out(fake, message["id"], accepted, "5")
    assert footer(final) in ("Ada won.", "Bob won.")
    assert "🏆" in board_text(final["data"])
    assert labels(final["data"]["components"]) == ["Rematch", "Picture"]  # no move left: a rematch, the picture
    game_id = button(shown, "Accept").split(":")[2]
    state = await bot.platform.service("hog").load(game_id)
    assert state.status is Status.FINISHED and max(state.scores) >= 100
    assert await bot.road.live_games() == []  # (the read models caught up first)
    row = await bot.platform.views.game(game_id)
    assert row is not None and row.status == "finished" and row.seats[state.winner or 0].result == "win"

    finished = {**message, "components": final["data"]["components"]}  # Bob asks for a rematch: Ada is challenged
    asked = await fake.interact(click(button_of_labels(final, "Rematch"), finished, "2002", "Bob"))
    again = await board_of(fake, asked)
    assert texts(again.body)[0] == f"🔁 Rematch of game {game_id} · <@1001>"
    assert labels(again.body["components"]) == ["Accept", "Decline"]  # a challenge Ada answers
    rematch = button(again, "Accept").split(":")[2]
    created = (await bot.platform.service("hog").events(rematch))[0]
    assert [p.id for p in created.players] == ["2002", "1001"] and created.first == 0  # Bob: Ada started the last


@pytest.mark.parametrize("rules", list(RULE_SETS))
async def test_a_house_game_in_every_rule_set(discord_world: tuple[FakeDiscord, GameBot], rules: str) -> None:
    fake, bot = discord_world
    options = [{"name": "rules", "type": 3, "value": rules}, {"name": "goal", "type": 4, "value": 50}]
    command = await fake.interact(subcommand("house", options))
    shown = await board_of(fake, command)
    title, ada, house = texts(shown.body)[:3]
    assert title == f"### 🐷 Hog · {RULE_SETS[rules].name} · first to 50 · the house plays perfect"
    labels = [c["label"] for c in board_buttons(shown.body)]
    assert ("Pork Chop" in labels) == (rules == "porkchop")
    assert ada.startswith("**Ada** · ▶ to move\n# 0") and house.startswith("**The house**\n# 0")
    assert "to win (perfect play)" in ada and "to win (perfect play)" in house  # the win chances under perfect play

    first = {"data": shown.body}
    final = await play_out(fake, fake.messages[f"original:token{command}"]["id"], first, "4")
    assert footer(final) in ("Ada won.", "The house won.", "A draw.")
    state = await bot.platform.service("hog").load(button(shown, "4").split(":")[2])
    assert state.is_over and state.rules.id == rules


async def test_two_clicks_at_once_make_one_move(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, bot = discord_world
    command = await fake.interact(subcommand("house"))
    shown = await board_of(fake, command)
    message = fake.messages[f"original:token{command}"]
    game_id = button(shown, "3").split(":")[2]

    clicks = [await fake.interact(click(button(shown, label), message)) for label in ("3", "3", "6")]
    answers = await asyncio.gather(*(answer_to(fake, i) for i in clicks))
    assert all(a.body["type"] == 7 for a in answers)  # every board shows the game as it stands
    boards = [a.body["data"] for a in answers]
    assert "Ada rolls" in board_text(boards[0])
    assert all(b == boards[0] for b in boards), "one version, one board: the story is told from the log"
    stored = await bot.platform.service("hog").store.load(game_id)
    assert len(stored) == 3  # Ada's one move and the house's reply
    for late in set(clicks) - {stored[1].command_id}:  # the others hear privately why their click did nothing
        notice = await followup_to(fake, late)
        assert notice.body["flags"] == 64 and "as it stands" in notice.body["content"]


async def test_a_second_click_on_the_winning_board_keeps_its_story(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    """Ten fives win a game to 50 at once; a double click on that button must not blank the story
    of the win on the shared board."""
    fake, _ = discord_world
    command = await fake.interact(subcommand("house", [{"name": "goal", "type": 4, "value": 50}]))
    shown = await board_of(fake, command)
    message = fake.messages[f"original:token{command}"]
    won = await press(fake, "1001", "Ada", message, button(shown, "10"))
    again = await press(fake, "1001", "Ada", message, button(shown, "10"))
    assert "🏆" in board_text(won["data"])
    assert again["data"] == won["data"]


async def test_a_version_has_one_board_however_it_is_reached(
    tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path, clock: FakeClock
) -> None:
    """The board of a version is computed from the log alone: the click that made it and a fresh
    render after a restart show the same story, totals, chances and buttons."""
    fake, db = fake_discord, tmp_path / "hog.sqlite3"
    async with running_bot(fake, db, solved_folder, clock):
        command = await fake.interact(subcommand("house"))
        shown = await board_of(fake, command)
        message = fake.messages[f"original:token{command}"]
        moved = (await press(fake, "1001", "Ada", message, button(shown, "3")))["data"]
    async with running_bot(fake, db, solved_folder, clock) as bot:
        redrawn = await bot.road.show(await bot.platform.service("hog").current(button(shown, "3").split(":")[2]))
    fresh = {"components": redrawn.view().to_components()}
    assert "The house rolls" in board_text(moved)
    assert without_countdown(fresh) == without_countdown(moved) and accent(fresh) == accent(moved)
    (live,), (restored,) = countdowns(moved), countdowns(fresh)
    # live: the fake clock's moment (it stands still); restored: the move's stored time, real, later by
    # at most the real time since the clock was made (seconds on a busy machine), and never earlier
    assert live <= restored + 1 and restored <= live + (time.time() - clock.now()) + 1, (live, restored)
    ids = [c["custom_id"] for c in board_buttons(moved)]
    assert [c.get("custom_id") for c in board_buttons(fresh)] == ids


async def test_the_house_and_a_challenge_without_some_of_the_rules(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    """``without``: a semester's rules turned off, as at the terminal and in the GUI: the rule set of
    one's own solved before the first move (chances on the board), its name on the board; a rule the
    set does not have refused in words; the rules offered as they are typed, after those chosen."""
    fake, bot = discord_world
    options = [
        {"name": "rules", "type": 3, "value": "sp16"},
        {"name": "without", "type": 3, "value": "Hog_Wild, swine_swap"},
        {"name": "difficulty", "type": 3, "value": "easy"},
    ]
    command = await fake.interact(subcommand("house", options))
    shown = await board_of(fake, command)
    assert (
        texts(shown.body)[0]
        == "### 🐷 Hog · Spring 2016 without Swine Swap, Hog Wild · first to 100 · the house plays easy"
    )
    assert "to win (perfect play)" in texts(shown.body)[1]  # solved exactly, as every rule set is
    game_id = button_of_labels({"data": shown.body}, "3").split(":")[2]
    assert (await bot.platform.service("hog").load(game_id)).rules.id == "sp16~swine_swap~hog_wild"

    bad = [{"name": "without", "type": 3, "value": "time_trot"}]
    challenge = challenge_command("2002", "Bob")
    challenge["data"]["options"][0]["options"].append({"name": "without", "type": 3, "value": "swine_swap"})
    challenged = await board_of(fake, await fake.interact(challenge))
    assert texts(challenged.body)[1].startswith("### 🐷 Hog · Fall 2018 without Swine Swap · first to 100")
    said = (await answer_to(fake, await fake.interact(subcommand("house", bad)))).body["data"]
    assert said["flags"] == 64 and said["content"] == (
        "Fall 2018 cannot play without time_trot: its rules that may be turned off are swine_swap."
    )

    async def offered(rules: str, typed: str) -> list[str]:
        focused = [
            {"name": "rules", "type": 3, "value": rules},
            {"name": "without", "type": 3, "value": typed, "focused": True},
        ]
        asked = await fake.interact({**subcommand("house", focused), "type": 4})
        sent = (await answer_to(fake, asked)).body
        assert sent["type"] == 8
        return [c["value"] for c in sent["data"]["choices"]]

    assert await offered("sp16", "") == ["swine_swap", "hogtimus_prime", "piggy_back", "hog_wild"]
    assert await offered("sp16", "swine_swap, hog") == ["swine_swap,hogtimus_prime", "swine_swap,hog_wild"]
    assert await offered("contest", "eight") == ["eight_sided"]
