"""What exactly one process at a time does for all of them: fire the games' timers, follow the log
into the read models, and (once, when it takes the lead) bring every board up to its log.

Every process runs a ``Duty``; ``Leadership`` says which one leads (on SQLite, the only one). The
leader follows the log as any process appends to it — woken by a hint, or by the tick — and sets the
timers of every game that changed, so a deadline set by a click another process served is kept. A
process that takes the lead (the old leader died) restores every live game's timers from the log
first. A process that loses it stops its timers at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from bot.platform.compose import Platform
from bot.platform.contract import Refusal
from bot.platform.registry import is_record

log = logging.getLogger(__name__)

TICK = 1.0
"""Seconds between checks of the lead (and reads of the log when no hint came)."""


async def nothing() -> None:
    """What taking the lead also does when no front end asks for more."""


class Duty:
    def __init__(
        self, platform: Platform, on_lead: Callable[[], Coroutine[Any, Any, None]] = nothing, tick: float = TICK
    ) -> None:
        self.platform, self.on_lead, self.tick = platform, on_lead, tick
        self.leading = False
        self.ready = asyncio.Event()
        """Set once the first check of the lead is done (and, leading, the timers restored)."""
        self.taking_lead: asyncio.Task[None] | None = None
        """What the front end does on taking the lead (the board reconcile), on the side."""
        self._timing: asyncio.Task[None] | None = None
        self._directing: asyncio.Task[None] | None = None
        self._seen = 0

    async def run(self) -> None:
        """Check the lead, and do the leader's work, until cancelled. A turn that fails (the database
        out of reach a moment) is logged and tried again a tick later: the timers never stop for good."""
        try:
            while True:
                try:
                    await self._turn()
                except Exception:
                    log.exception("the leading process's work failed: trying again in a moment")
                    await asyncio.sleep(self.tick)
                    continue
                await self.platform.leadership.hint(self.tick)
        finally:
            self._give_up()

    async def _turn(self) -> None:
        p = self.platform
        leads = await p.leadership.lead()
        if leads and not self.leading:
            await self._take_lead()
        elif self.leading and not leads:
            log.warning("this process no longer leads: its timers stop (another takes them over)")
            self._give_up()
        self.leading = leads
        p.role = "leader" if leads else "follower"
        p.projector.following = leads
        self.ready.set()
        if leads:
            await self._follow()
        await p.boards.follow()  # every process: its subscribers hear what the others appended

    async def _take_lead(self) -> None:
        p = self.platform
        self._seen = await p.projector.catch_up()
        p.timers.clear()
        await p.timers.restore((row.game, row.game_id) for row in await p.views.live_games())
        self._timing = asyncio.create_task(p.timers.run())
        self._directing = asyncio.create_task(p.tournaments.lead())
        self.taking_lead = asyncio.create_task(self.on_lead())
        log.info("this process leads: it keeps the timers and the read models")

    def _give_up(self) -> None:
        for task in (self._timing, self._directing, self.taking_lead):
            if task is not None:
                task.cancel()
        self._timing = self._directing = self.taking_lead = None
        self.platform.timers.clear()

    async def _follow(self) -> None:
        """Set the timers of every game any process changed since the last read, and have the read
        models follow."""
        p = self.platform
        while events := await p.store.read_all(self._seen, 1000):
            changed: dict[tuple[str, str], None] = {}
            records: dict[tuple[str, str], None] = {}
            for event in events:
                if is_record(event.stream_id):
                    records["", event.stream_id] = None
                    continue
                with contextlib.suppress(Refusal):  # an event of no game here: no timers for it
                    changed[p.games.of(event.type).name, event.stream_id] = None
            await p.timers.restore(changed)
            await p.tournaments.follow([*changed, *records])
            self._seen = events[-1].position
        p.projector.follow()
