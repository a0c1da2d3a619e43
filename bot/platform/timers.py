"""Deadlines: each game module says when its games want waking (a challenge nobody answers, a
player who does not move), and what a deadline does when it comes.

A deadline is derived from the log (what the game's events pinned, and when they were recorded),
so ``restore`` rebuilds every pending timer after a restart. A timer fires an ordinary command
through the game's service, with a command id made of the game and the version it was set for: a
timer that fires twice (a restart mid-fire) stores one event, and one that lost the race to a
player's move changes nothing.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import math
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol

import msgspec

from bot.platform.contract import Outcome, Refusal, Reminder
from bot.platform.service import Services

log = logging.getLogger(__name__)

COMPACT_AFTER = 4096
"""Replaced deadlines the heap may hold before it is rebuilt from the set ones."""


class Clock(Protocol):
    def now(self) -> float: ...

    async def sleep_until(self, at: float) -> None:
        """Return once ``now() >= at``. A moment, not a length: however late the sleeper starts (a
        busy loop), it wakes when the deadline comes, never a whole delay after it."""


class SystemClock:
    def now(self) -> float:
        return time.time()

    async def sleep_until(self, at: float) -> None:
        await asyncio.sleep(max(0.0, at - time.time()))


class Due(msgspec.Struct, frozen=True, order=True, gc=False):
    """A deadline: each live game has a few, in the heap for as long as the game runs, so they are
    values the garbage collector never walks (numbers and strings: no cycle can pass through one)."""

    at: float
    game_id: str
    version: int
    """The game's version when the deadline was set: any later event cancels it."""
    kind: str
    game: str


Fired = Callable[[Outcome[Any, Any]], Awaitable[object]]
"""Called with the outcome of a timer that changed the game (the board should show it)."""
Warned = Callable[[str, str, Reminder], Awaitable[None]]
"""Called with the game's module name, its id and the words for the player whose deadline is near."""


async def nothing(*_: object) -> None:
    """What a timer tells when no front end listens (the console, a command-line tool)."""


async def sleep_or_wake(clock: Clock, wake: asyncio.Event, at: float) -> None:
    """Sleep on ``clock`` until ``at``, or less when ``wake`` is set meanwhile."""
    sleeper = asyncio.ensure_future(clock.sleep_until(at))
    waker = asyncio.ensure_future(wake.wait())
    try:
        await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        sleeper.cancel()
        waker.cancel()


