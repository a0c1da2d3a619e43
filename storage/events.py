"""The append-only event store: one stream per game, a global gapless order, and appends that are
atomic, checked against the version the writer expects, and idempotent by command id.

It stores events as records (type, schema version, bytes) and knows nothing of any game. Every
backend (``GroupCommitStore``) has one writer task that commits appends in groups: every append
waiting when the writer is free goes into one transaction, each checked and applied on its own
(``plan``), so a hundred concurrent clicks cost one commit, not a hundred. The backends are
``storage.sqlite`` (the embedded default, WAL mode) and ``storage.postgres`` (several processes).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import msgspec

Synchronous = Literal["FULL", "NORMAL"]
MAX_BATCH = 256


@dataclass(frozen=True, slots=True)
class NewEvent:
    type: str
    schema: int
    """The event's schema version, for upcasting on read."""
    data: bytes


UNPLACED = 2**62
"""The position ``load`` shows for an event PostgreSQL has not placed in the global order yet
(``storage.postgres.store``): after every placed one, as it will be."""


class StoredEvent(msgspec.Struct, frozen=True):
    """An event as stored (a msgspec struct: a game's load builds dozens at once)."""

    position: int
    """Global, gapless, starting at 1 (``UNPLACED`` in a ``load`` until it is given, on PostgreSQL)."""
    stream_id: str
    version: int
    """Within the stream, gapless, starting at 1."""
    type: str
    schema: int
    data: bytes
    recorded_at: float
    command_id: str | None = None
    """The command that appended it, if it named one."""


@dataclass(frozen=True, slots=True)
class AppendResult:
    stream_id: str
    version: int
    """The stream's version after the append. (Not its positions: on PostgreSQL an event is placed
    in the global order by the first reader of the log after its commit, ``storage.postgres.store``.)"""
    duplicate: bool = False
    """True when this command was already appended: nothing new was stored."""


class StoreError(Exception):
    """The store refused an append; ``str(error)`` says why."""


class WrongExpectedVersion(StoreError):
    def __init__(self, stream_id: str, expected: int, actual: int) -> None:
        super().__init__(f"stream {stream_id!r} is at version {actual}, not {expected}: someone else moved first")
        self.stream_id, self.expected, self.actual = stream_id, expected, actual


class EventStore(Protocol):
    async def append(
        self,
        stream_id: str,
        events: Sequence[NewEvent],
        expected_version: int,
        command_id: str | None = None,
        recorded_at: float | None = None,
    ) -> AppendResult: ...

    async def restore(self, stream_id: str, log: Sequence[tuple[NewEvent, str | None, float]]) -> AppendResult:
        """A whole log onto the empty ``stream_id`` in one transaction, each event with its own command
        and time (``GroupCommitStore.restore``)."""
        ...

    async def load(self, stream_id: str, after_version: int = 0) -> list[StoredEvent]: ...

    async def version(self, stream_id: str) -> int:
        """The stream's version now (0 for an unknown stream): one indexed read, no events loaded."""
        ...

    async def first_type(self, stream_id: str) -> str | None:
        """The type of the stream's first event (which game wrote it), or ``None`` for an unknown
        stream: one indexed read, no events loaded."""
        ...

    async def read_all(self, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]: ...

    async def head(self) -> int:
        """The position of the last event (0: none yet)."""
        ...

    async def streams(self, prefix: str) -> list[str]:
        """The ids of the streams beginning with ``prefix``, oldest first (one range of the stream
        index: a server's tournaments, say, named ``@tournament:<server>:...``)."""
        ...

    async def close(self) -> None: ...


def prefix_range(prefix: str) -> tuple[str, str]:
    """The ids from ``prefix`` up to (not including) the first id past every id it begins (``streams``)."""
    return prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1)


