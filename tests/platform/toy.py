"""Press, a toy third game written only here to prove the contract: two seats take turns pressing
one button, and the first to three presses wins. A seat whose name starts with ``bot:`` presses by
itself; a person who lets ``timeout`` seconds pass is pressed for. Nothing of the platform knows it."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

import msgspec

from bot.platform.contract import Chance, Deadline, Lines, Reminder
from bot.platform.settings import Settings
from storage.games import GameRow, SeatSummary, Summary

WINS = 3


class ToyError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Created(msgspec.Struct, frozen=True, tag=True):
    game_id: str
    place: str
    players: tuple[str, str]
    timeout: int = 0


class Pressed(msgspec.Struct, frozen=True, tag=True):
    seat: int
    auto: bool = False


Event = Created | Pressed


class State(msgspec.Struct, frozen=True):
    game_id: str = ""
    place: str = ""
    players: tuple[str, ...] = ()
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


class ToyConsole:
    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--vs", default="bot:Robo")

    def new_game(self, args: argparse.Namespace, player_id: str, name: str) -> tuple[str, Created]:
        return "toy1", Created("toy1", "console", (player_id, args.vs))

    def conflicts(self, args: argparse.Namespace, row: GameRow) -> list[str]:
        return [] if args.vs in {s.player_id for s in row.seats} else [f"--vs {args.vs}"]

    def to_move(self, state: State) -> str | None:
        return None if state.is_over else state.players[state.turn]

    def prompt(self, state: State) -> str:
        return f"{state.players[state.turn]}, press? "

    async def answer(self, state: State, player_id: str, line: str) -> Callable[[Any, Chance], list[Press]] | str:
        if line != "press":
            raise ToyError(f"{line!r} is not 'press'.")
        return lambda state, chance: [Press(player_id)]

    async def stats(self, platform: Any, player_id: str, stdout: TextIO) -> None:
        record = await (await platform.settled_views()).stats(player_id, "toy", by="none", best="presses")
        print(f"{player_id}: {record.total.wins} of {record.total.games} won", file=stdout)

    async def replay(
        self, platform: Any, game_id: str, stdout: TextIO, step: int | None, picture: Path | None, gif: Path | None
    ) -> None:
        told = platform.games["toy"].narrate(await platform.service("toy").events(game_id))
        for i, (_, state, lines) in enumerate(told, 1):
            print(f"{i}. presses {state.presses[0]}-{state.presses[1]} | {' '.join(lines)}", file=stdout)

    async def board(self, outcome: Any, viewer: str) -> str:
        return f"presses {outcome.state.presses[0]}-{outcome.state.presses[1]} | " + " ".join(outcome.story)


class ToyGame:
    name, title, refusal, draws = "toy", "Press", ToyError, None
    discord_front = "tests.platform.toy_discord:ToyFront"

    def __init__(self, settings: Settings | None = None) -> None:
        self.console = ToyConsole()

    def initial(self) -> State:
        return State()

    def decide(self, state: State, command: Command) -> list[Event]:
        if isinstance(command, Created):
            return [command]
        if state.is_over or command.player not in state.players:
            raise ToyError("You are not pressing in this game.")
        if state.players[state.turn] != command.player:
            raise ToyError("Wait for your turn.")
        return [Pressed(state.turn, command.auto)]

    def evolve(self, state: State, event: Event) -> State:
        if isinstance(event, Created):
            return State(event.game_id, event.place, event.players, event.timeout, version=1)
        presses = tuple(n + (seat == event.seat) for seat, n in enumerate(state.presses))
        return msgspec.structs.replace(state, presses=presses, version=state.version + 1)

    def encode(self, event: Event) -> tuple[str, int, bytes]:
        return type(event).__name__, 1, msgspec.json.encode(event)

    def decode_all(self, records: Sequence[tuple[str, int, bytes]]) -> list[Event]:
        return [msgspec.json.decode(data, type=Event) for _, _, data in records]

    def narrate(self, events: Sequence[Event]) -> Iterator[tuple[Event, State, Lines]]:
        state = State()
        for event in events:
            state = self.evolve(state, event)
            said = f"{state.players[event.seat]} pressed." if isinstance(event, Pressed) else "Press!"
            yield event, state, (said, *(["Game over."] if state.is_over else []))

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
        raise ToyError("Press games are never called off.")

    def redraw(self, before: State, event: Event, chance: Chance) -> None:
        return None  # nothing in Press is left to chance

    def summary(self, events: Sequence[Event]) -> Summary:
        state = State()
        for event in events:
            state = self.evolve(state, event)
        results = [None if not state.is_over else "win" if n == WINS else "loss" for n in state.presses]
        seats = tuple(
            SeatSummary(
                p,
                p.partition(":")[2],
                "bot" if p.startswith("bot:") else None,
                state.presses[i],
                results[i],
                {"presses": 1},
            )
            for i, p in enumerate(state.players)
        )
        status = "over" if state.is_over else "pressing"
        return Summary(state.game_id, "toy", state.place, status, not state.is_over, state.version, seats)

    def history_line(self, row: GameRow, player_id: str | None) -> str:
        return " vs ".join(s.name for s in row.seats)
