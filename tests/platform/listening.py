"""The platform's timers running in a test, with what they tell (reminders, fired deadlines) queued."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from bot.platform.contract import Outcome, Reminder
from bot.platform.timers import Timers


@dataclass
class Heard:
    reminders: asyncio.Queue[Reminder] = field(default_factory=asyncio.Queue)
    fired: asyncio.Queue[Outcome[Any, Any]] = field(default_factory=asyncio.Queue)

    async def warned(self, game: str, game_id: str, reminder: Reminder) -> None:
        self.reminders.put_nowait(reminder)

    async def on_fire(self, outcome: Outcome[Any, Any]) -> None:
        self.fired.put_nowait(outcome)


@asynccontextmanager
async def listening(timers: Timers) -> AsyncIterator[Heard]:
    """``timers`` running until the block ends, telling the returned queues."""
    heard = Heard()
    timers.report_to(heard.on_fire, heard.warned)
    running = asyncio.create_task(timers.run())
    try:
        yield heard
    finally:
        running.cancel()
