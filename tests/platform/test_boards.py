"""The boards (``bot.platform.boards``) on the memory event store, without Discord: a version has one
board and a board never goes back; a restart's reconcile posts what was stored but never shown, tells
a board whose game was never stored, and calls off a game whose board can never be shown; a
subscriber hears each game's newest version."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hogbot_press.game import Created, Press

from bot.platform.boards import Boards, Change
from bot.platform.contract import Outcome
from bot.platform.projection import Projector
from bot.platform.registry import Games
from bot.platform.service import GameService
from bot.platform.settings import Settings
from storage.games import GameViews
from storage.kept import Kept
from storage.memory import MemoryEventStore
from storage.sqlite.database import SqliteDatabase

CHANNEL = "c1"


@dataclass
class Desk:
    """The parts boards stand on, and what a front was asked to do."""

    boards: Boards
    service: GameService[Any, Any, Any]
    edits: list[tuple[str, int]] = field(default_factory=list)
    unstarted: list[tuple[str, str]] = field(default_factory=list)
    voided: list[str] = field(default_factory=list)
    refuse: set[str] = field(default_factory=set)
    """Games whose board the front cannot edit (deleted, out of reach)."""

    async def edit(self, outcome: Outcome[Any, Any], placed: tuple[str, str]) -> bool:
        if outcome.state.game_id in self.refuse:
            return False
        self.edits.append((outcome.state.game_id, outcome.state.version))
        return True

    async def tell_unstarted(self, placed: tuple[str, str]) -> None:
        self.unstarted.append(placed)

    async def void(self, game: str, game_id: str, why: str) -> None:
        self.voided.append(game_id)

    async def press(self, game_id: str, who: str, command_id: str) -> Outcome[Any, Any]:
        return await self.service.execute(game_id, lambda state, chance: [Press(who)], command_id)


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    store = await MemoryEventStore.open()
    db = await SqliteDatabase.open(tmp_path / "views.sqlite3")
    views, kept = GameViews(db), Kept(db)
    games = Games.load(Settings(), {"press": "hogbot_press.game:PressGame"})
    projector = Projector(store, views, games)
    service = GameService(games["press"], store, projector, seals=kept)
    boards = Boards(store, games, {"press": service}, kept, views, projector.settled_views, shared=False)
    service.watchers.append(boards.stored)
    try:
        yield Desk(boards, service)
    finally:
        await boards.flush()
        await projector.finish()
        await store.close()
        await db.close()


async def created(desk: Desk, game_id: str) -> Outcome[Any, Any]:
    return await desk.service.create(game_id, Created(game_id, CHANNEL, ("ada", "bob")), f"create:{game_id}")


async def test_a_version_has_one_board_and_a_board_never_goes_back(desk: Desk) -> None:
    first = await created(desk, "t1")
    await desk.boards.place("t1", CHANNEL, "m1")
    assert await desk.boards.show(first, desk.edit) and desk.edits == [("t1", 1)]
    assert await desk.boards.show(first, desk.edit) and desk.edits == [("t1", 1)]  # shown already: not again
    assert await desk.boards.show(first, desk.edit, again=True) and desk.edits == [("t1", 1), ("t1", 1)]
    pressed = await desk.press("t1", "ada", "p1")
    later = await desk.press("t1", "bob", "p2")
    assert later.state.version == pressed.state.version + 1
    assert (await desk.boards.newest(pressed)).state.version == later.state.version  # stored since: the latest
    await desk.boards.show(pressed, desk.edit)  # an edit that waited its turn shows the game as it is by then
    assert desk.edits[-1] == ("t1", later.state.version)
    assert await desk.boards.show(later, desk.edit) and len(desk.edits) == 3  # that version is up already
    assert not await desk.boards.show(await created(desk, "t2"), desk.edit)  # no board placed for it


async def test_reconcile_posts_the_stored_tells_the_unstarted_and_calls_off_the_unshowable(desk: Desk) -> None:
    await desk.boards.place("stored", CHANNEL, "m1")  # placed, then stored, then the process died
    await created(desk, "stored")
    await desk.boards.place("never", CHANNEL, "m2")  # placed, never stored
    await desk.boards.place("gone", CHANNEL, "m3")  # stored, and its message deleted since
    await created(desk, "gone")
    desk.refuse.add("gone")
    await desk.boards.reconcile(desk.edit, desk.tell_unstarted, desk.void)
    assert desk.edits == [("stored", 1)] and desk.unstarted == [(CHANNEL, "m2")] and desk.voided == ["gone"]
    assert await desk.boards.where("never") is None and await desk.boards.shown_version("stored") == 1


async def test_a_subscriber_hears_the_newest_version(desk: Desk) -> None:
    await created(desk, "t1")
    async with desk.boards.subscribe("t1") as heard:
        await desk.press("t1", "ada", "p1")
        newest = await desk.press("t1", "bob", "p2")
        assert heard.get_nowait() == Change("press", "t1", newest.state.version)  # behind: only the newest
        assert heard.empty()
