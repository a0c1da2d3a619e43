"""Crash windows between the log and Discord: a request held at Discord while the bot is SIGKILLed,
then a restart. After it every board shows its game as the log tells it, and no game is stored
without a board anyone can see."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.discord.client import GameBot
from bot.discord.road import NOT_STARTED
from hog_core.events import Player
from hog_core.game import AcceptChallenge, CreateGame, Status
from tests.discord.boards import board_text, small_print, status
from tests.discord.boards import buttons as board_buttons
from tests.discord.discord_world import BotProcess, board_of, button, challenge_command, click, subcommand
from tests.discord.fake_discord import CHANNEL_ID, FakeDiscord


def channel_edit_of(message_id: str) -> Any:
    return lambda s: s.method == "PATCH" and s.path == f"/channels/{CHANNEL_ID}/messages/{message_id}"


@pytest.mark.parametrize("start", ["house", "challenge"])
async def test_a_game_stored_before_its_board_was_posted_is_posted_after_a_restart(
    bot_process: BotProcess, fake_discord: FakeDiscord, start: str
) -> None:
    fake = fake_discord
    await bot_process.start()
    command = await fake.interact(subcommand("house") if start == "house" else challenge_command("2002", "Bob"))
    posting = fake.hold(lambda method, path: method == "PATCH" and path.endswith(f"/token{command}/messages/@original"))
    await posting.arrived.wait()  # the game is stored; its board is on its way
    await bot_process.kill()
    posting.released.set()
    thinking = fake.messages[f"original:token{command}"]
    assert not thinking.get("components"), "the board never reached Discord"

    await bot_process.start()
    posted = await fake.wait_for(channel_edit_of(thinking["id"]), 60)
    footer = small_print(posted.body)
    assert status(posted.body) == ("Ada to move." if start == "house" else "Waiting for Bob to accept.")
    assert " · 🔒 dice sealed: " in footer  # the production bot seals every game's dice
    labels = [c["label"] for c in board_buttons(posted.body)]
    assert labels[:2] == (["0", "1"] if start == "house" else ["Accept", "Decline"])


async def test_a_forfeit_stored_before_a_crash_reaches_the_board(
    bot_process: BotProcess, fake_discord: FakeDiscord
) -> None:
    fake = fake_discord
    await bot_process.start()
    command = await fake.interact(subcommand("house"))
    await board_of(fake, command)
    message = fake.messages[f"original:token{command}"]
    forfeit = await fake.interact(subcommand("forfeit"))
    answering = fake.hold(lambda method, path: path == f"/interactions/{forfeit}/token{forfeit}/callback")
    await answering.arrived.wait()  # stored; the answer and the board edit are lost with the process
    await bot_process.kill()
    answering.released.set()
    assert message["components"], "the old board still offers moves"

    await bot_process.start()
    edited = await fake.wait_for(channel_edit_of(message["id"]), 60)
    assert status(edited.body) == "The house won: Ada forfeited."
    assert " · 🔓 seed " in small_print(edited.body)  # over: the seed is revealed
    assert board_buttons(edited.body) == []


async def test_a_lost_accept_reply_is_repaired_by_the_next_press(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    """Bob's Accept was stored but its reply lost (the board still asks him): pressing Accept again
    brings the board up to date and tells him why nothing more happened."""
    fake, bot = discord_world
    command = await fake.interact(challenge_command("2002", "Bob"))
    shown = await board_of(fake, command)
    message = fake.messages[f"original:token{command}"]
    game = button(shown, "Accept").split(":")[2]
    await bot.platform.service("hog").execute(game, lambda state, chance: [AcceptChallenge("2002")], "lost-reply")
    again = await fake.interact(click(button(shown, "Accept"), message, "2002", "Bob"))
    answer = await fake.response(again)
    assert answer.body["type"] == 7 and small_print(answer.body["data"]) == "Ada to move."
    notice = await fake.wait_for(lambda s: s.method == "POST" and s.path.endswith(f"/token{again}"))
    assert notice.body["flags"] == 64 and notice.body["content"] == "This challenge has already been answered."


async def test_a_challenge_not_yet_answered_can_be_withdrawn(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, bot = discord_world
    command = await fake.interact(challenge_command("2002", "Bob"))
    await board_of(fake, command)
    withdrawn = await fake.response(await fake.interact(subcommand("forfeit")))
    assert small_print(withdrawn.body["data"]) == "The challenge expired."
    assert await bot.road.live_games() == []
    again = await fake.interact(challenge_command("2002", "Bob"))  # the pair is free to play
    assert small_print((await board_of(fake, again)).body) == "Waiting for Bob to accept."


async def test_a_board_placed_for_a_game_never_stored_says_so(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, bot = discord_world
    posted = await fake.interact(subcommand("house"))
    await board_of(fake, posted)
    message = fake.messages[f"original:token{posted}"]
    await bot.platform.kept.place_board("gnever", CHANNEL_ID, message["id"])  # as if the bot died before storing it
    await bot.road.reconcile()
    said = await fake.wait_for(lambda s: channel_edit_of(message["id"])(s) and board_text(s.body) == NOT_STARTED)
    assert board_buttons(said.body) == [] and await bot.platform.kept.board_message("gnever") is None


async def test_a_game_whose_board_can_never_be_shown_is_called_off(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    """Stored, its board placed but never shown, and the message gone: no timer may score it."""
    _, bot = discord_world
    players = (Player("1001", "Ada"), Player("house:easy", "The house", house="easy"))
    await bot.platform.kept.place_board("gblind", CHANNEL_ID, "999999999999999999")  # a message Discord no longer has
    await bot.platform.service("hog").create(
        "gblind", CreateGame("gblind", players, place=CHANNEL_ID, turn_timeout=600), "c-blind"
    )
    await bot.road.reconcile()
    state = await bot.platform.service("hog").load("gblind")
    assert state.status is Status.VOIDED and bot.platform.timers.pending("gblind") == []
    assert "gblind" not in {row.game_id for row in await bot.road.live_games()}
    stats = await (await bot.platform.settled_views()).stats("1001", "hog", by="rules", best="turn")
    assert stats.total.games == 0  # a called-off game counts for nobody


async def test_a_game_whose_first_board_discord_refuses_is_called_off(
    discord_world: tuple[FakeDiscord, GameBot],
) -> None:
    fake, bot = discord_world
    voided = asyncio.Event()
    bot.platform.service("hog").watchers.append(
        lambda game, state: voided.set() if state.status is Status.VOIDED else None
    )
    fake.failing.append(lambda method, path: method == "PATCH" and path.endswith("/messages/@original"))
    await fake.interact(subcommand("house"))
    await asyncio.wait_for(voided.wait(), 20)
    fake.failing.clear()
    await bot.platform.settled_views()
    (row,) = await bot.platform.views.history("1001")
    assert row.status == "voided"
    assert (await bot.platform.service("hog").load(row.game_id)).status is Status.VOIDED
