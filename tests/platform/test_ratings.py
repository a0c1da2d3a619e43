"""Ratings: people rated by the games they finish against one another, by the projector, in the
order the games were decided, so that a rebuild gives the very same numbers; bots and the house
are not rated, a forfeit is a loss, and the same players cannot farm one another."""

from __future__ import annotations

import asyncio
import io
import random
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.games.cucumber.moves import leave, play
from bot.platform.compose import Platform, platform
from bot.platform.contract import Commands
from bot.platform.projection import Projector
from bot.platform.ratings import FARM_LIMIT, FARM_WINDOW, MODEL, Decided, Ledger, shown
from bot.platform.registry import Games
from bot.platform.service import GameService
from bot.platform.settings import Settings
from cucumber_core.events import Seat
from cucumber_core.game import Command, GameState, JoinLobby, OpenLobby, StartGame
from hog_core.events import Player
from hog_core.game import AcceptChallenge, CreateGame, Forfeit, TakeTurn, decide, evolve
from hog_core.game import GameState as HogState
from storage.events import EventStore
from storage.games import GameViews
from storage.sqlite.database import SqliteDatabase
from storage.sqlite.store import SqliteEventStore
from storage.summaries import SeatSummary, Summary
from tests.helpers import HOG, Seeded, hog_record

SIX = [Seat(str(i), name) for i, name in enumerate(["Ann", "Bob", "Cy", "Di", "Ed", "Flo"], start=1)]
Cucumber = GameService[GameState, Any, Any]


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[Platform]:
    async with platform(Settings(db=tmp_path / "r.sqlite3", cache=tmp_path), chance=Seeded(3)) as p:
        yield p


async def six_at_a_table(service: Cucumber, game_id: str) -> GameState:
    host, *guests = SIX
    await service.create(game_id, OpenLobby(game_id, host, 6, num_cards=3, target=9, place="c1"), f"{game_id}-open")
    for guest in guests:
        await service.execute(game_id, joining(guest), f"{game_id}-join-{guest.id}")
    return (await service.execute(game_id, lambda s, c: [StartGame(host.id)], f"{game_id}-start")).state


def joining(guest: Seat) -> Commands[GameState, Command]:
    return lambda state, chance: [JoinLobby(guest)]


async def played_out(service: Cucumber, game_id: str, state: GameState) -> GameState:
    """Each person to play plays their first legal card (a bot's seat plays itself) to the end."""
    for move in range(1000):
        if state.is_over:
            return state
        seat = state.to_play
        assert seat is not None
        card = state.legal_cards(seat)[0]
        state = (
            await service.execute(game_id, play(state.seats[seat].id, card, state.moment), f"{game_id}-{move}")
        ).state
    raise AssertionError("the game did not end")


async def test_a_six_player_cucumber_game_updates_six_ratings(world: Platform) -> None:
    service: Cucumber = world.service("cucumber")
    final = await played_out(service, "t1", await six_at_a_table(service, "t1"))
    assert final.loser is not None
    views = await world.settled_views()
    ratings = await views.ratings.of("cucumber", [s.id for s in SIX])
    assert sorted(ratings) == [s.id for s in SIX] and all(r.games == 1 for r in ratings.values())
    loser = ratings[SIX[final.loser].id]
    assert loser.mu < MODEL.mu and all(r.mu > loser.mu for r in ratings.values() if r is not loser)
    assert shown(loser) < shown(None) == 1000 and all(r.sigma < MODEL.sigma for r in ratings.values())
    stats = await views.stats(SIX[0].id, "cucumber", by="players", best="worst")
    assert stats.rating == ratings[SIX[0].id]


