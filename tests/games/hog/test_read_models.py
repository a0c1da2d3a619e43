"""Read models: kept up to date as games are played, equal to a rebuild from the log, and queries
that agree with a count over the log itself."""

from __future__ import annotations

import json
import logging
import random
import sqlite3
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.games.hog.analysis import PLURALS, accuracy_words
from bot.games.hog.stats import player_stats
from bot.platform.projection import Projector
from bot.platform.registry import Games
from hog_core.events import Player, TurnTaken
from hog_core.game import (
    AcceptChallenge,
    Command,
    CreateGame,
    DeclineChallenge,
    ExpireChallenge,
    Forfeit,
    GameState,
    Status,
    TakeTurn,
    decide,
    evolve,
    replay,
)
from hog_core.review import accuracy
from hog_core.rulesets import RULE_SETS
from storage.events import NewEvent, StoredEvent
from storage.games import GameViews, Record
from storage.sqlite.database import SqliteDatabase
from storage.sqlite.schema import MIGRATIONS
from storage.sqlite.store import SqliteEventStore
from tests.helpers import HOG, hog_events, hog_record

PEOPLE = [Player(str(i), name) for i, name in enumerate(["Ada", "Grace", "Alan", "Edsger", "Barbara"], start=1)]
HOUSE = [Player(f"house-{level}", "The house", house=level) for level in ("easy", "medium", "perfect")]
PLACES = ["guild/1/channel/10", "guild/1/channel/20"]
GAMES = Games({"hog": HOG})


@dataclass
class World:
    store: SqliteEventStore
    views: GameViews
    projector: Projector
    games: list[GameState]
    path: Path


async def run(world: World, state: GameState, command: Command) -> GameState:
    """Decide, append, evolve, then project: what the bot's service does for each command."""
    events = decide(state, command)
    stream = state.game_id or command.game_id  # type: ignore[union-attr]
    await world.store.append(stream, [hog_record(e) for e in events], state.version)
    for e in events:
        state = evolve(state, e)
    await world.projector.catch_up()
    return state


async def play_one(world: World, rng: random.Random, n: int) -> GameState:
    """One varied game: against the house or a challenge; finished, forfeited, declined, or left hanging."""
    a, b = rng.sample(PEOPLE, 2)
    house = rng.random() < 0.3
    if house:
        b = rng.choice(HOUSE)
    create = CreateGame(
        f"g{n:02d}",
        (a, b),
        rules=rng.choice(sorted(RULE_SETS)),
        goal=rng.choice([20, 40]),
        challenge=not house,
        place=rng.choice(PLACES),
    )
    state = await run(world, GameState(), create)
    if not house:
        answers: list[Command] = [AcceptChallenge(b.id)] * 5
        answers += [DeclineChallenge(b.id), ExpireChallenge()]
        answer = rng.choice(answers)
        state = await run(world, state, answer)
    ending = rng.choice(["play"] * 6 + ["forfeit", "timeout", "hang"])
    while not state.is_over:
        if ending == "hang" and rng.random() < 0.3:
            break
        if ending in ("forfeit", "timeout") and rng.random() < 0.2:
            mover = state.players[state.mover].id
            return await run(world, state, Forfeit(mover, "timeout" if ending == "timeout" else "resigned"))
        k = rng.choice(state.legal_moves())
        dice = state.dice_for(k)
        outcomes = tuple(rng.randint(1, dice.sides) for _ in range(dice.count))
        state = await run(world, state, TakeTurn(state.players[state.mover].id, k, outcomes))
    return state


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    path = tmp_path / "hog.sqlite3"
    store = await SqliteEventStore.open(path)
    views = GameViews(await SqliteDatabase.open(path))
    w = World(store, views, Projector(store, views, GAMES), [], path)
    rng = random.Random(5)
    w.games = [await play_one(w, rng, n) for n in range(40)]
    yield w
    await w.views.close()
    await store.close()


