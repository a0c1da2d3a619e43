"""What a process keeps of each live game costs the garbage collector nothing: with thousands of
games in memory, every object kept that it tracks is walked again at each of its passes (issue 39:
at 10,000 live Hog games a full collection walked 729,000 objects, most of them commentary
closures). The service's fold, the projector's place, the timers' deadlines and the commentary are
values it never tracks."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from bot.games.hog.module import turn
from bot.platform.compose import platform
from bot.platform.settings import Settings
from hog_core.events import Player
from hog_core.game import CreateGame

GAMES = 300


async def test_a_live_game_keeps_nothing_the_garbage_collector_walks(tmp_path: Path) -> None:
    async with platform(Settings(db=tmp_path / "t.sqlite3", cache=tmp_path)) as p:
        service = p.service("hog")
        players = (Player("1", "Ada"), Player("2", "Bob"))

        async def play(game_id: str) -> None:
            await service.create(game_id, CreateGame(game_id, players, goal=1000, turn_timeout=3600), f"c{game_id}")
            for n in range(3):
                state = await service.load(game_id)
                await service.execute(game_id, turn(state.players[state.mover].id, 2), f"m{game_id}{n}")

        await play("warm")  # what the first game makes once (statements, caches) is not a game's
        await p.settled_views()
        gc.collect()
        before = tracked()
        for n in range(GAMES):
            await play(f"g{n}")
        await p.settled_views()  # the projector has read every game
        assert len(p.timers.pending(f"g{GAMES - 1}")) == 2  # a reminder and a timeout, kept
        gc.collect()
        kept = (tracked() - before) / GAMES
        assert kept < 1, f"{kept:.1f} objects tracked a live game"  # 64 when they were closures and dataclasses


def tracked() -> int:
    """Objects the collector tracks, but weak references: the sqlite3 module keeps up to 200 to its
    cursors a connection whatever the games, dropping the dead ones every 200th cursor."""
    return sum(1 for o in gc.get_objects() if not isinstance(o, weakref.ReferenceType))
