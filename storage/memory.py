"""The event store in this process's memory, with the guarantees of the others (the same store
contract's tests pass on it): for fast tests of what stands on a store (boards, timers, the service)
without a database file. A store opened again by the same name holds what it held, as a file does;
nothing outlives the process."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from storage.events import AppendResult, GroupCommitStore, Pending, StoredEvent, StoreError, keys, plan


@dataclass
class Held:
    """What a memory store holds: the events in order, each stream's, and each command's append."""

    events: list[StoredEvent] = field(default_factory=list)
    streams: dict[str, list[StoredEvent]] = field(default_factory=dict)
    commands: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Each command appended: its stream and the version it reached."""


class MemoryEventStore(GroupCommitStore):
    named: ClassVar[dict[str, Held]] = {}
    """The stores opened by name in this process."""

    def __init__(self, held: Held) -> None:
        super().__init__()
        self._held = held

    @classmethod
    async def open(cls, name: str | None = None) -> MemoryEventStore:
        """A store of its own, or the one named ``name`` (as it was left when last closed)."""
        return cls(Held() if name is None else cls.named.setdefault(name, Held()))

    async def _commit(self, batch: list[Pending]) -> list[AppendResult | StoreError]:
        held = self._held
        streams, commands = keys(batch)
        state = [("s", s, len(held.streams.get(s, ())), "") for s in streams]
        state += [("c", c, held.commands[c][1], held.commands[c][0]) for c in commands if c in held.commands]
        state.append(("p", "", len(held.events), ""))
        inserts, outcomes = plan(batch, state)
        for row in inserts:
            event = StoredEvent(*row)
            held.events.append(event)
            held.streams.setdefault(event.stream_id, []).append(event)
            if event.command_id is not None:
                held.commands[event.command_id] = (event.stream_id, event.version)
        return outcomes

    async def load(self, stream_id: str, after_version: int = 0) -> list[StoredEvent]:
        return self._held.streams.get(stream_id, [])[after_version:]

    async def version(self, stream_id: str) -> int:
        return len(self._held.streams.get(stream_id, ()))

    async def first_type(self, stream_id: str) -> str | None:
        found = self._held.streams.get(stream_id)
        return found[0].type if found else None

    async def read_all(self, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]:
        return self._held.events[after_position : after_position + limit]

    async def head(self) -> int:
        return len(self._held.events)

    async def streams(self, prefix: str) -> list[str]:
        begun = [s for s in self._held.streams if s.startswith(prefix)]
        return sorted(begun, key=lambda s: self._held.streams[s][0].position)

    async def close(self) -> None:
        """Store the appends already queued, then refuse any more."""
        await self._stop_writing()
