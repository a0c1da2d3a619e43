"""A game at a glance, for lists, history and statistics: what the read models store."""

from __future__ import annotations

import msgspec

from hog_core.events import Player
from hog_core.game import GameState, Status


class GameSummary(msgspec.Struct, frozen=True):
    game_id: str
    place: str
    rules: str
    goal: int
    status: str
    players: tuple[Player, ...]
    scores: tuple[int, int]
    turns: int
    winner: int | None
    version: int

    @property
    def house(self) -> str | None:
        """The house's difficulty when one seat is the house."""
        return next((p.house for p in self.players if p.house is not None), None)

    def result(self, seat: int) -> str | None:
        """``win``, ``loss`` or ``draw`` for the player in ``seat`` once the game is decided."""
        if self.status == Status.DRAWN:
            return "draw"
        if self.winner is None:
            return None
        return "win" if self.winner == seat else "loss"


def summarize(state: GameState) -> GameSummary:
    return GameSummary(
        game_id=state.game_id,
        place=state.place,
        rules=state.rules.id,
        goal=state.goal,
        status=state.status.value,
        players=state.players,
        scores=state.scores,
        turns=state.turn_number,
        winner=state.winner,
        version=state.version,
    )
