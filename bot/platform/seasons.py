"""Seasons: a server's ratings started afresh every calendar month (or week, or never), each past
season's leaderboard kept readable, and a hall of fame.

A season's ratings are worked out from the read models of the games finished in the server during
it (rated as ``bot.platform.ratings`` rates every game, in the order they finished), so they are the
log's, a rebuild gives the same, and a change of the server's settings never rewrites the past:
a new season length takes effect when the current season ends; ``bots-rated`` applies to each game
as it stood when the game finished. The all-time ratings stay as they are.

A past season's table is worked out once and kept (``RatingViews.keep_season``); the running one's
ratings are carried forward in memory (``Running``, a few per busy server in ``Seasons.running``)
and kept in the read models as far as they were carried (``Kept``), so a process that starts goes on
from there: a season board or the hall of fame reads a season's games once, never a server's whole
history, and after a start only the games finished since the season was last shown.

Seasons are numbered from 1, the season in which the server's first game finished; a stretch of
``none`` has no seasons and numbers none.
"""

from __future__ import annotations

import calendar
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import msgspec

from bot.platform.projection import Settled
from bot.platform.ratings import FARM_WINDOW, Decided, Ledger, rateable, rateable_with_bots
from bot.platform.recent import Recent
from bot.platform.server_settings import Chosen, ServerSettings
from bot.platform.tournaments.book import Book
from bot.platform.tournaments.words import FORMAT_NAMES, champions
from storage.games import GameViews
from storage.ratings import Ranked, Rating

DEFAULT = "month"
HALL = 3
"""Each season's players in the hall of fame."""
RUNNING_KEPT = 1024
"""Servers' running seasons (by game) whose ratings a process carries forward: the busiest ones."""


@dataclass(frozen=True)
class Season:
    number: int
    start: float
    end: float
    length: str

    @property
    def label(self) -> str:
        begun = datetime.fromtimestamp(self.start, UTC)
        if self.length == "month":
            return f"{calendar.month_name[begun.month]} {begun.year}"
        return f"the week of {begun.day} {calendar.month_abbr[begun.month]} {begun.year}"

    @property
    def title(self) -> str:
        return f"Season {self.number} ({self.label})"


