"""A game at a glance, for lists, history and statistics: what the read models store."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from hog_core.events import Event, Player, TurnTaken
from hog_core.game import GameState, Status, evolve


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
    best_turns: tuple[int, int] = (0, 0)
    """The most points one turn of each seat scored (its dice or zero-dice rule, before swaps)."""

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


def summarize(events: Iterable[Event]) -> GameSummary:
    """Fold a game's log into its summary."""
    state, best = GameState(), [0, 0]
    for event in events:
        state = evolve(state, event)
        if isinstance(event, TurnTaken) and state.last_turn is not None:
            best[event.seat] = max(best[event.seat], state.last_turn.resolution.points)
    return _summary(state, (best[0], best[1]))


def _summary(state: GameState, best_turns: tuple[int, int]) -> GameSummary:
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
        best_turns=best_turns,
    )
