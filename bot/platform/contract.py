"""The contract between the platform and a game: what a game module gives, and what it is given.

A game module is pure of Discord and of storage. It is several small protocols, each for one
part of the platform:

- ``Rules``: how commands become events and events a game (``decide``, ``evolve``), the moves of
  bot seats (``automatic``), and the game's deadlines;
- ``Codec``: its events as records (``encode``, ``decode_all``, with upcasting);
- ``LeftToChance``: what it leaves to chance and how to draw it again (``redraw``, for ``verify``);
- ``ReadModel``: a game at a glance (``summary``, and ``assess`` once it is decided) for histories,
  stats and ratings;
- ``Presentation``: its story (``narrate``), its line in a list of games, its console front, its
  Discord front (by an import path, so that the module never imports ``discord``), its settings
  and its own commands of ``python -m bot``.

``Game`` is all of them. The types a game needs are here too (``Outcome``, ``Commands``, and the
read models' ``Summary``, ``SeatSummary`` and ``GameRow``), so that a game imports the contract,
not the platform's service or the storage. ``check`` tells, when a game is loaded, which member
it lacks.
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Protocol, TextIO, TypeVar

import msgspec

from storage.games import GameRow, GameViews
from storage.summaries import SeatSummary, Summary

__all__ = [
    "Chance",
    "Codec",
    "Commands",
    "ConsoleFront",
    "Deadline",
    "Emblem",
    "EventRecord",
    "Game",
    "GameRow",
    "LeftToChance",
    "Lines",
    "Outcome",
    "Presentation",
    "ReadModel",
    "Refusal",
    "Reminder",
    "Replay",
    "Rules",
    "SeatSummary",
    "Seating",
    "ServerOptions",
    "Setting",
    "State",
    "Storyteller",
    "Subcommand",
    "Summarizer",
    "Summary",
    "Trainer",
    "TurnTable",
    "UnfitGame",
    "WebPages",
    "check",
    "optional",
]

Lines = tuple[str, ...]
EventRecord = tuple[str, int, bytes]
"""An event as its module encodes it: its bare type name, its schema version and its bytes."""


class Refusal(Exception):
    """A command the game or the platform refuses; ``message`` is written for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UnfitGame(Exception):
    """A game module that cannot be played: it cannot be imported, or it lacks a member of the contract."""


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


@dataclass(frozen=True, slots=True)
class Subcommand:
    """A command of ``python -m bot`` that a game brings (Hog's ``compare``): its name and help
    line, its options, and what it does (its exit status; a ``Refusal`` is said in one line)."""

    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, TextIO], int]


def command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    what: str,
) -> argparse.ArgumentParser:
    """A command of ``python -m bot`` (or one of its own commands'), listed with ``what`` it does and
    opening its ``--help`` with it as a sentence: ``what`` is written as a listing's line, lower case."""
    return commands.add_parser(name, help=what, description=what[0].upper() + what[1:].rstrip(".") + ".")


S = TypeVar("S", bound=State)
E = TypeVar("E")
C = TypeVar("C")
S_contra = TypeVar("S_contra", bound=State, contravariant=True)
C_co = TypeVar("C_co", covariant=True)
E_contra = TypeVar("E_contra", contravariant=True)


class Outcome(msgspec.Struct, Generic[S, E], frozen=True, gc=False):
    """The game after a command, and each new event with the state after it and its commentary
    (kept with a live game's fold: a value the garbage collector never walks)."""

    game: str
    """The game module's name."""
    state: S
    told: tuple[tuple[E, S, Lines], ...]
    duplicate: bool = False
    """The command had been carried out already (a retried interaction): this is the game as it
    stands now, told as every render of its version is."""

    @property
    def story(self) -> Lines:
        return tuple(line for _, _, lines in self.told for line in lines)


Commands = Callable[[S, Chance], Sequence[C]]
"""What a player asks for, given the game as it stands and the random source."""


