"""Games read back from an export into this database, each proven before anything of it is stored.

A line is imported only if its game is finished, its log folds to the end in a game module played
here, its players, place and fields are the ones its log names, every id and name is one a game
played here could hold, every time lies between 2000 and tomorrow, and every die or card is the one
its revealed seed gives (``verify``). Then its seed and its whole log are written, the log in one
transaction: a refused line, a database that refuses a row or a kill halfway stores nothing of a
game that could be played on. A game already here is compared with the line, never appended to.

Each imported game is marked with the file it came from and when (``Kept.provenance``). A seal
proves the dice, not who sat at the table: a game's players can be rewritten and it still verifies.
So an imported game counts toward ratings, records and seasons only when the operator trusts the
file (``trust``); it is replayable, verifiable and in its players' histories either way.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

import msgspec

from bot.platform.chance import commitment
from bot.platform.codec import from_records
from bot.platform.compose import Platform
from bot.platform.contract import Refusal
from bot.platform.export import DECODER, FORMAT, MAX_LINE, Game, Player, data_of
from bot.platform.fairness import FAIR, UNFAIR, verify
from bot.platform.names import checked, unseen
from bot.platform.registry import RECORD, AnyGame
from bot.platform.service import GameService
from storage.errors import DATABASE_ERRORS
from storage.events import NewEvent, StoredEvent, StoreError
from storage.kept import Provenance
from storage.memory import MemoryEventStore
from storage.summaries import Summary

GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
"""A game id as this bot makes them (``g1a2b3c4d5e``, ``t0a1b2c3dr1g2``): no record's ``@``, no path."""
MAX_PLACE, MAX_PLAYER_ID, MAX_COMMAND, MAX_FIELD = 200, 64, 200, 100
EARLIEST = 946_684_800.0
"""2000-01-01 (UTC): no game here is older."""
DAY = 86_400.0
REFUSING: tuple[type[Exception], ...] = (StoreError, *DATABASE_ERRORS)
"""What the database may raise for one line's game: that line refused, the import goes on."""


REASONS = {
    "unreadable": "not a game as export writes it",
    "names": "an id, a name or a place not allowed here",
    "times": "a time outside 2000 to tomorrow",
    "running": "still being played",
    "unproven": "not proven by its seed",
    "different": "a different game under an id stored here",
    "database": "refused by the database",
}
"""Why a line is refused, as the summary counts them."""


class LineRefused(Exception):
    """A line that changes nothing: ``reason`` is one of ``REASONS``, ``text`` says exactly why."""

    def __init__(self, reason: str, text: str) -> None:
        super().__init__(text)
        self.reason, self.text = reason, text


@dataclass
class Imported:
    """What an import did, game by game."""

    stored: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    """Games here already, event for event: left alone."""
    running: list[str] = field(default_factory=list)
    """Games still being played when exported: their logs were not in the file."""
    trusted: list[str] = field(default_factory=list)
    """Games imported before without trust, trusted now (they count from the next rebuild)."""
    refused: list[str] = field(default_factory=list)
    """Each line refused, and why."""
    reasons: Counter[str] = field(default_factory=Counter)
    """How many lines were refused for each of ``REASONS``."""

    def refuse(self, number: int, refused: LineRefused) -> None:
        self.refused.append(f"line {number}: {refused.text}")
        self.reasons[refused.reason] += 1

    def text(self) -> str:
        were = "was" if len(self.already) == 1 else "were"
        said = f"Imported {plural(len(self.stored), 'game')}; {len(self.already)} {were} here already"
        if self.trusted:
            said += f"; {len(self.trusted)} of them now trusted (python -m bot rebuild counts them)"
        if self.running:
            said += f"; {plural(len(self.running), 'game')} still being played left out (their logs are not exported)"
        if self.refused:
            why = ", ".join(f"{n} {REASONS[r]}" for r, n in self.reasons.most_common())
            said += f"; {plural(len(self.refused), 'line')} refused ({why}), nothing of them stored"
        return "\n".join([said + ".", *self.refused])


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


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


