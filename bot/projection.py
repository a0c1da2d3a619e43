"""Keeps the game read models in step with the event log, and rebuilds them from it.

The projector reads the log from its checkpoint, replays each game it touches through the rules,
and stores the game's summary with the new checkpoint in one transaction. Summaries are of whole
games, so running it twice over the same events changes nothing.
"""

from __future__ import annotations

import logging

from hog_core.game import replay
from hog_core.summary import GameSummary, summarize
from storage.codec import DamagedEvent, from_records
from storage.events import EventStore
from storage.games import GameViews

log = logging.getLogger(__name__)


class Projector:
    def __init__(self, store: EventStore, views: GameViews) -> None:
        self.store, self.views = store, views

    async def catch_up(self, batch: int = 1000) -> int:
        """Bring the read models up to the end of the log; returns the position reached."""
        position = await self.views.checkpoint()
        while events := await self.store.read_all(position, batch):
            updates: list[tuple[GameSummary, float, float]] = []
            for stream_id in dict.fromkeys(e.stream_id for e in events):
                stored = await self.store.load(stream_id)
                try:
                    state = replay(from_records(stored))
                except DamagedEvent as error:
                    log.error("game %s left out of the read models: %s", stream_id, error)
                    continue
                updates.append((summarize(state), stored[0].recorded_at, stored[-1].recorded_at))
            position = events[-1].position
            await self.views.apply(updates, position)
        return position

    async def rebuild(self) -> int:
        """Forget the read models and project the whole log again."""
        await self.views.clear()
        return await self.catch_up()
