"""The application service with Hog: a command end to end, through the real store (what is every
game's, the stale boards and retried clicks, is tested in ``tests/platform/test_service.py``)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.games.hog.module import HogGame, resign, turn
from bot.platform.compose import platform
from bot.platform.contract import Refusal
from bot.platform.service import GameService, StaleBoard
from bot.platform.settings import Settings
from hog_core.errors import InvalidMove, NotYourTurn
from hog_core.events import GameCreated, Player, TurnTaken
from hog_core.game import CreateGame, Status
from hog_core.solver import Solution
from storage.shelves import FolderShelf
from tests.helpers import FIVES, loads_counted
from tests.solved import shelve

ADA = Player("1", "Ada")
HOUSE = Player("house", "The house", house="perfect")
BOB = Player("2", "Bob")
Hog = GameService[Any, Any, Any]


@pytest.fixture
async def service(tmp_path: Path, solutions: dict[str, Solution]) -> AsyncIterator[GameService[Any, Any, Any]]:
    await shelve(FolderShelf(tmp_path / "solutions"), solutions)  # solved once per run (conftest), not per test
    async with platform(Settings(db=tmp_path / "hog.sqlite3", cache=tmp_path / "solutions"), chance=FIVES) as p:
        yield p.service("hog")


async def test_the_house_replies_in_the_same_append(service: Hog) -> None:
    created = await service.create("g", CreateGame("g", (ADA, HOUSE), first=0), "i1")
    assert created.state.mover == 0 and created.state.version == 1
    outcome = await service.execute("g", turn(ADA.id, 2), "i2", expected_version=1)
    events = [e for e, _, _ in outcome.told if isinstance(e, TurnTaken)]
    assert len(events) == len(outcome.told) >= 2
    assert events[0] == TurnTaken(0, 2, (5, 5), 6)
    assert all(e.seat == 1 for e in events[1:])  # the house, extra turns and all
    assert outcome.state.mover == 0 or outcome.state.is_over
    stored = await service.store.load("g")
    assert [s.command_id for s in stored] == ["i1"] + ["i2"] * len(events)
    assert outcome.told[0][2][0] == "Ada rolls 5, 5 for 10."


async def test_the_house_moves_first_when_it_is_seated_first(service: Hog) -> None:
    created = await service.create("g", CreateGame("g", (ADA, HOUSE), first=1), "i1")
    assert isinstance(created.told[0][0], GameCreated)
    assert isinstance(created.told[1][0], TurnTaken) and created.state.mover == 0


async def test_a_forfeit_always_lands_even_racing_a_move(service: Hog) -> None:
    """A forfeit names no board version: losing the race to a move, it is decided again and lands."""
    for i in range(12):
        game = f"g{i}"
        await service.create(game, CreateGame(game, (ADA, BOB)), f"c{i}")
        moving = service.execute(game, turn(ADA.id, 1), f"m{i}", expected_version=1)
        resigning = service.execute(game, resign(BOB.id), f"f{i}")
        _, resigned = await asyncio.gather(moving, resigning, return_exceptions=True)
        assert not isinstance(resigned, BaseException), resigned
        state = await service.load(game)
        assert state.forfeited_by == 1 and state.status is Status.FINISHED


@pytest.mark.parametrize(
    ("player", "k", "error", "words"),
    [
        (ADA.id, 11, InvalidMove, "Choose between 0 and 10 dice, not 11."),
        (HOUSE.id, 2, NotYourTurn, "It's Ada's turn, not yours."),
        (ADA.id, -1, InvalidMove, "Choose between 0 and 10 dice, not -1."),
    ],
)
async def test_a_refused_move_changes_nothing(
    service: Hog, player: str, k: int, error: type[Exception], words: str
) -> None:
    await service.create("g", CreateGame("g", (ADA, HOUSE)), "i1")
    with pytest.raises(Refusal, match=words) as refused:
        await service.execute("g", turn(player, k), "i2", expected_version=1)
    assert isinstance(refused.value.__cause__, error)  # the game's own refusal, in the player's words
    assert len(await service.store.load("g")) == 1


async def test_any_command_and_the_read_models(service: Hog) -> None:
    await service.create("g", CreateGame("g", (ADA, HOUSE), place="channel/1"), "i1")
    outcome = await service.execute("g", resign(ADA.id), "i2")
    assert outcome.state.status is Status.FINISHED and outcome.state.winner == 1
    assert outcome.told[-1][2] == ("Ada resigns: The house wins (0 to 0).",)
    assert service.projector is not None
    await service.projector.settle()  # the read models follow the log in the background
    row = await service.projector.views.game("g")
    assert row is not None and row.status == "finished" and [s.result for s in row.seats] == ["loss", "win"]


async def test_long_games_play_without_solving(service: Hog) -> None:
    """Past MAX_SOLVED_GOAL nothing is solved: no perfect house, no win chances, but the game plays."""
    with pytest.raises(Refusal, match="The medium and perfect house play to goals up to 200"):
        await service.create("g", CreateGame("g", (ADA, HOUSE), goal=201), "i1")
    easy = Player("house", "The house", house="easy")
    outcome = await service.create("g", CreateGame("g", (ADA, easy), goal=1000), "i1")
    assert isinstance(service.game, HogGame) and await service.game.solution(outcome.state) is None
    outcome = await service.execute("g", turn(ADA.id, 3), "i2", expected_version=1)
    assert outcome.state.scores[0] == 15 and outcome.state.mover == 0


async def test_the_read_models_follow_many_games_at_once(service: Hog) -> None:
    """Each command asks the projector to follow; catch-ups at once take turns on the views' connection."""
    games = [CreateGame(f"g{n}", (Player(f"p{n}", "P"), HOUSE), place="channel/1") for n in range(30)]
    await asyncio.gather(*(service.create(game.game_id, game, f"i{n}") for n, game in enumerate(games)))
    assert service.projector is not None
    await asyncio.gather(*(service.projector.catch_up() for _ in range(5)))
    await service.projector.settle()
    assert await service.projector.views.count() == 30
    assert len(await service.projector.views.live_games("channel/1")) == 30


