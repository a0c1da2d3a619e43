"""Your games are yours: every game written out as one JSON line (NDJSON), and read back into another
database.

A finished game's line carries its players, its fields (the rules), its result, its events exactly as
stored (type, schema version, bytes, time, the command that appended them) and its seed, so anyone can
check its dice or cards (``python -m bot verify``). A game still being played is listed by its
players and status alone: its log may hold what its players may not see yet (a hand, the deck), and
its seed is secret until it ends. An import stores each finished game event for event, once (a game
already there unchanged is left alone; one stopped halfway goes on), after checking every draw against
the seed it came with: a line that does not verify changes nothing.
"""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import BinaryIO

import msgspec

from bot.platform.chance import commitment
from bot.platform.compose import Platform
from bot.platform.contract import Refusal, TurnTable, optional
from bot.platform.fairness import UNFAIR, verify
from bot.platform.service import GameService
from storage.events import EventStore, NewEvent, StoredEvent, StoreError
from storage.games import GameRow
from storage.memory import MemoryEventStore

FORMAT = "hogbot-game/1"
PAGE = 500
"""Games read from the read models at a time: an export's memory does not grow with the history."""
MAX_LINE = 16 * 1024 * 1024
"""The longest line an import reads (a game of thousands of moves is a few hundred KiB)."""


class Event(msgspec.Struct, frozen=True, omit_defaults=True):
    version: int
    type: str
    schema: int
    recorded_at: float
    data: str | None = None
    """The event's bytes as text (UTF-8), as they are stored."""
    data_base64: str | None = None
    """The event's bytes in base64, for bytes that are not UTF-8."""
    command_id: str | None = None


class Player(msgspec.Struct, frozen=True):
    id: str
    name: str
    bot: str | None
    score: int
    result: str | None


class Game(msgspec.Struct, frozen=True, omit_defaults=True):
    format: str
    game_id: str
    game: str
    place: str
    status: str
    live: bool
    started_at: float
    updated_at: float
    players: list[Player]
    fields: dict[str, str]
    sealed: str | None = None
    """The SHA-256 of the game's seed, as its boards showed it."""
    seed: str | None = None
    """The seed itself, in hex, once the game is over."""
    events: list[Event] | None = None
    """Its log, once the game is over."""


ENCODER = msgspec.json.Encoder()
DECODER = msgspec.json.Decoder(Game)


def event_of(stored: StoredEvent) -> Event:
    try:
        text, coded = stored.data.decode(), None
    except UnicodeDecodeError:
        text, coded = None, base64.b64encode(stored.data).decode()
    return Event(stored.version, stored.type, stored.schema, stored.recorded_at, text, coded, stored.command_id)


def data_of(event: Event) -> bytes:
    return event.data.encode() if event.data is not None else base64.b64decode(event.data_base64 or "")


async def line_of(p: Platform, row: GameRow) -> bytes:
    """A game as one line of JSON (its log and seed only once it is over)."""
    seed = await p.kept.seed(row.game_id)
    over = not row.live
    game = Game(
        FORMAT,
        row.game_id,
        row.game,
        row.place,
        row.status,
        row.live,
        row.started_at,
        row.updated_at,
        [Player(s.player_id, s.name, s.bot, s.score, s.result) for s in row.seats],
        {k: str(v) for k, v in row.fields.items()},
        None if seed is None else commitment(seed),
        seed.hex() if seed is not None and over else None,
        [event_of(e) for e in await p.store.load(row.game_id)] if over else None,
    )
    return ENCODER.encode(game) + b"\n"


def day_start(text: str) -> float:
    """A day written ``YYYY-MM-DD`` as its first second (UTC); ``ValueError`` for anything else."""
    return datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=UTC).timestamp()


@dataclass(frozen=True)
class Asked:
    """Which games to export: one, a player's (by id or by name here), a server's, those since a time."""

    game_id: str | None = None
    player_id: str | None = None
    name: str | None = None
    server: str | None = None
    since: float | None = None


async def exported(p: Platform, asked: Asked) -> AsyncIterator[bytes]:
    """Each game ``asked`` for as a line, oldest first."""
    async for row in rows_asked(p, asked):
        yield await line_of(p, row)


async def rows_asked(p: Platform, asked: Asked) -> AsyncIterator[GameRow]:
    """Each game ``asked`` for, oldest first, read a page at a time."""
    views = await p.settled_views()
    if asked.game_id is not None:
        row = await views.game(asked.game_id)
        if row is None:
            raise Refusal(f"There is no game {asked.game_id!r} in {p.settings.where}.")
        yield row
        return
    after: tuple[float, str] | None = None
    while page := await views.started_after(
        after, PAGE, player_id=asked.player_id, seat_name=asked.name, server=asked.server, since=asked.since
    ):
        for row in page:
            yield row
        after = (page[-1].started_at, page[-1].game_id)