class Timers:
    """Every pending deadline, and one task that sleeps until the next.

    The deadlines are kept twice: by game (``_due``, the truth: a game's new deadlines replace its
    old ones) and in a heap by time, where a replaced deadline stays until it comes up and is passed
    over. So setting a game's deadlines costs O(log n) in the live games, finding the next one O(1),
    and the sleeping task is woken only by a deadline earlier than the one it sleeps for: the timers'
    share of a move's cost does not grow with the live games."""

    def __init__(self, services: Services, clock: Clock, fired: Fired = nothing, warned: Warned = nothing) -> None:
        self.services, self.clock, self.fired, self.warned = services, clock, fired, warned
        self._due: dict[str, tuple[Due, ...]] = {}
        self._heap: list[Due] = []
        self._count = 0
        """How many deadlines are set (``_due``'s, without the replaced ones in the heap)."""
        self._sleeping_until = math.inf
        """The deadline the task sleeps for: only an earlier one wakes it."""
        self._wake = asyncio.Event()
        self._posting: set[asyncio.Task[object]] = set()

    def report_to(self, fired: Fired, warned: Warned) -> None:
        """Who shows what the timers do: a fired deadline's outcome, a reminder (a front's; the
        process that shows them says so when it starts)."""
        self.fired, self.warned = fired, warned

    def clear(self) -> None:
        """Forget every deadline (this process no longer keeps the timers, or is about to restore them)."""
        self._due.clear()
        self._heap.clear()
        self._count = 0
        self._wake.set()

    def pending(self, game_id: str) -> list[Due]:
        return list(self._due.get(game_id, ()))

    def track(self, game: str, state: Any) -> None:
        """Set the game's deadlines afresh after an event recorded just now."""
        now = self.clock.now()
        self._set(state.game_id, self._deadlines(game, state, now, now))

    def _deadlines(self, game: str, state: Any, created_at: float, last_at: float) -> tuple[Due, ...]:
        wanted = self.services[game].game.deadlines(state, created_at, last_at)
        return tuple(Due(d.at, state.game_id, state.version, d.kind, game) for d in wanted)

    async def restore(self, games: Iterable[tuple[str, str]]) -> None:
        """Rebuild the deadlines of ``(game, game_id)`` (the live games) from the log."""
        for game, game_id in games:
            if game not in self.services:
                log.error("game %s is a game of %s, which this bot does not play: no timers for it", game_id, game)
                continue
            service = self.services[game]
            stored = await service.store.load(game_id)
            try:
                _, state = service.fold(game_id, stored)
            except Exception as error:  # one damaged game keeps no timer, and stops nothing else
                log.error("game %s is damaged: no timers for it (%s)", game_id, error)
                continue
            if stored:
                self._set(game_id, self._deadlines(game, state, stored[0].recorded_at, stored[-1].recorded_at))

    def _set(self, game_id: str, due: tuple[Due, ...]) -> None:
        old = self._due.pop(game_id, ())
        self._count += len(due) - len(old)
        if due:
            self._due[game_id] = due
        for d in due:
            heapq.heappush(self._heap, d)
        if len(self._heap) > 2 * self._count + COMPACT_AFTER:  # mostly replaced ones: drop them at last
            self._heap = [d for ds in self._due.values() for d in ds]
            heapq.heapify(self._heap)
        if due and min(due).at < self._sleeping_until:
            self._wake.set()

    def _next(self) -> Due | None:
        """The earliest deadline still set, the replaced ones before it passed over."""
        heap = self._heap
        while heap and heap[0] not in self._due.get(heap[0].game_id, ()):
            heapq.heappop(heap)
        return heap[0] if heap else None

    async def run(self) -> None:
        """Fire each deadline when it comes, until cancelled."""
        while True:
            self._wake.clear()
            due = self._next()
            if due is None:
                self._sleeping_until = math.inf
                await self._wake.wait()
            elif due.at > self.clock.now():
                self._sleeping_until = due.at
                await sleep_or_wake(self.clock, self._wake, due.at)
            else:
                heapq.heappop(self._heap)
                self._count -= 1
                kept = self._due.pop(due.game_id)
                at = kept.index(due)
                if left := kept[:at] + kept[at + 1 :]:
                    self._due[due.game_id] = left
                try:
                    await self._fire(due)
                except Exception:  # a timer must never stop the others
                    log.exception("the %s timer of game %s failed", due.kind, due.game_id)

    def _post(self, telling: Awaitable[object], due: Due) -> None:
        """Tell Discord on a task of its own: a slow or rate-limited edit never holds back another
        game's deadline (the game itself is already stored)."""

        async def post() -> object:
            try:
                return await telling
            except Exception:
                log.exception("telling Discord of the %s of game %s failed", due.kind, due.game_id)
                return None

        task = asyncio.create_task(post())
        self._posting.add(task)
        task.add_done_callback(self._posting.discard)

    def close(self) -> None:
        """Stop telling Discord (the bot is closing): what is stored stays stored."""
        for task in self._posting:
            task.cancel()

    async def _fire(self, due: Due) -> None:
        service = self.services[due.game]
        state = await service.load(due.game_id)
        if state.version != due.version:
            return  # someone moved first: the new version has its own deadlines
        action = service.game.on_deadline(state, due.kind)
        if action is None:
            return
        if isinstance(action, Reminder):
            self._post(self.warned(due.game, due.game_id, action), due)
            return
        try:
            outcome = await service.execute(
                due.game_id, lambda state, chance: action, f"timer:{due.game_id}:{due.version}", due.version
            )
        except Refusal:  # someone moved first: the new version has its own deadline
            return
        self._post(self.fired(outcome), due)
