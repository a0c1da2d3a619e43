"""Press, the smallest game on hogbot's platform: two seats take turns pressing one button, and the
first to three presses wins. A seat whose player id starts with ``bot:`` presses by itself; a
person who lets ``timeout`` seconds pass is pressed for. Nothing of the platform knows it: hogbot
finds it by its entry point (``hogbot.games``, in this example's ``pyproject.toml``).

Everything a game gives the platform is here, in the order of ``bot.platform.contract``: the rules
(``decide``, ``evolve``, bots and deadlines), the codec, the draws (none), the read model (``summary``)
and the presentation (its story, its line in a history, its console front). Its Discord front is
``hogbot_press.discord_front``, named by an import path so that this module never imports discord.
"""

from __future__ import annotations

import argparse
import secrets
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TextIO

import msgspec

from bot.platform.contract import Chance, Deadline, EventRecord, GameRow, Lines, Reminder, Replay, SeatSummary, Summary
from bot.platform.settings import Settings

WINS = 3


class PressError(Exception):
    """A press the rules refuse; ``message`` is for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# --- events, state and commands: frozen structs, stored as JSON ---------------------------------


class Created(msgspec.Struct, frozen=True, tag=True, gc=False):
    game_id: str
    place: str
    players: tuple[str, str]
    names: tuple[str, str] = ("", "")
    timeout: int = 0


class Pressed(msgspec.Struct, frozen=True, tag=True, gc=False):
    seat: int
    auto: bool = False
    """Pressed for an idle player when their time ran out."""


Event = Created | Pressed


class State(msgspec.Struct, frozen=True, gc=False):
    """Kept in memory while the game is played: values only, so ``gc=False`` (docs/adding-a-game.md)."""

    game_id: str = ""
    place: str = ""
    players: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    timeout: int = 0
    presses: tuple[int, int] = (0, 0)
    version: int = 0

    @property
    def turn(self) -> int:
        return sum(self.presses) % 2

    @property
    def is_over(self) -> bool:
        return WINS in self.presses


class Press(msgspec.Struct, frozen=True):
    player: str
    auto: bool = False


Command = Created | Press


def named(player: str, name: str = "") -> str:
    """A seat's name: the one given, else its id without its prefix (``bot:Robo`` is Robo)."""
    return name or player.partition(":")[2] or player


# --- the console front: what to ask at a terminal, and what a line means ---------------------------


class PressConsole:
    def __init__(self, game: PressGame) -> None:
        self.game = game

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--vs", metavar="BOT", help="your opponent, a bot (default: bot:Robo)")

    def new_game(self, args: argparse.Namespace, player_id: str, name: str) -> tuple[str, Created]:
        game_id = f"p{secrets.token_hex(4)}"
        rival = args.vs or "bot:Robo"
        return game_id, Created(game_id, "console", (player_id, rival), (name, named(rival)))

    def conflicts(self, args: argparse.Namespace, row: GameRow) -> list[str]:
        return [] if args.vs is None or args.vs in {s.player_id for s in row.seats} else [f"--vs {args.vs}"]

    def to_move(self, state: State) -> str | None:
        return None if state.is_over else state.players[state.turn]

    def prompt(self, state: State) -> str:
        return f"{named(state.players[state.turn], state.names[state.turn])}, type press: "

    async def answer(self, state: State, player_id: str, line: str) -> Callable[[Any, Chance], list[Press]] | str:
        if line != "press":
            raise PressError(f"{line!r} is not 'press'.")
        return lambda state, chance: [Press(player_id)]

    async def board(self, outcome: Any, viewer: str) -> str:
        return f"presses {outcome.state.presses[0]}-{outcome.state.presses[1]} | " + " ".join(outcome.story)

    async def stats(self, views: Any, player_id: str, stdout: TextIO) -> None:
        record = await views.stats(player_id, "press", by="none", best="presses")
        print(f"{player_id.partition(':')[2]}: {record.total.wins} of {record.total.games} won", file=stdout)

    async def replay(self, events: Sequence[Event], game_id: str, stdout: TextIO, asked: Replay) -> None:
        told = list(self.game.narrate(events))
        for i, (_, state, lines) in enumerate(told, 1):
            if asked.step is None or asked.step == i:
                print(f"{i}. presses {state.presses[0]}-{state.presses[1]} | {' '.join(lines)}", file=stdout)


