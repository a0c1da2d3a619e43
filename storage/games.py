"""Read models of games: who plays where, a player's history, statistics, the leaderboard.

Rows are written from ``GameSummary`` records by the projector and can be rebuilt from the event
log at any time; ``checkpoints`` remembers the last event position they reflect.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from hog_core.summary import GameSummary
from storage.schema import migrate

LIVE = ("challenged", "active")
DERIVED = ("game_players", "games", "damaged", "checkpoints")
"""The tables a rebuild derives again from the log (``boards`` is not from the log: it stays)."""
CHECKPOINT = "games"


@dataclass(frozen=True, slots=True)
class Seat:
    player_id: str
    name: str
    house: str | None
    result: str | None


@dataclass(frozen=True, slots=True)
class GameRow:
    game_id: str
    place: str
    rules: str
    goal: int
    status: str
    scores: tuple[int, int]
    turns: int
    winner: int | None
    started_at: float
    updated_at: float
    seats: tuple[Seat, ...]


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
class BestTurn:
    points: int
    game_id: str


@dataclass(frozen=True, slots=True)
class PlayerStats:
    player_id: str
    total: Record
    by_rules: dict[str, Record]
    vs_house: dict[str, Record]
    """Against the house, by difficulty."""
    longest_streak: int = 0
    """The most wins in a row, in the order the games ended (a loss or a draw ends a streak)."""
    current_streak: int = 0
    """Wins in a row up to the player's last finished game."""
    best_turn: BestTurn | None = None
    """The most points one of their turns scored, in any game (the first game it happened in)."""


@dataclass(frozen=True, slots=True)
class Leader:
    player_id: str
    name: str
    wins: int
    games: int


_GAME_COLUMNS = "game_id, place, rules, goal, status, score0, score1, turns, winner, started_at, updated_at"


def _game_row(s: GameSummary, started_at: float, updated_at: float) -> tuple[object, ...]:
    """The ``games`` columns, in the order of ``_GAME_COLUMNS`` then ``house, version``."""
    score0, score1 = s.scores
    head = (s.game_id, s.place, s.rules, s.goal, s.status, score0, score1, s.turns, s.winner)
    return (*head, started_at, updated_at, s.house, s.version)


