"""Tournaments run by the platform alone (no front): rounds paired and their games created by the
director, results recorded as the games finish, through to the final standings; a restart in the
middle of a round; a player who leaves."""

from __future__ import annotations

import asyncio
import io
import itertools
from collections.abc import AsyncIterator, Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.platform.compose import Platform, platform
from bot.platform.contract import Refusal
from bot.platform.registry import installed_modules
from bot.platform.settings import Settings
from bot.platform.tournaments import rules
from bot.platform.tournaments.book import stream_id
from bot.platform.tournaments.events import Created, Event
from bot.platform.tournaments.state import Round, Tournament
from cucumber_core.game import Forfeit as CucumberForfeit
from hog_core.game import Forfeit as HogForfeit
from storage.events import NewEvent
from tests.fake_clock import FakeClock

SERVER, CHANNEL, ORGANISER = "900", "901", "p0"


def current(t: Tournament) -> Round:
    """The round being played (there is one: the test started the tournament)."""
    assert t.current is not None
    return t.current


@pytest.fixture
async def world(tmp_path: Path, solved_folder: Path) -> AsyncIterator[Platform]:
    async with opened(tmp_path / "t.sqlite3", solved_folder) as p:
        yield p


def opened(db: Path, solved: Path, clock: FakeClock | None = None) -> Any:
    return platform(Settings(db=db, cache=solved), installed_modules("hogbot"), clock=clock or FakeClock(1000.0))


async def new(
    p: Platform,
    game: str,
    fmt: str,
    players: int,
    rounds: int = 0,
    options: Mapping[str, str] | None = None,
    tid: str = "0000000a",
    signup_ends: float = 0.0,
) -> str:
    smallest, largest = p.games[game].table_sizes  # type: ignore[attr-defined]
    created = Created(
        tid,
        game,
        fmt,
        rounds,
        dict(options or {}),
        ORGANISER,
        "Player 0",
        CHANNEL,
        SERVER,
        signup_ends,
        0.0,
        smallest,
        largest,
    )
    stream = stream_id(SERVER, tid)
    await p.tournaments.act(stream, lambda t: rules.create(t, created))
    for i in range(1, players):
        await p.tournaments.act(stream, partial(joined, f"p{i}", f"Player {i}"))
    return stream


def joined(player: str, name: str, t: Tournament) -> list[Event]:
    return rules.join(t, player, name)


def forfeited(command: object, state: object, chance: object) -> list[object]:
    return [command]


Winner = Callable[[tuple[str, ...]], str]


def first_named(table: tuple[str, ...]) -> str:
    """The player with the lowest number wins (a stable order to predict)."""
    return min(table, key=lambda p: int(p[1:]))


async def play_round(p: Platform, stream: str, winner: Winner = first_named) -> Tournament:
    """Every game of the current round ended by its losers' forfeits; the results recorded."""
    t = await p.tournaments.book.load(stream)
    assert t.created is not None and current(t) is not None
    service = p.service(t.created.game)
    for table, game_id in zip(current(t).tables, current(t).games, strict=True):
        state = await service.load(game_id)
        assert state.version, "the director created every game of the round"
        if state.is_over:  # a player left, forfeiting it
            continue
        won = winner(table)
        loser = next(x for x in table if x != won)
        forfeit = HogForfeit(loser) if t.created.game == "hog" else CucumberForfeit(loser)
        await service.execute(game_id, partial(forfeited, forfeit), f"end:{game_id}")
    await p.tournaments.settled()
    return await p.tournaments.book.load(stream)


async def test_a_swiss_of_six_with_a_player_who_leaves_and_a_bye(world: Platform) -> None:
    p = world
    stream = await new(p, "hog", "swiss", 6, rounds=3, options={"goal": "50", "rules": "fa18"})
    t = await p.tournaments.start(stream, ORGANISER, False)
    assert t.status == "running" and len(t.rounds) == 1
    assert sorted(x for table in current(t).tables for x in table) == [f"p{i}" for i in range(6)]
    hog = p.service("hog")
    first = await hog.load(current(t).games[0])
    assert (first.goal, first.rules.id, first.place) == (50, "fa18", CHANNEL)
    t = await play_round(p, stream)
    assert len(t.rounds) == 2
    with pytest.raises(Refusal, match="Only the organiser"):
        await p.tournaments.drop(stream, "p5", "p1", False)
    t = await p.tournaments.drop(stream, "p5", "p5", False)  # leaves while round 2 is played
    assert "p5" in t.gone
    t = await play_round(p, stream)
    assert len(t.rounds) == 3 and len(current(t).byes) == 1 and "p5" not in str(current(t).tables)
    met = [frozenset(table) for r in t.rounds for table in r.tables]
    assert len(met) == len(set(met)), "no rematch"
    t = await play_round(p, stream)
    assert t.status == "finished" and len(t.rounds) == 3
    standings = t.standings()
    assert standings[0].player == "p0" and standings[0].points == 3
    assert [s.points for s in standings] == sorted((s.points for s in standings), reverse=True)
    assert sum(s.byes for s in standings) == 1