class Rules(Protocol[S, E, C]):
    """How commands become events and events a game: pure, with no I/O, clock or randomness (dice
    and decks come in through ``Chance`` and are stored in the events)."""

    name: str
    """The module's name: its events' namespace (``hog.TurnTaken``), its command group, its read models' kind."""
    title: str
    """How players call it (``Hog``)."""

    @property
    def refusal(self) -> type[Exception]:
        """Its errors, each with a ``message`` for the player (the platform turns them into ``Refusal``)."""
        ...

    def initial(self) -> S: ...
    def decide(self, state: S, command: C) -> Sequence[E]: ...
    def evolve(self, state: S, event: E) -> S: ...

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


class Codec(Protocol[E]):
    """Its events as records: stored under type names namespaced by the module's name."""

    def encode(self, event: E) -> EventRecord: ...

    def decode_all(self, records: Sequence[EventRecord]) -> list[E]:
        """Decode a stream's records (upcasting old schema versions); raises for an unreadable one."""
        ...


class LeftToChance(Protocol[S_contra, E]):
    """What a game leaves to chance, so that anyone can check it against the game's seed."""

    @property
    def draws(self) -> str | None:
        """What its random outcomes are called (``dice``, ``cards``); ``None`` for a game that leaves
        nothing to chance (it draws no seed, and shows no seal)."""
        ...

    def redraw(self, before: S_contra, event: E, chance: Chance) -> tuple[E, int] | None:
        """``event`` as ``chance`` would have made it from the game ``before`` it, and how many
        dice or cards it drew; ``None`` for an event that draws nothing (what ``verify`` checks)."""
        ...


class ReadModel(Protocol[E_contra]):
    """A game at a glance, for the read models (histories, stats, ratings)."""

    def summary(self, events: Sequence[E_contra]) -> Summary:
        """The game folded from its log (any prefix of it: a running game too)."""
        ...

    async def assess(self, events: Sequence[E_contra]) -> Sequence[Mapping[str, int]] | None:
        """Each seat's facts that take long to find (Hog's exact review: accuracy, blunders), added
        to the summary's once the game is decided; ``None`` for none. The projector asks once per
        decided game and again on a rebuild, so the numbers are the log's; work off the event loop."""
        ...


class Presentation(Protocol[S, E, C_co]):
    """How the game is told and shown, and what it brings to the fronts and the command line."""

    discord_front: str
    """``module:callable`` that builds its Discord front (imported by the Discord client only)."""

    @property
    def settings(self) -> Sequence[tuple[str, str]]:
        """The environment variables it reads (``Settings.env``), each with what it means."""
        ...

    @property
    def subcommands(self) -> Sequence[Subcommand]:
        """Its own commands of ``python -m bot`` (none is fine)."""
        ...

    @property
    def console(self) -> ConsoleFront[S, C_co]: ...

    def narrate(self, events: Sequence[E]) -> Iterator[tuple[E, S, Lines]]:
        """Each event of a log with the state after it and its commentary (the same words live and in a replay)."""
        ...

    async def remarks(self, events: Sequence[E], step: int) -> Sequence[str]:
        """What a review of the game says at step ``step`` (from 1), for anyone to read (Hog: each
        player's accuracy and that step's move); none when the game has none to tell everyone."""
        ...

    def history_line(self, row: GameRow, player_id: str | None) -> str:
        """One finished or running game in a list of ``player_id``'s games (``None``: of everyone's)."""
        ...

    async def picture(self, events: Sequence[E], step: int | None = None) -> bytes | None:
        """The PNG of the game as anyone may see it (``step``, from 1: as it stood then, where the game
        can show that), or ``None`` when there is nothing to draw (yet)."""
        ...

    async def animation(self, events: Sequence[E]) -> bytes | None:
        """The game drawn move by move as an animated GIF, or ``None`` when there is nothing to animate."""
        ...

    def public(self, state: S) -> object:
        """The game as anyone may see it: no card in anyone's hand, nothing undealt. What a public
        board (in Discord, a picture, and next the web) may be drawn from."""
        ...


class Game(Rules[S, E, C], Codec[E], LeftToChance[S, E], ReadModel[E], Presentation[S, E, C], Protocol[S, E, C]):
    """A whole game module: every protocol above."""


