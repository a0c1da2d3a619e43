"""A game at a glance, as its game module folds it from the log: what the read models store of it
(``storage.games`` writes and reads them; ``storage.tallies`` counts them)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class SeatSummary:
    player_id: str
    name: str
    bot: str | None = None
    """The level of the bot (or house) playing this seat, ``None`` for a person."""
    score: int = 0
    result: str | None = None
    """``win``, ``loss`` or ``draw`` once the game is decided for this seat."""
    facts: Mapping[str, int] = field(default_factory=dict)
    """The game's own numbers about this seat's play (Hog: ``turn``, its biggest turn), kept as JSON."""
    mistakes: tuple[int, ...] = ()
    """The versions of the events by which this seat's moves cost it dearly (``contract.Trainer``),
    found once the game is decided: the trainer's positions (``storage.tallies``)."""


@dataclass(frozen=True, slots=True)
class Summary:
    """A game at a glance, as its game module folds it from the log: what the read models store."""

    game_id: str
    game: str
    """Which game it is (a game module's name: ``hog``)."""
    place: str
    status: str
    """The game module's word for where the game stands (``active``, ``finished``...)."""
    live: bool
    """Still waiting for someone: listed among a place's games, and its timers restored."""
    version: int
    seats: tuple[SeatSummary, ...]
    fields: Mapping[str, str] = field(default_factory=dict)
    """The game's own settings, as text (Hog: ``rules``, ``goal``), kept with its row as JSON."""
    decided: int = 0
    """The version of the event that decided the game (gave its seats their results); 0 while undecided."""
