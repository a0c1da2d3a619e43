"""Timers through the fake Discord: challenges expire, idle players are warned and then forfeit, and
pending timers survive a restart. Time is a ``FakeClock`` moved by the test; nobody sleeps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.discord.client import GameBot
from tests.discord.boards import board_text, small_print
from tests.discord.boards import buttons as board_buttons
from tests.discord.discord_world import (
    board_of,
    button,
    challenge_command,
    press,
    running_bot,
    subcommand,
    where,
)
from tests.discord.fake_discord import CHANNEL_ID, FakeDiscord, Sent
from tests.fake_clock import FakeClock

OTHER_CHANNEL = "900000000000000009"


def edit_of(message: dict[str, Any], channel: str = CHANNEL_ID) -> Any:
    """Matches the bot editing ``message`` through the channel (as timers and forfeits do)."""
    return lambda s: s.method == "PATCH" and s.path == f"/channels/{channel}/messages/{message['id']}"


async def new_challenge(fake: FakeDiscord) -> tuple[Sent, dict[str, Any]]:
    command = await fake.interact(challenge_command("2002", "Bob"))
    return await board_of(fake, command), fake.messages[f"original:token{command}"]


async def test_an_unanswered_challenge_expires(discord_world: tuple[FakeDiscord, GameBot], clock: FakeClock) -> None:
    fake, bot = discord_world
    shown, message = await new_challenge(fake)
    game_id = button(shown, "Accept").split(":")[2]
    (deadline,) = bot.platform.timers.pending(game_id)
    assert deadline.kind == "expire" and 599 <= deadline.at - clock.now() <= 600

    await clock.advance(599)
    assert bot.platform.timers.pending(game_id) == [deadline]  # not yet
    await clock.advance(2)
    expired = await fake.wait_for(edit_of(message))
    assert small_print(expired.body) == "The challenge expired."
    assert "Nobody answered: the challenge has expired." in board_text(expired.body)
    assert board_buttons(expired.body) == []

    late = await press(fake, "2002", "Bob", message, button(shown, "Accept"))  # a client that missed the edit
    assert late["data"]["flags"] == 64 and late["data"]["content"].startswith("This challenge has expired")


async def test_an_idle_player_is_warned_then_forfeits(
    discord_world: tuple[FakeDiscord, GameBot], clock: FakeClock
) -> None:
    fake, bot = discord_world
    command = await fake.interact(subcommand("house"))
    shown = await board_of(fake, command)
    message = fake.messages[f"original:token{command}"]
    game_id = button(shown, "3").split(":")[2]

    await clock.advance(481)
    warning = await fake.wait_for(lambda s: s.method == "POST" and s.path == f"/channels/{CHANNEL_ID}/messages")
    assert warning.body["content"] == "<@1001>, it's your move: 2 minutes left before you forfeit."
    assert str(warning.body["message_reference"]["message_id"]) == message["id"]
    assert warning.body["allowed_mentions"]["parse"] == ["users"]
    assert (await bot.platform.service("hog").load(game_id)).is_over is False

    await clock.advance(120)
    forfeited = await fake.wait_for(edit_of(message))
    assert small_print(forfeited.body) == "The house won: Ada forfeited."
    assert "Ada runs out of time" in board_text(forfeited.body)
    assert (
        forfeited.body["embeds"] == [] and forfeited.body["content"] is None
    )  # a board alone (an older one's embed cleared)
    assert board_buttons(forfeited.body) == []
    assert bot.platform.timers.pending(game_id) == []


async def test_a_move_in_time_resets_the_clock(discord_world: tuple[FakeDiscord, GameBot], clock: FakeClock) -> None:
    fake, bot = discord_world
    command = await fake.interact(subcommand("house"))
    three = button(await board_of(fake, command), "3")
    game_id = three.split(":")[2]
    await clock.advance(590)
    assert (await press(fake, "1001", "Ada", fake.messages[f"original:token{command}"], three))["type"] == 7
    await clock.advance(20)  # past the first deadline, well within the new one
    warn, timeout = bot.platform.timers.pending(game_id)
    assert (warn.kind, timeout.kind, timeout.version) == ("warn", "timeout", 3)
    assert 579 <= timeout.at - clock.now() <= 580
    assert (await bot.platform.service("hog").load(game_id)).is_over is False


async def test_timers_fire_after_a_restart(
    tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path, clock: FakeClock
) -> None:
    fake, db = fake_discord, tmp_path / "hog.sqlite3"
    async with running_bot(fake, db, solved_folder, clock):
        _, challenge = await new_challenge(fake)
        command = await fake.interact(subcommand("house", who="3003", person="Cy"))
        await board_of(fake, command)
        house_game = fake.messages[f"original:token{command}"]

    await clock.advance(3600)  # the bot was down past both deadlines
    async with running_bot(fake, db, solved_folder, clock) as bot:
        expired = await fake.wait_for(edit_of(challenge))
        assert small_print(expired.body) == "The challenge expired."
        forfeited = await fake.wait_for(edit_of(house_game))
        assert small_print(forfeited.body) == "The house won: Cy forfeited."
        assert await bot.road.live_games() == []


async def test_a_slow_board_edit_never_holds_back_another_games_deadline(
    discord_world: tuple[FakeDiscord, GameBot], clock: FakeClock
) -> None:
    """Discord sits on the edit of Ada's board (rate-limited, say): Cy's deadline fires on time and
    his board, in another channel (another of Discord's rate-limit buckets), is edited meanwhile."""
    fake, bot = discord_world
    first = await fake.interact(subcommand("house"))
    ada_game = button(await board_of(fake, first), "3").split(":")[2]
    ada_board = fake.messages[f"original:token{first}"]
    await clock.advance(10)
    second = await fake.interact({**subcommand("house", who="3003", person="Cy"), **where(OTHER_CHANNEL)})
    cy_game = button(await board_of(fake, second), "3").split(":")[2]
    cy_board = fake.messages[f"original:token{second}"]
    slow = fake.hold(lambda method, path: method == "PATCH" and path.endswith(f"/messages/{ada_board['id']}"))

    await clock.advance(600)  # past both games' deadlines, Ada's first
    await slow.arrived.wait()
    forfeited = await fake.wait_for(edit_of(cy_board, OTHER_CHANNEL))  # while Ada's edit is still held
    assert small_print(forfeited.body) == "The house won: Cy forfeited."
    assert (await bot.platform.service("hog").load(ada_game)).is_over and (
        await bot.platform.service("hog").load(cy_game)
    ).is_over
    slow.released.set()
    ada_edit = await fake.wait_for(edit_of(ada_board))
    assert small_print(ada_edit.body) == "The house won: Ada forfeited."
