"""The reads a person can trigger go by index, bounded by what they show, on both databases: every
query ``history`` sends (the recent games, a player's by id and by name, of a game, in a place) is
explained by the database itself, and no plan scans a whole table or sorts all of it."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from pathlib import Path

import pytest

from storage.games import GameViews
from storage.kept import Kept
from storage.postgres.database import PostgresDatabase
from storage.ratings import RatedGame, Rating
from storage.sql import numbered
from storage.sqlite.database import SqliteDatabase
from storage.summaries import SeatSummary, Summary
from tests.storage.databases import BOTH, empty_views
from tests.storage.test_game_views import cards

ASKED = [
    {},
    {"player_id": "ada"},
    {"player_id": "ada", "game": "cards"},
    {"seat_name": "Ada", "place": "c1"},
    {"game": "cards"},
    {"before": (30.0, "k30")},  # a deep page, by the game it follows (keyset paging): a seek, no offset
    {"after": (30.0, "k30")},
    {"player_id": "ada", "before": (30.0, "k30")},
    {"seat_name": "Ada", "after": (30.0, "k30")},
]


@pytest.fixture(params=BOTH)
async def views(request: pytest.FixtureRequest, tmp_path: Path, postgres_server: str) -> AsyncIterator[GameViews]:
    async with empty_views(request.param, tmp_path, postgres_server) as opened:
        await opened.apply([cards(f"k{n}", n % 6, float(n)) for n in range(60)], 60)
        yield opened


async def plans(views: GameViews, asking: Callable[[], Awaitable[object]]) -> list[tuple[str, str]]:
    """Each query ``asking()`` sends, with the database's plan for it."""
    db, sent = views._db, list[tuple[str, tuple[object, ...]]]()
    fetch = db.fetch

    async def spied(sql: str, *params: object) -> object:
        sent.append((sql, params))
        return await fetch(sql, *params)

    db.fetch = spied  # type: ignore[method-assign,assignment]
    try:
        assert await asking()
    finally:
        db.fetch = fetch  # type: ignore[method-assign]
    explained = []
    for sql, params in sent:
        if isinstance(db, SqliteDatabase):
            rows = await db.fetch(f"EXPLAIN QUERY PLAN {sql}", *params)
            explained.append((sql, "\n".join(str(row[-1]) for row in rows)))
        else:
            assert isinstance(db, PostgresDatabase)
            async with db._pool.acquire() as connection, connection.transaction():
                await connection.execute("SET LOCAL enable_seqscan = off")  # the planner's choice for 60 rows aside
                rows = await connection.fetch(f"EXPLAIN {numbered(sql)}", *params)
            explained.append((sql, "\n".join(str(row[0]) for row in rows)))
    return explained


@pytest.mark.parametrize("asked", ASKED, ids=lambda a: ",".join(a) or "every game")
async def test_history_reads_by_index_in_time_order(views: GameViews, asked: dict[str, str]) -> None:
    explained = await plans(views, lambda: views.history(limit=5, **asked))  # type: ignore[arg-type]
    paged = [(sql, plan) for sql, plan in explained if "LIMIT" in sql]
    assert len(paged) == 1  # then the page's rows and seats, by their keys: as many as the page shows
    for sql, plan in paged:
        assert "INDEX" in plan.upper(), (sql, plan)
        assert "SCAN games\n" not in plan + "\n" and "SCAN seats\n" not in plan + "\n", (sql, plan)
        assert "TEMP B-TREE FOR ORDER BY" not in plan, (sql, plan)
        assert "Seq Scan" not in plan and "Sort" not in plan.split("Limit")[-1], (sql, plan)


async def test_a_players_record_is_read_by_key_not_counted_from_their_seats(views: GameViews) -> None:
    """Stats, totals and highs read a few rows of the player's tallies by primary key: the page of a
    player with a million games costs what a newcomer's does."""
    await views.apply([], 60, tallied=[(cards(f"k{n}", n % 6, float(n))[0], float(n)) for n in range(60)])

    async def record() -> object:
        stats = await views.stats("ada", "cards", by="target", best="worst")
        assert stats.total.games == 60
        return stats, await views.totals("ada", "cards", ["worst"])

    explained = await plans(views, record)
    assert {sql.split(" FROM ")[1].split()[0] for sql, _ in explained} >= {"tallies", "player_facts"}
    for sql, plan in explained:
        assert "Seq Scan" not in plan and not plan.startswith("SCAN") and "\nSCAN" not in plan, (sql, plan)
        assert "INDEX" in plan.upper() or "PRIMARY KEY" in plan.upper(), (sql, plan)


