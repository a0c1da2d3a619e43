"""Your games are yours: every game written out as one JSON line (NDJSON), and read back into another
database.

A finished game's line carries its players, its fields (the rules), its result, its events exactly as
stored (type, schema version, bytes, time, the command that appended them) and its seed, so anyone can
check its dice or cards (``python -m bot verify``). A game still being played is listed by its
players and status alone: its log may hold what its players may not see yet (a hand, the deck), and
its seed is secret until it ends. ``bot.platform.importing`` reads such lines back.
"""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime

import msgspec

from bot.platform.chance import commitment
from bot.platform.compose import Platform
from bot.platform.contract import Refusal, TurnTable, optional
from storage.events import StoredEvent
from storage.games import GameRow

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
    return event.data.encode() if event.data is not None else base64.b64decode(event.data_base64 or "", validate=True)


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
            yield [spreadsheet_safe(cell) for cell in turn]


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection")."""


def spreadsheet_safe(cell: object) -> object:
    """A text cell that a spreadsheet would run as a formula, made text by a leading ``'``, as OWASP
    advises (a game id stored before ids were checked could be ``=HYPERLINK(...)``); numbers as they are."""
    if isinstance(cell, str) and cell.startswith(FORMULA_START):
        return "'" + cell
    return cell
