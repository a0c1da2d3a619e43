"""The generic application service (``bot.platform.service``), for any game: a command end to end
on the memory event store, with Press (``examples/press``) as the game. What is Hog's own (the
house's replies, long games, a forfeit racing a move) is tested in ``tests/games/hog/test_service.py``."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from hogbot_press.game import Created, Press, Pressed

from bot.platform.contract import Commands, Refusal
from bot.platform.registry import Games
from bot.platform.service import GameService, StaleBoard
from bot.platform.settings import Settings
from storage.memory import MemoryEventStore
from tests.helpers import loads_counted

Service = GameService[Any, Any, Any]
GAMES = Games.load(Settings(), {"press": "hogbot_press.game:PressGame"})


def press(who: str) -> Commands[Any, Any]:
    return lambda state, chance: [Press(who)]


@pytest.fixture
async def service() -> AsyncIterator[Service]:
    store = await MemoryEventStore.open()
    made: Service = GameService(GAMES["press"], store)
    await made.create("g", Created("g", "here", ("ada", "bob")), "i1")
    yield made
    await store.close()


async def test_a_stale_board_changes_nothing(service: Service) -> None:
    await service.execute("g", press("ada"), "i2", expected_version=1)
    with pytest.raises(StaleBoard, match="out of date"):
        await service.execute("g", press("bob"), "i3", expected_version=1)
    assert [s.command_id for s in await service.store.load("g")][-1] == "i2"


async def test_two_clicks_at_once_make_exactly_one_move(service: Service) -> None:
    clicks = await asyncio.gather(
        *(service.execute("g", press("ada"), f"click{i}", expected_version=1) for i in range(10)),
        return_exceptions=True,
    )
    assert sum(not isinstance(c, BaseException) for c in clicks) == 1
    assert all(isinstance(c, StaleBoard) for c in clicks if isinstance(c, BaseException))
    assert len(await service.store.load("g")) == 2


async def test_a_retried_interaction_answers_as_the_first_time_even_after_later_moves(service: Service) -> None:
    first = await service.execute("g", press("ada"), "i2", expected_version=1)
    again = await service.execute("g", press("ada"), "i2", expected_version=1)  # Discord retried it
    assert again.duplicate and not first.duplicate and again.state == first.state and again.told == first.told
    latest = await service.execute("g", press("bob"), "i3", expected_version=2)
    late = await service.execute("g", press("ada"), "i2", expected_version=1)  # never an older board back up
    assert late.duplicate and late.state == latest.state and late.told == latest.told
    assert len(await service.store.load("g")) == latest.state.version


async def test_a_refused_command_changes_nothing(service: Service) -> None:
    with pytest.raises(Refusal, match="Wait for your turn"):
        await service.execute("g", press("bob"), "i2", expected_version=1)
    assert len(await service.store.load("g")) == 1


async def test_a_process_reads_only_what_others_appended_since(service: Service) -> None:
    """Two services on one store, as two processes: each keeps the games it folded and reads only the
    events appended since, whoever appended them; a stale fold loses the append, then reads."""
    other: Service = GameService(service.game, service.store)
    await other.execute("g", press("ada"), "i2", expected_version=1)  # the other process moves
    assert (await service.load("g")).version == 2  # seen here, read after what was kept
    loads = loads_counted(service.store)
    moved = await service.execute("g", press("bob"), "i3", expected_version=2)
    assert moved.state.version == 3 and loads == []  # decided on the events kept: nothing read
    with pytest.raises(StaleBoard):  # the other keeps version 2, reads version 3, and refuses a board of 2
        await other.execute("g", press("bob"), "i4", expected_version=2)
    assert sum(isinstance(e, Pressed) for e in await other.events("g")) == 2
