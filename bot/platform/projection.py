"""Keeps the game read models in step with the event log, and rebuilds them from it.

The projector reads the log from its checkpoint, hands each game it touches to the game module
that wrote it (``Games.of`` its first event), and stores the game's summary with the new
checkpoint in one transaction. Summaries are of whole games, so running it twice over the same
events changes nothing. The games decided up to the checkpoint are rated in the same transaction,
in the order of the events that decided them (``bot.platform.ratings``): a game decided by an
event beyond the batch read waits for the batch that holds that event, so following the log and
rebuilding it rate the same games in the same order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any

import msgspec

from bot.platform.codec import from_records
from bot.platform.contract import Summarizer, Trainer, optional
from bot.platform.ratings import Decided, Ledger
from bot.platform.recent import Recent
from bot.platform.registry import AnyGame, Games, is_record
from storage.backend import Backend
from storage.errors import ROW_ERRORS
from storage.events import EventStore, StoredEvent
from storage.games import GameViews
from storage.ratings import RatedGame, Rating
from storage.sql import Moved
from storage.summaries import Summary

log = logging.getLogger(__name__)

READ_KEPT = 100_000
"""Games the projector remembers where it left (a few hundred bytes each: a tally, not the log): every
live game of a busy process (as many as the service keeps, ``service.LIVE_KEPT``), so a move never
makes it read the game's log again."""
REBUILD_KEPT = 2048
"""The same for a rebuild, which reads each game's events close together in the log."""
Update = tuple[Summary, float, float]
"""A game's summary, with when it started and when it last changed."""
Settled = Callable[[], Awaitable[GameViews]]
"""The read models once they show every event appended so far (``Projector.settled_views``): for a
reader that must see its own writes."""


class Seen(msgspec.Struct, frozen=True, gc=False):
    """What the projector keeps of a game it read: enough to go on from its next event (for every
    live game: a value the garbage collector never walks)."""

    game: AnyGame
    version: int
    started_at: float
    updated_at: float
    tally: Any
    """The game module's tally (``contract.Summarizer``), ``None`` for a module that keeps none."""
    events: tuple[Any, ...]
    """The decoded log, kept only for a module that keeps no tally (its summary is of every event)."""
    deciding: tuple[int, float] | None
    """The position and time of the event that decided the game, once decided."""
    facts: Sequence[Mapping[str, int]] | None
    """What the game module's assessment found in the decided game (asked once)."""
    mistakes: Sequence[Sequence[int]] | None = None
    """Each seat's costly moves in the decided game, for a module that trains (asked once)."""


Untrusted = Callable[[Sequence[str]], Awaitable[set[str]]]