async def test_a_servers_season_reads_its_own_places_games_by_time(views: GameViews) -> None:
    """A season's games are read by place and time (``games_finished``), not from every game."""
    others = [cards(f"o{n}", n % 6, float(n % 30), place=f"c{2 + n % 20}") for n in range(600)]
    await views.apply(others, 61)  # other servers' games, the most: the planner's statistics say so
    for n in range(1, 22):
        await views.ratings.locate(f"c{n}", f"s{n}")
    await views.analyze()
    explained = await plans(views, lambda: views.finished_in("s1", "cards", 0.0, 100.0))  # a season: all of it
    (sql, plan), *_ = [(sql, plan) for sql, plan in explained if "games g" in sql]
    assert "games_finished" in plan, (sql, plan)
    assert "Seq Scan on games" not in plan and "SCAN games" not in plan, (sql, plan)


async def test_the_planners_statistics_are_gathered_on_either_database(views: GameViews) -> None:
    """``analyze`` (run after every rebuild) leaves statistics the planner reads for the games."""
    await views.analyze()
    db = views._db
    if isinstance(db, SqliteDatabase):
        ((rows,),) = await db.fetch("SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'games'")
    else:
        ((rows,),) = await db.fetch("SELECT count(*) FROM pg_stats WHERE tablename = 'games'")
    assert rows > 0


async def test_the_check_for_boards_behind_reads_only_the_unsettled(views: GameViews) -> None:
    """A board showing its finished game's last version is settled once and never read again by the
    check at start, which goes by the index of unsettled boards; a live game's board stays checked."""
    kept = Kept(views._db)
    for n in range(60):  # k0..k59: cards() games finished but for the running ones
        row = await views.game(f"k{n}")
        assert row is not None
        await kept.place_board(f"k{n}", "c1", f"m{n}", row.version if n % 10 else row.version - 1)
    await kept.place_board("never", "c1", "m-never")  # placed, never stored
    behind = {game_id for game_id, _ in await kept.boards_behind()}
    assert behind == {"never", *(f"k{n}" for n in range(0, 60, 10))}
    await kept.settle_boards()
    ((unsettled,),) = await views._db.fetch("SELECT count(*) FROM boards WHERE settled = 0")
    assert unsettled == 1 + 6  # the one never stored and the six behind
    assert {game_id for game_id, _ in await kept.boards_behind()} == behind
    db = views._db
    if isinstance(db, SqliteDatabase):
        rows = await db.fetch(
            "EXPLAIN QUERY PLAN SELECT b.game_id, b.shown_version FROM boards b LEFT JOIN games g "
            "ON g.game_id = b.game_id WHERE b.settled = 0 AND (g.version IS NULL OR b.shown_version < g.version)"
        )
        assert "boards_unsettled" in "\n".join(str(row[-1]) for row in rows)


async def test_the_games_being_played_are_read_newest_first_from_an_index_of_live_games(views: GameViews) -> None:
    """The front page's games under way: as many as it shows, from the end of the live games' index."""
    await views.apply([cards(f"r{n}", None, 100.0 + n, place=f"c{n % 3}") for n in range(12)], 72)
    await views.analyze()
    assert [row.game_id for row in await views.playing_now(3)] == ["r11", "r10", "r9"]
    for sql, plan in await plans(views, lambda: views.playing_now(3)):
        if "LIMIT" in sql:
            assert "games_live_by_start" in plan, (sql, plan)
            assert "Seq Scan" not in plan and "TEMP B-TREE" not in plan and "Sort" not in plan, (sql, plan)


async def test_a_players_rating_steps_are_read_from_the_end_of_their_key(views: GameViews) -> None:
    """The chart on a player's page: their last rated games' ratings, by key, however many they played."""
    rated = [RatedGame(f"k{n}", "cards", "c1", "ada grace", n, float(n), True, after(n)) for n in range(60)]
    await views.apply([], 61, rated=rated)
    await views.analyze()
    assert [score for _, score in await views.ratings.steps("cards", "ada", most=3)] == [57.0, 58.0, 59.0]
    explained = await plans(views, lambda: views.ratings.steps("cards", "ada", most=3))
    for sql, plan in explained:
        assert "Seq Scan" not in plan and "TEMP B-TREE" not in plan and "Sort" not in plan, (sql, plan)
        assert "INDEX" in plan.upper() or "PRIMARY KEY" in plan.upper(), (sql, plan)


