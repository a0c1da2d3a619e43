"""Read models of games, any game with any number of seats: who plays where, a player's history,
statistics; their ratings are ``storage.ratings``.

Rows are written from ``Summary`` records (each game module makes them from its log) by the
projector and can be rebuilt from the event log at any time; ``checkpoints`` remembers the last
event position they reflect. Nothing here knows a game's rules: a game's own fields (Hog's rule
set) and a seat's own facts (Hog's biggest turn) are named values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import msgspec

from storage.ratings import WRITES, RatedGame, Rating, RatingViews, member_rows, rated_rows, rating_rows
from storage.sql import Database, Guard

DERIVED = ("seats", "games", "damaged", "ratings", "rated", "members", "checkpoints")
"""The tables a rebuild derives again from the log (``boards``, ``seals`` and ``places`` are not
from the log: they stay; ``storage.kept`` holds the first two)."""
CHECKPOINT = "games"
CHECKPOINT_NOW = "SELECT coalesce(max(position), 0) FROM checkpoints WHERE name = ?"
RESULTS = ("win", "loss", "draw")


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


@dataclass(frozen=True, slots=True, kw_only=True)
class GameRow(Summary):
    """A game as the read models hold it: its summary (each seat's facts are not read back), and
    when it started and last changed."""

    started_at: float
    updated_at: float

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(s.score for s in self.seats)


@dataclass(frozen=True, slots=True)
class Record:
    """Games, wins, losses and draws over some slice of a player's finished games."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class Best:
    """A seat's highest value of a fact, and the first game it happened in."""

    value: int
    game_id: str


@dataclass(frozen=True, slots=True)
class PlayerStats:
    player_id: str
    total: Record
    by_field: dict[str, Record]
    """By the value of one of the game's fields (Hog: by rule set)."""
    vs_bots: dict[str, Record]
    """Against a bot (or the house), by its level."""
    longest_streak: int = 0
    """The most wins in a row, in the order the games ended (a loss or a draw ends a streak)."""
    current_streak: int = 0
    """Wins in a row up to the player's last finished game."""
    best: Best | None = None
    """The highest value of one of the seat's facts (Hog: the biggest turn) in any game."""
    rating: Rating | None = None
    """The player's rating in the game, once they have finished a rated game."""


class GameViews:
    """The read models, on SQLite or PostgreSQL (``storage.sql``): every query written once."""

    def __init__(self, db: Database) -> None:
        self._db, self._sql = db, db.dialect
        self.ratings = RatingViews(db)

    async def close(self) -> None:
        await self._db.close()

    async def analyze(self) -> None:
        """The planner's statistics gathered afresh (after a rebuild: every table new), on either database."""
        await self._db.execute("ANALYZE")

    async def checkpoint(self) -> int:
        ((position,),) = await self._db.fetch(CHECKPOINT_NOW, CHECKPOINT)
        return int(position)

    async def apply(
        self,
        updates: Sequence[tuple[Summary, float, float]],
        checkpoint: int,
        damaged: Sequence[tuple[str, str]] = (),
        *,
        rated: Sequence[RatedGame] = (),
        ratings: Sequence[Rating] = (),
        afresh: bool = False,
        since: int | None = None,
    ) -> None:
        """Store each ``(summary, started_at, updated_at)``, each damaged ``(game_id, reason)``, the
        games rated and the ratings they changed, and the new checkpoint, atomically; ``afresh``
        first forgets every derived row, in the same transaction (a rebuild: the old read models
        stay whole until the new ones replace them). ``since``: the checkpoint these updates were
        made from; if another process has moved it meanwhile, nothing is stored and ``Moved`` raised."""
        games = [
            (s.game_id, s.game, s.place, s.status, int(s.live), s.version, _json(s.fields), start, end)
            for s, start, end in updates
        ]
        seats = [
            (s.game_id, i, p.player_id, p.name, p.bot, p.score, p.result, _json(p.facts), s.game, s.place, end)
            for s, _, end in updates
            for i, p in enumerate(s.seats)
        ]
        work: list[tuple[str, Sequence[Sequence[object]]]] = [(f"DELETE FROM {t}", [()]) for t in DERIVED if afresh]
        work += [
            ("DELETE FROM seats WHERE game_id = ?", [(g[0],) for g in games]),  # a game's seats go with its row
            (
                "INSERT INTO games (game_id, game, place, status, live, version, fields, started_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET game = excluded.game, "
                "place = excluded.place, status = excluded.status, live = excluded.live, version = excluded.version, "
                "fields = excluded.fields, started_at = excluded.started_at, updated_at = excluded.updated_at",
                games,
            ),
            (
                "INSERT INTO seats (game_id, seat, player_id, name, bot, score, result, facts, game, place, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                seats,
            ),
            (
                "INSERT INTO damaged (game_id, reason) VALUES (?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET reason = excluded.reason",
                damaged,
            ),
            ("UPDATE games SET status = 'damaged', live = 0 WHERE game_id = ?", [(g,) for g, _ in damaged]),
            *zip(WRITES, (rating_rows(ratings), rated_rows(rated), member_rows(rated)), strict=True),
            (
                "INSERT INTO checkpoints (name, position) VALUES (?, ?) "
                "ON CONFLICT (name) DO UPDATE SET position = excluded.position",
                [(CHECKPOINT, checkpoint)],
            ),
        ]
        guard = None if since is None else Guard(CHECKPOINT_NOW, (CHECKPOINT,), since)
        await self._db.transaction(work, guard)

    async def damage(self, game_id: str) -> str | None:
        """Why ``game_id`` is set aside, or ``None`` when it is not."""
        rows = await self._db.fetch("SELECT reason FROM damaged WHERE game_id = ?", game_id)
        return str(rows[0][0]) if rows else None

    async def damaged(self) -> list[tuple[str, str]]:
        """The quarantined games, ``(game_id, reason)``: their logs cannot be folded."""
        rows = await self._db.fetch("SELECT game_id, reason FROM damaged ORDER BY game_id")
        return [(str(g), str(r)) for g, r in rows]

    async def _rows(self, where: str, params: Sequence[object], tail: str = "") -> list[GameRow]:
        games = await self._db.fetch(
            "SELECT game_id, game, place, status, live, version, started_at, updated_at, fields "
            f"FROM games WHERE {where} {tail}",
            *params,
        )
        if not games:
            return []
        ids = [g[0] for g in games]
        seats: dict[str, list[SeatSummary]] = {i: [] for i in ids}
        marks = ",".join("?" * len(ids))
        for game_id, player_id, name, bot, score, result in await self._db.fetch(
            f"SELECT game_id, player_id, name, bot, score, result FROM seats WHERE game_id IN ({marks}) "
            "ORDER BY game_id, seat",
            *ids,
        ):
            seats[game_id].append(SeatSummary(player_id, name, bot, score, result))
        return [
            GameRow(
                game_id=g[0],
                game=g[1],
                place=g[2],
                status=g[3],
                live=bool(g[4]),
                version=g[5],
                started_at=g[6],
                updated_at=g[7],
                seats=tuple(seats[g[0]]),
                fields=_FIELDS.decode(g[8]),
            )
            for g in games
        ]

    async def finished_in(self, server: str, game: str, since: float, until: float) -> list[GameRow]:
        """The finished games of ``game`` played in ``server``'s places that last changed in
        [``since``, ``until``), in the order they finished (a season's games)."""
        return await self._rows(
            "place IN (SELECT place FROM places WHERE server = ?) AND game = ? AND live = 0 "
            "AND updated_at >= ? AND updated_at < ?",
            (server, game, since, until),
            "ORDER BY updated_at, game_id",
        )

    async def first_finished(self, server: str) -> float | None:
        """When the first game played in ``server`` last changed (``None``: none yet): seasons count from it."""
        ((first,),) = await self._db.fetch(
            "SELECT min(updated_at) FROM games WHERE live = 0 AND place IN (SELECT place FROM places WHERE server = ?)",
            server,
        )
        return None if first is None else float(first)

    async def count(self) -> int:
        ((n,),) = await self._db.fetch("SELECT count(*) FROM games")
        return int(n)

    async def game(self, game_id: str) -> GameRow | None:
        rows = await self._rows("game_id = ?", (game_id,))
        return rows[0] if rows else None

    async def live_games(self, place: str | None = None, game: str | None = None) -> list[GameRow]:
        """Games waiting for an answer or being played (in ``place``, of ``game``, when given), oldest first."""
        where, params = _filter({"live = ?": 1, "place = ?": place, "game = ?": game})
        return await self._rows(where, params, "ORDER BY started_at")

    async def history(
        self,
        player_id: str | None = None,
        limit: int = 10,
        offset: int = 0,
        game: str | None = None,
        *,
        place: str | None = None,
        seat_name: str | None = None,
    ) -> list[GameRow]:
        """Games, most recent first: a player's (by id, or a person seated under ``seat_name``), of
        ``game`` and in ``place`` when given; every game when no condition is given. Read by index
        in time order and no further than the page (``games_by_time``, or the player's seats by time:
        ``seats_by_player_time``, ``seats_by_name_time``), however long the history."""
        newest = "ORDER BY updated_at DESC, game_id DESC LIMIT ? OFFSET ?"
        if player_id is None and seat_name is None:
            where, params = _filter({"game = ?": game, "place = ?": place})
            return await self._rows(where, (*params, limit, offset), newest)
        who, params = _filter(
            {"player_id = ?": player_id, "name = ? AND bot IS NULL": seat_name, "game = ?": game, "place = ?": place}
        )
        found = await self._db.fetch(f"SELECT game_id FROM seats WHERE {who} {newest}", *params, limit, offset)
        if not found:
            return []
        ids = [str(row[0]) for row in found]
        return await self._rows(
            f"game_id IN ({','.join('?' * len(ids))})", ids, "ORDER BY updated_at DESC, game_id DESC"
        )

    async def stats(self, player_id: str, game: str, by: str, best: str) -> PlayerStats:
        """A player's record over finished games of ``game`` (in all, by the game's field ``by``,
        against each bot level), their winning streaks and their highest ``best`` fact."""
        rows = await self._db.fetch(
            f"SELECT value, bot, result, count(*) FROM (SELECT {self._sql.text('g.fields')} AS value, "
            "(SELECT max(o.bot) FROM seats o WHERE o.game_id = me.game_id AND o.seat != me.seat) AS bot, "
            "me.result AS result FROM seats me JOIN games g USING (game_id) "
            "WHERE me.player_id = ? AND g.game = ? AND me.result IS NOT NULL) AS mine GROUP BY value, bot, result",
            self._sql.key(by),
            player_id,
            game,
        )
        total: dict[str, int] = {}
        by_field: dict[str, dict[str, int]] = {}
        vs_bots: dict[str, dict[str, int]] = {}
        for value, bot, result, n in rows:
            buckets = [total, *([by_field.setdefault(value, {})] if value is not None else [])]
            for bucket in (*buckets, *([vs_bots.setdefault(bot, {})] if bot else [])):
                bucket[result] = bucket.get(result, 0) + n

        def record(counts: dict[str, int]) -> Record:
            wins, losses, draws = (counts.get(r, 0) for r in RESULTS)
            return Record(wins + losses + draws, wins, losses, draws)

        longest, current = await self._streaks(player_id, game)
        return PlayerStats(
            player_id,
            record(total),
            {v: record(c) for v, c in sorted(by_field.items())},
            {b: record(c) for b, c in sorted(vs_bots.items())},
            longest,
            current,
            await self.highest(player_id, game, best),
            (await self.ratings.of(game, [player_id])).get(player_id),
        )

    async def totals(self, player_id: str, game: str, facts: Sequence[str] = ()) -> dict[str, int]:
        """Sums over a player's finished games of ``game``: ``games``, their final ``score``, and each
        named fact of their seat (Cucumber: ``cucumbers``)."""
        sums = "".join(f", sum(coalesce({self._sql.number('me.facts')}, 0))" for _ in facts)
        rows = await self._db.fetch(
            f"SELECT count(*), coalesce(sum(me.score), 0){sums} FROM seats me JOIN games g USING (game_id) "
            "WHERE me.player_id = ? AND g.game = ? AND me.result IS NOT NULL",
            *(self._sql.key(f) for f in facts),
            player_id,
            game,
        )
        games, score, *values = rows[0]
        return {"games": int(games), "score": int(score)} | {f: int(v or 0) for f, v in zip(facts, values, strict=True)}

    async def _streaks(self, player_id: str, game: str) -> tuple[int, int]:
        """The longest run of wins and the run up to the last finished game."""
        rows = await self._db.fetch(
            "SELECT me.result FROM seats me JOIN games g USING (game_id) "
            "WHERE me.player_id = ? AND g.game = ? AND me.result IS NOT NULL ORDER BY g.updated_at, g.game_id",
            player_id,
            game,
        )
        longest = current = 0
        for (result,) in rows:
            current = current + 1 if result == "win" else 0
            longest = max(longest, current)
        return longest, current

    async def highest(self, player_id: str, game: str, fact: str) -> Best | None:
        """The player's highest positive value of a seat's ``fact`` in ``game``, and the first game it was in."""
        value = self._sql.number("me.facts")
        rows = await self._db.fetch(
            f"SELECT {value}, me.game_id FROM seats me JOIN games g USING (game_id) "
            f"WHERE me.player_id = ? AND g.game = ? AND {value} > 0 "
            f"ORDER BY {value} DESC, g.started_at, g.game_id LIMIT 1",
            self._sql.key(fact),
            player_id,
            game,
            self._sql.key(fact),
            self._sql.key(fact),
        )
        return next((Best(int(value), str(game_id)) for value, game_id in rows), None)


_FIELDS = msgspec.json.Decoder(dict[str, str])


def _json(values: Mapping[str, object]) -> str:
    return msgspec.json.encode(values).decode()


def _filter(conditions: Mapping[str, object]) -> tuple[str, tuple[object, ...]]:
    """The conditions whose parameter is given, joined with AND, and their parameters."""
    kept = {sql: value for sql, value in conditions.items() if value is not None}
    return " AND ".join(kept) or "TRUE", tuple(kept.values())  # TRUE: both SQLite (3.23+) and PostgreSQL
