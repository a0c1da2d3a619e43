"""The read models hold any game with any number of seats: a six-seat card game and a two-seat dice
game side by side, listed, paged, counted and ranked by queries that know neither, on SQLite and on
PostgreSQL alike."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from storage.games import Best, GameViews, Record
from storage.ratings import Ranked, RatedGame, Rating
from storage.summaries import SeatSummary, Summary
from tests.storage.databases import BOTH, empty_views


def cards(game_id: str, loser: int | None, when: float, place: str = "c1") -> tuple[Summary, float, float]:
    """A finished (or, without a loser, running) six-seat game: Ada, Grace, four bots."""
    people = [("ada", "Ada", None), ("grace", "Grace", None), *((f"bot{i}", f"Bot {i}", "strong") for i in range(4))]
    seats = tuple(
        SeatSummary(
            pid,
            name,
            bot,
            score=10 + i,
            result=None if loser is None else "loss" if i == loser else "win",
            facts={"worst": 13 - i},
        )
        for i, (pid, name, bot) in enumerate(people)
    )
    status = "over" if loser is not None else "playing"
    return Summary(game_id, "cards", place, status, loser is None, 9, seats, {"target": "21"}), when, when + 1


@pytest.fixture(params=BOTH)
async def views(request: pytest.FixtureRequest, tmp_path: Path, postgres_server: str) -> AsyncIterator[GameViews]:
    """The same read models on each database, each test run on both."""
    dice = Summary("d1", "dice", "c1", "won", False, 3, (SeatSummary("ada", "Ada", None, 100, "win"),))
    updates = [cards("k1", 0, 1.0), cards("k2", 3, 2.0), cards("k3", None, 3.0), (dice, 4.0, 5.0)]
    async with empty_views(request.param, tmp_path, postgres_server) as opened:
        # the finished games tallied in the order they finished
        await opened.apply(updates, 40, tallied=[(s, start) for s, start, _ in updates if not s.live])
        yield opened


async def test_rows_keep_every_seat_and_field(views: GameViews) -> None:
    row = await views.game("k1")
    assert row is not None and row.game == "cards" and row.fields == {"target": "21"}
    assert [s.player_id for s in row.seats] == ["ada", "grace", "bot0", "bot1", "bot2", "bot3"]
    assert row.scores == (10, 11, 12, 13, 14, 15) and [s.result for s in row.seats][:2] == ["loss", "win"]
    assert [r.game_id for r in await views.live_games("c1")] == ["k3"]
    assert [r.game_id for r in await views.live_games(game="dice")] == []
    assert await views.checkpoint() == 40


async def test_history_and_stats_for_any_number_of_seats(views: GameViews) -> None:
    assert [r.game_id for r in await views.history("ada")] == ["d1", "k3", "k2", "k1"]
    assert [r.game_id for r in await views.history("ada", game="cards", limit=1, offset=1)] == ["k2"]
    assert [r.game_id for r in await views.history()] == ["d1", "k3", "k2", "k1"], "every game, no filter"
    assert [r.game_id for r in await views.live_games()] == ["k3"]
    stats = await views.stats("ada", "cards", by="target", best="worst")
    assert stats.total == Record(2, 1, 1, 0) and stats.by_field == {"21": Record(2, 1, 1, 0)}
    assert stats.vs_bots == {"strong": Record(2, 1, 1, 0)}
    assert (stats.longest_streak, stats.current_streak) == (1, 1) and stats.best == Best(13, "k1")
    totals = await views.totals("bot0", "cards", ["worst", "unknown"])
    assert totals == {"games": 2, "score": 24, "worst": 22, "unknown": 0}  # finished games only, summed
    assert await views.totals("nobody", "cards") == {"games": 0, "score": 0}
    assert await views.tallied(["k1", "k2", "k3", "d1", "nope"]) == {"k1", "k2", "d1"}


async def test_streaks_and_highs_follow_the_order_games_were_decided(views: GameViews) -> None:
    """Win, win, loss, win, win, win: the longest run 3, the run now 3; a fact's highest value kept
    with the first game (by its start) that reached it, whichever was tallied first."""
    results = ["win", "win", "loss", "win", "win", "win"]
    highs = [5, 9, 9, 2, 9, 1]
    starts = [10.0, 12.0, 11.0, 13.0, 14.0, 15.0]  # the third started before the second
    decided = [
        (Summary(f"s{i}", "dice", "c1", "over", False, 3, (SeatSummary("eve", "Eve", None, 7, r, {"turn": h}),)), t)
        for i, (r, h, t) in enumerate(zip(results, highs, starts, strict=True))
    ]
    await views.apply([(s, t, t + 1) for s, t in decided], 41, tallied=decided)
    stats = await views.stats("eve", "dice", by="none", best="turn")
    assert (stats.longest_streak, stats.current_streak) == (3, 3) and stats.total == Record(6, 5, 1, 0)
    assert stats.best == Best(9, "s2")
    assert await views.totals("eve", "dice", ["turn"]) == {"games": 6, "score": 42, "turn": 35}


async def test_a_game_is_replaced_whole(views: GameViews) -> None:
    """A summary with fewer seats or fields than before leaves none of the old rows behind; the
    game, tallied once when it was decided, is not counted again."""
    one = Summary("k1", "cards", "c1", "over", False, 10, (SeatSummary("ada", "Ada"),))
    await views.apply([(one, 1.0, 9.0)], 41)
    row = await views.game("k1")
    assert row is not None and len(row.seats) == 1 and row.fields == {}
    stats = await views.stats("ada", "cards", by="target", best="worst")
    assert stats.best == Best(13, "k1") and stats.total.games == 2 and await views.tallied(["k1"]) == {"k1"}


async def test_a_seat_taken_by_another_and_a_game_ending_move_every_list(views: GameViews) -> None:
    """A move rewrites no index entry, but what the lists go by is still kept: the seat another
    player now holds lists the game under them alone; a game that ends leaves the live games and
    joins its place's finished ones; the lists go by when a game started, which its moves never change."""
    lobby = Summary("k9", "cards", "c9", "waiting", True, 1, (SeatSummary("ada", "Ada"), SeatSummary("bob", "Bob")))
    await views.apply([(lobby, 50.0, 50.0)], 41)
    assert [g.game_id for g in await views.live_games("c9")] == ["k9"]
    taken = Summary(
        "k9", "cards", "c9", "playing", True, 2, (SeatSummary("ada", "Ada"), SeatSummary("cy", "Cy", "easy"))
    )
    await views.apply([(taken, 50.0, 60.0)], 42)
    assert [g.game_id for g in await views.history("cy")] == ["k9"] and await views.history("bob") == []
    over = Summary("k9", "cards", "c9", "over", False, 3, (SeatSummary("ada", "Ada", None, 7, "win"), taken.seats[1]))
    await views.apply([(over, 50.0, 70.0)], 43)
    assert await views.live_games("c9") == [] and [g.game_id for g in await views.live_games()] == ["k3"]
    await views.ratings.locate("c9", "s9")
    assert [(g.game_id, g.updated_at) for g in await views.finished_in("s9", "cards", 0.0, 100.0)] == [("k9", 70.0)]
    assert [g.game_id for g in await views.history("ada", limit=2)] == ["k9", "d1"]
    row = await views.game("k9")
    assert row is not None and row.seats[0].score == 7 and row.seats[1].bot == "easy" and row.started_at == 50.0