async def test_a_seat_left_to_a_bot_is_a_loss_and_a_table_with_bots_is_not_rated(world: Platform) -> None:
    service: Cucumber = world.service("cucumber")
    state = await six_at_a_table(service, "t1")
    state = (await service.execute("t1", leave(SIX[1].id), "t1-leave")).state
    final = await played_out(service, "t1", state)
    row = await (await world.settled_views()).game("t1")
    assert row is not None and row.seats[1].result == "loss" and final.bots[1] == "strong"
    assert [s.result for s in row.seats].count("loss") in (1, 2)  # the leaver, and the loser if another

    await service.create("t2", OpenLobby("t2", SIX[0], 3, num_cards=3, target=9, place="c1"), "t2-open")
    await service.execute("t2", lambda s, c: [JoinLobby(SIX[1])], "t2-join")
    bots = (await service.execute("t2", lambda s, c: [StartGame(SIX[0].id, fill="magic")], "t2-start")).state
    await played_out(service, "t2", bots)
    views = await world.settled_views()
    assert (await views.game("t2")).status == "finished"  # type: ignore[union-attr]
    assert (await views.ratings.of("cucumber", [SIX[0].id]))[SIX[0].id].games == 1  # t1 only
    assert (await views.ratings.standings("cucumber", "")).total == 6  # never a bot


def duel(game_id: str, winner: str, loser: str, at: float, position: int, *, bot: str | None = None) -> Decided:
    seats = (SeatSummary(winner, winner.title(), None, 100, "win"), SeatSummary(loser, loser.title(), bot, 50, "loss"))
    return Decided(Summary(game_id, "hog", "c1", "finished", False, 30, seats, decided=30), position, at)


def test_the_same_players_count_a_few_games_an_hour_and_bots_none() -> None:
    ledger = Ledger()
    games = [duel(f"g{i}", "ada", "bob", at=100.0 + 60 * i, position=i) for i in range(FARM_LIMIT + 2)]
    later = duel("late", "ada", "bob", at=100.0 + FARM_WINDOW + 1, position=99)
    others = duel("other", "ada", "cy", at=200.0, position=50)
    house = duel("house", "ada", "house-perfect", at=300.0, position=60, bot="perfect")
    rated, ratings = ledger.rate([later, house, others, *reversed(games)])
    assert [(g.game_id, g.counted) for g in rated] == [
        *((f"g{i}", i < FARM_LIMIT) for i in range(FARM_LIMIT + 2)),
        ("other", True),
        ("late", True),  # the first of the window has left it
    ]
    final = {r.player_id: r for r in ratings}
    assert (
        final["ada"].games == FARM_LIMIT + 2 and final["bob"].games == FARM_LIMIT + 1 and "house-perfect" not in final
    )
    assert ledger.rate(games) == ([], [])  # a game is rated once


def test_a_win_beats_a_draw_beats_a_loss_for_any_number_of_seats() -> None:
    results = ["draw", "loss", "win", "draw"]
    seats = tuple(SeatSummary(f"p{i}", f"P{i}", None, 0, r) for i, r in enumerate(results))
    _, ratings = Ledger().rate([Decided(Summary("g", "cards", "c", "over", False, 9, seats, decided=9), 1, 1.0)])
    mu = {r.player_id: r.mu for r in ratings}
    assert mu["p2"] > mu["p0"] > mu["p1"] and mu["p0"] == pytest.approx(mu["p3"])


def dump(path: Path) -> tuple[list[tuple[object, ...]], ...]:
    with sqlite3.connect(path) as db:
        tables = ("ratings", "rated", "rating_steps")
        return tuple(db.execute(f"SELECT * FROM {t} ORDER BY 1, 2, 3, 4").fetchall() for t in tables)


