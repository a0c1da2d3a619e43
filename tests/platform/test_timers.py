"""The timers (``bot.platform.timers``) on the memory event store, with Press as the game: a deadline
reminds, then plays for the idle; many games' deadlines fire earliest first, and only an earlier one
wakes the sleeping timer."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
from hogbot_press.game import Created

from bot.platform.contract import Reminder
from bot.platform.registry import Games
from bot.platform.service import GameService
from bot.platform.settings import Settings
from bot.platform.timers import Timers
from storage.memory import MemoryEventStore
from tests.fake_clock import FakeClock
from tests.helpers import within
from tests.platform.listening import listening

GAMES = Games.load(Settings(), {"press": "hogbot_press.game:PressGame"})


@dataclass
class World:
    """A service and its timers, as ``compose.platform`` wires them."""

    timers: Timers
    press: GameService[Any, Any, Any]

    def service(self, game: str) -> GameService[Any, Any, Any]:
        return self.press


@pytest.fixture
async def world(clock: FakeClock) -> AsyncIterator[World]:
    store = await MemoryEventStore.open()
    service: GameService[Any, Any, Any] = GameService(GAMES["press"], store)
    timers = Timers({"press": service}, clock)
    service.watchers.append(timers.track)
    yield World(timers, service)
    timers.close()
    await store.close()


async def test_its_deadlines_remind_then_play_for_the_idle(world: World, clock: FakeClock) -> None:
    async with listening(world.timers) as heard:
        await world.service("press").create("t2", Created("t2", "here", ("ada", "bot:Robo"), timeout=60), "c1")
        assert [d.kind for d in world.timers.pending("t2")] == ["nudge", "late"]
        await clock.advance(31)
        assert await within(heard.reminders.get()) == Reminder("ada", "press soon!")
        await clock.advance(30)
        outcome = await within(heard.fired.get())
        assert outcome.state.presses == (1, 1) and [d.kind for d in world.timers.pending("t2")] == ["nudge", "late"]


async def test_many_games_deadlines_fire_in_order_and_only_an_earlier_one_wakes_the_timer(
    world: World, clock: FakeClock
) -> None:
    """The timers keep a heap: 200 games' deadlines fire earliest first, a move that only sets later
    deadlines leaves the sleeping timer asleep, and an earlier one wakes it."""
    service, timers = world.service("press"), world.timers
    async with listening(timers) as heard:
        for n in range(200):
            await service.create(f"d{n}", Created(f"d{n}", "here", ("ada", "bot:Robo"), timeout=400 - n), f"c{n}")
        await clock.advance(0)  # the timer sleeps, for the earliest deadline: game d199's nudge, at 100.5
        timers._wake.clear()
        await service.create("later", Created("later", "here", ("ada", "bot:Robo"), timeout=900), "c-later")
        assert not timers._wake.is_set(), "a later deadline leaves the timer asleep"
        await service.create("sooner", Created("sooner", "here", ("ada", "bot:Robo"), timeout=20), "c-sooner")
        assert timers._wake.is_set(), "an earlier one wakes it"
        await clock.advance(11)
        assert (await within(heard.reminders.get())) == Reminder("ada", "press soon!")
        await clock.advance(300)
        fired = [(await within(heard.fired.get())).state.game_id for _ in range(112)]  # every late one by then
        assert fired == ["sooner", *(f"d{n}" for n in range(199, 88, -1))], "earliest first"


async def test_a_deadline_fires_though_the_clock_moves_before_the_timer_sleeps(world: World, clock: FakeClock) -> None:
    """A busy loop's order: the timers' task has chosen its deadline and set its sleeper going, and the
    clock moves past the deadline before that sleeper's first step. It sleeps until a moment, not for a
    length measured from when it starts, so it wakes at once (it once slept a whole delay more)."""
    await world.service("press").create("t9", Created("t9", "here", ("ada", "bot:Robo"), timeout=60), "c9")
    async with listening(world.timers) as heard:
        await asyncio.sleep(0)  # the timers' task runs to its sleep: the sleeper is made, not yet started
        await clock.advance(31)
        assert await within(heard.reminders.get(), 10) == Reminder("ada", "press soon!")