@dataclass
class Pending:
    """An append waiting for the writer task, with the future its caller awaits."""

    stream_id: str
    events: Sequence[NewEvent]
    expected: int
    command_id: str | None
    recorded_at: float
    done: asyncio.Future[AppendResult]
    stamps: Sequence[tuple[str | None, float]] | None = None
    """A whole log restored (``restore``): each event's own command and time, onto an empty stream."""


COLUMNS = "position, stream_id, version, type, schema, data, recorded_at"


Row = tuple[int, str, int, str, int, bytes, float, str | None]
"""An event as inserted: position, stream, version, type, schema, data, recorded_at, command_id."""
Seen = dict[str, tuple[str, int]]
"""Each command already appended: its stream and the version it reached."""


def plan(batch: Sequence[Pending], state: Iterable[Iterable[Any]]) -> tuple[list[Row], list[AppendResult | StoreError]]:
    """Check a batch of appends, in order (each sees the ones before it), against the store's state
    as ``STATE`` reads it: the rows to insert and each append's outcome. The same for every backend:
    only how the state is read and the rows are written differ. The rows' positions follow the last
    position the state read (``HEAD``); a backend that places events later reads none and ignores them."""
    versions: dict[str, int] = {}
    seen: Seen = {}
    position = 0
    for kind, key, version, stream in state:
        if kind == "s":
            versions[key] = version
        elif kind == "c":
            seen[key] = (stream, version)
        else:
            position = version
    inserts: list[Row] = []
    outcomes: list[AppendResult | StoreError] = []
    for r in batch:
        if r.stamps is not None:
            used = sorted({c for c, _ in r.stamps if c is not None} & seen.keys())
            current = versions.get(r.stream_id, 0)
            if used or current:
                outcomes.append(
                    WrongExpectedVersion(r.stream_id, 0, current) if current
                    else StoreError(f"command {used[0]!r} was already used")
                )  # fmt: skip
                continue
            stamps = r.stamps
        elif r.command_id is not None and r.command_id in seen:
            stream, version = seen[r.command_id]
            if stream != r.stream_id:
                outcomes.append(StoreError(f"command {r.command_id!r} was already used on another stream"))
            else:
                outcomes.append(AppendResult(r.stream_id, version, duplicate=True))
            continue
        else:
            current = versions.get(r.stream_id, 0)
            if current != r.expected:
                outcomes.append(WrongExpectedVersion(r.stream_id, r.expected, current))
                continue
            stamps = [(r.command_id, r.recorded_at)] * len(r.events)
        rows = [
            (position + i, r.stream_id, current + i, e.type, e.schema, e.data, when, command)
            for i, (e, (command, when)) in enumerate(zip(r.events, stamps, strict=True), start=1)
        ]
        inserts += rows
        for row in rows:
            if row[7] is not None:
                seen[row[7]] = (r.stream_id, row[2])
        position += len(rows)
        versions[r.stream_id] = current + len(rows)
        outcomes.append(AppendResult(r.stream_id, versions[r.stream_id]))
    return inserts, outcomes


STATE = (
    "SELECT 's', k.stream_id, coalesce((SELECT max(version) FROM events WHERE stream_id = k.stream_id), 0), "
    "'' FROM {streams} "
    "UNION ALL SELECT 'c', command_id, max(version), max(stream_id) "
    "FROM events WHERE command_id {commands} GROUP BY command_id"
)
"""What a group of appends is checked against, in one read: each stream's version (``s``) and each
command already appended (``c``). ``{streams}`` is the backend's table ``k`` of the streams' ids,
one ``stream_id`` a row (each stream's last version is then one step down an index, however long
the stream), ``{commands}`` its way to match a list of keys."""
HEAD = " UNION ALL SELECT 'p', '', coalesce(max(position), 0), '' FROM events"
"""``STATE``'s last row for a backend that gives positions as it appends: the last position (``p``)."""


def keys(batch: Sequence[Pending]) -> tuple[list[str], list[str]]:
    """The streams and the commands a group of appends names, for ``STATE``."""
    commands = {c for r in batch for c in ([c for c, _ in r.stamps] if r.stamps is not None else [r.command_id])}
    return sorted({r.stream_id for r in batch}), sorted(c for c in commands if c is not None)