@dataclass(frozen=True)
class Replay:
    """What ``python -m bot replay`` asks of a game's console: every step or ``step`` (from 1), and
    the files to draw the game in (``picture``: a PNG; ``gif``: its animation), when given."""

    step: int | None = None
    picture: Path | None = None
    gif: Path | None = None
    pause: Callable[[], Awaitable[bool]] | None = None
    """Between two steps (at a terminal a person reads): waits for them, and says whether to go on."""

    async def goes_on(self, shown: int, steps: int) -> bool:
        """After step ``shown`` of ``steps``: whether to show the next (asked only between two steps)."""
        return shown >= steps or self.pause is None or await self.pause()


class ConsoleFront(Protocol[S_contra, C_co]):
    """A game at the terminal: the platform's console reads lines and stores the commands."""

    def to_move(self, state: S_contra) -> str | None:
        """The player to move (at a shared keyboard, whoever it is), ``None`` when nobody is."""
        ...

    def prompt(self, state: S_contra) -> str: ...

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """The options of ``python -m bot <game>`` that shape a new game (each defaulting to ``None``,
        so that ``conflicts`` can tell one given from one left out)."""
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

    async def stats(self, views: GameViews, player_id: str, stdout: TextIO) -> None:
        """The player's record in this game (read from ``views``), printed."""
        ...

    async def replay(self, events: Sequence[Any], game_id: str, stdout: TextIO, asked: Replay) -> None:
        """The stored game ``game_id`` (its ``events``, none missing) step by step, as anyone may see
        it, as ``asked`` (one step; files to draw the game in: a ``Refusal`` where it draws none)."""
        ...


class Storyteller(Protocol):
    """What a game may add to ``narrate`` (optional): new events told after the story so far, so a
    long game's move is told without telling the whole game again. ``story`` is what this returned
    last (``None``: the start); the words must be ``narrate``'s. A game without it is told whole."""

    def tell(self, story: Any, events: Sequence[Any]) -> tuple[Any, Sequence[tuple[Any, Any, Lines]]]: ...


class Trainer(Protocol):
    """What a game may add to ``assess`` (optional): each seat's moves that cost it dearly, by the
    version of the event that made them, found once the game is decided and kept by the read models
    (``mistakes``), so that a player's trainer reads its positions, not every game they played."""

    async def mistakes(self, events: Sequence[Any]) -> Sequence[Sequence[int]] | None: ...


class Summarizer(Protocol):
    """What a game may add to ``summary`` (optional): the summary of new events after a tally of the
    log so far, so that the read models follow a long game without folding all of it at every move.
    ``tally`` is what this returned last (``None``: the start); the summary must be ``summary``'s of
    the whole log. A game without it is summed up whole."""

    def summing(self, tally: Any, events: Sequence[Any]) -> tuple[Any, Summary]: ...


@dataclass(frozen=True)
class Setting:
    """One setting of a Discord server's: its key (``hog-goal``), what it means, its default, and how
    a typed value is read (the value as stored, or a ``Refusal`` saying what it may be)."""

    key: str
    what: str
    default: str
    read: Callable[[str], str] = field(repr=False)


class ServerOptions(Protocol):
    """What a game may add to a Discord server's settings (optional: ``bot.platform.server_settings``)."""

    @property
    def server_settings(self) -> Sequence[Setting]: ...


class Seating(Protocol):
    """What a game brings to be played in tournaments (optional: a game without it has none)."""

    table_sizes: tuple[int, int]
    """The fewest and the most players at one of its games (Hog: 2 and 2)."""

    def tournament_game(
        self, game_id: str, place: str, players: Sequence[tuple[str, str]], options: Mapping[str, str]
    ) -> Any:
        """The command that creates one game of a tournament, under way at once, its players (id and
        name) seated in order (the first moves first), with the tournament's options (``goal``)."""
        ...

    def withdraw(self, state: Any, player: str) -> Sequence[Any]:
        """The commands that take a dropped player out of a game they are playing (a forfeit)."""
        ...


class WebPages(Protocol):
    """What a game may add to the web front (optional): its own pages, added to the aiohttp
    application, and the front page's links to them (title, path)."""

    def web_pages(self, app: Any) -> Sequence[tuple[str, str]]: ...


class TurnTable(Protocol):
    """What a game may add to an export (optional): its turns as a table, one row a turn, for a
    notebook (``python -m bot export --format csv``)."""

    turn_columns: Sequence[str]
    """The table's columns, in order."""

    async def turn_rows(self, events: Sequence[Any]) -> Sequence[Sequence[object]]:
        """A finished game's turns, a row each."""
        ...