async def import_lines(
    p: Platform, lines: Iterable[bytes], source: str = "a file", *, trust: bool = False, now: float | None = None
) -> Imported:
    """Store every finished game of an export that is not here yet, each proven first (``_proven``)
    and written whole in one transaction; ``source`` names the file in each game's provenance, and
    ``trust`` lets the games count toward ratings, records and seasons."""
    done = Imported()
    when = time.time() if now is None else now
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            if len(text) > MAX_LINE:
                raise LineRefused("unreadable", f"longer than {MAX_LINE:,} bytes: not a game as export writes it")
            try:
                game = DECODER.decode(text)
            except msgspec.DecodeError as error:
                raise LineRefused("unreadable", _unreadable(text, error)) from error
            await _import(p, game, done, Provenance(source, when, trust))
        except LineRefused as refused:
            done.refuse(number, refused)
        except REFUSING as error:
            done.refuse(number, LineRefused("database", f"the database refused it ({error}): nothing of it was stored"))
    return done


def _unreadable(text: bytes, error: msgspec.DecodeError) -> str:
    if text.lstrip().startswith(b"game_id,") or (text.count(b",") > 10 and not text.lstrip().startswith(b"{")):
        return "this is a CSV export (a table of turns); import reads the NDJSON one (export without --format)"
    return f"not a game as export writes it ({error})"


async def _import(p: Platform, game: Game, done: Imported, origin: Provenance) -> None:
    if game.format != FORMAT:
        raise LineRefused("unreadable", f"a line of format {game.format!r}, not {FORMAT!r}")
    _check_names(game.game_id, game.place, game.players, game.fields)
    if game.events is None:
        done.running.append(game.game_id)
        return
    proven = await _proven(p, game, origin.at)
    have = await p.store.load(game.game_id)
    if have:
        same_log = [_stamped(e) for e in have] == [_stamped(e) for e in proven.log]
        if not same_log or await p.kept.seed(game.game_id) != proven.seed:
            raise LineRefused(
                "different", f"a different game {game.game_id} is stored here already: nothing of it was imported"
            )
        first = await p.kept.provenance(game.game_id)
        if origin.trusted and first is not None and not first.trusted:
            await p.kept.mark_imported(game.game_id, origin.source, origin.at, True)
            done.trusted.append(game.game_id)
        done.already.append(game.game_id)
        return
    if proven.seed is not None and await p.kept.seed(game.game_id) not in (None, proven.seed):
        raise LineRefused("different", f"game {game.game_id} has another seed here already: nothing of it was imported")
    await p.kept.mark_imported(game.game_id, origin.source, origin.at, origin.trusted)
    try:
        if proven.seed is not None:
            await p.kept.seal(game.game_id, proven.seed)
        await p.store.restore(
            game.game_id, [(NewEvent(e.type, e.schema, e.data), e.command_id, e.recorded_at) for e in proven.log]
        )
    except BaseException:
        await p.kept.unmark_imported(game.game_id)
        raise
    done.stored.append(game.game_id)


def _stamped(e: StoredEvent) -> tuple[object, ...]:
    return (e.version, e.type, e.schema, e.data, e.recorded_at, e.command_id)


@dataclass(frozen=True)
class Proven:
    log: list[StoredEvent]
    seed: bytes | None