class Projector:
    def __init__(
        self,
        store: EventStore,
        views: GameViews,
        games: Games,
        kept: int = READ_KEPT,
        untrusted: Untrusted | None = None,
    ) -> None:
        self.store, self.views, self.games = store, views, games
        self._untrusted = untrusted
        """Which games were imported without the operator's trust (``Kept.untrusted``): never rated or tallied."""
        self.read_only = False
        """Over a database this user may only read: nothing caught up, the read models read as they are."""
        self._running = asyncio.Lock()
        self._following: asyncio.Task[None] | None = None
        self._again = False
        self._begun = self._done = self._reached = 0
        """Catch-ups numbered as they begin; the number of the last that finished, and its position."""
        self._read: Recent[str, Seen] = Recent(kept)
        """Where the latest games were left (``Seen``): a game that moved is read and summed up from
        its last event read on (a log only grows), not again from its first."""
        self.following = True
        """Whether this process follows the log in the background (only the leading one, when several
        share a database: ``bot.platform.duty``); a reader's ``settle`` catches up whatever it says."""

    def follow(self) -> None:
        """Catch up soon, in the background: the player's answer never waits for the read models.
        Calls while a catch-up runs are folded into one more run after it."""
        if not self.following:
            return
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
        """Wait until the read models show every event appended so far (a reader that must see its
        own writes calls this). It waits for the catch-up under way, not for the background
        follower, which under steady load may never be idle: one more catch-up of its own suffices."""
        return await self.catch_up()

    async def settled_views(self) -> GameViews:
        """The read models, once they show every event appended so far (``settle``)."""
        await self.settle()
        return self.views

    async def finish(self) -> int:
        """The background follower done, then the read models caught up (a shutdown calls this)."""
        if self._following is not None:
            await self._following
        return await self.catch_up()

    async def catch_up(self, batch: int = 1000) -> int:
        """Bring the read models up to the end of the log as it is when called; returns the position reached.

        One catch-up runs at a time (the views write on one connection). Callers that wait together
        share one: a catch-up that began after a caller asked serves it, so a crowd of readers
        waiting for the read models costs one catch-up, not one each."""
        if self.read_only:  # a database this user may only read: its read models as they are
            return await self.views.checkpoint()
        wanted = self._begun + 1
        async with self._running:
            if self._done >= wanted:
                return self._reached
            self._begun += 1
            number = self._begun
            self._reached = await self._catch_up(batch)
            self._done = number
            return self._reached

    async def _catch_up(self, batch: int, progress: Callable[[int, int], None] | None = None) -> int:
        position = await self.views.checkpoint()
        last = await self.store.head() if progress is not None else 0
        if progress is not None:
            progress(position, max(last, position))
        while events := await self.store.read_all(position, batch):
            read: dict[str, list[StoredEvent]] = {}
            for e in events:
                if not is_record(e.stream_id):
                    read.setdefault(e.stream_id, []).append(e)
            updates, damaged, decided = await self._summaries(read, read)
            end = events[-1].position
            decided = [d for d in decided if d.position <= end]
            rated, ratings, tallied = await self._decided(updates, decided)
            try:
                await self.views.apply(
                    updates, end, damaged, rated=rated, ratings=ratings, tallied=tallied, since=position
                )
            except Moved:  # another process moved the read models on meanwhile: go on from where it did
                position = await self.views.checkpoint()
                continue
            except ROW_ERRORS as error:  # a row the database refuses: find whose, and set that game aside
                log.error("the read models refused a batch (%s): storing its games one by one", error)
                refused = await self._refused(updates, position)
                updates = [u for u in updates if u[0].game_id not in refused]
                decided = [d for d in decided if d.summary.game_id not in refused]
                rated, ratings, tallied = await self._decided(updates, decided)
                damaged = [*damaged, *refused.items()]
                await self.views.apply(
                    updates, end, damaged, rated=rated, ratings=ratings, tallied=tallied, since=position
                )
            position = end
            if progress is not None:
                progress(position, max(last, position))
            if len(events) < batch:  # the end of the log as it was read: what comes later is the follower's
                break
        return position

    async def _summaries(
        self,
        stream_ids: Collection[str],
        read: Mapping[str, Sequence[StoredEvent]] | None = None,
    ) -> tuple[list[Update], list[tuple[str, str]], list[Decided]]:
        """Each game's summary, and the decided ones with the event that decided them; a game whose
        log cannot be folded is set aside as damaged, alone. ``read``: events of the games just read
        from the log, used where they follow on from what is kept (no game is loaded again then)."""
        updates: list[Update] = []
        damaged: list[tuple[str, str]] = []
        decided: list[Decided] = []
        for stream_id in stream_ids:
            try:
                seen, summary = await self._seen(stream_id, self._read.get(stream_id), (read or {}).get(stream_id, ()))
            except Exception as error:  # undecodable, or decodable but impossible: this game only
                log.error("game %s is damaged and left out of play: %s", stream_id, error)
                damaged.append((stream_id, f"{type(error).__name__}: {error}"))
                continue
            self._read.put(stream_id, seen)
            updates.append((summary, seen.started_at, seen.updated_at))
            if seen.deciding is not None:
                decided.append(Decided(summary, *seen.deciding))
        return updates, damaged, decided

    async def _seen(self, stream_id: str, kept: Seen | None, given: Sequence[StoredEvent]) -> tuple[Seen, Summary]:
        """The game read on from what is ``kept`` of it (from ``given``, the events just read, where they
        follow on; else from the store), and its summary."""
        have = kept.version if kept is not None else 0
        new = [e for e in given if e.version > have]
        if not new or new[0].version != have + 1:
            new = await self.store.load(stream_id, after_version=have)
        game = kept.game if kept is not None else self.games.of(new[0].type)
        decoded = tuple(from_records(game, new))
        events = (*kept.events, *decoded) if kept is not None else decoded
        summer = optional(game, Summarizer)
        if summer is None:
            tally, summary = None, game.summary(events)
        else:
            tally, summary = summer.summing(kept.tally if kept is not None else None, decoded)
            events = ()  # the tally holds what a summary needs: the log is not kept
        if not summary.decided and not summary.live and any(seat.result for seat in summary.seats):
            summary = replace(summary, decided=summary.version)  # a module that does not say: its last event
        deciding, facts, mistakes = (kept.deciding, kept.facts, kept.mistakes) if kept else (None, None, None)
        if summary.decided and deciding is None:
            index = summary.decided - have - 1  # kept from its first event: decided by one just read, as a rule
            event = new[index] if 0 <= index < len(new) else (await self.store.load(stream_id, summary.decided - 1))[0]
            deciding = (event.position, event.recorded_at)
            whole = events or (decoded if have == 0 else tuple(from_records(game, await self.store.load(stream_id))))
            facts, mistakes = await assessment(game, whole, stream_id)
        started = kept.started_at if kept is not None else new[0].recorded_at
        updated = new[-1].recorded_at if new or kept is None else kept.updated_at
        seen = Seen(game, have + len(new), started, updated, tally, events, deciding, facts, mistakes)
        return seen, with_facts(summary, facts, mistakes)

    async def _decided(
        self, updates: Sequence[Update], decided: Sequence[Decided]
    ) -> tuple[list[RatedGame], list[Rating], list[tuple[Summary, float]]]:
        """What the decided games add to a batch (``GameViews.apply``): the games rated and the ratings
        they changed, and those not tallied yet, with when each started, in the order they were decided."""
        if decided and self._untrusted is not None:
            left_out = await self._untrusted([d.summary.game_id for d in decided])
            decided = [d for d in decided if d.summary.game_id not in left_out]
        rated, ratings = (await Ledger.load(self.views.ratings, decided)).rate(decided)
        done = await self.views.tallied([d.summary.game_id for d in decided]) if decided else set()
        started = {summary.game_id: start for summary, start, _ in updates}
        tallied = [
            (d.summary, started[d.summary.game_id])
            for d in sorted(decided, key=lambda d: d.position)
            if d.summary.game_id not in done
        ]
        return rated, ratings, tallied

    async def _refused(self, updates: Sequence[Update], position: int) -> dict[str, str]:
        """The games of ``updates`` whose rows the database refuses, each stored alone to find them
        (the checkpoint left where it is), with why: a read model's row never stops the others."""
        refused: dict[str, str] = {}
        for update in updates:
            try:
                await self.views.apply([update], position, since=position)
            except ROW_ERRORS as error:
                game_id = update[0].game_id
                log.error("game %s is left out of the read models: %s", game_id, error)
                refused[game_id] = f"its read model cannot be stored: {type(error).__name__}: {error}"
        return refused

    async def rebuild(self, batch: int = 5000, progress: Callable[[int, int], None] | None = None) -> int:
        """Project the whole log again into read models aside (``GameViews.aside``), a batch of events
        at a time, each committed with how far it got: the memory it takes does not grow with the log,
        and a rebuild stopped halfway goes on from there when run again. Caught up to the end of the
        log, the new read models take the old ones' place in one transaction: until then, readers see
        the old ones whole. ``progress`` hears the position reached, and the log's last."""
        aside = await self.views.aside()
        try:
            fresh = Projector(self.store, aside, self.games, kept=REBUILD_KEPT, untrusted=self._untrusted)
            await fresh._catch_up(batch, progress)
            async with self._running:
                position = await fresh._catch_up(batch)  # what was appended meanwhile
                await self.views.adopt(aside)
        except BaseException:
            with contextlib.suppress(Exception):
                await aside.close()
            raise
        await self.views.analyze()
        return position

    async def check(self, batch: int = 1000) -> list[tuple[str, str]]:
        """Every game whose log cannot be folded now, ``(game_id, reason)``, read afresh from the
        log (damage done to the stored log behind the bot's back included), ``batch`` games at a
        time; writes nothing."""
        fresh = Projector(self.store, self.views, self.games, kept=REBUILD_KEPT)  # this one's memory stays
        _, stream_ids = await self._streams(batch)
        damaged: list[tuple[str, str]] = []
        for start in range(0, len(stream_ids), batch):
            damaged += (await fresh._summaries(stream_ids[start : start + batch]))[1]
        return damaged

    async def _streams(self, batch: int) -> tuple[int, list[str]]:
        """The end of the log and every game in it."""
        position, stream_ids = 0, dict[str, None]()
        while events := await self.store.read_all(position, batch):
            stream_ids.update(dict.fromkeys(e.stream_id for e in events if not is_record(e.stream_id)))
            position = events[-1].position
        return position, list(stream_ids)