def period(length: str, at: float) -> tuple[float, float]:
    """The calendar month (UTC), or the week from Monday, that ``at`` falls in."""
    moment = datetime.fromtimestamp(at, UTC)
    if length == "week":
        monday = (moment - timedelta(days=moment.weekday())).replace(hour=0, minute=0, second=0, microsecond=0)
        return monday.timestamp(), (monday + timedelta(days=7)).timestamp()
    first = moment.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    following = first.replace(year=first.year + first.month // 12, month=first.month % 12 + 1)
    return first.timestamp(), following.timestamp()


def value_at(changes: Sequence[tuple[float, str]], at: float, default: str) -> str:
    """A setting's value at ``at``, from its changes (each with when it was made)."""
    found = default
    for when, value in changes:
        if when <= at:
            found = value
    return found


def seasons(changes: Sequence[tuple[float, str]], first: float | None, now: float) -> list[Season]:
    """Every season from the one ``first`` fell in to the one running at ``now``, from the changes of
    the season length (``(when, month|week|none)``)."""
    if first is None:
        return []
    found: list[Season] = []
    at = first
    while at <= now:
        length = value_at(changes, at, DEFAULT)
        if length == "none":
            later = [when for when, value in changes if when > at and value != "none"]
            if not later:
                break
            at = later[0]
            continue
        start, end = period(length, at)
        start = max(start, found[-1].end) if found else start
        found.append(Season(len(found) + 1, start, end, length))
        at = end
    return found


def numbered(found: Sequence[Season], number: int) -> Season | None:
    """Season ``number`` of ``found`` (0: the season now, the last), ``None`` when there is none."""
    if number == 0:
        return found[-1] if found else None
    return next((s for s in found if s.number == number), None)


def season_changes(chosen: Chosen, key: str) -> list[tuple[float, str]]:
    return [(when, c.value) for when, c in chosen.changes if c.key == key]


SLACK = 60.0
"""Seconds by which a game may reach the read models after one that finished later (clocks of
several processes, a catch-up under way): a running season looks that far back for games it has
not rated yet."""


class Kept(msgspec.Struct, frozen=True):
    """A running season's ratings as ``Running`` keeps them in the read models (``season_running``),
    for the next process: what rating its next games needs, no more (a game read within ``SLACK`` of
    the last, a farming window's counted games)."""

    last: float
    people: list[str]
    ratings: list[Rating]
    recent: list[tuple[str, str, list[float]]]
    read: list[str]


@dataclass
class Running:
    """A season's ratings as far as its games have been rated, in the order they finished."""

    season: Season
    last: float = 0.0
    """When the last game rated finished."""
    people: set[str] = field(default_factory=set)
    with_bots: set[str] = field(default_factory=set)
    read: dict[str, float] = field(default_factory=dict)
    """The games read lately, and when each finished (those within ``SLACK`` of ``last`` are kept)."""
    ledger: Ledger = field(init=False)
    ranked: list[Ranked] | None = None
    """The table as it stands, until another game is rated."""

    def __post_init__(self) -> None:
        self.ledger = Ledger(counts=lambda s: rateable_with_bots(s) if s.game_id in self.with_bots else rateable(s))

    @classmethod
    async def of(cls, views: GameViews, server: str, game: str, season: Season) -> Running:
        """The season as a process last kept it (``None`` kept: from its start)."""
        state = await views.ratings.running(server, game, season.start)
        running = cls(season)
        if state is None:
            return running
        kept = KEPT.decode(state)
        running.last, running.people = kept.last, set(kept.people)
        running.read = dict.fromkeys(kept.read, kept.last)
        running.ledger.done = set(kept.read)
        running.ledger.ratings = {(r.game, r.player_id): r for r in kept.ratings}
        running.ledger.recent = {(g, key): times for g, key, times in kept.recent}
        return running

    async def carried(self, views: GameViews, settings: ServerSettings, server: str, game: str) -> Running:
        """Rated on with the games finished since the last rated (or from the season's start); one
        read again within ``SLACK`` is rated once (``Ledger.done``). Kept for the next process when
        a game was rated."""
        rows = await views.finished_in(server, game, max(self.season.start, self.last - SLACK), self.season.end)
        if not rows:
            return self
        bots = season_changes(await settings.of(server), "bots-rated")
        self.with_bots |= {r.game_id for r in rows if value_at(bots, r.updated_at, "no") == "yes"}
        rated, _ = self.ledger.rate(Decided(row, i, row.updated_at) for i, row in enumerate(rows))
        self.people |= {s.player_id for row in rows for s in row.seats if s.bot is None}
        self.last = max(self.last, rows[-1].updated_at)
        since = self.last - SLACK
        self.read = {
            g: at for g, at in (self.read | {row.game_id: row.updated_at for row in rows}).items() if at >= since
        }
        if rated:
            self.ranked = None
            await views.ratings.keep_running(server, game, self.season.start, self.last, self.kept())
        return self

    def kept(self) -> bytes:
        ledger, recent_since = self.ledger, self.last - SLACK - FARM_WINDOW
        return KEPT_ENCODER.encode(
            Kept(
                self.last,
                sorted(self.people),
                list(ledger.ratings.values()),
                [
                    (g, key, kept)
                    for (g, key), times in ledger.recent.items()
                    if (kept := [t for t in times if t >= recent_since])
                ],
                sorted(self.read),
            )
        )

    def table(self, game: str) -> list[Ranked]:
        if self.ranked is None:
            ranked: list[Rating] = sorted(
                (r for (g, player), r in self.ledger.ratings.items() if g == game and player in self.people),
                key=lambda r: (-r.score, r.player_id),
            )
            self.ranked = [Ranked(i, r) for i, r in enumerate(ranked, start=1)]
        return self.ranked


KEPT, KEPT_ENCODER = msgspec.msgpack.Decoder(Kept), msgspec.msgpack.Encoder()


@dataclass(frozen=True)
class Fame:
    """A server's hall of fame in one game: each past season's top three, each tournament's winners."""

    seasons: list[tuple[Season, list[Ranked]]]
    tournaments: list[tuple[str, str, list[str]]]
    """Each finished tournament: its id, its format, its winners' names."""


class Seasons:
    """Every server's seasons: which there are (its admins' ``season`` setting), their tables and its
    hall of fame, from the read models, the servers' settings and the tournaments' book; the running
    seasons' ratings carried forward for the busiest ``kept`` (server, game, season)."""

    def __init__(
        self, settings: ServerSettings, views: GameViews, settled: Settled, book: Book, kept: int = RUNNING_KEPT
    ) -> None:
        self.settings, self.views, self.settled, self.book = settings, views, settled, book
        self.running: Recent[tuple[str, str, float], Running] = Recent(kept)

    async def of_server(self, server: str, now: float | None = None) -> list[Season]:
        chosen = await self.settings.of(server)
        first = await (await self.settled()).first_finished(server)
        return seasons(season_changes(chosen, "season"), first, time.time() if now is None else now)

    async def standings(
        self, server: str, game: str, season: Season, now: float | None = None, most: int | None = None
    ) -> list[Ranked]:
        """The season's leaderboard of ``game`` in ``server`` (its first ``most``), people only: a past
        season's as kept once worked out from all its games; the running season's carried forward from
        the games finished since it was last asked for. Neither reads more than the season's own games,
        however long the server's history."""
        views = await self.settled()
        if season.end > (time.time() if now is None else now):
            running = await self._running(views, server, game, season)
            return (await running.carried(views, self.settings, server, game)).table(game)[:most]
        kept = await views.ratings.season(server, game, season.start, most)
        if kept is None:  # from where it was carried to when it last ran, if it was
            running = await self._running(views, server, game, season)
            table = (await running.carried(views, self.settings, server, game)).table(game)
            await views.ratings.keep_season(server, game, season.start, table)
            kept = table[:most]
        return kept

    async def _running(self, views: GameViews, server: str, game: str, season: Season) -> Running:
        """The season as carried forward here, else as a process last kept it, else from its start."""
        key = (server, game, season.start)
        return self.running.get(key) or self.running.put(key, await Running.of(views, server, game, season))

    async def hall_of_fame(self, server: str, game: str, now: float | None = None) -> Fame:
        moment = time.time() if now is None else now
        past = [s for s in await self.of_server(server, moment) if s.end <= moment]
        tops = [(s, await self.standings(server, game, s, moment, HALL)) for s in past]
        won = []
        for t in await self.book.of_server(server):
            if t.created is not None and t.created.game == game and t.finished == "played":
                won.append((t.tournament_id, FORMAT_NAMES[t.created.format], [t.players[w] for w in champions(t)]))
        return Fame([(s, top) for s, top in tops if top], won)
