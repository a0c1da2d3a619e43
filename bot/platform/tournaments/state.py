"""A tournament as its log tells it, and its standings.

Points: a win 1, a draw ½, a loss or a game called off 0, a bye (or a walkover) 1. At a table of
several seats (Cucumber), every seat that wins (a shared win too) scores the win, and each player
counts every other at the table as an opponent. Tie-breaks, in order:

- **Swiss**: Buchholz (the sum of the opponents' points), then Sonneborn-Berger (the points of each
  opponent beaten, and half of each drawn with), then the rating at the start.
- **Round robin**: Sonneborn-Berger, then wins, then the rating at the start.
- **Knockout**: the round reached (the champion first), then points, then the seed (rating).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bot.platform.tournaments.events import Created, Event, Finished, Joined, Left, Paired, Posted, Scored, Started

SWISS, ROUND_ROBIN, KNOCKOUT = "swiss", "round-robin", "knockout"
FORMATS = (SWISS, ROUND_ROBIN, KNOCKOUT)
POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0, "void": 0.0}


@dataclass(frozen=True)
class Round:
    number: int
    tables: tuple[tuple[str, ...], ...]
    games: tuple[str, ...]
    byes: tuple[str, ...]
    results: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Each scored game's seats' results, by game id."""

    @property
    def done(self) -> bool:
        return len(self.results) == len(self.games)

    def table_of(self, game_id: str) -> tuple[str, ...] | None:
        return next((t for t, g in zip(self.tables, self.games, strict=True) if g == game_id), None)


@dataclass(frozen=True)
class Standing:
    player: str
    name: str
    points: float = 0.0
    games: int = 0
    wins: int = 0
    byes: int = 0
    buchholz: float = 0.0
    sonneborn: float = 0.0
    rating: int = 0
    reached: int = 0
    """The last round this player played or had a bye in (knockout: how far they went)."""
    out: bool = False
    """They left the tournament (or were dropped) after it started."""
    firsts: int = 0
    """Games in which they had the first seat (Hog: moved first)."""
    opponents: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Tournament:
    stream_id: str
    version: int = 0
    created: Created | None = None
    players: Mapping[str, str] = field(default_factory=dict)
    """Who is in it (id to name), in the order they joined; those who left before the start are not."""
    gone: frozenset[str] = frozenset()
    """Players who left (or were dropped) after it started."""
    ratings: Mapping[str, int] = field(default_factory=dict)
    started: bool = False
    rounds: tuple[Round, ...] = ()
    board: tuple[str, str] | None = None
    finished: str | None = None
    """Why it ended (``Finished.reason``), ``None`` while it runs or signs up."""
    damaged: str | None = None
    """Why its record cannot be read past this version (``Book.load``): it is set aside, as it stood."""

    @property
    def tournament_id(self) -> str:
        return self.created.tournament_id if self.created else ""

    @property
    def status(self) -> str:
        if self.damaged is not None:
            return "set aside"
        if self.finished is not None:
            return "finished" if self.finished == "played" else "cancelled"
        return "running" if self.started else "signup"

    @property
    def active(self) -> list[str]:
        """The players still in it, in the order they joined."""
        return [p for p in self.players if p not in self.gone]

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def pairs(self) -> bool:
        """Whether its games are between two players (Hog) rather than tables of several (Cucumber)."""
        return self.created is None or self.created.largest == 2

    def game_round(self, game_id: str) -> Round | None:
        return next((r for r in self.rounds if game_id in r.games), None)

    def standings(self) -> list[Standing]:
        return ranked(self, tally(self))


def evolve(t: Tournament, event: Event) -> Tournament:
    t = dataclasses.replace(t, version=t.version + 1)
    match event:
        case Created():
            return dataclasses.replace(t, created=event)
        case Joined(player=player, name=name):
            return dataclasses.replace(t, players={**t.players, player: name})
        case Left(player=player):
            if t.started:
                return dataclasses.replace(t, gone=t.gone | {player})
            return dataclasses.replace(t, players={p: n for p, n in t.players.items() if p != player})
        case Started(ratings=ratings):
            return dataclasses.replace(t, started=True, ratings=dict(ratings))
        case Paired():
            new = Round(event.round, event.tables, event.games, event.byes)
            return dataclasses.replace(t, rounds=(*t.rounds, new))
        case Scored(game_id=game_id, results=results):
            rounds = tuple(
                dataclasses.replace(r, results={**r.results, game_id: results}) if game_id in r.games else r
                for r in t.rounds
            )
            return dataclasses.replace(t, rounds=rounds)
        case Posted(channel=channel, message=message):
            return dataclasses.replace(t, board=(channel, message))
        case Finished(reason=reason):
            return dataclasses.replace(t, finished=reason)
    raise ValueError(f"not a tournament's event: {event!r}")


def fold(stream_id: str, events: Iterable[Event], t: Tournament | None = None) -> Tournament:
    t = t if t is not None else Tournament(stream_id)
    for event in events:
        t = evolve(t, event)
    return t


def tally(t: Tournament) -> dict[str, Standing]:
    """Each player's points, games, wins, byes and opponents, before tie-breaks."""
    rows = {p: Standing(p, n, rating=t.ratings.get(p, 0), out=p in t.gone) for p, n in t.players.items()}
    beaten: dict[str, list[tuple[str, float]]] = {p: [] for p in rows}
    for r in t.rounds:
        for p in r.byes:
            rows[p] = dataclasses.replace(rows[p], points=rows[p].points + 1, byes=rows[p].byes + 1, reached=r.number)
        for table, game_id in zip(r.tables, r.games, strict=True):
            results = r.results.get(game_id)
            for seat, p in enumerate(table):
                row = rows[p]
                row = dataclasses.replace(
                    row,
                    reached=r.number,
                    opponents=row.opponents | (set(table) - {p}),
                    firsts=row.firsts + (seat == 0),
                )
                if results is not None:
                    mine = results[seat]
                    row = dataclasses.replace(
                        row, points=row.points + POINTS[mine], games=row.games + 1, wins=row.wins + (mine == "win")
                    )
                    for other, theirs in zip(table, results, strict=True):
                        share = _share(mine, theirs)
                        if other != p and share:
                            beaten[p].append((other, share))
                rows[p] = row
    return {
        p: dataclasses.replace(
            row,
            buchholz=sum(rows[o].points for o in row.opponents),
            sonneborn=sum(rows[o].points * share for o, share in beaten[p]),
        )
        for p, row in rows.items()
    }


def _share(mine: str, theirs: str) -> float:
    """How much of a Sonneborn-Berger share a result against another seat earns: all of a win over
    a loser, half of a draw (or of a win shared with another winner)."""
    if mine == "win" and theirs in ("loss", "void"):
        return 1.0
    if mine == theirs and mine in ("win", "draw"):
        return 0.5
    return 0.0


def ranked(t: Tournament, rows: Mapping[str, Standing]) -> list[Standing]:
    fmt = t.created.format if t.created else SWISS

    def key(s: Standing) -> tuple[float | str, ...]:
        if fmt == KNOCKOUT:
            return (-s.reached, -s.points, -s.rating, s.name.casefold(), s.player)
        if fmt == ROUND_ROBIN:
            return (-s.points, -s.sonneborn, -s.wins, -s.rating, s.name.casefold(), s.player)
        return (-s.points, -s.buchholz, -s.sonneborn, -s.rating, s.name.casefold(), s.player)

    return sorted(rows.values(), key=key)