async def test_a_knockout_of_five_seeds_byes_to_the_top(world: Platform) -> None:
    p = world
    stream = await new(p, "hog", "knockout", 5)
    t = await p.tournaments.start(stream, ORGANISER, False)
    # everyone is rated alike (1000): seeds by id, p0 first; the bracket of 8 gives seeds 1-3 byes
    assert current(t).tables == (("p3", "p4"),) and set(current(t).byes) == {"p0", "p1", "p2"}
    t = await play_round(p, stream)
    assert sorted(map(sorted, current(t).tables)) == [["p0", "p3"], ["p1", "p2"]]
    t = await play_round(p, stream)
    assert current(t).tables == (("p0", "p1"),)
    t = await play_round(p, stream, winner=lambda table: "p1")
    assert t.status == "finished"
    assert [s.player for s in t.standings()[:2]] == ["p1", "p0"]


async def test_a_cucumber_league_of_seven_at_tables_of_three_and_four(world: Platform) -> None:
    p = world
    stream = await new(p, "cucumber", "round-robin", 7, options={"target": "11", "cards": "3"})
    t = await p.tournaments.start(stream, ORGANISER, False)
    played = 0
    while t.status == "running":
        assert sorted(map(len, current(t).tables)) == [3, 4]
        assert not current(t).byes
        t = await play_round(p, stream)
        played += 1
    assert played == 3 and t.status == "finished"
    pairs = {frozenset(pair) for r in t.rounds for table in r.tables for pair in itertools.combinations(table, 2)}
    assert len(pairs) >= 18, "a league seats players with those they have not met"
    assert len(t.standings()) == 7


async def test_a_restart_in_the_middle_of_a_round(tmp_path: Path, solved_folder: Path) -> None:
    db = tmp_path / "t.sqlite3"
    async with opened(db, solved_folder) as p:
        stream = await new(p, "hog", "swiss", 4, rounds=2)
        await p.tournaments.start(stream, ORGANISER, False)

        opened_first: list[str] = []

        async def dies(t: Tournament, game_id: str, command: object) -> None:
            """The process dies as round 2 is paired: only its first game is created."""
            if not opened_first:
                opened_first.append(game_id)
                await p.service("hog").create(game_id, command, f"tournament:{game_id}")

        p.tournaments.opener = dies
        t = await play_round(p, stream)
        round_two = current(t).games
        assert [bool(await p.store.version(g)) for g in round_two] == [True, False]
    async with opened(db, solved_folder) as p:
        reopened: list[str] = []
        create = p.tournaments.opener

        async def counted(t: Tournament, game_id: str, command: object) -> None:
            reopened.append(game_id)
            await create(t, game_id, command)

        p.tournaments.opener = counted
        await p.tournaments.restore()
        assert all([await p.store.version(g) for g in round_two]), "the leader creates the one missing"
        assert reopened == [round_two[1]], "the game created already is left as it is (its board too)"
        # the first game of round 2 ends as the process dies again, before its result is recorded
        p.service("hog").watchers.clear()
        loser = current(t).tables[0][1]
        await p.service("hog").execute(round_two[0], lambda s, c: [HogForfeit(loser)], "dies")
    async with opened(db, solved_folder) as p:
        await p.tournaments.restore()
        t = await p.tournaments.book.load(stream)
        assert set(current(t).results) == {round_two[0]}
        t = await play_round(p, stream)
        assert t.status == "finished"