def dump(path: Path) -> tuple[list[tuple[object, ...]], ...]:
    with sqlite3.connect(path) as db:
        return tuple(
            sorted(db.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
            for table in (
                "games",
                "seats",
                "checkpoints",
                "ratings",
                "rated",
                "members",
                "tallies",
                "player_facts",
                "season_standings",
                "board_sizes",
                "mistakes",
            )
        )


async def test_a_rebuild_equals_the_incremental_read_models(world: World) -> None:
    await world.views.ratings.locate(PLACES[0], "server-1")  # its rated games make members of a server
    incremental = dump(world.path)
    assert len(incremental[0]) == 40
    statuses = Counter(g.status.value for g in world.games)
    assert {"finished", "active"} <= set(statuses) and len(statuses) >= 4  # a varied world
    position = await world.projector.rebuild()
    assert position == len(await world.store.read_all(limit=100_000))
    assert dump(world.path) == incremental
    assert await world.projector.catch_up() == position  # nothing new: nothing changes
    assert dump(world.path) == incremental
    with sqlite3.connect(world.path) as db:  # each leaderboard's kept size is its count
        counted = db.execute(
            "SELECT '', game, count(*) FROM ratings GROUP BY game UNION ALL "
            "SELECT server, game, count(*) FROM members WHERE score IS NOT NULL GROUP BY server, game"
        ).fetchall()
        kept = db.execute("SELECT server, game, n FROM board_sizes WHERE n > 0").fetchall()
    assert sorted(kept) == sorted(counted) and any(server for server, _, _ in counted)


async def test_live_games_by_place(world: World) -> None:
    for place in PLACES:
        expected = sorted(g.game_id for g in world.games if g.place == place and not g.is_over)
        assert sorted(r.game_id for r in await world.views.live_games(place)) == expected
    assert len(await world.views.live_games()) == sum(not g.is_over for g in world.games)


async def test_a_players_history_is_paged_newest_first(world: World) -> None:
    ada = PEOPLE[0].id
    mine = [g for g in world.games if ada in {p.id for p in g.players}]
    pages = [await world.views.history(ada, limit=4, offset=offset) for offset in range(0, len(mine) + 4, 4)]
    seen = [row for page in pages for row in page]
    assert sorted(r.game_id for r in seen) == sorted(g.game_id for g in mine)
    assert [r.updated_at for r in seen] == sorted((r.updated_at for r in seen), reverse=True)
    assert all(len(page) <= 4 for page in pages) and pages[-1] == []
    row = seen[0]
    game = next(g for g in world.games if g.game_id == row.game_id)
    assert (row.fields["rules"], int(row.fields["goal"]), row.status) == (game.rules.id, game.goal, game.status.value)
    assert row.scores == game.scores
    assert [s.player_id for s in row.seats] == [p.id for p in game.players]


def games_in_the_log(stored: list[StoredEvent]) -> list[tuple[GameState, tuple[int, int], float]]:
    """Each game of the log, folded here by hand: its final state, each seat's most points in one
    turn, and when its last event was recorded."""
    streams: dict[str, list[StoredEvent]] = {}
    for record in stored:
        streams.setdefault(record.stream_id, []).append(record)
    games = []
    for records in streams.values():
        state, best = GameState(), [0, 0]
        for event in hog_events(records):
            state = evolve(state, event)
            if isinstance(event, TurnTaken) and state.last_turn is not None:
                best[event.seat] = max(best[event.seat], state.last_turn.resolution.points)
        games.append((state, (best[0], best[1]), records[-1].recorded_at))
    return games


async def test_stats_equal_a_count_over_the_log(world: World) -> None:
    games = games_in_the_log(await world.store.read_all(limit=100_000))
    streaks_seen = 0
    for person in PEOPLE:
        expected: Counter[tuple[str, str]] = Counter()
        results: list[tuple[float, str, str]] = []
        turns: list[tuple[int, str]] = []
        for g, best, ended in games:
            seat = next((i for i, p in enumerate(g.players) if p.id == person.id), None)
            if seat is None:
                continue
            turns.append((best[seat], g.game_id))
            if g.status.value not in ("finished", "drawn"):
                continue
            result = "draw" if g.winner is None else "win" if g.winner == seat else "loss"
            results.append((ended, g.game_id, result))
            expected[(g.rules.id, result)] += 1
            expected[("*", result)] += 1
            if g.players[1 - seat].house:
                expected[(f"house:{g.players[1 - seat].house}", result)] += 1
        stats = await world.views.stats(person.id, "hog", by="rules", best="turn")

        def counted(key: str, expected: Counter[tuple[str, str]] = expected) -> Record:
            w, lo, d = expected[(key, "win")], expected[(key, "loss")], expected[(key, "draw")]
            return Record(w + lo + d, w, lo, d)

        assert stats.total == counted("*")
        assert stats.by_field == {r: counted(r) for r in sorted({k for k, _ in expected} - {"*"}) if ":" not in r}
        assert stats.vs_bots == {k[6:]: counted(k) for k in sorted({k for k, _ in expected}) if k.startswith("house:")}
        runs = "".join("W" if result == "win" else "." for _, _, result in sorted(results)).split(".")
        assert stats.longest_streak == max(map(len, runs))
        assert stats.current_streak == len(runs[-1])
        streaks_seen += stats.longest_streak > 1
        top = max(points for points, _ in turns)
        assert stats.best is not None and stats.best.value == top
        assert (top, stats.best.game_id) in turns
    assert streaks_seen  # the world has a real streak to count


async def test_a_rebuild_stopped_halfway_goes_on_from_there_and_readers_see_the_old_models_until_it_ends(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The power goes out on the third batch of a rebuild: the read models are as they were; run
    again, it goes on from the batches it had committed aside, and the old read models (here
    tampered with, so as to tell them apart) are what readers see until the new ones replace them."""
    incremental = dump(world.path)
    with sqlite3.connect(world.path) as db:
        db.execute("UPDATE tallies SET wins = wins + 100")
    tampered = dump(world.path)
    written = 0
    real_apply, real_adopt = GameViews.apply, GameViews.adopt

    async def cut(views: GameViews, *args: object, **kwargs: object) -> None:
        nonlocal written
        if views is not world.views:
            written += 1
            if written == 3:
                raise OSError("the power went out")
        await real_apply(views, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(GameViews, "apply", cut)
    with pytest.raises(OSError, match="power"):
        await world.projector.rebuild(batch=50)
    assert dump(world.path) == tampered and world.path.with_name("hog.sqlite3.rebuild").exists()

    seen: list[tuple[int, int]] = []

    async def adopting(views: GameViews, aside: GameViews) -> None:
        assert dump(world.path) == tampered, "the old read models, whole, until the new ones are complete"
        await real_adopt(views, aside)

    monkeypatch.setattr(GameViews, "adopt", adopting)
    position = await world.projector.rebuild(batch=50, progress=lambda done, last: seen.append((done, last)))
    assert seen[0] == (100, position), "it went on from the two batches committed"
    assert dump(world.path) == incremental and not world.path.with_name("hog.sqlite3.rebuild").exists()


async def test_a_database_from_before_n_seat_read_models_gets_them_from_the_log(world: World) -> None:
    """Migration 7 replaces the two-seat tables and forgets the checkpoint: the next catch-up folds
    every game into the new ones."""
    today = dump(world.path)
    await world.views.close()
    with sqlite3.connect(world.path) as db:  # the read models as schema 6 left them, a little stale
        for table in (
            "seats",
            "games",
            "checkpoints",
            "seals",
            "ratings",
            "rated",
            "places",
            "members",
            "tallies",
            "player_facts",
            "season_standings",
            "answers",
            "exercise_ratings",
            "imported",
            "rating_steps",
            "mistakes",
            "season_running",
            "board_sizes",
        ):
            db.execute(f"DROP TABLE {table}")
        db.executescript(MIGRATIONS[1])
        db.execute("ALTER TABLE game_players ADD COLUMN best_turn INTEGER NOT NULL DEFAULT 0")
        db.execute("INSERT INTO checkpoints VALUES ('games', 3)")
        db.execute("DROP INDEX boards_unsettled")  # the boards as schema 6 left them too (migration 11 added it)
        db.execute("ALTER TABLE boards DROP COLUMN settled")
        db.execute("ALTER TABLE boards DROP COLUMN answered")  # (migration 16 added it)
        db.execute("PRAGMA user_version = 6")
    world.views = GameViews(await SqliteDatabase.open(world.path))
    assert await world.views.checkpoint() == 0
    await Projector(world.store, world.views, GAMES).catch_up()
    assert dump(world.path) == today


async def test_the_leaderboard_ranks_people_by_rating_and_never_the_house(world: World) -> None:
    standings = await world.views.ratings.standings("hog", PEOPLE[-1].id, limit=3)
    decided = [g for g in world.games if g.status in (Status.FINISHED, Status.DRAWN)]
    rated = {p.id for g in decided if not any(p.house for p in g.players) for p in g.players}
    assert standings.total == len(rated) >= 3
    assert [r.rank for r in standings.page] == [1, 2, 3]
    scores = [r.rating.score for r in standings.page]
    assert scores == sorted(scores, reverse=True) and all(
        not r.rating.player_id.startswith("house") for r in standings.page
    )
    everyone = (await world.views.ratings.standings("hog", "", limit=100)).page
    assert standings.mine is not None and everyone[standings.mine.rank - 1].rating.player_id == PEOPLE[-1].id
    for ranked in everyone:  # a rating counts only the games against people that count
        stats = await world.views.stats(ranked.rating.player_id, "hog", by="rules", best="turn")
        assert stats.rating == ranked.rating and 0 < ranked.rating.games <= stats.total.games


async def test_a_damaged_game_is_left_out_with_an_error_and_the_rest_projected(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    await world.store.append("broken", [NewEvent("GameCreated", 2, b"not json")], 0)
    await world.store.append("g00", [NewEvent("DiceStolen", 1, b"{}")], world.games[0].version)
    with caplog.at_level(logging.ERROR):
        await world.projector.rebuild()
    assert "game broken is damaged and left out of play" in caplog.text
    assert "game g00 is damaged" in caplog.text and "unknown event type 'DiceStolen'" in caplog.text
    assert await world.views.game("broken") is None and await world.views.game("g00") is None
    assert await world.views.game("g01") is not None
    assert [g for g, _ in await world.views.damaged()] == ["broken", "g00"]


async def test_an_impossible_event_quarantines_its_game_and_nothing_else(world: World) -> None:
    """A decodable event the rules cannot apply (a seat that does not exist) once froze every read
    model; now its game leaves the live lists and the projector goes on."""
    victim, other = [g for g in world.games if g.status is Status.ACTIVE][:2]
    impossible = hog_record(TurnTaken(seat=5, k=1, outcomes=(3,), sides=6))
    await world.store.append(victim.game_id, [impossible], victim.version)
    await run(world, other, Forfeit(other.players[other.mover].id))
    quarantined, finished = await world.views.game(victim.game_id), await world.views.game(other.game_id)
    assert quarantined is not None and quarantined.status == "damaged"
    assert victim.game_id not in {row.game_id for row in await world.views.live_games()}
    assert finished is not None and finished.status == "finished"
    (damaged,) = await world.views.damaged()
    assert damaged == (victim.game_id, "DamagedLog: its log is damaged: event 4 is a turn out of turn")


async def test_the_exact_review_is_kept_per_seat_rebuilt_and_counted_in_the_stats(world: World) -> None:
    """Each decided game's review (``assess``) is in its seats' facts, and a player's stats are
    those facts added up: the average accuracy, the verdicts, the worst move and its game."""
    streams: dict[str, list[StoredEvent]] = {}
    for record in await world.store.read_all(limit=100_000):
        streams.setdefault(record.stream_id, []).append(record)
    reviewed: dict[str, list[tuple[float, Counter[str], float, str]]] = {p.id: [] for p in PEOPLE}
    for game_id, records in streams.items():
        events = hog_events(records)
        state = replay(events)
        if state.status.value not in ("finished", "drawn"):
            continue
        moves = await HOG.review(events)
        assert moves is not None
        for seat, player in enumerate(state.players):
            mine = [m for m in moves if m.mover == seat]
            if mine and player.id in reviewed:
                loss = max((m.loss for m in mine if m.verdict in PLURALS), default=0.0)
                reviewed[player.id].append((accuracy(mine), Counter(m.verdict for m in mine), loss, game_id))
    assert sum(map(len, reviewed.values())) >= 10  # a world with reviews to count
    with sqlite3.connect(world.path) as db:
        kept = [json.loads(facts) for (facts,) in db.execute("SELECT facts FROM seats")]
    assert sum("accuracy" in f for f in kept) >= sum(map(len, reviewed.values()))
    for person in PEOPLE:
        games_of = reviewed[person.id]
        _, play = await player_stats(world.views, person.id)
        assert play.games == len(games_of)
        if not games_of:
            continue
        flawless = all(set(c) == {"best"} for _, c, _, _ in games_of)
        total = sum(round(100 * a) for a, _, _, _ in games_of)
        assert play.accuracy == accuracy_words(total, len(games_of), flawless)
        assert play.counts == {v: sum(c[v] for _, c, _, _ in games_of) for v in PLURALS}
        worst = max(round(10_000 * loss) for _, _, loss, _ in games_of)
        if worst:
            assert play.worst is not None and play.worst.value == worst
            assert (worst, play.worst.game_id) in {(round(10_000 * loss), g) for _, _, loss, g in games_of}
        else:
            assert play.worst is None
