"""The contract between the platform and a game: what a game module gives, and what it is given.

A game module is pure of Discord and of storage. The platform stores its events (under type names
namespaced by the module's ``name``), folds them through ``evolve``, asks ``automatic`` for the
moves of bot seats, sets timers from ``deadlines``, tells new events with ``narrate``, and hands
``summary`` to the read models. Its front ends (the console, Discord) are found through it too:
``console`` directly, the Discord front by an import path, so that the game module itself never
imports ``discord``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TextIO, TypeVar

from storage.games import GameRow, Summary

if TYPE_CHECKING:
    from bot.platform.compose import Platform
    from bot.platform.service import Outcome

Lines = tuple[str, ...]
Record = tuple[str, int, bytes]
"""An event as its module encodes it: its bare type name, its schema version and its bytes."""


class Refusal(Exception):
    """A command the game or the platform refuses; ``message`` is written for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class State(Protocol):
    """What the platform reads of any game's state."""

    @property
    def game_id(self) -> str: ...
    @property
    def place(self) -> str: ...
    @property
    def version(self) -> int:
        """How many events made this state (0: no such game)."""
        ...

    @property
    def is_over(self) -> bool: ...


class Chance(Protocol):
    """The platform's random source: a game says what it needs, the outcome goes into its events."""

    def roll(self, count: int, sides: int) -> tuple[int, ...]:
        """``count`` dice of ``sides`` sides, each 1..sides."""
        ...

    def shuffled(self, items: Sequence[int]) -> tuple[int, ...]:
        """``items`` in a uniformly random order (a deck)."""
        ...


@dataclass(frozen=True, slots=True)
class Deadline:
    """A moment a game wants to be woken at, unless it moves on first; ``kind`` is the game's word,
    given back to ``on_deadline``."""

    at: float
    kind: str


@dataclass(frozen=True, slots=True)
class Reminder:
    """Words for the player whose deadline is near."""

    player_id: str
    text: str


S = TypeVar("S", bound=State)
E = TypeVar("E")
C = TypeVar("C")
S_contra = TypeVar("S_contra", bound=State, contravariant=True)
C_co = TypeVar("C_co", covariant=True)


class Game(Protocol[S, E, C]):
    name: str
    """The module's name: its events' namespace (``hog.TurnTaken``), its command group, its read models' kind."""
    title: str
    """How players call it (``Hog``)."""
    discord_front: str
    """``module:callable`` that builds its Discord front (imported by the Discord client only)."""

    @property
    def refusal(self) -> type[Exception]:
        """Its errors, each with a ``message`` for the player (the platform turns them into ``Refusal``)."""
        ...

    @property
    def console(self) -> ConsoleFront[S, C]: ...

    def initial(self) -> S: ...
    def decide(self, state: S, command: C) -> Sequence[E]: ...
    def evolve(self, state: S, event: E) -> S: ...
    def encode(self, event: E) -> Record: ...
    def decode_all(self, records: Sequence[Record]) -> list[E]:
        """Decode a stream's records (upcasting old schema versions); raises for an unreadable one."""
        ...

    def narrate(self, events: Sequence[E]) -> Iterator[tuple[E, S, Lines]]:
        """Each event of a log with the state after it and its commentary (the same words live and in a replay)."""
        ...

    async def automatic(self, state: S, chance: Chance) -> C | None:
        """The move of the bot or house whose turn it is, ``None`` when a person is to move (or nobody)."""
        ...

    def deadlines(self, state: S, created_at: float, last_at: float) -> Sequence[Deadline]:
        """When to wake the game, its first event recorded at ``created_at`` and its last at ``last_at``."""
        ...

    def on_deadline(self, state: S, kind: str) -> Sequence[C] | Reminder | None:
        """What a deadline does: commands to store (a forfeit, a bot's move), words for the player, or nothing."""
        ...

    def call_off(self, state: S) -> Sequence[C]:
        """The commands that call the game off, nobody winning or losing (its board could never be shown)."""
        ...

    def summary(self, events: Sequence[E]) -> Summary: ...

    @property
    def draws(self) -> str | None:
        """What its random outcomes are called (``dice``, ``cards``); ``None`` for a game that leaves
        nothing to chance (it draws no seed, and shows no seal)."""
        ...

    def redraw(self, before: S, event: E, chance: Chance) -> tuple[E, int] | None:
        """``event`` as ``chance`` would have made it from the game ``before`` it, and how many
        dice or cards it drew; ``None`` for an event that draws nothing (what ``verify`` checks)."""
        ...

    def history_line(self, row: GameRow, player_id: str | None) -> str:
        """One finished or running game in a list of ``player_id``'s games (``None``: of everyone's)."""
        ...


class ConsoleFront(Protocol[S_contra, C_co]):
    """A game at the terminal: the platform's console reads lines and stores the commands."""

    def to_move(self, state: S_contra) -> str | None:
        """The player to move (at a shared keyboard, whoever it is), ``None`` when nobody is."""
        ...

    def prompt(self, state: S_contra) -> str: ...

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """The options of ``python -m bot <game>`` that shape a new game."""
        ...

    def new_game(self, args: argparse.Namespace, player_id: str, name: str) -> tuple[str, Any]:
        """The id and the creating command of a new game at this keyboard, from the parsed options."""
        ...

    def conflicts(self, args: argparse.Namespace, row: GameRow) -> Sequence[str]:
        """The options given on the command line (``--goal 50``) that the player's unfinished game
        ``row`` was not started with: a new game is started then, rather than that one offered."""
        ...

    async def answer(self, state: S_contra, player_id: str, line: str) -> Callable[[Any, Chance], Sequence[C_co]] | str:
        """What a line asks for (commands given the game and the random source), or words to print
        instead; raises the game's error for a bad line."""
        ...

    async def board(self, outcome: Outcome[Any, Any], viewer: str) -> str:
        """The board after ``outcome`` as ``viewer`` may see it (their own hidden cards only)."""
        ...

    async def stats(self, platform: Platform, player_id: str, stdout: TextIO) -> None:
        """The player's record in this game, printed."""
        ...

    async def replay(
        self, platform: Platform, game_id: str, stdout: TextIO, step: int | None, picture: Path | None, gif: Path | None
    ) -> None:
        """A stored game step by step (or its step ``step``, from 1), as anyone may see it; ``picture``
        and ``gif``: files to draw the game in (a ``Refusal`` where the game draws none)."""
        ...
