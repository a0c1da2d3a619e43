"""The game's events: frozen, past tense, versioned, and serialized explicitly as JSON.

An event's JSON carries its type in the ``type`` field; its schema version (``VERSION``) travels
beside it in the store, so an old version can be upcast on read.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec


class Player(msgspec.Struct, frozen=True):
    id: str
    name: str
    house: str | None = None
    """The house's difficulty when this seat is played by the bot, else ``None``."""


class GameCreated(msgspec.Struct, frozen=True, tag=True):
    VERSION: ClassVar[int] = 1
    game_id: str
    rules: str
    rules_version: int
    goal: int
    players: tuple[Player, Player]
    first: int = 0
    """The seat that moves first."""
    challenge: bool = False
    """When true, seat 1 must accept before play starts."""
    turn_limit: int = 1000
    """After this many turns the game is a draw (sp22 can loop forever)."""
    place: str = ""
    """Where the game is played (a channel), opaque to the rules."""


class ChallengeAccepted(msgspec.Struct, frozen=True, tag=True):
    VERSION: ClassVar[int] = 1
    player: str


class ChallengeDeclined(msgspec.Struct, frozen=True, tag=True):
    VERSION: ClassVar[int] = 1
    player: str


class ChallengeExpired(msgspec.Struct, frozen=True, tag=True):
    VERSION: ClassVar[int] = 1


class TurnTaken(msgspec.Struct, frozen=True, tag=True):
    VERSION: ClassVar[int] = 1
    seat: int
    k: int
    """The number of dice chosen: 0..10, or -1 for Pork Chop."""
    outcomes: tuple[int, ...]
    sides: int


class GameForfeited(msgspec.Struct, frozen=True, tag=True):
    VERSION: ClassVar[int] = 1
    seat: int
    reason: str = "resigned"
    """``resigned`` or ``timeout``."""


Event = GameCreated | ChallengeAccepted | ChallengeDeclined | ChallengeExpired | TurnTaken | GameForfeited
EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (GameCreated, ChallengeAccepted, ChallengeDeclined, ChallengeExpired, TurnTaken, GameForfeited)
}

_encoder = msgspec.json.Encoder()
_decoder: msgspec.json.Decoder[Event] = msgspec.json.Decoder(Event)


class UnknownEvent(ValueError):
    """A stored event this code cannot read: unknown type, newer version, or damaged data."""


def event_type(event: Event) -> str:
    return type(event).__name__


def encode(event: Event) -> bytes:
    return _encoder.encode(event)


def decode(data: bytes | str, *, type_name: str | None = None, version: int | None = None) -> Event:
    """Decode one event; ``type_name``/``version`` are checked when the caller stored them."""
    if type_name is not None:
        cls = EVENT_TYPES.get(type_name)
        if cls is None:
            raise UnknownEvent(f"unknown event type {type_name!r}")
        if version is not None and version != cls.VERSION:
            raise UnknownEvent(f"{type_name} version {version} is not readable (current {cls.VERSION})")
    try:
        event = _decoder.decode(data)
    except msgspec.DecodeError as exc:
        raise UnknownEvent(f"damaged event data: {exc}") from exc
    if type_name is not None and event_type(event) != type_name:
        raise UnknownEvent(f"event data is a {event_type(event)}, stored as {type_name}")
    return event