class HtmlBoard(Protocol):
    """What a game may draw on the web (optional): its board after a command, as ``viewer`` may see it
    (``""``: anyone), as a fragment of HTML its own templates escaped — the GUI's table, a game's page
    and each step of its replay, the embed show it — with its stylesheet, a file the web front serves
    at ``/boards/<game>.css``. A game without one is shown as its console's text."""

    board_style: Path

    async def html_board(self, outcome: Outcome[Any, Any], viewer: str) -> str: ...


class Emblem(Protocol):
    """What a game may show in the lobby (optional): a drawing of it, an SVG file the web front serves
    at ``/emblems/<game>.svg``, and a sentence that says what it is to someone who never played it."""

    emblem: Path
    blurb: str


@dataclass(frozen=True)
class Choice:
    """A move a player may press instead of typing it: the line it stands for (what they would type
    at the terminal), its button's label, what it does in words (for a screen reader), the key that
    presses it, why it may not be played now (``""`` when it may), and how it looks: class names
    its game's board stylesheet styles (a card's button drawn as the card, its suit's colour)."""

    line: str
    label: str
    words: str
    key: str = ""
    refused: str = ""
    look: str = ""


class MoveChoices(Protocol):
    """What a game may offer as buttons (optional): the moves ``player`` may choose from in ``state``
    (the GUI presses them as lines typed); a game without them is played by typing."""

    def move_choices(self, state: Any, player: str) -> Sequence[Choice]: ...


class ReplaySteps(Protocol):
    """What a game may add to a replay (optional): its events grouped into the steps a person steps
    through — the same at the terminal, in Discord and on the web (Cucumber: a trick a step) — as the
    number of events each step ends after, read off the game told (``narrate``'s, already at hand
    wherever steps are). A game without it steps an event at a time; ``remarks`` and ``picture``
    count its steps the same way."""

    def replay_steps(self, told: Sequence[tuple[Any, Any, Lines]]) -> Sequence[int]: ...


OPTIONAL: tuple[type, ...] = (
    Storyteller, Summarizer, ServerOptions, Seating, WebPages, TurnTable, HtmlBoard, MoveChoices, ReplaySteps,
)  # fmt: skip
"""What a game may bring beyond the contract: each whole or not at all (``check``)."""

P = TypeVar("P")


def optional(game: object, part: Callable[..., P]) -> P | None:
    """``game`` as the optional ``part`` (a protocol of this module) it brings, all its members, or
    ``None`` when it brings none (asked at every command: answered once per module's class, or of
    the module itself for a member it sets as it is made)."""
    kind: Any = type(game)
    found = _brings(kind, part) or all(hasattr(game, name) for name in members(part))
    return game if found else None  # type: ignore[return-value]


@functools.cache
def _brings(kind: type, part: Any) -> bool:
    return all(hasattr(kind, name) for name in members(part))


PARTS: tuple[type, ...] = (Rules, Codec, LeftToChance, ReadModel, Presentation)


def members(protocol: Any) -> list[str]:
    """The members a protocol of this module asks for, in the order it states them."""
    own = [name for name in vars(protocol) if not name.startswith("_")]
    return list(dict.fromkeys([*getattr(protocol, "__annotations__", {}), *own]))


def check(game: object, where: str) -> None:
    """Refuse, naming it, a game module (loaded from ``where``) that lacks a member of the contract:
    at load, not at the first player who needs it."""
    lacking = [f"{name!r} ({part.__name__})" for part in PARTS for name in members(part) if not hasattr(game, name)]
    for part in OPTIONAL:  # brought whole, or not at all: half of one is a mistake, said at load
        found = [name for name in members(part) if hasattr(game, name)]
        if found and len(found) < len(members(part)):
            lacking += [f"{name!r} ({part.__name__})" for name in members(part) if name not in found]
    console = getattr(game, "console", None)
    if console is not None:
        lacking += [f"console.{name} (ConsoleFront)" for name in members(ConsoleFront) if not hasattr(console, name)]
    if lacking:
        raise UnfitGame(f"the game module {where} lacks {', '.join(lacking)}")
