"""Hog keeps the contract every game keeps (``tests/platform/game_contract.py``)."""

from __future__ import annotations

from bot.games.hog.module import turn
from bot.platform.compose import Platform
from hog_core.events import Player
from hog_core.game import CreateGame
from tests.platform.game_contract import GameContract

ADA, HOUSE = Player("1", "Ada"), Player("house:easy", "The house", house="easy")


class TestHogKeepsTheContract(GameContract):
    name = "hog"

    async def play(self, p: Platform) -> tuple[str, str]:
        service = p.service("hog")
        for game_id, goal in (("done", 20), ("going", 100)):  # no turn of the house reaches 100 at once
            await service.create(game_id, CreateGame(game_id, (ADA, HOUSE), goal=goal, place="c1"), f"new-{game_id}")
        state, moves = (await service.load("done")), 0
        while not state.is_over:
            state = (await service.execute("done", turn(ADA.id, 3), f"m{moves}")).state
            moves += 1
        await service.execute("going", turn(ADA.id, 0), "g0")  # the house answers in the same batch
        return "done", "going"
