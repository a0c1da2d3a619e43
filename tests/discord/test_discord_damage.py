"""One damaged or impossible event harms one game, never the bot: the game is quarantined (its board
says it cannot be played, the operator can list it), every other game plays on, restarts work and a
rebuild is all or nothing."""

from __future__ import annotations

import dataclasses
import io
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.discord.client import GameBot
from bot.games.hog.module import HogGame
from hog_core.events import TurnTaken
from storage.events import NewEvent
from storage.summaries import Summary
from tests.discord.boards import board_text
from tests.discord.boards import buttons as board_buttons
from tests.discord.discord_world import board_of, button, press, running_bot, subcommand
from tests.discord.fake_discord import FakeDiscord
from tests.fake_clock import FakeClock
from tests.helpers import hog_record

UNREADABLE = NewEvent("TurnTaken", 1, b"{not json")
IMPOSSIBLE = hog_record(TurnTaken(seat=5, k=1, outcomes=(3,), sides=6))  # decodable; there is no seat 5


async def open_game(fake: FakeDiscord, who: str = "1001", name: str = "Ada") -> tuple[str, dict[str, object], str]:
    """A house game: its id, its board message and the custom_id of its "3" button."""
    command = await fake.interact(subcommand("house", who=who, person=name))
    three = button(await board_of(fake, command), "3")
    return three.split(":")[2], fake.messages[f"original:token{command}"], three


@pytest.mark.parametrize("bad", [UNREADABLE, IMPOSSIBLE], ids=["unreadable", "impossible"])
async def test_a_damaged_game_says_so_and_takes_nothing(
    discord_world: tuple[FakeDiscord, GameBot], bad: NewEvent
) -> None:
    fake, bot = discord_world
    game, message, three = await open_game(fake)
    await bot.platform.service("hog").store.append(game, [bad], 1)
    answer = await press(fake, "1001", "Ada", message, three)
    assert answer["type"] == 7 and board_buttons(answer["data"]) == []  # the board itself says so
    assert "This game's record is damaged" in board_text(answer["data"])
    assert len(await bot.platform.service("hog").store.load(game)) == 2  # nothing stored after the damage
    asked = await press(fake, "1001", "Ada", message, f"hog:hint:{game}")  # a hint of it is refused in words
    assert asked["data"]["flags"] == 64 and "This game's record is damaged" in asked["data"]["content"]

    _, other_message, other_three = await open_game(fake, "2002", "Bob")  # the bot plays on
    played = await press(fake, "2002", "Bob", other_message, other_three)
    assert "Bob rolls" in board_text(played["data"])
    assert game not in {row.game_id for row in await bot.road.live_games()}
    assert [g for g, _ in await bot.platform.views.damaged()] == [game]


async def test_the_bot_starts_past_a_damaged_live_game(
    tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path, clock: FakeClock
) -> None:
    fake, db = fake_discord, tmp_path / "hog.sqlite3"
    async with running_bot(fake, db, solved_folder, clock) as bot:
        game, _, _ = await open_game(fake)
        other, other_message, other_three = await open_game(fake, "2002", "Bob")
    with sqlite3.connect(db) as raw:  # the damage happens while the bot is down (a bad restore, say)
        raw.execute("UPDATE events SET data = x'7b6e6f' WHERE stream_id = ?", (game,))
    async with running_bot(fake, db, solved_folder, clock) as bot:
        assert bot.platform.timers.pending(other) and not bot.platform.timers.pending(game)
        played = await press(fake, "2002", "Bob", other_message, other_three)
        assert "Bob rolls" in board_text(played["data"])


async def test_a_failed_rebuild_leaves_the_read_models_as_they_were(
    discord_world: tuple[FakeDiscord, GameBot], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, bot = discord_world
    for who in ("1001", "2002", "3003"):
        await open_game(fake, who, f"P{who}")
    await bot.platform.settled_views()
    before = await bot.platform.views.live_games()
    assert len(before) == 3
    calls = 0

    def failing(game: HogGame, tally: Any, events: Any) -> tuple[Any, Summary]:
        """The second game's last seat cannot be stored: the rebuild fails in the middle of writing the new rows."""
        nonlocal calls
        calls += 1
        tally, summary = real(game, tally, events)
        if calls != 2:
            return tally, summary
        unstorable = dataclasses.replace(summary.seats[-1], score=object())  # type: ignore[arg-type]
        return tally, dataclasses.replace(summary, seats=(*summary.seats[:-1], unstorable))

    real = HogGame.summing
    monkeypatch.setattr(HogGame, "summing", failing)
    with pytest.raises(sqlite3.Error):
        await bot.platform.projector.rebuild()
    assert await bot.platform.views.live_games() == before


def test_the_operator_lists_damaged_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "hog.sqlite3"
    monkeypatch.setenv("HOG_DB", str(db))
    monkeypatch.setenv("HOG_CACHE", str(tmp_path / "solutions"))
    main(["--name", "Ada", "--house", "easy"], io.StringIO("quit\n"), io.StringIO())
    out = io.StringIO()
    assert main(["damaged"], io.StringIO(), out) == 0 and out.getvalue().startswith("0 damaged games")
    with sqlite3.connect(db) as raw:
        (game,) = raw.execute("SELECT DISTINCT stream_id FROM events").fetchone()
        raw.execute("UPDATE events SET type = 'DiceStolen' WHERE stream_id = ?", (game,))
    out = io.StringIO()
    assert main(["damaged"], io.StringIO(), out) == 1
    assert out.getvalue().splitlines() == [
        f"{game}  DamagedEvent: event 1 ({game} v1, DiceStolen): unknown event type 'DiceStolen'",
        f"1 damaged game in {db}.",
    ]
