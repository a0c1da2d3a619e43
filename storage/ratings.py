"""Read models of ratings: each player's rating in each game, the rated games (for the rule that
keeps the same players from farming one another), and a server's leaderboard.

The projector computes the numbers (``bot.platform.ratings``); this module only keeps and ranks
them. A leaderboard is ordered by the conservative estimate ``mu - 3 * sigma`` (stored as ``score``):
a player must be both good and known to be good to rank high.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from storage.migrations import members_of
from storage.sql import Database


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's skill in a game, as a mean and an uncertainty, over ``games`` rated games."""

    game: str
    player_id: str
    name: str
    mu: float
    sigma: float
    games: int

    @property
    def score(self) -> float:
        """The conservative estimate the leaderboard ranks by."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A finished game between people, and whether it moved its players' ratings (``counted``)."""

    game_id: str
    game: str
    place: str
    players: str
    """Its players' ids, sorted, joined by spaces: the same set of players has the same key."""
    position: int
    """The position of the event that decided it: games are rated in this order."""
    finished_at: float
    counted: bool
    after: tuple[Rating, ...] = ()
    """Its players' ratings after it (none when it did not count)."""


@dataclass(frozen=True, slots=True)
class Ranked:
    rank: int
    rating: Rating


@dataclass(frozen=True, slots=True)
class Standings:
    """A page of a leaderboard, how many are on it, and the asker's own place (``None``: unrated there)."""

    page: list[Ranked]
    total: int
    mine: Ranked | None


COLUMNS = "game, player_id, name, mu, sigma, games"


def rating_rows(ratings: Iterable[Rating]) -> list[tuple[object, ...]]:
    """The rows the projector writes (in the transaction of its checkpoint)."""
    return [(r.game, r.player_id, r.name, r.mu, r.sigma, r.score, r.games) for r in ratings]


def score_rows(ratings: Iterable[Rating]) -> list[tuple[object, ...]]:
    return [(r.score, r.game, r.player_id) for r in ratings]


def rated_rows(games: Iterable[RatedGame]) -> list[tuple[object, ...]]:
    return [(g.game_id, g.game, g.place, g.players, g.position, g.finished_at, int(g.counted)) for g in games]


def member_rows(games: Iterable[RatedGame]) -> list[tuple[object, ...]]:
    return [(g.game_id,) for g in games]


def step_rows(games: Iterable[RatedGame]) -> list[tuple[object, ...]]:
    return [(g.game, r.player_id, g.finished_at, g.game_id, r.score) for g in games for r in g.after]


WRITES = (
    "INSERT INTO ratings (game, player_id, name, mu, sigma, score, games) VALUES (?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (game, player_id) DO UPDATE SET name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, "
    "score = excluded.score, games = excluded.games",
    # every server's leaderboard the player is on carries the new score (``members_by_player``)
    "UPDATE members SET score = ? WHERE game = ? AND player_id = ?",
    "INSERT INTO rated (game_id, game, place, players, position, finished_at, counted) VALUES (?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (game_id) DO UPDATE SET game = excluded.game, place = excluded.place, players = excluded.players, "
    "position = excluded.position, finished_at = excluded.finished_at, counted = excluded.counted",
    # after the game's seats, its rated row and the ratings: its players are members of its place's server
    f"INSERT INTO members (server, game, player_id, score) {members_of('p.server', 'g.game_id = ?', True)} "
    "ON CONFLICT DO NOTHING",
    "INSERT INTO rating_steps (game, player_id, finished_at, game_id, score) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT (game, player_id, finished_at, game_id) DO UPDATE SET score = excluded.score",
)
"""The projector's writes, in its transaction, for the rows of ``rating_rows``, ``score_rows``,
``rated_rows``, ``member_rows`` and ``step_rows`` in turn."""
MEMBERS = (
    f"INSERT INTO members (server, game, player_id, score) {members_of('p.server', 'TRUE', True)} "
    "ON CONFLICT DO NOTHING"
)
"""Every server's members, from its places' rated games (``WHERE TRUE``: SQLite's parser needs one
before ``ON CONFLICT`` after a join)."""


