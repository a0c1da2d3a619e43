"""Cucumber's events: frozen, past tense, versioned, and serialized explicitly as JSON.

A card played is the only choice a player makes; the events after it (a trick won, a hand scored,
a cucumber, the game's end) are the rules' verdicts, stored so that the log reads as the game did.
Every shuffle arrives as data and is recorded as the hands it dealt, so a replay never shuffles.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec


class Seat(msgspec.Struct, frozen=True, gc=False):
    id: str
    name: str
    bot: str | None = None
    """The bot that plays this seat (``strong``, ``magic``, ...), or ``None`` for a person."""


class LobbyOpened(msgspec.Struct, frozen=True, tag=True, gc=False):
    """A table opened for players to sit at, before the game: its host and the game's options."""

    VERSION: ClassVar[int] = 1
    game_id: str
    host: Seat
    max_players: int
    num_cards: int = 7
    target: int = 21
    cucumbers: bool = False
    turn_timeout: int = 0
    lobby_timeout: int = 0
    """Seconds before a table nobody starts closes; 0 for never."""
    place: str = ""


class SeatJoined(msgspec.Struct, frozen=True, tag=True, gc=False):
    VERSION: ClassVar[int] = 1
    seat: Seat


class SeatLeft(msgspec.Struct, frozen=True, tag=True, gc=False):
    VERSION: ClassVar[int] = 1
    player: str


class LobbyClosed(msgspec.Struct, frozen=True, tag=True, gc=False):
    VERSION: ClassVar[int] = 1
    reason: str = "expired"
    """``expired`` (nobody started it in time), ``cancelled`` (its host left) or ``void``."""


class GameCreated(msgspec.Struct, frozen=True, tag=True, gc=False):
    VERSION: ClassVar[int] = 1
    game_id: str
    seats: tuple[Seat, ...]
    num_cards: int = 7
    target: int = 21
    """A player whose score reaches this loses (R10), or takes a cucumber (R11)."""
    cucumbers: bool = False
    cut: bool = False
    """Cut for the first dealer (R4); otherwise ``dealer`` deals first."""
    dealer: int = 0
    hand_limit: int = 1000
    """After this many hands the game ends without a loser (R22's guard)."""
    turn_timeout: int = 0
    """Seconds a player has to play before a bot plays for them; 0 for no limit."""
    place: str = ""
    """Where the game is played (a channel), opaque to the rules."""


class DealerCut(msgspec.Struct, frozen=True, tag=True, gc=False):
    VERSION: ClassVar[int] = 1
    cards: tuple[int, ...]
    """One card per seat, from seat 0, off a freshly shuffled deck."""
    dealer: int


class HandDealt(msgspec.Struct, frozen=True, tag=True, gc=False):
    VERSION: ClassVar[int] = 1
    number: int
    """1 for the game's first hand."""
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    """Each seat's cards in the order dealt."""


class CardPlayed(msgspec.Struct, frozen=True, tag=True, gc=False):
    VERSION: ClassVar[int] = 1
    seat: int
    card: int
    auto: bool = False
    """Played for the seat's player by a bot (their time ran out)."""


class TrickWon(msgspec.Struct, frozen=True, tag=True, gc=False):
    VERSION: ClassVar[int] = 1
    trick: int
    """0 for the hand's first trick."""
    seat: int
    card: int


class HandScored(msgspec.Struct, frozen=True, tag=True, gc=False):
    VERSION: ClassVar[int] = 1
    seat: int
    """The winner of the last trick, who takes its card's value."""
    card: int
    scores: tuple[int, ...]
    """Every seat's score after the hand (R9, before any cucumber)."""


class CucumberTaken(msgspec.Struct, frozen=True, tag=True, gc=False):
    VERSION: ClassVar[int] = 1
    seat: int
    cucumbers: int
    """The seat's cucumbers now: 1 resets its score, 2 ends the game (R11)."""
    score: int
    """The seat's score after the cucumber."""


class GameOver(msgspec.Struct, frozen=True, tag=True, gc=False):
    VERSION: ClassVar[int] = 1
    loser: int | None
    """The seat that reached the target, took a second cucumber or forfeited; ``None`` at the hand limit."""
    winners: tuple[int, ...]


class SeatTakenOver(msgspec.Struct, frozen=True, tag=True, gc=False):
    VERSION: ClassVar[int] = 1
    seat: int
    bot: str
    reason: str = "left"
    """``left`` (the player handed their seat over) or ``away`` (their time ran out too often)."""


class SeatReturned(msgspec.Struct, frozen=True, tag=True, gc=False):
    VERSION: ClassVar[int] = 1
    seat: int


class GameForfeited(msgspec.Struct, frozen=True, tag=True, gc=False):
    VERSION: ClassVar[int] = 1
    seat: int
    reason: str = "resigned"


Event = (
    LobbyOpened
    | SeatJoined
    | SeatLeft
    | LobbyClosed
    | GameCreated
    | DealerCut
    | HandDealt
    | CardPlayed
    | TrickWon
    | HandScored
    | CucumberTaken
    | GameOver
    | SeatTakenOver
    | SeatReturned
    | GameForfeited
)
EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (
        LobbyOpened,
        SeatJoined,
        SeatLeft,
        LobbyClosed,
        GameCreated,
        DealerCut,
        HandDealt,
        CardPlayed,
        TrickWon,
        HandScored,
        CucumberTaken,
        GameOver,
        SeatTakenOver,
        SeatReturned,
        GameForfeited,
    )
}

_encoder = msgspec.json.Encoder()
_decoder: msgspec.json.Decoder[Event] = msgspec.json.Decoder(Event)


def encode(event: Event) -> bytes:
    return _encoder.encode(event)


def decode(data: bytes | str) -> Event:
    """One event from its JSON; ``msgspec.DecodeError`` names what is wrong with damaged data."""
    return _decoder.decode(data)
