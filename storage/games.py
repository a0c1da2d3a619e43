"""Read models of games, any game with any number of seats: who plays where, a player's history,
statistics; their ratings are ``storage.ratings``.

Rows are written from ``Summary`` records (each game module makes them from its log) by the
projector and can be rebuilt from the event log at any time; ``checkpoints`` remembers the last
event position they reflect. Nothing here knows a game's rules: a game's own fields (Hog's rule
set) and a seat's own facts (Hog's biggest turn) are named values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import msgspec

from storage import tallies
from storage.answers import Answers
from storage.events import prefix_range
from storage.ratings import (
    MEMBERS,
    WRITES,
    RatedGame,
    Rating,
    RatingViews,
    member_rows,
    rated_rows,
    rating_rows,
    score_rows,
    step_rows,
)
from storage.sql import Database, Guard
from storage.summaries import SeatSummary, Summary

DERIVED = (
    "seats",
    "games",
    "damaged",
    "ratings",
    "rated",
    "rating_steps",
    "tallies",
    "player_facts",
    "mistakes",
    "season_standings",
    "season_running",
    "checkpoints",
)
"""The tables a rebuild derives again from the log, aside, and then puts in place of these (``members``
is derived again from them and ``places``; ``boards``, ``seals`` and ``places`` are not from the log:
they stay, and ``storage.kept`` holds the first two)."""
CHECKPOINT = "games"
CHECKPOINT_NOW = "SELECT coalesce(max(position), 0) FROM checkpoints WHERE name = ?"


Cursor = tuple[float, str]
"""Where a list of games is read from: a game's start and id (its place in every list by time)."""


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
        self._db = db
        self.ratings = RatingViews(db)
        self.answers = Answers(db)
        """Puzzles answered, and their ratings: kept by a rebuild (not derived from the log)."""

    async def close(self) -> None:
        await self._db.close()

    async def analyze(self) -> None:
        """The planner's statistics gathered afresh (after a rebuild: every table new), on either database."""
        await self._db.execute("ANALYZE")

    async def aside(self) -> GameViews:
        """Read models beside these, for a rebuild to fill (kept, with how far they got, until ``adopt``)."""
        return GameViews(await self._db.aside())

    async def adopt(self, aside: GameViews) -> None:
        """The ``aside`` read models in place of these, in one transaction (readers see the old ones
        until it commits); each server's members found again from them."""
        await self._db.adopt(aside._db, DERIVED, [("DELETE FROM members", [()]), (MEMBERS, [()])])

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
        tallied: Sequence[tuple[Summary, float]] = (),
        since: int | None = None,
    ) -> None:
        """Store each ``(summary, started_at, updated_at)``, each damaged ``(game_id, reason)``, the
        games rated and the ratings they changed, the decided games to tally (``(summary,
        started_at)``, in the order they were decided: ``storage.tallies``), and the new checkpoint,
        atomically. ``since``: the checkpoint these updates were
        made from; if another process has moved it meanwhile, nothing is stored and ``Moved`` raised."""
        games = [
            (s.game_id, s.game, s.place, s.status, int(s.live), s.version, _json(s.fields), start, end)
            for s, start, end in updates
        ]
        seats = [
            (s.game_id, i, p.player_id, p.name, p.bot, p.score, p.result, _json(p.facts), s.game, s.place, start)
            for s, start, _ in updates
            for i, p in enumerate(s.seats)
        ]
        # A move changes no indexed column (lists go by start; the live flag is written when it flips,
        # a seat's identity when another takes it): it rewrites its rows in place and no index entry,
        # so its cost does not grow with the games running (``bench/timers.py``).
        work: list[tuple[str, Sequence[Sequence[object]]]] = [
            # a game's seats beyond its summary's go, and those another player now holds
            ("DELETE FROM seats WHERE game_id = ? AND seat >= ?", [(s.game_id, len(s.seats)) for s, _, _ in updates]),
            (
                "DELETE FROM seats WHERE game_id = ? AND seat = ? "
                "AND (player_id <> ? OR name <> ? OR coalesce(bot, '') <> coalesce(?, ''))",
                [seat[:5] for seat in seats],
            ),
            (
                "INSERT INTO games (game_id, game, place, status, live, version, fields, started_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET status = excluded.status, "
                "version = excluded.version, fields = excluded.fields, updated_at = excluded.updated_at",
                games,
            ),
            ("UPDATE games SET live = ? WHERE game_id = ? AND live <> ?", [(g[4], g[0], g[4]) for g in games]),
            (
                "INSERT INTO seats (game_id, seat, player_id, name, bot, score, result, facts, game, place, "
                "started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
                "score = excluded.score, result = excluded.result, facts = excluded.facts",
                seats,
            ),
            (
                "INSERT INTO damaged (game_id, reason) VALUES (?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET reason = excluded.reason",
                damaged,
            ),
            ("UPDATE games SET status = 'damaged', live = 0 WHERE game_id = ?", [(g,) for g, _ in damaged]),
            *zip(
                WRITES,
                (rating_rows(ratings), score_rows(ratings), rated_rows(rated), member_rows(rated), step_rows(rated)),
                strict=True,
            ),
            *zip(tallies.WRITES, tallies.rows(tallied), strict=True),
            (
                "INSERT INTO checkpoints (name, position) VALUES (?, ?) "
                "ON CONFLICT (name) DO UPDATE SET position = excluded.position",
                [(CHECKPOINT, checkpoint)],
            ),
        ]
        guard = None if since is None else Guard(CHECKPOINT_NOW, (CHECKPOINT,), since)
        await self._db.transaction(work, guard)

    async def tallied(self, game_ids: Sequence[str]) -> set[str]:
        """Which of these games are tallied already (``storage.tallies``)."""
        marks = ",".join("?" * len(game_ids))
        rows = await self._db.fetch(f"SELECT game_id FROM games WHERE tallied = 1 AND game_id IN ({marks})", *game_ids)
        return {str(g) for (g,) in rows}

    async def damage(self, game_id: str) -> str | None:
        """Why ``game_id`` is set aside, or ``None`` when it is not."""
        rows = await self._db.fetch("SELECT reason FROM damaged WHERE game_id = ?", game_id)
        return str(rows[0][0]) if rows else None

    async def damaged(self) -> list[tuple[str, str]]:
        """The quarantined games, ``(game_id, reason)``: their logs cannot be folded."""
        rows = await self._db.fetch("SELECT game_id, reason FROM damaged ORDER BY game_id")
        return [(str(g), str(r)) for g, r in rows]

    async def _rows(
        self, where: str, params: Sequence[object], tail: str = "", source: str = "games g"
    ) -> list[GameRow]:
        """The games ``where`` says, with their seats; ``source``: what they are read from (``g``, the games)."""
        games = await self._db.fetch(
            "SELECT g.game_id, g.game, g.place, g.status, g.live, g.version, g.started_at, g.updated_at, g.fields "
            f"FROM {source} WHERE {where} {tail}",
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
        [``since``, ``until``), in the order they finished (a season's games); none imported untrusted."""
        # the server's places first, then each one's finished games by time (``games_finished``)
        return await self._rows(
            "p.server = ? AND g.game = ? AND g.live = 0 AND g.updated_at >= ? AND g.updated_at < ? "
            "AND NOT EXISTS (SELECT 1 FROM imported i WHERE i.game_id = g.game_id AND i.trusted = 0)",
            (server, game, since, until),
            "ORDER BY g.updated_at, g.game_id",
            "places p JOIN games g ON g.place = p.place",
        )

    async def first_finished(self, server: str) -> float | None:
        """When the first game played in ``server`` last changed (``None``: none yet): seasons count from it."""
        ((first,),) = await self._db.fetch(
            # each place's first by index (``games_finished``), not a pass over all the server's games
            "SELECT min((SELECT min(g.updated_at) FROM games g WHERE g.place = p.place AND g.live = 0)) "
            "FROM places p WHERE p.server = ?",
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
        where, params = _filter({"place = ?": place, "game = ?": game})
        # ``live = 1`` written out, not a parameter: the planners match it to the partial index ``games_live``
        return await self._rows(f"live = 1 AND {where}", params, "ORDER BY started_at")

    async def playing_now(self, limit: int) -> list[GameRow]:
        """The ``limit`` live games started last, newest first (the front page's games being played)."""
        return await self._rows("live = 1", [limit], "ORDER BY started_at DESC LIMIT ?")

    async def players_named(self, id_prefix: str) -> list[tuple[str, str]]:
        """``(player_id, name)`` of every player whose id begins with ``id_prefix`` (the terminal's
        ``console:``), by one range of the index of seats by player: a name typed in another case is
        found among them (``bot.platform.names.folded``)."""
        low, high = prefix_range(id_prefix)
        rows = await self._db.fetch(
            "SELECT DISTINCT player_id, name FROM seats WHERE player_id >= ? AND player_id < ? ORDER BY player_id",
            low,
            high,
        )
        return [(str(i), str(n)) for i, n in rows]

    async def history(
        self,
        player_id: str | None = None,
        limit: int = 10,
        offset: int = 0,
        game: str | None = None,
        *,
        place: str | None = None,
        seat_name: str | None = None,
        before: Cursor | None = None,
        after: Cursor | None = None,
    ) -> list[GameRow]:
        """Games, the newest started first: a player's (by id, or a person seated under ``seat_name``), of
        ``game`` and in ``place`` when given; every game when no condition is given; only those started
        ``before`` a game or ``after`` one (``Cursor``: a page's first or last; after: the ``limit``
        nearest it). Read by index in time order and no further than the page (``games_by_time``, or
        the player's seats by time: ``seats_by_player_time``, ``seats_by_name_time``), however long the
        history and however deep the page a cursor names (``offset`` reads past the rows it skips)."""
        cursor: dict[str, object] = {}
        if before is not None:
            cursor["(started_at, game_id) < (?, ?)"] = before
        if after is not None:
            cursor["(started_at, game_id) > (?, ?)"] = after
        order = "ASC" if after is not None else "DESC"
        page = f"ORDER BY started_at {order}, game_id {order} LIMIT ? OFFSET ?"
        if player_id is None and seat_name is None:
            where, params = _filter({"game = ?": game, "place = ?": place, **cursor})
            rows = await self._rows(where, (*params, limit, offset), page)
            return rows[::-1] if after is not None else rows
        who, params = _filter(
            {
                "player_id = ?": player_id,
                "name = ? AND bot IS NULL": seat_name,
                "game = ?": game,
                "place = ?": place,
                **cursor,
            }
        )
        found = await self._db.fetch(f"SELECT game_id FROM seats WHERE {who} {page}", *params, limit, offset)
        if not found:
            return []
        ids = [str(row[0]) for row in found]
        return await self._rows(
            f"game_id IN ({','.join('?' * len(ids))})", ids, "ORDER BY started_at DESC, game_id DESC"
        )

    async def started_after(
        self,
        after: tuple[float, str] | None,
        limit: int,
        *,
        player_id: str | None = None,
        seat_name: str | None = None,
        server: str | None = None,
        since: float | None = None,
    ) -> list[GameRow]:
        """The next ``limit`` games after ``after`` (a game's start and id), oldest first: a player's
        (by id, or seated under ``seat_name``), those played in ``server``'s channels, those started
        since ``since``. Read by index a page at a time (``games_by_time``, the seats' indexes), the
        page's rows in one read more, however many there are: an export walks every game this way."""
        start, last = after if after is not None else (float("-inf"), "")
        source, alias = ("seats", "s") if player_id is not None or seat_name is not None else ("games", "g")
        conditions = {
            f"{alias}.player_id = ?": player_id,
            f"{alias}.name = ? AND {alias}.bot IS NULL": seat_name,
            f"{alias}.place IN (SELECT place FROM places WHERE server = ?)": server,
            f"{alias}.started_at >= ?": since,
        }
        where, params = _filter(conditions)
        rows = await self._db.fetch(
            f"SELECT {alias}.started_at, {alias}.game_id FROM {source} {alias} WHERE {where} "
            f"AND ({alias}.started_at > ? OR ({alias}.started_at = ? AND {alias}.game_id > ?)) "
            f"ORDER BY {alias}.started_at, {alias}.game_id LIMIT ?",
            *params,
            start,
            start,
            last,
            limit,
        )
        if not rows:
            return []
        ids = [str(game_id) for _, game_id in rows]
        marks = ",".join("?" * len(ids))
        return await self._rows(f"game_id IN ({marks})", ids, "ORDER BY started_at, game_id")

    async def stats(self, player_id: str, game: str, by: str, best: str) -> PlayerStats:
        """A player's record over finished games of ``game`` (in all, by the game's field ``by``,
        against each bot level), their winning streaks and their highest ``best`` fact: a few rows
        of their tallies (``storage.tallies``), however many games they played."""
        total, by_field, vs_bots = Record(), {}, {}
        longest = current = 0
        for facet, value, games, wins, losses, draws, streak, most in await self._db.fetch(
            "SELECT facet, value, games, wins, losses, draws, current, longest FROM tallies "
            "WHERE game = ? AND player_id = ? AND facet IN (?, ?, ?) ORDER BY facet, value",
            game,
            player_id,
            tallies.ALL,
            tallies.BOTS,
            by,
        ):
            record = Record(int(games), int(wins), int(losses), int(draws))
            if facet == tallies.ALL:
                total, current, longest = record, int(streak), int(most)
            elif facet == tallies.BOTS:
                vs_bots[str(value)] = record
            else:
                by_field[str(value)] = record
        return PlayerStats(
            player_id,
            total,
            by_field,
            vs_bots,
            longest,
            current,
            await self.highest(player_id, game, best),
            (await self.ratings.of(game, [player_id])).get(player_id),
        )

    async def totals(self, player_id: str, game: str, facts: Sequence[str] = ()) -> dict[str, int]:
        """Sums over a player's finished games of ``game``: ``games``, their final ``score``, and each
        named fact of their seat (Cucumber: ``cucumbers``)."""
        rows = await self._db.fetch(
            "SELECT games, score FROM tallies WHERE game = ? AND player_id = ? AND facet = ? AND value = ''",
            game,
            player_id,
            tallies.ALL,
        )
        games, score = rows[0] if rows else (0, 0)
        sums = dict.fromkeys(facts, 0)
        if facts:
            for fact, total in await self._db.fetch(
                f"SELECT fact, total FROM player_facts WHERE game = ? AND player_id = ? "
                f"AND fact IN ({','.join('?' * len(facts))})",
                game,
                player_id,
                *facts,
            ):
                sums[str(fact)] = int(total)
        return {"games": int(games), "score": int(score)} | sums

    async def highest(self, player_id: str, game: str, fact: str) -> Best | None:
        """The player's highest positive value of a seat's ``fact`` in ``game``'s finished games, and
        the first game (by its start) it was reached in."""
        rows = await self._db.fetch(
            "SELECT best, best_game FROM player_facts WHERE game = ? AND player_id = ? AND fact = ? AND best > 0",
            game,
            player_id,
            fact,
        )
        return next((Best(int(value), str(game_id)) for value, game_id in rows), None)

    async def mistakes(self, player_id: str, game: str, offset: int = 0, limit: int = 20) -> list[tuple[str, int]]:
        """``(game_id, version)`` of the player's costly moves in ``game`` (``SeatSummary.mistakes``) in
        the order they were tallied, ``limit`` after the first ``offset``: by their numbers, one range
        of the table's key however many come before."""
        rows = await self._db.fetch(
            "SELECT game_id, version FROM mistakes WHERE game = ? AND player_id = ? AND n > ? ORDER BY n LIMIT ?",
            game,
            player_id,
            offset,
            limit,
        )
        return [(str(g), int(v)) for g, v in rows]

    async def mistakes_count(self, player_id: str, game: str) -> int:
        """How many costly moves of the player's ``mistakes`` lists: the last one's number, read from
        the end of their key."""
        rows = await self._db.fetch(
            "SELECT n FROM mistakes WHERE game = ? AND player_id = ? ORDER BY n DESC LIMIT 1", game, player_id
        )
        return int(rows[0][0]) if rows else 0


_FIELDS = msgspec.json.Decoder(dict[str, str])


def _json(values: Mapping[str, object]) -> str:
    return msgspec.json.encode(values).decode()


def _filter(conditions: Mapping[str, object]) -> tuple[str, tuple[object, ...]]:
    """The conditions whose parameter is given, joined with AND, and their parameters (a tuple for a
    condition of several)."""
    kept = {sql: value for sql, value in conditions.items() if value is not None}
    params = tuple(p for value in kept.values() for p in (value if isinstance(value, tuple) else (value,)))
    return " AND ".join(kept) or "TRUE", params  # TRUE: both SQLite (3.23+) and PostgreSQL
