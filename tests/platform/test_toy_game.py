"""The proof that the contract is real: Press, a toy game written only in the tests, runs through
the real platform (service, store, projector, timers, the console, the command line and the Discord
client against the fake Discord) with not a line of platform code written for it."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.cli import main
from bot.platform.compose import Platform, platform
from bot.platform.contract import Refusal, Reminder
from bot.platform.registry import GAMES
from bot.platform.settings import Settings
from tests.discord.discord_world import board_of, button, press, running_bot, subcommand
from tests.discord.fake_discord import FakeDiscord
from tests.fake_clock import FakeClock
from tests.platform.listening import listening
from tests.platform.toy import Created, Press

MODULES = {**GAMES, "toy": "tests.platform.toy:ToyGame"}


@pytest.fixture
async def world(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Platform]:
    async with platform(Settings(db=tmp_path / "toy.sqlite3", cache=tmp_path), MODULES, clock=clock) as p:
        yield p


async def test_a_game_is_decided_stored_told_and_projected(world: Platform) -> None:
    service = world.service("toy")
    await service.create("t1", Created("t1", "here", ("ada", "bot:Robo")), "c1")
    with pytest.raises(Refusal, match="Wait for your turn"):
        await service.execute("t1", lambda state, chance: [Press("bot:Robo")], "c2", 1)
    moves = [await service.execute("t1", lambda state, chance: [Press("ada")], f"m{i}") for i in range(3)]
    stored = await world.store.load("t1")
    assert [(s.type, s.command_id) for s in stored[:3]] == [("toy.Created", "c1"), ("toy.Pressed", "m0")] * 1 + [
        ("toy.Pressed", "m0")  # the bot's press, in the same batch as the move that prompted it
    ]
    assert moves[-1].state.is_over and moves[-1].state.presses == (3, 2) and moves[-1].story[-1] == "Game over."
    row = await (await world.settled_views()).game("t1")
    assert row is not None and row.game == "toy" and not row.live
    assert [(s.player_id, s.bot, s.score, s.result) for s in row.seats] == [
        ("ada", None, 3, "win"),
        ("bot:Robo", "bot", 2, "loss"),
    ]
    stats = await world.views.stats("ada", "toy", by="none", best="presses")
    assert (stats.total.wins, stats.vs_bots["bot"].games, stats.best) == (1, 1, stats.best) and stats.best
    await world.projector.rebuild()
    assert await world.views.game("t1") == row


async def test_a_game_is_stored_under_its_own_id_only(world: Platform) -> None:
    with pytest.raises(ValueError, match="the events name game 't9', not the stream 't8'"):
        await world.service("toy").create("t8", Created("t9", "here", ("ada", "bob")), "c1")
    assert await world.store.load("t8") == []


async def test_its_deadlines_remind_then_play_for_the_idle(world: Platform, clock: FakeClock) -> None:
    async with listening(world.timers) as heard:
        await world.service("toy").create("t2", Created("t2", "here", ("ada", "bot:Robo"), timeout=60), "c1")
        assert [d.kind for d in world.timers.pending("t2")] == ["nudge", "late"]
        await clock.advance(31)
        assert await heard.reminders.get() == Reminder("ada", "press soon!")
        await clock.advance(30)
        outcome = await heard.fired.get()
        assert outcome.state.presses == (1, 1) and [d.kind for d in world.timers.pending("t2")] == ["nudge", "late"]


def test_the_console_and_the_command_line_play_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOG_DB", str(tmp_path / "toy.sqlite3"))
    out = io.StringIO()
    status = main(["toy", "--name", "Ada", "--new"], io.StringIO("jump\npress\npress\npress\n"), out, MODULES)
    said = out.getvalue()
    assert status == 0 and "'jump' is not 'press'." in said
    assert said.rstrip().endswith("presses 3-2 | console:Ada pressed. Game over.")
    out = io.StringIO()
    assert main(["history", "--name", "Ada"], None, out, MODULES) == 0
    assert "toy1" in out.getvalue() and "Ada vs Robo" in out.getvalue()
    out = io.StringIO()
    assert main(["replay", "toy1"], None, out, MODULES) == 0  # replayed by the console of the game that wrote it
    assert out.getvalue().splitlines()[-1] == "6. presses 3-2 | console:Ada pressed. Game over."
    out = io.StringIO()
    assert main(["stats", "--game", "toy", "--name", "Ada"], None, out, MODULES) == 0  # by the game's console
    assert out.getvalue() == "console:Ada: 1 of 1 won\n"
    out = io.StringIO()
    assert main(["verify", "toy1"], None, out, MODULES) == 2  # no seed: nothing in Press is left to chance
    assert out.getvalue() == "Nothing in Press is left to chance: there is nothing to check.\n"


async def test_it_plays_in_discord(
    tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path, clock: FakeClock
) -> None:
    fake = fake_discord
    async with running_bot(fake, tmp_path / "toy.sqlite3", solved_folder, clock, MODULES) as bot:
        command = await fake.interact(subcommand("start", group="toy"))
        shown = await board_of(fake, command)
        message = first = fake.messages[f"original:token{command}"]
        assert shown.body["embeds"][0]["title"] == "Press 0-0"
        first_press = pressing = button(shown, "Press")
        for _ in range(3):
            answered = await press(fake, "1001", "Ada", message, pressing)
            assert answered["type"] == 7  # the board, edited in place
            rows = answered["data"]["components"]
            message = {**message, "components": rows}  # as the client shows it
            pressing = next((c["custom_id"] for row in rows for c in row["components"]), "")
        assert answered["data"]["embeds"][0]["title"] == "Press 3-2" and rows == []
        stale = await press(fake, "2002", "Bob", first, first_press)  # someone else, on an old board
        assert stale["type"] == 7 and stale["data"]["embeds"][0]["title"] == "Press 3-2"  # the game as it stands
        assert len(await bot.service("toy").events(f"t{command}")) == 6


async def test_readers_waiting_together_share_one_catch_up(world: Platform, monkeypatch: pytest.MonkeyPatch) -> None:
    """A crowd of readers that must see their own writes (a busy channel's commands) costs one or two
    catch-ups of the read models, not one each, and each sees what was appended before it asked."""
    service = world.service("toy")
    for n in range(20):
        await service.create(f"t{n}", Created(f"t{n}", "here", ("ada", "bob")), f"c{n}")
    passes = 0
    real = world.projector._catch_up

    async def counted(batch: int) -> int:
        nonlocal passes
        passes += 1
        return await real(batch)

    monkeypatch.setattr(world.projector, "_catch_up", counted)
    reached = await asyncio.gather(*(world.projector.settle() for _ in range(50)))
    assert passes <= 2 and set(reached) == {max(reached)}
    assert len(await world.views.live_games("here", "toy")) == 20
