"""What a process keeps of each live game costs the garbage collector nothing: with thousands of
games in memory, every object kept that it tracks is walked again at each of its passes (issue 39:
at 10,000 live Hog games a full collection walked 729,000 objects, most of them commentary
closures). The service's fold, the projector's place, the timers' deadlines, the game's state and
its story are values it never tracks: a Hog game and a Cucumber table alike."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.games.cucumber.moves import play as card
from bot.games.hog.module import turn
from bot.platform.compose import platform
from bot.platform.service import GameService
from bot.platform.settings import Settings
from cucumber_core.events import Seat
from cucumber_core.game import CreateGame as CreateTable
from hog_core.events import Player
from hog_core.game import CreateGame

GAMES = 300

Play = Callable[[GameService[Any, Any, Any], str], Awaitable[None]]


async def hog(service: GameService[Any, Any, Any], game_id: str) -> None:
    """A long game (to 1,000) three turns in, with a turn's deadlines."""
    players = (Player("1", "Ada"), Player("2", "Bob"))
    await service.create(game_id, CreateGame(game_id, players, goal=1000, turn_timeout=3600), f"c{game_id}")
    for n in range(3):
        state = await service.load(game_id)
        await service.execute(game_id, turn(state.players[state.mover].id, 2), f"m{game_id}{n}")


async def cucumber(service: GameService[Any, Any, Any], game_id: str) -> None:
    """A table of Ada and two bots, cut, dealt and three of Ada's cards in, with a turn's deadlines."""
    seats = (Seat("1", "Ada"), Seat("bot:strong:1", "Strong bot", "strong"), Seat("bot:magic:1", "Magic", "magic"))
    create = CreateTable(game_id, seats, 7, 21, cut=True, turn_timeout=3600)
    state = (await service.create(game_id, create, f"c{game_id}")).state
    for n in range(3):
        move = card("1", state.legal_cards(0)[0], state.moment)
        state = (await service.execute(game_id, move, f"p{game_id}{n}")).state


@pytest.mark.parametrize(("game", "play"), [("hog", hog), ("cucumber", cucumber)])
async def test_a_live_game_keeps_nothing_the_garbage_collector_walks(tmp_path: Path, game: str, play: Play) -> None:
    async with platform(Settings(db=tmp_path / "t.sqlite3", cache=tmp_path)) as p:
        service = p.service(game)

        await play(service, "warm")  # what the first game makes once (statements, caches) is not a game's
        await p.settled_views()
        gc.collect()
        before = tracked()
        for n in range(GAMES):
            await play(service, f"g{n}")
        await p.settled_views()  # the projector has read every game
        assert p.timers.pending(f"g{GAMES - 1}")  # its deadlines, kept
        gc.collect()
        kept = (tracked() - before) / GAMES
        assert kept < 1, f"{kept:.1f} objects tracked a live game"  # 64 when they were closures and dataclasses


def tracked() -> int:
    """Objects the collector tracks, but weak references: the sqlite3 module keeps up to 200 to its
    cursors a connection whatever the games, dropping the dead ones every 200th cursor."""
    return sum(1 for o in gc.get_objects() if not isinstance(o, weakref.ReferenceType))