async def test_ratings_followed_in_small_batches_equal_a_rebuild(tmp_path: Path) -> None:
    """Twenty Hog games among six people, their turns interleaved at random, some forfeited; the
    projector follows now and then in batches of three events, so a batch often loads games decided
    by events beyond it. The ratings it reaches equal a rebuild's, to the last digit."""
    path = tmp_path / "h.sqlite3"
    store, views = await SqliteEventStore.open(path), GameViews(await SqliteDatabase.open(path))
    projector = Projector(store, views, Games({"hog": HOG}))
    rng = random.Random(11)

    async def now_and_then() -> None:
        if rng.random() < 0.1:
            await projector.catch_up(batch=3)

    try:
        await hog_games(store, rng, people=6, games=20, forfeits=0.01, between=now_and_then)
        await projector.catch_up(batch=3)
        followed = dump(path)
        assert len(followed[1]) == 20 and len(followed[0]) == 6
        for rating in (await views.ratings.of("hog", [str(i) for i in range(6)])).values():
            steps = await views.ratings.steps("hog", rating.player_id, most=100)
            assert len(steps) == rating.games and steps[-1][1] == rating.score, "a step a rated game, the last today's"
            assert [at for at, _ in steps] == sorted(at for at, _ in steps)
        await projector.rebuild()
        assert dump(path) == followed, "a rebuild draws the very same rating steps"
    finally:
        await views.close()
        await store.close()


async def hog_games(
    store: EventStore,
    rng: random.Random,
    people: int,
    games: int,
    forfeits: float = 0.0,
    between: Callable[[], Awaitable[None]] | None = None,
    first: int = 0,
) -> None:
    """``games`` Hog challenges to 30 among ``people`` people (ids from ``g{first}``), accepted, then
    their turns interleaved at random (now and then a forfeit) to the end, ``between`` awaited after
    each turn."""
    players = [Player(str(i), f"P{i}") for i in range(people)]
    playing: dict[str, HogState] = {}
    for n in range(first, first + games):
        a, b = rng.sample(players, 2)
        created = await append(store, HogState(), CreateGame(f"g{n}", (a, b), goal=30, challenge=True))
        playing[f"g{n}"] = await append(store, created, AcceptChallenge(b.id))
    while live := [g for g in playing.values() if not g.is_over]:
        state = rng.choice(live)
        mover = state.players[state.mover].id
        turn = TakeTurn(mover, 3, tuple(rng.randint(1, 6) for _ in range(3)))
        playing[state.game_id] = await append(store, state, Forfeit(mover) if rng.random() < forfeits else turn)
        if between is not None:
            await between()


async def append(store: EventStore, state: HogState, command: Any) -> HogState:
    events = decide(state, command)
    await store.append(state.game_id or command.game_id, [hog_record(e) for e in events], state.version)
    for event in events:
        state = evolve(state, event)
    return state


async def six_played(path: Path) -> GameState:
    async with platform(Settings(db=path, cache=path.parent), chance=Seeded(3)) as p:
        service: Cucumber = p.service("cucumber")
        return await played_out(service, "t1", await six_at_a_table(service, "t1"))


def test_the_command_line_shows_the_leaderboard_and_the_rating(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "cli.sqlite3"
    final = asyncio.run(six_played(path))
    monkeypatch.setenv("HOG_DB", str(path))
    loser = SIX[final.loser or 0]

    def run(*argv: str) -> list[str]:
        out = io.StringIO()
        assert main(list(argv), None, out) == 0
        return out.getvalue().splitlines()

    lines = run("leaderboard", "--game", "cucumber", "--player", loser.id)
    assert lines[0] == "Cucumber leaderboard, everyone: 6 rated"
    assert [line.split(".")[0] for line in lines[1:7]] == ["1", "2", "3", "4", "5", "6"]
    assert lines[6].startswith(f"6. {loser.name} · ") and lines[7].startswith("You: #6 of 6, ")
    assert run("leaderboard", "--game", "cucumber", "--page", "2")[1] == "No page 2: no more players."
    assert run("leaderboard", "--game", "cucumber", "--server", "123")[0].endswith("server 123: 0 rated")
    assert run("leaderboard")[1] == "Nobody is rated yet."  # Hog: nobody played it
    assert any(line.strip().startswith("Rating: ") for line in run("stats", "--game", "cucumber", "--player", loser.id))
