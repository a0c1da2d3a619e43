"""Keeps the game read models in step with the event log, and rebuilds them from it.

The projector reads the log from its checkpoint, replays each game it touches through the rules,
and stores the game's summary with the new checkpoint in one transaction. Summaries are of whole
games, so running it twice over the same events changes nothing.
"""

from __future__ import annotations

import asyncio
import logging

from hog_core.summary import GameSummary, summarize
from storage.codec import DamagedEvent, from_records
from storage.events import EventStore
from storage.games import GameViews

log = logging.getLogger(__name__)


class Projector:
    def __init__(self, store: EventStore, views: GameViews) -> None:
        self.store, self.views = store, views
        self._running = asyncio.Lock()
        self._following: asyncio.Task[None] | None = None
        self._again = False

    def follow(self) -> None:
        """Catch up soon, in the background: the player's answer never waits for the read models.
        Calls while a catch-up runs are folded into one more run after it."""
        if self._following is not None and not self._following.done():
            self._again = True
            return
        self._following = asyncio.create_task(self._follow())

    async def _follow(self) -> None:
        try:
            await self.catch_up()
            while self._again:
                self._again = False
                await self.catch_up()
        except Exception:  # the log is safe; the next catch-up (or start-up) takes it from the checkpoint
            log.exception("the read models could not catch up")

    async def settle(self) -> int:
        """Wait until the read models show every event appended so far (a reader that must see
        its own writes, or a shutdown, calls this)."""
        if self._following is not None:
            await self._following
        return await self.catch_up()

    async def catch_up(self, batch: int = 1000) -> int:
        """Bring the read models up to the end of the log; returns the position reached.

        One catch-up runs at a time (the views write on one connection); a caller that waited for
        another's finds little or nothing left to do."""
        async with self._running:
            return await self._catch_up(batch)

    async def _catch_up(self, batch: int) -> int:
        position = await self.views.checkpoint()
        while events := await self.store.read_all(position, batch):
            updates: list[tuple[GameSummary, float, float]] = []
            for stream_id in dict.fromkeys(e.stream_id for e in events):
                stored = await self.store.load(stream_id)
                try:
                    summary = summarize(from_records(stored))
                except DamagedEvent as error:
                    log.error("game %s left out of the read models: %s", stream_id, error)
                    continue
                updates.append((summary, stored[0].recorded_at, stored[-1].recorded_at))
            position = events[-1].position
            await self.views.apply(updates, position)
        return position

    async def rebuild(self) -> int:
        """Forget the read models and project the whole log again."""
        async with self._running:
            await self.views.clear()
            return await self._catch_up(1000)