class RatingViews:
    """Queries of the ratings, on the read models' connection."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def of(self, game: str, player_ids: Sequence[str]) -> dict[str, Rating]:
        """The ratings these players have in ``game`` (an unrated player is left out)."""
        marks = ",".join("?" * len(player_ids))
        rows = await self._db.fetch(
            f"SELECT {COLUMNS} FROM ratings WHERE game = ? AND player_id IN ({marks})", game, *player_ids
        )
        return {r.player_id: r for r in map(_rating, rows)}

    async def steps(self, game: str, player_id: str, most: int = 60) -> list[tuple[float, float]]:
        """``(finished_at, score)`` after each of the player's last ``most`` rated games, oldest first:
        from the end of its key, as many rows as the chart draws."""
        rows = await self._db.fetch(
            "SELECT finished_at, score FROM rating_steps WHERE game = ? AND player_id = ? "
            "ORDER BY finished_at DESC LIMIT ?",
            game,
            player_id,
            most,
        )
        return [(float(at), float(score)) for at, score in reversed(rows)]

    async def rated(self, game_ids: Sequence[str]) -> set[str]:
        """Which of these games have been rated (or judged not to count) already."""
        marks = ",".join("?" * len(game_ids))
        rows = await self._db.fetch(f"SELECT game_id FROM rated WHERE game_id IN ({marks})", *game_ids)
        return {str(g) for (g,) in rows}

    async def counted_since(self, game: str, players: str, since: float) -> list[float]:
        """When each counted game of ``game`` between exactly ``players`` finished, from ``since`` on."""
        rows = await self._db.fetch(
            "SELECT finished_at FROM rated WHERE game = ? AND players = ? AND finished_at >= ? AND counted = 1 "
            "ORDER BY finished_at",
            game,
            players,
            since,
        )
        return [float(t) for (t,) in rows]

    async def season(self, server: str, game: str, start: float, most: int | None = None) -> list[Ranked] | None:
        """The table of the past season of ``server`` that began at ``start`` (its first ``most``), as
        kept (``keep_season``); ``None`` when it was never kept."""
        limit = () if most is None else (most + 1,)  # and the row that says it was kept (rank 0)
        rows = await self._db.fetch(
            "SELECT rank, game, player_id, name, mu, sigma, games FROM season_standings "
            f"WHERE server = ? AND game = ? AND start = ? ORDER BY rank{' LIMIT ?' * bool(limit)}",
            server,
            game,
            start,
            *limit,
        )
        return [Ranked(int(row[0]), _rating(row[1:])) for row in rows if row[0]] if rows else None

    async def keep_season(self, server: str, game: str, start: float, table: Sequence[Ranked]) -> None:
        """Keep a past season's table, worked out once from its games, with a row of rank 0 that says
        so (a season nobody was rated in is kept too), and forget how far it was carried while it
        ran. A rebuild forgets it: it is worked out again from the rebuilt games when next asked for."""
        kept = Ranked(0, Rating(game, "", "", 0.0, 0.0, 0))
        rows = [(server, start, r.rank, *_columns(r.rating)) for r in (kept, *table)]
        insert = (
            "INSERT INTO season_standings (server, start, rank, game, player_id, name, mu, sigma, games) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
        )
        done = "DELETE FROM season_running WHERE server = ? AND game = ? AND start = ?"  # carried no further
        await self._db.transaction([(insert, rows), (done, [(server, game, start)])])

    async def running(self, server: str, game: str, start: float) -> bytes | None:
        """The running season's ratings as last kept (``keep_running``), ``None`` when never kept."""
        rows = await self._db.fetch(
            "SELECT state FROM season_running WHERE server = ? AND game = ? AND start = ?", server, game, start
        )
        return bytes(rows[0][0]) if rows else None

    async def keep_running(self, server: str, game: str, start: float, last: float, state: bytes) -> None:
        """Keep a running season's ratings as rated up to the game that finished at ``last``, unless
        another process kept them rated further."""
        await self._db.execute(
            "INSERT INTO season_running (server, game, start, last, state) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (server, game, start) DO UPDATE SET last = excluded.last, state = excluded.state "
            "WHERE excluded.last > season_running.last",
            server,
            game,
            start,
            last,
            state,
        )

    async def locate(self, place: str, server: str) -> None:
        """Remember that ``place`` (a channel) is in ``server``: its rated games count on the server's
        leaderboard (those rated before it was known too: a trigger of ``places``). Not from the log
        (the log knows channels, not servers), so a rebuild keeps it."""
        await self._db.execute("INSERT INTO places (place, server) VALUES (?, ?) ON CONFLICT DO NOTHING", place, server)

    async def standings(
        self, game: str, player_id: str, server: str | None = None, limit: int = 10, offset: int = 0
    ) -> Standings:
        """The leaderboard of ``game`` (of the players who finished a rated game in ``server``, when
        given) from ``offset``, its size, and ``player_id``'s own place on it: read from the board's
        own index by score (``ratings_by_score``; a server's ``members_by_score``, whose rows carry
        their member's score), the place counted there (the entries above it), the size kept
        (``board_sizes``): never every rating of the game for one server."""
        board = Board("ratings r", "r", "r.game = ?", (game,)) if server is None else members_board(server, game)
        rows = await self._db.fetch(
            f"SELECT {RATED} FROM {board.rows} WHERE {board.where} "
            f"ORDER BY {board.key}.score DESC, {board.key}.player_id LIMIT ? OFFSET ?",
            *board.params,
            limit,
            offset,
        )
        page = [Ranked(offset + i + 1, rating) for i, rating in enumerate(map(_rating, rows))]
        size = await self._db.fetch("SELECT n FROM board_sizes WHERE server = ? AND game = ?", server or "", game)
        total = size[0][0] if size else 0
        mine = next((r for r in page if r.rating.player_id == player_id), None)
        if mine is None:
            mine = await self._place(board, player_id)
        return Standings(page, int(total), mine)

    async def _place(self, board: Board, player_id: str) -> Ranked | None:
        rows = await self._db.fetch(
            f"SELECT {RATED} FROM {board.rows} WHERE {board.where} AND {board.key}.player_id = ?",
            *board.params,
            player_id,
        )
        found = next(iter(map(_rating, rows)), None)
        if found is None:
            return None
        # those above, and those level before it by id: two ranges of the index by score (an OR is none)
        counted, k = f"SELECT count(*) FROM {board.counted} WHERE {board.where}", board.key
        ((ahead,),) = await self._db.fetch(
            f"SELECT ({counted} AND {k}.score > ?) + ({counted} AND {k}.score = ? AND {k}.player_id < ?)",
            *board.params,
            found.score,
            *board.params,
            found.score,
            player_id,
        )
        return Ranked(int(ahead) + 1, found)