async def test_a_process_reads_only_what_others_appended_since_and_never_believes_what_it_keeps(
    service: Hog,
) -> None:
    """Two services on one store, as two processes: each keeps the games it folded and reads only the
    events appended since, whoever appended them (a move decided on what is kept reads nothing: a
    stale fold loses the append, then reads); a retried interaction is known from what is kept."""
    other: Hog = GameService(service.game, service.store, chance=service.chance)
    await service.create("g", CreateGame("g", (ADA, BOB)), "i1")
    await other.execute("g", turn(ADA.id, 2), "i2", expected_version=1)  # the other process moves
    assert (await service.load("g")).version == 2  # seen here, read after what was kept
    loads = loads_counted(service.store)
    moved = await service.execute("g", turn(BOB.id, 3), "i3", expected_version=2)
    assert moved.state.version == 3 and loads == []  # decided on the two events kept: nothing read
    again = await service.execute("g", turn(BOB.id, 3), "i3", expected_version=2)
    assert again.duplicate and again.state.version == 3
    with pytest.raises(StaleBoard):  # the other keeps version 2, reads version 3, and refuses a board of 2
        await other.execute("g", turn(BOB.id, 4), "i4", expected_version=2)
    assert [e.k for e in (await other.events("g")) if isinstance(e, TurnTaken)] == [2, 3]
    loads.clear()
    ahead = await other.execute("g", turn(ADA.id, 4), "i5", expected_version=3)  # a board newer than kept here?
    assert ahead.state.version == 4 and loads == []  # no: "other" read version 3 when it refused i4
    behind = await service.execute("g", turn(BOB.id, 1), "i6", expected_version=4)  # kept 3, a board of 4
    assert behind.state.version == 5 and loads == [3]  # the board is newer than what is kept: read first