class GroupCommitStore:
    """What every backend shares: appends are checked for shape, queued, and committed in groups by
    one writer task, every append waiting when the writer is free in one transaction (a hundred
    concurrent clicks cost one commit, not a hundred). A backend says how a group is committed."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[Pending | None] = asyncio.Queue()  # None: close after what is queued
        self._closing = False
        self._task = asyncio.get_running_loop().create_task(self._write_until_closed(), name="event-store-writer")

    async def append(
        self,
        stream_id: str,
        events: Sequence[NewEvent],
        expected_version: int,
        command_id: str | None = None,
        recorded_at: float | None = None,
    ) -> AppendResult:
        """Append ``events`` to ``stream_id`` if it is at ``expected_version``; all or nothing.

        Raises ``WrongExpectedVersion`` when another append got there first. With a ``command_id``
        already seen, stores nothing and returns the first append's result (``duplicate=True``).
        """
        self._check(events)
        done: asyncio.Future[AppendResult] = asyncio.get_running_loop().create_future()
        when = time.time() if recorded_at is None else recorded_at
        self._queue.put_nowait(Pending(stream_id, events, expected_version, command_id, when, done))
        return await done

    async def restore(self, stream_id: str, log: Sequence[tuple[NewEvent, str | None, float]]) -> AppendResult:
        """A whole log written to the empty stream ``stream_id`` in one transaction, each event with
        its own command id and time (an imported game, as it was played): all or nothing. Raises
        ``WrongExpectedVersion`` if the stream has events, ``StoreError`` if a command was used before."""
        self._check([e for e, _, _ in log])
        done: asyncio.Future[AppendResult] = asyncio.get_running_loop().create_future()
        stamps = [(command, when) for _, command, when in log]
        self._queue.put_nowait(Pending(stream_id, [e for e, _, _ in log], 0, None, stamps[0][1], done, stamps))
        return await done

    def _check(self, events: Sequence[NewEvent]) -> None:
        """Refuse an append that could never be stored: no events, one not an event, a closed store."""
        if not events:
            raise StoreError("an append needs at least one event")
        for e in events:
            if not (isinstance(e.type, str) and isinstance(e.schema, int) and isinstance(e.data, bytes)):
                raise StoreError(f"not a storable event: {e!r}")
        if self._closing:
            raise StoreError("the event store is closed")

    async def _write_until_closed(self) -> None:
        closing = False
        while not closing:
            batch: list[Pending] = []
            request = await self._queue.get()
            while request is not None:
                batch.append(request)
                if len(batch) == MAX_BATCH or self._queue.empty():
                    break
                request = self._queue.get_nowait()
            closing = request is None
            if not batch:
                continue
            outcomes = await self._commit_each_on_failure(batch)
            for request, outcome in zip(batch, outcomes, strict=True):
                if request.done.done():
                    continue
                if isinstance(outcome, Exception):
                    request.done.set_exception(outcome)
                else:
                    request.done.set_result(outcome)

    async def _commit_each_on_failure(self, batch: list[Pending]) -> list[AppendResult | StoreError]:
        """Commit the batch; if its transaction fails, retry each append alone, so one bad append
        cannot fail the others."""
        try:
            return await self._commit(batch)
        except Exception as error:
            if len(batch) == 1:
                return [StoreError(f"the append could not be stored: {error}")]
        return [outcome for request in batch for outcome in await self._commit_each_on_failure([request])]

    async def _commit(self, batch: list[Pending]) -> list[AppendResult | StoreError]:
        """Check and store a group of appends in one transaction (the backend's own)."""
        raise NotImplementedError

    async def _stop_writing(self) -> None:
        """Store the appends already queued, and refuse any more."""
        if not self._closing:
            self._closing = True
            self._queue.put_nowait(None)
            await self._task