async def test_two_processes_never_pair_a_round_twice(postgres_url: str, tmp_path: Path, solved_folder: Path) -> None:
    settings = Settings(database_url=postgres_url, cache=solved_folder)
    modules = installed_modules("hogbot")
    async with platform(settings, modules) as one, platform(settings, modules) as two:
        stream = await new(one, "hog", "swiss", 4, rounds=2, tid="0000000b")
        t = await one.tournaments.start(stream, ORGANISER, False)
        table = current(t).tables
        for game_id, pair in zip(current(t).games, table, strict=True):  # finished in the first process
            await one.service("hog").execute(game_id, partial(forfeited, HogForfeit(pair[1])), f"end:{game_id}")
        await one.tournaments.settled()
        # the second process hears of both results at once and races the first to pair round 3
        both = await asyncio.gather(*(x.tournaments.advance(stream) for x in (one, two, one, two)))
        assert {len(t.rounds) for t in both} == {2}
        stored = await one.store.load(stream)
        assert [e.type for e in stored].count("tournament.paired") == 2


async def listed_at_the_terminal(db: Path, solved: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``python -m bot tournaments`` on ``db``: its lines."""
    monkeypatch.setenv("HOG_DB", str(db))
    monkeypatch.setenv("HOG_CACHE", str(solved))
    out = io.StringIO()
    assert await asyncio.to_thread(main, ["tournaments"], stdout=out) == 0
    return out.getvalue().splitlines()


async def test_the_terminal_lists_and_shows_tournaments(
    tmp_path: Path, solved_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "t.sqlite3"
    async with opened(db, solved_folder) as p:
        stream = await new(p, "hog", "swiss", 3, rounds=2)
        await p.tournaments.start(stream, ORGANISER, False)
        t = await play_round(p, stream)
        await new(p, "cucumber", "knockout", 2, tid="0000000c")
    listed = await listed_at_the_terminal(db, solved_folder, monkeypatch)
    assert listed[0].startswith("0000000c  Cucumber knockout") and "Sign-up open · 2 players" in listed[0]
    assert listed[1].startswith("0000000a  Hog Swiss") and "Round 2 of 2 · 3 players" in listed[1]
    picture = tmp_path / "standings.png"
    out = io.StringIO()
    assert await asyncio.to_thread(main, ["tournaments", "0000000a", "--picture", str(picture)], stdout=out) == 0
    shown = out.getvalue()
    assert "Hog tournament 0000000a · Swiss" in shown and "\nRound 1\n" in shown and "bye: Player" in shown
    assert "1. Player 0 · 1 pt" in shown or "1. Player 0 · 2 pts" in shown
    assert picture.read_bytes().startswith(b"\x89PNG")
    assert current(t) is not None
    err = io.StringIO()
    assert await asyncio.to_thread(main, ["tournaments", "ffffffff"], stdout=err) != 0


async def test_a_cucumber_swiss_seats_like_points_together_after_the_first_round(world: Platform) -> None:
    p = world
    stream = await new(p, "cucumber", "swiss", 8, rounds=2, options={"target": "11", "cards": "3"})
    t = await p.tournaments.start(stream, ORGANISER, False)
    assert sorted(map(len, current(t).tables)) == [4, 4]
    assert [table[0] for table in current(t).tables] == ["p0", "p1"], "the first round snakes the seeds"
    t = await play_round(p, stream)
    points = {s.player: s.points for s in t.standings()}
    first, second = current(t).tables
    assert min(points[x] for x in first) >= max(points[x] for x in second), "like points sit together"
    t = await play_round(p, stream)
    assert t.status == "finished"


async def test_a_tournament_whose_record_cannot_be_read_is_set_aside_alone(
    tmp_path: Path, solved_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One bad event in one tournament's record: that tournament stands as it was read, set aside and
    said to be; the others are listed, shown and run, and nothing more is done in it."""
    db = tmp_path / "t.sqlite3"
    async with opened(db, solved_folder) as p:
        bad = await new(p, "hog", "swiss", 3, rounds=2)
        await new(p, "cucumber", "knockout", 2, tid="0000000c")
        junk = NewEvent("tournament.Joined", 1, b'{"player": 7}')
        await p.store.append(bad, [junk], await p.store.version(bad))
    listed = await listed_at_the_terminal(db, solved_folder, monkeypatch)
    assert listed[0].startswith("0000000c  Cucumber knockout") and "Sign-up open" in listed[0]
    assert listed[1].startswith("0000000a  Hog Swiss") and "Set aside: its record cannot be read" in listed[1]
    async with opened(db, solved_folder) as p:
        assert [t.tournament_id for t in await p.tournaments.book.live()] == ["0000000c"]
        with pytest.raises(Refusal, match="set aside already"):
            await p.tournaments.start(bad, ORGANISER, False)