# --- the game module -----------------------------------------------------------------------------


class PressGame:
    name, title, refusal, draws = "press", "Press", PressError, None
    discord_front = "hogbot_press.discord_front:PressFront"
    settings: tuple[tuple[str, str], ...] = ()
    subcommands = ()

    def __init__(self, settings: Settings | None = None) -> None:
        self.console = PressConsole(self)

    # rules
    def initial(self) -> State:
        return State()

    def decide(self, state: State, command: Command) -> list[Event]:
        if isinstance(command, Created):
            return [command]
        if state.is_over or command.player not in state.players:
            raise PressError("You are not pressing in this game.")
        if state.players[state.turn] != command.player:
            raise PressError("Wait for your turn.")
        return [Pressed(state.turn, command.auto)]

    def evolve(self, state: State, event: Event) -> State:
        if isinstance(event, Created):
            names = tuple(named(p, n) for p, n in zip(event.players, event.names, strict=True))
            return State(event.game_id, event.place, event.players, names, event.timeout, version=1)
        presses = tuple(n + (seat == event.seat) for seat, n in enumerate(state.presses))
        return msgspec.structs.replace(state, presses=presses, version=state.version + 1)

    async def automatic(self, state: State, chance: Chance) -> Press | None:
        mover = None if state.is_over else state.players[state.turn]
        return Press(mover, auto=True) if mover is not None and mover.startswith("bot:") else None

    def deadlines(self, state: State, created_at: float, last_at: float) -> list[Deadline]:
        if state.is_over or not state.timeout:
            return []
        return [Deadline(last_at + state.timeout / 2, "nudge"), Deadline(last_at + state.timeout, "late")]

    def on_deadline(self, state: State, kind: str) -> list[Press] | Reminder:
        mover = state.players[state.turn]
        return Reminder(mover, "press soon!") if kind == "nudge" else [Press(mover, auto=True)]

    def call_off(self, state: State) -> list[Command]:
        raise PressError("Press games are never called off.")

    # codec
    def encode(self, event: Event) -> EventRecord:
        return type(event).__name__, 1, msgspec.json.encode(event)

    def decode_all(self, records: Sequence[EventRecord]) -> list[Event]:
        return [msgspec.json.decode(data, type=Event) for _, _, data in records]

    # draws
    def redraw(self, before: State, event: Event, chance: Chance) -> None:
        return None  # nothing in Press is left to chance

    # read model
    def summary(self, events: Sequence[Event]) -> Summary:
        state = State()
        for event in events:
            state = self.evolve(state, event)
        results = [None if not state.is_over else "win" if n == WINS else "loss" for n in state.presses]
        seats = tuple(
            SeatSummary(
                p, state.names[i], "bot" if p.startswith("bot:") else None, state.presses[i], results[i], {"presses": 1}
            )
            for i, p in enumerate(state.players)
        )
        status = "over" if state.is_over else "pressing"
        return Summary(state.game_id, "press", state.place, status, not state.is_over, state.version, seats)

    async def assess(self, events: Sequence[Event]) -> None:
        return None  # nothing to find at length: the summary says it all

    # presentation
    def narrate(self, events: Sequence[Event]) -> Iterator[tuple[Event, State, Lines]]:
        state = State()
        for event in events:
            state = self.evolve(state, event)
            said = f"{state.names[event.seat]} pressed." if isinstance(event, Pressed) else "Press!"
            yield event, state, (said, *(["Game over."] if state.is_over else []))

    async def remarks(self, events: Sequence[Event], step: int) -> tuple[str, ...]:
        return ()  # no review of Press

    async def picture(self, events: Sequence[Event], step: int | None = None) -> None:
        return None  # Press draws no picture

    async def animation(self, events: Sequence[Event]) -> None:
        return None

    def public(self, state: State) -> State:
        return state  # nothing in Press is hidden

    def history_line(self, row: GameRow, player_id: str | None) -> str:
        return " vs ".join(s.name for s in row.seats) + f" · {row.status} {'-'.join(str(s.score) for s in row.seats)}"
