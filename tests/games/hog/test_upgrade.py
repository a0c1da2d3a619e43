"""A database written by the bot before it became a platform (``data/before-platform.sqlite3``,
made with commit fc30609: a finished game against the house, an unfinished one between Ada and Bob
at the console, and a challenge posted in a Discord channel) opens, lists, counts, replays and
plays on; the challenge's old buttons still answer."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from bot.cli import replay_any, show_stats
from bot.console import list_history, player_id
from bot.games.hog.console import table
from bot.platform.compose import platform
from bot.platform.contract import Replay
from bot.platform.settings import Settings
from hog_core.game import Status
from storage.sqlite.store import SqliteEventStore
from tests.discord.boards import small_print
from tests.discord.discord_world import press, running_bot
from tests.discord.fake_discord import FakeDiscord
from tests.fake_clock import FakeClock
from tests.helpers import FIVES, hog_events

OLD = Path(__file__).parent / "data" / "before-platform.sqlite3"
FINISHED, UNFINISHED, CHALLENGE = "c3097bb82", "c27a621a3", "gold1"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    shutil.copy(OLD, tmp_path / "hog.sqlite3")
    return Settings(db=tmp_path / "hog.sqlite3", cache=tmp_path / "solutions")


async def test_the_old_games_are_listed_counted_and_replayed(settings: Settings) -> None:
    listed, counted, told = io.StringIO(), io.StringIO(), io.StringIO()
    async with platform(settings) as p:
        await list_history(p, listed, name="Ada")
        await show_stats(p, "hog", player_id("Ada"), counted)
        await replay_any(p, FINISHED, told, Replay())
        assert [row.game_id for row in await p.views.live_games()] == [UNFINISHED, CHALLENGE]
    assert "vs The house (easy) · Fall 2018 to 40 · lost 30–40" in listed.getvalue()
    assert "vs Bob · Fall 2018 to 50 · playing 10–15" in listed.getvalue()
    assert (
        "1 played, 0 won, 1 lost (0%)" in counted.getvalue() and "Biggest single turn: 15 points" in counted.getvalue()
    )
    assert told.getvalue().rstrip().endswith("The house won.")


async def test_an_old_game_plays_on_and_its_new_events_are_namespaced(settings: Settings) -> None:
    keys = io.StringIO("3\n" * 10)
    state = await table(keys, io.StringIO(), settings, name="Ada", resume=UNFINISHED, chance=FIVES, offer=False)
    assert state.status is Status.FINISHED and max(state.scores) >= 50  # the goal the old bot pinned
    store = await SqliteEventStore.open(settings.db)
    try:
        stored = await store.load(UNFINISHED)
    finally:
        await store.close()
    assert [s.type for s in stored[:3]] == ["GameCreated", "TurnTaken", "TurnTaken"]  # as the old bot stored them
    assert {s.type for s in stored[3:]} == {"hog.TurnTaken"}
    assert len(hog_events(stored)) == len(stored)


async def test_an_old_board_still_answers(
    settings: Settings, fake_discord: FakeDiscord, solved_folder: Path, clock: FakeClock
) -> None:
    custom_id = f"hog:answer:{CHALLENGE}:accept"  # as the old bot posted it
    accept = {"type": 2, "style": 3, "label": "Accept", "custom_id": custom_id}
    board = fake_discord.seed("960000000000000001", [{"type": 1, "components": [accept]}])
    async with running_bot(fake_discord, settings.db, solved_folder, clock) as bot:
        answered = await press(fake_discord, "2002", "Bob", board, custom_id)
        assert answered["type"] == 7 and small_print(answered) == "Ada to move."
        assert answered["data"]["embeds"] == [] and answered["data"]["content"] is None  # its embed becomes a board
        assert (await bot.platform.service("hog").load(CHALLENGE)).status is Status.ACTIVE