RATED = ", ".join(f"r.{column}" for column in COLUMNS.split(", "))
"""A rating's columns, of ``ratings r``."""


@dataclass(frozen=True)
class Board:
    """A leaderboard as SQL: the table its entries are counted in (``counted``, ``key`` its alias, by
    score and player), which entries are on it, and where their ratings are read (``rows``)."""

    counted: str
    key: str
    where: str
    params: tuple[object, ...]

    @property
    def rows(self) -> str:
        """The entries with their ratings (``ratings r``: the entries themselves on everyone's board)."""
        if self.key == "r":
            return self.counted
        return f"{self.counted} JOIN ratings r ON r.game = {self.key}.game AND r.player_id = {self.key}.player_id"


def members_board(server: str, game: str) -> Board:
    """A server's leaderboard: its members who have a rating, by ``members_by_score``."""
    return Board("members m", "m", "m.server = ? AND m.game = ? AND m.score IS NOT NULL", (server, game))


def _columns(r: Rating) -> tuple[object, ...]:
    """A rating as the columns of ``COLUMNS``, in order (``_rating`` reads them back)."""
    return (r.game, r.player_id, r.name, r.mu, r.sigma, r.games)


def _rating(row: Sequence[Any]) -> Rating:
    game, player_id, name, mu, sigma, games = row
    return Rating(str(game), str(player_id), str(name), float(mu), float(sigma), int(games))
