"""The tournaments' log: each tournament's stream read and folded (what was read kept, so that a
command reads only the events appended since), commands appended at the version read (a race is
decided again), and the tournaments of a server listed."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace

from bot.platform.recent import Recent
from bot.platform.registry import RECORD
from bot.platform.tournaments.events import Event, decode_all, encode
from bot.platform.tournaments.state import Tournament, fold
from storage.events import EventStore, StoredEvent, WrongExpectedVersion

log = logging.getLogger(__name__)

PREFIX = f"{RECORD}tournament:"
SET_ASIDE = "set aside"
"""``Tournament.finished`` of a tournament whose record cannot be read on: nothing more is done in it."""
KEPT = 1024
RACES = 20


def stream_id(server: str, tournament_id: str) -> str:
    return f"{PREFIX}{server}:{tournament_id}"


Decision = Callable[[Tournament], Sequence[Event]]


class Book:
    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._kept: Recent[str, Tournament] = Recent(KEPT)
        self._streams: dict[str, str] = {}
        """Each tournament id's stream, once found."""

    async def load(self, stream: str) -> Tournament:
        kept = self._kept.get(stream)
        new = await self.store.load(stream, after_version=kept.version if kept else 0)
        if kept is not None and not new:
            return kept
        try:
            t = fold(stream, decode_all(new), kept)
        except Exception:  # one record's damage, never every tournament's: it stands as it was read up to it
            t = self._set_aside(stream, new, kept)
        if t.version:
            self._kept.put(stream, t)
            self._streams[t.tournament_id] = stream
        return t

    @staticmethod
    def _set_aside(stream: str, new: Sequence[StoredEvent], kept: Tournament | None) -> Tournament:
        """The tournament folded up to its first event that cannot be read or applied, set aside there."""
        t = kept or Tournament(stream)
        for stored in new:
            try:
                t = fold(stream, decode_all([stored]), t)
            except Exception as error:
                log.error("tournament %s is set aside at event %d: %s", stream, stored.version, error)
                why = f"event {stored.version}: {type(error).__name__}: {error}"
                return replace(t, version=new[-1].version, finished=SET_ASIDE, damaged=why)
        return t

    async def act(self, stream: str, decision: Decision, command_id: str | None = None) -> tuple[Tournament, bool]:
        """Append what ``decision`` makes of the tournament as it stands (decided again after losing a
        race); the tournament after, and whether this call appended anything (a retried command, or one
        with nothing to do, appends nothing)."""
        for _ in range(RACES):
            t = await self.load(stream)
            events = decision(t)
            if not events:
                return t, False
            try:
                result = await self.store.append(stream, [encode(e) for e in events], t.version, command_id)
            except WrongExpectedVersion:
                continue
            return await self.load(stream), not result.duplicate
        raise RuntimeError(f"tournament {stream} is too busy: {RACES} races lost in a row")

    async def find(self, tournament_id: str) -> str | None:
        """The stream of the tournament ``tournament_id`` (``None``: there is none)."""
        if tournament_id not in self._streams:
            for stream in await self.store.streams(PREFIX):
                self._streams.setdefault(stream.rsplit(":", 1)[1], stream)
        return self._streams.get(tournament_id)

    async def of_server(self, server: str) -> list[Tournament]:
        """A server's tournaments, newest first (one whose very creation cannot be read is left out)."""
        every = [await self.load(s) for s in reversed(await self.store.streams(f"{PREFIX}{server}:"))]
        return [t for t in every if t.created is not None]

    async def live(self) -> list[Tournament]:
        """Every tournament signing up or running (a set-aside one is not)."""
        every = [await self.load(s) for s in await self.store.streams(PREFIX)]
        return [t for t in every if t.finished is None and t.created is not None]