async def _proven(p: Platform, game: Game, now: float) -> Proven:
    """The line's log, as it would be stored, once everything about it is proven: numbered 1, 2, 3 …,
    each time between 2000 and tomorrow, each command id fit to store, a finished game of a module
    played here whose players, place and fields are the line's, and every draw the seed's (a module
    that draws nothing: its log folds to the end). ``LineRefused`` says what is not."""
    events = game.events or []
    if not events:
        raise LineRefused("unreadable", f"game {game.game_id} has an empty log")
    if [e.version for e in events] != list(range(1, len(events) + 1)):
        raise LineRefused("unreadable", f"game {game.game_id}'s events are not numbered 1, 2, 3 … in order")
    latest = now + DAY
    for when in (game.started_at, game.updated_at, *(e.recorded_at for e in events)):
        if not EARLIEST <= when <= latest:
            raise LineRefused("times", f"game {game.game_id} has a time ({when!r}) outside 2000-01-01 to tomorrow")
    for e in events:
        if e.command_id is not None and not _fit(e.command_id, MAX_COMMAND):
            raise LineRefused("names", f"game {game.game_id} has a command id that is not one ({e.command_id[:40]!r})")
    try:
        module = p.games.of(events[0].type)
    except Refusal as refused:
        raise LineRefused("unreadable", f"game {game.game_id}: {refused.message}") from refused
    try:
        seed = None if game.seed is None else bytes.fromhex(game.seed)
        data = [data_of(e) for e in events]
    except ValueError as error:
        raise LineRefused(
            "unreadable", f"game {game.game_id}'s seed or events are not as export writes them ({error})"
        ) from error
    if seed is not None and game.sealed is not None and commitment(seed) != game.sealed:
        raise LineRefused("unproven", f"game {game.game_id}'s seed is not the one its seal names")
    checked = await MemoryEventStore.open()
    try:
        stamps = [
            (NewEvent(e.type, e.schema, d), e.command_id, e.recorded_at) for e, d in zip(events, data, strict=True)
        ]
        await checked.restore(game.game_id, stamps)
        log = await checked.load(game.game_id)
        verdict = await verify(GameService(module, checked), Seed(seed), game.game_id)
        if verdict.status == UNFAIR:  # it names the first draw or event that is not the seed's
            raise LineRefused("unproven", f"game {game.game_id} does not verify against its seed: {verdict.text}")
        if not _folded(module, game.game_id, log).is_over:
            raise LineRefused("running", f"game {game.game_id} is still being played: only a finished game is imported")
        _same_game(game, module.summary(from_records(module, log)))
        if module.draws is not None and verdict.status != FAIR:
            raise LineRefused("unproven", f"game {game.game_id} cannot be proven: {verdict.text}")
    finally:
        await checked.close()
    return Proven(log, seed)


def _folded(module: AnyGame, game_id: str, log: Sequence[StoredEvent]) -> Any:
    """The game ``log`` folds to; ``LineRefused`` if it cannot be read or followed."""
    try:
        state = module.initial()
        for event in from_records(module, log):
            state = module.evolve(state, event)
    except Exception as error:  # an event this module cannot read, or that cannot follow the game
        raise LineRefused("unproven", f"game {game_id}'s log cannot be played through ({error})") from error
    return state


def _same_game(game: Game, summary: Summary) -> None:
    """The line's own words about the game (its id, game, status, players, place, fields) must be its log's."""
    players = [(s.player_id, s.name, s.bot) for s in summary.seats]
    said = (summary.game_id, summary.game, summary.status, summary.live)
    if (
        said != (game.game_id, game.game, game.status, game.live)
        or players != [(s.id, s.name, s.bot) for s in game.players]
        or summary.place != game.place
        or {k: str(v) for k, v in summary.fields.items()} != game.fields
    ):
        raise LineRefused("unproven", f"game {game.game_id}'s line names players, a place or settings its log does not")


def _check_names(game_id: str, place: str, players: Sequence[Player], fields: Mapping[str, str]) -> None:
    """Only what a game played here could hold: an id of letters, digits, ``-`` and ``_`` (no
    record's ``@``, no path), names by the rule every front keeps, printable places and fields."""
    if not GAME_ID.fullmatch(game_id):
        raise LineRefused("names", f"{game_id[:40]!r} is not a game id (1 to 64 letters, digits, - and _)")
    if place and (not _fit(place, MAX_PLACE) or place.startswith(RECORD)):
        raise LineRefused("names", f"game {game_id}'s place {place[:40]!r} is not one")
    for player in players:
        if (
            not _fit(player.id, MAX_PLAYER_ID)
            or player.id.startswith(RECORD)
            or (player.bot is not None and not _fit(player.bot, MAX_PLAYER_ID))
        ):
            raise LineRefused("names", f"game {game_id} has a player id that is not one ({player.id[:40]!r})")
        try:
            if checked(player.name, "A player's name") != player.name:
                raise LineRefused("names", f"game {game_id}'s player name {player.name!r} is not written as a name is")
        except Refusal as refused:
            raise LineRefused("names", f"game {game_id}: {refused.message}") from refused
    if not all(_fit(k, MAX_FIELD) and _fit(v, MAX_FIELD) for k, v in fields.items()):
        raise LineRefused("names", f"game {game_id}'s fields are not a game's settings")


def _fit(text: str, longest: int) -> bool:
    """Printable, with no invisible character, 1 to ``longest`` characters."""
    return 0 < len(text) <= longest and text.isprintable() and not unseen(text)