async def turns_exported(p: Platform, asked: Asked) -> AsyncIterator[list[object]]:
    """The turns of each finished game asked for whose game brings a table of them (``TurnTable``:
    Hog's), its columns first; ``Refusal`` when no game here has one."""
    tables = {name: t for name, game in p.games.items() if (t := optional(game, TurnTable)) is not None}
    if not tables:
        raise Refusal("No game here has its turns as a table (Hog has: export its games as CSV).")
    columns = next(iter(tables.values())).turn_columns
    yield list(columns)
    async for row in rows_asked(p, asked):
        table = tables.get(row.game)
        if table is None or row.live or list(table.turn_columns) != list(columns):
            continue
        for turn in await table.turn_rows(await p.service(row.game).events(row.game_id)):
            yield list(turn)


@dataclass
class Imported:
    """What an import did, game by game."""

    stored: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    """Games here already, event for event: left alone."""
    running: list[str] = field(default_factory=list)
    """Games still being played when exported: their logs were not in the file."""
    refused: list[str] = field(default_factory=list)
    """Each line refused, and why (a game that does not verify, a different game under its id)."""

    def text(self) -> str:
        said = f"Imported {len(self.stored)} games; {len(self.already)} were here already"
        if self.running:
            said += f"; {len(self.running)} still being played were left out (their logs are not exported)"
        return "\n".join([said + ".", *self.refused])


class Seed:
    """A seed for ``verify`` to check a game against before it is stored."""

    def __init__(self, seed: bytes | None) -> None:
        self._seed = seed

    async def seed(self, game_id: str) -> bytes | None:
        return self._seed

    async def seal(self, game_id: str, seed: bytes) -> bytes:
        return self._seed or seed


def lines_of(file: BinaryIO) -> Iterator[bytes]:
    """A file's lines, none read past ``MAX_LINE`` (a longer one comes as its first ``MAX_LINE + 1``
    bytes, refused by its length, and the rest of it is skipped)."""
    while line := file.readline(MAX_LINE + 1):
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            while (rest := file.readline(MAX_LINE)) and not rest.endswith(b"\n"):
                pass
        yield line


async def import_lines(p: Platform, lines: Iterable[bytes]) -> Imported:
    """Store every finished game of an export that is not here yet, each checked against its seed."""
    done = Imported()
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            if len(text) > MAX_LINE:
                raise Refusal(f"longer than {MAX_LINE:,} bytes: not a game as export writes it")
            try:
                game = DECODER.decode(text)
            except msgspec.DecodeError as error:
                raise Refusal(f"not a game as export writes it ({error})") from error
            await _import(p, game, done)
        except Refusal as refused:
            done.refused.append(f"line {number}: {refused.message}")
        except (ValueError, StoreError) as error:  # a seed or bytes not as written (hex, base64), a command reused
            done.refused.append(f"line {number}: not a game as export writes it ({error})")
    return done


async def _import(p: Platform, game: Game, done: Imported) -> None:
    if game.format != FORMAT:
        raise Refusal(f"a line of format {game.format!r}, not {FORMAT!r}")
    if game.events is None:
        done.running.append(game.game_id)
        return
    if not game.events or [e.version for e in game.events] != list(range(1, len(game.events) + 1)):
        raise Refusal(f"game {game.game_id}'s events are not numbered 1, 2, 3 … in order")
    module = p.games.of(game.events[0].type)  # ``Refusal`` for a game this bot does not play
    seed = None if game.seed is None else bytes.fromhex(game.seed)
    if seed is not None and game.sealed is not None and commitment(seed) != game.sealed:
        raise Refusal(f"game {game.game_id}'s seed is not the one its seal names")
    have = [(e.version, e.type, e.schema, e.data) for e in await p.store.load(game.game_id)]
    given = [(e.version, e.type, e.schema, data_of(e)) for e in game.events]
    if have and given[: len(have)] != have:
        raise Refusal(f"a different game {game.game_id} is stored here already: nothing of it was imported")
    if len(have) == len(given):
        done.already.append(game.game_id)
        return
    checked = await MemoryEventStore.open()
    try:
        await _append(checked, game, 0)
        verdict = await verify(GameService(module, checked), Seed(seed), game.game_id)
    finally:
        await checked.close()
    if verdict.status == UNFAIR:
        raise Refusal(f"game {game.game_id} does not verify against its seed: {verdict.text}")
    if seed is not None and await p.kept.seal(game.game_id, seed) != seed:  # a seed drawn here, its game never stored
        raise Refusal(f"game {game.game_id} has another seed here already: nothing of it was imported")
    await _append(p.store, game, len(have))
    done.stored.append(game.game_id)


async def _append(store: EventStore, game: Game, have: int) -> None:
    """``game``'s events after the first ``have``, appended as they were: each command's together,
    with its id and time."""
    batches: list[list[Event]] = []
    for event in (game.events or [])[have:]:
        if batches and (event.command_id, event.recorded_at) == (batches[-1][0].command_id, batches[-1][0].recorded_at):
            batches[-1].append(event)
        else:
            batches.append([event])
    for batch in batches:
        first = batch[0]
        records = [NewEvent(e.type, e.schema, data_of(e)) for e in batch]
        await store.append(game.game_id, records, first.version - 1, first.command_id, first.recorded_at)