class GameViews:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    @classmethod
    async def open(cls, path: Path | str) -> GameViews:
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            await db.execute("PRAGMA busy_timeout=5000")
            # read models are rebuilt from the log at will: a power cut may cost their last commits
            # (and the checkpoint with them, in the same transaction), never their consistency
            await db.execute("PRAGMA synchronous=NORMAL")
            await migrate(db)
        except BaseException:
            await db.close()
            raise
        return cls(db)

    async def close(self) -> None:
        await self._db.close()

    async def checkpoint(self) -> int:
        rows = await self._db.execute_fetchall("SELECT position FROM checkpoints WHERE name = ?", (CHECKPOINT,))
        return int(next(iter(rows))[0]) if rows else 0

    async def apply(
        self,
        updates: Sequence[tuple[GameSummary, float, float]],
        checkpoint: int,
        damaged: Sequence[tuple[str, str]] = (),
        *,
        afresh: bool = False,
    ) -> None:
        """Store each ``(summary, started_at, updated_at)``, each damaged ``(game_id, reason)`` and
        the new checkpoint, atomically; ``afresh`` first forgets every row, in the same transaction
        (a rebuild: the old read models stay whole until the new ones replace them)."""
        db = self._db
        await db.execute("BEGIN IMMEDIATE")
        try:
            if afresh:
                for table in DERIVED:
                    await db.execute(f"DELETE FROM {table}")
            await db.executemany(
                f"INSERT OR REPLACE INTO games ({_GAME_COLUMNS}, house, version) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [_game_row(s, start, end) for s, start, end in updates],
            )
            await db.executemany(
                "INSERT OR REPLACE INTO game_players (game_id, seat, player_id, name, house, result, best_turn) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (s.game_id, seat, p.id, p.name, p.house, s.result(seat), s.best_turns[seat])
                    for s, _, _ in updates
                    for seat, p in enumerate(s.players)
                ],
            )
            await db.executemany("INSERT OR REPLACE INTO damaged (game_id, reason) VALUES (?, ?)", damaged)
            await db.executemany(
                "UPDATE games SET status = 'damaged' WHERE game_id = ?", [(game_id,) for game_id, _ in damaged]
            )
            await db.execute(
                "INSERT OR REPLACE INTO checkpoints (name, position) VALUES (?, ?)", (CHECKPOINT, checkpoint)
            )
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise

    async def damaged(self) -> list[tuple[str, str]]:
        """The quarantined games, ``(game_id, reason)``: their logs cannot be folded."""
        rows = await self._db.execute_fetchall("SELECT game_id, reason FROM damaged ORDER BY game_id")
        return [(str(g), str(r)) for g, r in rows]

    async def place_board(self, game_id: str, channel_id: str, message_id: str, shown_version: int = 0) -> None:
        """Remember the message that shows ``game_id``'s board (before the game is stored, so that
        a crash cannot lose it) and the version it shows. Not derived from the log (the log knows
        nothing of Discord), so a rebuild keeps it."""
        await self._db.execute(
            "INSERT OR REPLACE INTO boards (game_id, channel_id, message_id, shown_version) VALUES (?, ?, ?, ?)",
            (game_id, channel_id, message_id, shown_version),
        )

    async def board_shown(self, game_id: str, version: int) -> None:
        """The board message of ``game_id`` now shows ``version`` (never recorded backwards)."""
        await self._db.execute(
            "UPDATE boards SET shown_version = ? WHERE game_id = ? AND shown_version < ?", (version, game_id, version)
        )

    async def boards_behind(self) -> list[tuple[str, int]]:
        """``(game_id, shown_version)`` of every board that shows less than its game's log, as the
        read models know it (a board placed for a game that was never stored is listed too)."""
        rows = await self._db.execute_fetchall(
            "SELECT b.game_id, b.shown_version FROM boards b LEFT JOIN games g ON g.game_id = b.game_id "
            "WHERE g.version IS NULL OR b.shown_version < g.version ORDER BY b.game_id"
        )
        return [(str(g), int(v)) for g, v in rows]

    async def shown_version(self, game_id: str) -> int | None:
        """The version ``game_id``'s board message shows, if it has one."""
        rows = list(await self._db.execute_fetchall("SELECT shown_version FROM boards WHERE game_id = ?", (game_id,)))
        return int(rows[0][0]) if rows else None

    async def forget_board(self, game_id: str) -> None:
        """A board placed for a game that was never stored (a crash before its first append)."""
        await self._db.execute("DELETE FROM boards WHERE game_id = ?", (game_id,))

    async def board_message(self, game_id: str) -> tuple[str, str] | None:
        """The ``(channel_id, message_id)`` of ``game_id``'s board, if one was posted."""
        rows = await self._db.execute_fetchall(
            "SELECT channel_id, message_id FROM boards WHERE game_id = ?", (game_id,)
        )
        return next(((str(c), str(m)) for c, m in rows), None)

    async def _rows(self, where: str, params: Sequence[object], tail: str = "") -> list[GameRow]:
        games = await self._db.execute_fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE {where} {tail}",
            params,
        )
        if not games:
            return []
        ids = [g[0] for g in games]
        seats: dict[str, list[Seat]] = {i: [] for i in ids}
        marks = ",".join("?" * len(ids))
        for game_id, player_id, name, house, result in await self._db.execute_fetchall(
            f"SELECT game_id, player_id, name, house, result FROM game_players WHERE game_id IN ({marks}) "
            "ORDER BY game_id, seat",
            ids,
        ):
            seats[game_id].append(Seat(player_id, name, house, result))
        return [
            GameRow(g[0], g[1], g[2], g[3], g[4], (g[5], g[6]), g[7], g[8], g[9], g[10], tuple(seats[g[0]]))
            for g in games
        ]

    async def count(self) -> int:
        ((n,),) = await self._db.execute_fetchall("SELECT count(*) FROM games")
        return int(n)

    async def game(self, game_id: str) -> GameRow | None:
        rows = await self._rows("game_id = ?", (game_id,))
        return rows[0] if rows else None

    async def live_games(self, place: str | None = None) -> list[GameRow]:
        """Games waiting for an answer or being played, in ``place`` when given, oldest first."""
        if place is None:
            return await self._rows("status IN (?, ?)", LIVE, "ORDER BY started_at")
        return await self._rows("place = ? AND status IN (?, ?)", (place, *LIVE), "ORDER BY started_at")

    async def history(self, player_id: str, limit: int = 10, offset: int = 0) -> list[GameRow]:
        """A player's games, most recent first."""
        return await self._rows(
            "game_id IN (SELECT game_id FROM game_players WHERE player_id = ?)",
            (player_id, limit, offset),
            "ORDER BY updated_at DESC, game_id LIMIT ? OFFSET ?",
        )

    async def stats(self, player_id: str) -> PlayerStats:
        """A player's record over finished games (in all, per rule set, against each house level),
        their winning streaks and their biggest turn."""
        rows = await self._db.execute_fetchall(
            "SELECT g.rules, g.house, me.result, count(*) FROM game_players me JOIN games g USING (game_id) "
            "WHERE me.player_id = ? AND me.result IS NOT NULL GROUP BY g.rules, g.house, me.result",
            (player_id,),
        )
        total: dict[str, int] = {}
        by_rules: dict[str, dict[str, int]] = {}
        vs_house: dict[str, dict[str, int]] = {}
        for rules, house, result, n in rows:
            for bucket in (total, by_rules.setdefault(rules, {}), *([vs_house.setdefault(house, {})] if house else [])):
                bucket[result] = bucket.get(result, 0) + n

        def record(counts: dict[str, int]) -> Record:
            wins, losses, draws = counts.get("win", 0), counts.get("loss", 0), counts.get("draw", 0)
            return Record(wins + losses + draws, wins, losses, draws)

        longest, current = await self._streaks(player_id)
        return PlayerStats(
            player_id,
            record(total),
            {r: record(c) for r, c in sorted(by_rules.items())},
            {h: record(c) for h, c in sorted(vs_house.items())},
            longest,
            current,
            await self._best_turn(player_id),
        )

    async def _streaks(self, player_id: str) -> tuple[int, int]:
        """The longest run of wins and the run up to the last finished game."""
        rows = await self._db.execute_fetchall(
            "SELECT me.result FROM game_players me JOIN games g USING (game_id) "
            "WHERE me.player_id = ? AND me.result IS NOT NULL ORDER BY g.updated_at, g.game_id",
            (player_id,),
        )
        longest = current = 0
        for (result,) in rows:
            current = current + 1 if result == "win" else 0
            longest = max(longest, current)
        return longest, current

    async def _best_turn(self, player_id: str) -> BestTurn | None:
        rows = await self._db.execute_fetchall(
            "SELECT me.best_turn, me.game_id FROM game_players me JOIN games g USING (game_id) "
            "WHERE me.player_id = ? AND me.best_turn > 0 ORDER BY me.best_turn DESC, g.started_at, g.game_id LIMIT 1",
            (player_id,),
        )
        return next((BestTurn(int(points), str(game)) for points, game in rows), None)

    async def leaderboard(self, place: str | None = None, limit: int = 10) -> list[Leader]:
        """Players (never the house) by wins, then by fewer games, over finished games."""
        where = "me.result IS NOT NULL AND me.house IS NULL"
        params: tuple[object, ...] = (limit,)
        if place is not None:
            where += " AND g.place = ?"
            params = (place, limit)
        rows = await self._db.execute_fetchall(
            "SELECT me.player_id, max(me.name), sum(me.result = 'win'), count(*) "
            f"FROM game_players me JOIN games g USING (game_id) WHERE {where} "
            "GROUP BY me.player_id ORDER BY 3 DESC, 4, 1 LIMIT ?",
            params,
        )
        return [Leader(pid, name, int(wins), int(games)) for pid, name, wins, games in rows]
