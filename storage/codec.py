"""Hog's events as store records, and back, with a clear error for a record that cannot be read."""

from __future__ import annotations

from collections.abc import Sequence

from hog_core import events as ev
from storage.events import NewEvent, StoredEvent, StoreError


class DamagedEvent(StoreError):
    """A stored event this code cannot read; the rest of the store is unaffected."""

    def __init__(self, stored: StoredEvent, reason: str) -> None:
        super().__init__(f"event {stored.position} ({stored.stream_id} v{stored.version}, {stored.type}): {reason}")
        self.position = stored.position


def to_record(event: ev.Event) -> NewEvent:
    return NewEvent(ev.event_type(event), type(event).VERSION, ev.encode(event))


def from_record(stored: StoredEvent) -> ev.Event:
    try:
        return ev.decode(stored.data, type_name=stored.type, version=stored.schema)
    except ev.UnknownEvent as error:
        raise DamagedEvent(stored, str(error)) from error


def from_records(stored: Sequence[StoredEvent]) -> list[ev.Event]:
    """A stream's events, decoded together (much faster than one by one); ``DamagedEvent`` names the
    first record that cannot be read."""
    try:
        return ev.decode_all([(s.type, s.schema, s.data) for s in stored])
    except ev.UnknownEvent:
        return [from_record(s) for s in stored]  # raises for the first damaged record