async def test_a_leaderboard_ranks_by_the_conservative_score_in_all_or_in_one_server(views: GameViews) -> None:
    """Twelve rated players; a page, the asker's rank when off the page, and a server's own board
    (the players who finished a rated game in one of its places)."""
    ratings = [Rating("cards", f"p{i:02d}", f"P{i}", mu=20 + i, sigma=5 + (i % 3), games=i + 1) for i in range(12)]
    rated = [RatedGame(f"r{i}", "cards", f"c{i % 2}", f"p{i:02d}", i, float(i), True) for i in range(12)]
    seats = [
        Summary(f"r{i}", "cards", f"c{i % 2}", "over", False, 1, (SeatSummary(f"p{i:02d}", f"P{i}"),))
        for i in range(12)
    ]
    await views.apply([(s, 1.0, 2.0) for s in seats], 50, rated=rated, ratings=ratings)
    await views.ratings.locate("c1", "server-1")
    await views.ratings.locate("c1", "server-2")  # a place is in one server, for good

    order = sorted(ratings, key=lambda r: (-r.score, r.player_id))
    board = await views.ratings.standings("cards", order[-1].player_id, limit=5, offset=5)
    assert [r.rating for r in board.page] == order[5:10] and [r.rank for r in board.page] == [6, 7, 8, 9, 10]
    assert board.total == 12 and board.mine is not None and (board.mine.rank, board.mine.rating) == (12, order[-1])

    odd = [r for r in order if int(r.player_id[1:]) % 2]
    here = await views.ratings.standings("cards", "p00", server="server-1", limit=3)
    assert [r.rating for r in here.page] == odd[:3] and here.total == 6 and here.mine is None  # p00 never played there
    mine = (await views.ratings.standings("cards", "p01", server="server-1", limit=1)).mine
    assert mine is not None and mine.rating.player_id == "p01" and odd[mine.rank - 1] == mine.rating
    assert (await views.ratings.standings("cards", "p01", server="server-2")).total == 0
    assert (await views.game("r1")) is not None and (await views.stats("p03", "cards", "x", "y")).rating == ratings[3]

    # later games: p00's rating moves to the top of every board it is on, and its game in c1 makes it a
    # member of server-1; a player whose game there did not count (never rated) is on no board
    risen = Rating("cards", "p00", "P0", mu=99, sigma=1, games=2)
    later = [
        Summary(f"s{i}", "cards", "c1", "over", False, 1, (SeatSummary(p, p),)) for i, p in enumerate(("p00", "q"))
    ]
    counted = [
        RatedGame("s0", "cards", "c1", "p00", 13, 13.0, True),
        RatedGame("s1", "cards", "c1", "q", 14, 14.0, False),
    ]
    await views.apply([(s, 3.0, 4.0) for s in later], 51, rated=counted, ratings=[risen])
    here = await views.ratings.standings("cards", "q", server="server-1", limit=2)
    assert [r.rating for r in here.page] == [risen, odd[0]] and here.total == 7 and here.mine is None
    top = (await views.ratings.standings("cards", "p00", limit=1)).mine
    assert top is not None and (top.rank, top.rating) == (1, risen)
    moved = Rating("cards", "p01", "P1", mu=0, sigma=9, games=3)  # p01 falls to the bottom of server-1's
    await views.apply([], 52, ratings=[moved])
    last = (await views.ratings.standings("cards", "p01", server="server-1")).mine
    assert last is not None and (last.rank, last.rating) == (7, moved)


