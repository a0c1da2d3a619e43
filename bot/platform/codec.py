"""A game's events as store records and back. Type names are namespaced by the game
(``hog.TurnTaken``); names stored before namespacing (``TurnTaken``) are upcast to the legacy game's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.platform.registry import LEGACY, AnyGame
from storage.events import NewEvent, StoredEvent, StoreError


class DamagedEvent(StoreError):
    """A stored event this code cannot read; the rest of the store is unaffected."""

    def __init__(self, stored: StoredEvent, reason: str) -> None:
        super().__init__(f"event {stored.position} ({stored.stream_id} v{stored.version}, {stored.type}): {reason}")
        self.position = stored.position


class ForeignStream(StoreError):
    """A stream that is not this game's (a button of one game naming another's id)."""


def to_record(game: AnyGame, event: Any) -> NewEvent:
    name, schema, data = game.encode(event)
    return NewEvent(f"{game.name}.{name}", schema, data)


_NAMES: dict[str, dict[str, str]] = {}
"""Per game, ``stored type -> type name within the game`` for the types seen so far: a load names
the same few types again and again, and a dictionary lookup is the cheapest way to say it."""


def bare(game: AnyGame, stored: StoredEvent) -> str:
    """The event's type name within its game; ``ForeignStream`` when it is another game's."""
    owner, dot, name = stored.type.partition(".")
    if not dot:
        owner, name = LEGACY, stored.type
    if owner != game.name:
        raise ForeignStream(f"{stored.stream_id} is a game of {owner}, not {game.name}")
    return name


def from_records(game: AnyGame, stored: Sequence[StoredEvent]) -> list[Any]:
    """A stream's events, decoded together (much faster than one by one); ``DamagedEvent`` names
    the first record that cannot be read, ``ForeignStream`` a stream of another game."""
    names = _NAMES.setdefault(game.name, {})
    try:
        records = [(names[s.type], s.schema, s.data) for s in stored]
    except KeyError:  # a type not seen yet: learn it (or refuse another game's stream)
        for s in stored:
            if s.type not in names:
                names[s.type] = bare(game, s)
        records = [(names[s.type], s.schema, s.data) for s in stored]
    try:
        return game.decode_all(records)
    except Exception:
        for s, record in zip(stored, records, strict=True):  # find the first damaged record
            try:
                game.decode_all([record])
            except Exception as error:
                raise DamagedEvent(s, str(error)) from error
        raise
