"""The game's events: frozen, past tense, versioned, and serialized explicitly as JSON.

An event's JSON carries its type in the ``type`` field; its schema version (``VERSION``) travels
beside it in the store, so an old version can be upcast on read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import msgspec


class Player(msgspec.Struct, frozen=True, gc=False):
    id: str
    name: str
    house: str | None = None
    """The house's difficulty when this seat is played by the bot, else ``None``."""
    table: str | msgspec.UnsetType = msgspec.UNSET
    """For the house ``entry``: the contest entry's table it plays (``hog_core.contest.encode``),
    pinned when the game is created. Left out of the JSON when unset, so older events read the same."""


class GameCreated(msgspec.Struct, frozen=True, tag=True, gc=False):
    VERSION: ClassVar[int] = 2
    """v2 pins the game's timeouts, as the rules are pinned: a restart never changes them."""
    game_id: str
    rules: str
    rules_version: int
    goal: int
    players: tuple[Player, Player]
    challenge_timeout: int
    """Seconds an unanswered challenge stays open; 0 for no limit."""
    turn_timeout: int
    """Seconds a player has to move before forfeiting; 0 for no limit."""
    first: int = 0
    """The seat that moves first."""
    challenge: bool = False
    """When true, seat 1 must accept before play starts."""
    turn_limit: int = 1000
    """After this many turns the game is a draw (sp22 can loop forever)."""
    place: str = ""
    """Where the game is played (a channel), opaque to the rules."""


class ChallengeAccepted(msgspec.Struct, frozen=True, tag=True, gc=False):
    VERSION: ClassVar[int] = 1
    player: str


class ChallengeDeclined(msgspec.Struct, frozen=True, tag=True, gc=False):
    VERSION: ClassVar[int] = 1
    player: str


class ChallengeExpired(msgspec.Struct, frozen=True, tag=True, gc=False):
    VERSION: ClassVar[int] = 1


class TurnTaken(msgspec.Struct, frozen=True, tag=True, gc=False):
    VERSION: ClassVar[int] = 1
    seat: int
    k: int
    """The number of dice chosen: 0..10, or -1 for Pork Chop."""
    outcomes: tuple[int, ...]
    sides: int


class GameForfeited(msgspec.Struct, frozen=True, tag=True, gc=False):
    VERSION: ClassVar[int] = 1
    seat: int
    reason: str = "resigned"
    """``resigned`` or ``timeout``."""


class GameVoided(msgspec.Struct, frozen=True, tag=True, gc=False):
    """The game is called off, nobody winning or losing: its board could never be shown to its
    players (so its timers must not score it)."""

    VERSION: ClassVar[int] = 1
    reason: str = "board"


Event = GameCreated | ChallengeAccepted | ChallengeDeclined | ChallengeExpired | TurnTaken | GameForfeited | GameVoided
EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (
        GameCreated,
        ChallengeAccepted,
        ChallengeDeclined,
        ChallengeExpired,
        TurnTaken,
        GameForfeited,
        GameVoided,
    )
}

_encoder = msgspec.json.Encoder()
_decoder: msgspec.json.Decoder[Event] = msgspec.json.Decoder(Event)


class UnknownEvent(ValueError):
    """A stored event this code cannot read: unknown type, newer version, or damaged data."""


Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


def _game_created_v1(data: dict[str, Any]) -> dict[str, Any]:
    """v1 games were created before timeouts existed: they never time out."""
    return {**data, "challenge_timeout": 0, "turn_timeout": 0}


UPCASTERS: dict[tuple[str, int], Upcaster] = {("GameCreated", 1): _game_created_v1}
"""``(type, version) -> function`` that turns that version's JSON object into the next version's."""


def event_type(event: Event) -> str:
    return type(event).__name__


def encode(event: Event) -> bytes:
    return _encoder.encode(event)


def decode(data: bytes | str, *, type_name: str | None = None, version: int | None = None) -> Event:
    """Decode one event; ``type_name``/``version`` are checked when the caller stored them, and an
    older version is upcast to the current one (the stored bytes are never rewritten)."""
    cls = None
    if type_name is not None:
        cls = EVENT_TYPES.get(type_name)
        if cls is None:
            raise UnknownEvent(f"unknown event type {type_name!r}")
        if version is not None and not 1 <= version <= cls.VERSION:
            raise UnknownEvent(f"{type_name} version {version} is not readable (current {cls.VERSION})")
    try:
        if cls is not None and version is not None and version < cls.VERSION:
            event = _upcast(data, cls.__name__, version)
        else:
            event = _decoder.decode(data)
    except msgspec.DecodeError as exc:
        raise UnknownEvent(f"damaged event data: {exc}") from exc
    if type_name is not None and event_type(event) != type_name:
        raise UnknownEvent(f"event data is a {event_type(event)}, stored as {type_name}")
    return event


_list_decoder: msgspec.json.Decoder[list[Event]] = msgspec.json.Decoder(list[Event])


def decode_all(records: Sequence[tuple[str, int, bytes]]) -> list[Event]:
    """Decode ``(type, version, data)`` records; in one pass when all are current (a stream load)."""
    if all(_is_current(name, version) for name, version, _ in records):
        try:
            events = _list_decoder.decode(b"[" + b",".join(data for _, _, data in records) + b"]")
        except msgspec.DecodeError:
            pass  # find the damaged one below, with its own error
        else:
            if all(event_type(e) == name for e, (name, _, _) in zip(events, records, strict=True)):
                return events
    return [decode(data, type_name=name, version=version) for name, version, data in records]


def _is_current(type_name: str, version: int) -> bool:
    cls = EVENT_TYPES.get(type_name)
    return cls is not None and version == cls.VERSION


def _upcast(data: bytes | str, type_name: str, version: int) -> Event:
    raw = msgspec.json.decode(data)
    if not isinstance(raw, dict):
        raise msgspec.DecodeError(f"expected an object, got {type(raw).__name__}")
    for v in range(version, EVENT_TYPES[type_name].VERSION):
        raw = UPCASTERS[(type_name, v)](raw)
    try:
        event: Event = msgspec.convert(raw, Event)
    except msgspec.ValidationError as exc:
        raise msgspec.DecodeError(str(exc)) from exc
    return event