async def test_a_past_season_is_kept_whole_or_its_top_and_an_empty_one_too(views: GameViews) -> None:
    """A season's table is read back as kept (on either database), its first ``most`` alone; a
    season nobody was rated in is kept as such, and one never worked out reads as ``None``."""
    table = [Ranked(i, Rating("cards", f"p{i}", f"P{i}", 30.0 - i, 2.0, i)) for i in range(1, 6)]
    await views.ratings.keep_season("s1", "cards", 100.0, table)
    await views.ratings.keep_season("s1", "cards", 200.0, [])
    assert await views.ratings.season("s1", "cards", 100.0) == table
    assert await views.ratings.season("s1", "cards", 100.0, most=3) == table[:3]
    assert await views.ratings.season("s1", "cards", 200.0) == [] and await views.ratings.season("s1", "x", 1.0) is None


async def test_a_players_costly_moves_are_numbered_as_tallied_and_drawn_by_number(views: GameViews) -> None:
    """The trainer's positions: each player's numbered 1, 2, ... across their games in the order those
    were decided; a game tallied again adds none; a page starts after a number, the count is the last."""

    def costly(game_id: str, when: float, ada: tuple[int, ...], grace: tuple[int, ...]) -> tuple[Summary, float]:
        summary, started, _ = cards(game_id, 1, when)
        seats = (replace(summary.seats[0], mistakes=ada), replace(summary.seats[1], mistakes=grace))
        return replace(summary, seats=seats + summary.seats[2:]), started

    later, earlier = costly("m2", 20.0, (4, 9), ()), costly("m1", 10.0, (3,), (5, 7))
    await views.apply([], 41, tallied=[later, earlier])  # decided in that order, whenever they started
    await views.apply([], 42, tallied=[later])  # the same game again: nothing new
    assert await views.mistakes_count("ada", "cards") == 3 and await views.mistakes_count("grace", "cards") == 2
    assert await views.mistakes("ada", "cards") == [("m2", 4), ("m2", 9), ("m1", 3)]
    assert await views.mistakes("ada", "cards", offset=1, limit=1) == [("m2", 9)]
    assert await views.mistakes("ada", "cards", offset=3) == [] and await views.mistakes_count("bob", "cards") == 0