def after(n: int) -> tuple[Rating, ...]:
    return (Rating("cards", "ada", "Ada", float(n), 0.0, n + 1), Rating("cards", "grace", "Grace", -n, 0.0, n + 1))


async def test_the_live_games_everywhere_are_read_from_the_live_games_index(views: GameViews) -> None:
    """``/metrics`` and a process taking the lead count the live games of every place: read from the
    index of live games (as many rows as there are live games), never the games by time."""
    await views.apply([cards(f"r{n}", None, 100.0 + n, place=f"c{n % 3}") for n in range(12)], 72)
    await views.analyze()
    assert len(await views.live_games()) == 12
    for sql, plan in await plans(views, lambda: views.live_games()):
        if "live = 1" in sql:
            assert "games_live_by_start" in plan, (sql, plan)
            assert "Seq Scan" not in plan and "games_by_time" not in plan and "Sort" not in plan, (sql, plan)


async def test_the_trainer_draws_a_costly_move_by_its_number_from_the_players_key(views: GameViews) -> None:
    """``/hog train``: how many costly moves a player made (the last one's number) and one of them,
    each a seek on the player's key, however many they made (no count, no offset)."""
    rows = [
        (replace(s, seats=(replace(s.seats[0], mistakes=(1, 2, 3)), *s.seats[1:])), t)
        for s, t, _ in (cards(f"m{n}", 1, float(n)) for n in range(30))
    ]
    await views.apply([], 61, tallied=rows)
    await views.analyze()
    assert await views.mistakes_count("ada", "cards") == 90
    assert await views.mistakes("ada", "cards", offset=50, limit=1) == [("m16", 3)]
    for asking in (lambda: views.mistakes_count("ada", "cards"), lambda: views.mistakes("ada", "cards", 50, 1)):
        for sql, plan in await plans(views, asking):
            assert "Seq Scan" not in plan and "TEMP B-TREE" not in plan and "Sort" not in plan, (sql, plan)
            assert "INDEX" in plan.upper() or "PRIMARY KEY" in plan.upper(), (sql, plan)


@pytest.mark.parametrize("server", [None, "s1"], ids=["every player", "a server's"])
async def test_a_leaderboard_its_size_and_a_place_are_read_from_its_own_index_by_score(
    views: GameViews, server: str | None
) -> None:
    """``/hog leaderboard``: the page from the end of the board's index by score, the asker's place
    counted in that index alone (a server's: its members', never every rating), its size kept."""
    n = 400  # enough for PostgreSQL's planner to choose as it would on a real server's board
    ratings = [Rating("cards", f"p{i:03d}", f"P{i}", mu=20 + n - i, sigma=5.0, games=1) for i in range(n)]
    rated = [RatedGame(f"x{i}", "cards", f"c{i % 2}", f"p{i:03d}", 100 + i, float(i), True) for i in range(n)]
    seats = [
        Summary(f"x{i}", "cards", f"c{i % 2}", "over", False, 1, (SeatSummary(f"p{i:03d}", f"P{i}"),)) for i in range(n)
    ]
    await views.ratings.locate("c1", "s1")
    await views.ratings.locate("c0", "s0")  # another server's members: those of s1 are a few of the game's
    await views.apply([(s, 1.0, 2.0) for s in seats], 61, rated=rated, ratings=ratings)
    await views.analyze()
    last = f"p{n - 1}"  # the lowest rated on either board, off its first page
    board = await views.ratings.standings("cards", last, server=server, limit=5)
    assert board.mine is not None and board.mine.rank == board.total == (n if server is None else n // 2)
    explained = await plans(views, lambda: views.ratings.standings("cards", last, server=server, limit=5))
    for sql, plan in explained:
        assert "Seq Scan" not in plan and "TEMP B-TREE" not in plan and "Sort" not in plan, (sql, plan)
        assert not re.search(r"\bSCAN (?!CONSTANT ROW)", plan), (sql, plan)  # SQLite: each table searched by an index
    if server is not None:
        counted = [plan for sql, plan in explained if "count(*)" in sql]
        assert len(counted) == 1 and not any("ratings" in plan for plan in counted), counted
        for plan in counted:  # the server's own entries: SQLite's index by score, PostgreSQL's by score or key
            assert "members_by_score (server=? AND game=?" in plan or "Index Cond: ((server = " in plan, plan
