"""A clock the test moves by hand, so timers fire without anyone sleeping."""

from __future__ import annotations

import asyncio
import time


class FakeClock:
    def __init__(self, now: float | None = None) -> None:
        self._now = time.time() if now is None else now
        self._moved = asyncio.Condition()

    def now(self) -> float:
        return self._now

    async def sleep_until(self, at: float) -> None:
        async with self._moved:
            await self._moved.wait_for(lambda: self._now >= at)

    async def advance(self, seconds: float) -> None:
        self._now += seconds
        async with self._moved:
            self._moved.notify_all()