async def settle_and_close(projector: Projector, backend: Backend) -> None:
    """Catch the read models up one last time, then close every connection whatever happens (an
    open connection would keep the process alive)."""
    try:
        await projector.finish()
    except Exception as error:  # the log is safe; the next start catches the read models up
        log.warning("the read models could not catch up before closing: %s", error)
    finally:
        await backend.close()


async def assessment(
    game: AnyGame, events: Sequence[object], game_id: str
) -> tuple[Sequence[Mapping[str, int]] | None, Sequence[Sequence[int]] | None]:
    """Each seat's facts the game module finds in the decided game at length (``assess``), and each
    seat's costly moves (``contract.Trainer``); ``None`` when it finds none or fails: those are
    extras, the game is not damaged."""
    trainer = optional(game, Trainer)
    try:
        facts = await game.assess(events) or None
        return facts, (await trainer.mistakes(events) or None) if trainer is not None else None
    except Exception:
        log.exception("game %s could not be assessed", game_id)
        return None, None


def with_facts(
    summary: Summary, found: Sequence[Mapping[str, int]] | None, mistakes: Sequence[Sequence[int]] | None = None
) -> Summary:
    """The summary with the assessed facts and costly moves added to its seats'."""
    if not found and not mistakes:
        return summary
    facts, costly = found or [{}] * len(summary.seats), mistakes or [()] * len(summary.seats)
    seats = tuple(
        replace(seat, facts={**seat.facts, **f}, mistakes=tuple(m))
        for seat, f, m in zip(summary.seats, facts, costly, strict=False)
    )
    return replace(summary, seats=seats + summary.seats[len(seats) :])
