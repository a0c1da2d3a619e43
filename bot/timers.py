"""Deadlines: a challenge nobody answers expires, and a player who does not move forfeits, warned
shortly before.

A deadline is derived from the log (the timeouts pinned in the game's first event, and when its
events were recorded), so ``restore`` rebuilds every pending timer after a restart. A timer fires
an ordinary command through the service, with a command id made of the game and the version it
was set for: a timer that fires twice (a restart mid-fire) stores one event, and one that lost the
race to a player's move changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Literal, Protocol

from bot.service import GameService, Outcome
from hog_core.errors import HogError
from hog_core.game import Command, ExpireChallenge, Forfeit, GameState, Status, replay
from storage.codec import from_records

log = logging.getLogger(__name__)


def warning_before(turn_timeout: int) -> float:
    """How long before a turn's deadline the player is warned: two minutes, or a fifth of a
    shorter timeout."""
    return min(120.0, turn_timeout / 5)


class Clock(Protocol):
    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


Kind = Literal["expire", "warn", "timeout"]


@dataclass(frozen=True, order=True)
class Deadline:
    at: float
    game_id: str
    version: int
    """The game's version when the deadline was set: any later event cancels it."""
    kind: Kind


def deadlines(state: GameState, created_at: float, last_at: float) -> list[Deadline]:
    """The pending deadlines of a game whose first event was recorded at ``created_at`` and its
    last at ``last_at``. The house never times out."""
    if state.status is Status.CHALLENGED and state.challenge_timeout:
        return [Deadline(created_at + state.challenge_timeout, state.game_id, state.version, "expire")]
    if state.status is Status.ACTIVE and state.turn_timeout and state.players[state.mover].house is None:
        end = last_at + state.turn_timeout
        warn = end - warning_before(state.turn_timeout)
        return [
            Deadline(warn, state.game_id, state.version, "warn"),
            Deadline(end, state.game_id, state.version, "timeout"),
        ]
    return []


Fired = Callable[[Outcome], Awaitable[object]]
"""Called with the outcome of a timer that changed the game (the board should show it)."""
Warned = Callable[[GameState, float], Awaitable[None]]
"""Called with the game and the seconds left before its player forfeits."""


class Timers:
    """Every pending deadline, and one task that sleeps until the next."""

    def __init__(self, service: GameService, clock: Clock, fired: Fired, warned: Warned) -> None:
        self.service, self.clock, self.fired, self.warned = service, clock, fired, warned
        self._due: dict[str, list[Deadline]] = {}
        self._wake = asyncio.Event()
        self._posting: set[asyncio.Task[object]] = set()
        service.watchers.append(self.track)

    def pending(self, game_id: str) -> list[Deadline]:
        return list(self._due.get(game_id, ()))

    def track(self, state: GameState) -> None:
        """Set the game's deadlines afresh after an event recorded just now."""
        now = self.clock.now()
        self._set(state.game_id, deadlines(state, now, now))

    async def restore(self, game_ids: Iterable[str]) -> None:
        """Rebuild the deadlines of ``game_ids`` (the live games) from the log."""
        for game_id in game_ids:
            stored = await self.service.store.load(game_id)
            try:
                state = replay(from_records(stored))
            except Exception as error:  # one damaged game keeps no timer, and stops nothing else
                log.error("game %s is damaged: no timers for it (%s)", game_id, error)
                continue
            if stored:
                self._set(game_id, deadlines(state, stored[0].recorded_at, stored[-1].recorded_at))

    def _set(self, game_id: str, due: list[Deadline]) -> None:
        if due:
            self._due[game_id] = due
        else:
            self._due.pop(game_id, None)
        self._wake.set()

    async def run(self) -> None:
        """Fire each deadline when it comes, until cancelled."""
        while True:
            self._wake.clear()
            due = min((d for ds in self._due.values() for d in ds), default=None)
            if due is None:
                await self._wake.wait()
            elif (delay := due.at - self.clock.now()) > 0:
                await self._sleep_or_wake(delay)
            else:
                self._due[due.game_id].remove(due)
                if not self._due[due.game_id]:
                    del self._due[due.game_id]
                try:
                    await self._fire(due)
                except Exception:  # a timer must never stop the others
                    log.exception("the %s timer of game %s failed", due.kind, due.game_id)

    async def _sleep_or_wake(self, delay: float) -> None:
        sleeper = asyncio.ensure_future(self.clock.sleep(delay))
        waker = asyncio.ensure_future(self._wake.wait())
        try:
            await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeper.cancel()
            waker.cancel()

    def _post(self, telling: Awaitable[object], due: Deadline) -> None:
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

    async def _fire(self, due: Deadline) -> None:
        if due.kind == "warn":
            state = await self.service.load(due.game_id)
            if state.version == due.version and state.status is Status.ACTIVE:
                self._post(self.warned(state, warning_before(state.turn_timeout)), due)
            return

        def command(state: GameState) -> list[Command]:
            if due.kind == "expire":
                return [ExpireChallenge()]
            return [Forfeit(state.players[state.mover].id, "timeout")]

        try:
            outcome = await self.service.execute(
                due.game_id, command, f"timer:{due.game_id}:{due.version}", expected_version=due.version
            )
        except HogError:  # someone moved first: the new version has its own deadline
            return
        self._post(self.fired(outcome), due)
