"""A tournament's events: its stream ``@tournament:<server>:<id>`` (``@``: a record, not a game).

Each event is a frozen msgspec struct, stored as ``tournament.<tag>`` at schema version 1. Nothing in
them is worked out again on a replay: a round's pairing is recorded, not how it was found, so a
tournament reads the same after the pairing code changes.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from storage.events import NewEvent, StoredEvent

SCHEMA = 1


class Created(msgspec.Struct, frozen=True, tag="created"):
    tournament_id: str
    game: str
    """The game module's name (``hog``)."""
    format: str
    """``swiss``, ``round-robin`` or ``knockout``."""
    rounds: int
    """Rounds to play (Swiss, and a league of tables); 0: as many as the format needs."""
    options: dict[str, str]
    """The game's own options for every game of the tournament (Hog: ``rules``, ``goal``)."""
    organiser: str
    organiser_name: str
    place: str
    """The channel its games are played in."""
    server: str
    signup_ends: float
    """When sign-up closes and the tournament starts by itself (0: only when started by hand)."""
    created_at: float
    smallest: int = 2
    """The fewest players at one game (the game's, from its module)."""
    largest: int = 2
    """The most players at one game: 2 pairs players; more seats them at tables."""


class Joined(msgspec.Struct, frozen=True, tag="joined"):
    player: str
    name: str


class Left(msgspec.Struct, frozen=True, tag="left"):
    player: str
    by: str
    """Who took them out: themselves, or the organiser (a drop)."""


class Started(msgspec.Struct, frozen=True, tag="started"):
    by: str
    """Who started it (``clock`` when sign-up ended)."""
    ratings: dict[str, int]
    """Each player's rating in the game when it started: the seeding."""


class Paired(msgspec.Struct, frozen=True, tag="paired"):
    round: int
    tables: tuple[tuple[str, ...], ...]
    """Each game's players, in seat order (Hog: the first to move first)."""
    games: tuple[str, ...]
    """Each table's game id."""
    byes: tuple[str, ...] = ()
    """Players sitting this round out, each scoring a win (an odd number of players, a walkover)."""


class Scored(msgspec.Struct, frozen=True, tag="scored"):
    game_id: str
    results: tuple[str, ...]
    """Each seat's result (``win``, ``draw``, ``loss``; ``void`` for a game called off)."""


class Posted(msgspec.Struct, frozen=True, tag="posted"):
    """Where its board is (one message, edited)."""

    channel: str
    message: str


class Finished(msgspec.Struct, frozen=True, tag="finished"):
    reason: str
    """``played`` (every round), ``cancelled`` (by its organiser), ``too few`` (at the end of sign-up)."""


Event = Created | Joined | Left | Started | Paired | Scored | Posted | Finished
TYPE = "tournament"
_decoder = msgspec.json.Decoder(Event)


def encode(event: Event) -> NewEvent:
    tag = type(event).__struct_config__.tag
    return NewEvent(f"{TYPE}.{tag}", SCHEMA, msgspec.json.encode(event))


def decode_all(stored: Sequence[StoredEvent]) -> list[Event]:
    return [_decoder.decode(s.data) for s in stored]
