"""A Hog game at a glance, for the read models: its seats' totals and results, its rule set and
goal, and each seat's biggest turn."""

from __future__ import annotations

from collections.abc import Iterable

from bot.platform.contract import SeatSummary, Summary
from hog_core.events import Event, TurnTaken
from hog_core.game import TERMINAL, GameState, Status, evolve

LIVE = frozenset({Status.CHALLENGED, Status.ACTIVE})


def result(state: GameState, seat: int) -> str | None:
    """``win``, ``loss`` or ``draw`` for the player in ``seat`` once the game is decided."""
    if state.status is Status.DRAWN:
        return "draw"
    if state.winner is None:
        return None
    return "win" if state.winner == seat else "loss"


Tally = tuple[GameState, tuple[int, int], int]
"""A log folded so far: the game, each seat's biggest turn, and the version that decided it (0: none yet)."""


def tally(kept: Tally | None, events: Iterable[Event]) -> Tally:
    """``kept`` (``None``: the start) with ``events`` folded in."""
    state, (best0, best1), decided = kept or (GameState(), (0, 0), 0)
    best = [best0, best1]
    for event in events:
        state = evolve(state, event)
        if isinstance(event, TurnTaken) and state.last_turn is not None:
            best[event.seat] = max(best[event.seat], state.last_turn.resolution.points)
        if not decided and result(state, 0) is not None:
            decided = state.version
    return state, (best[0], best[1]), decided


def summary_of(folded: Tally) -> Summary:
    state, best, decided = folded
    seats = tuple(
        SeatSummary(p.id, p.name, p.house, state.scores[i], result(state, i), {"turn": best[i]})
        for i, p in enumerate(state.players)
    )
    fields = {"rules": state.rules.id, "goal": str(state.goal)}
    live = state.status in LIVE and state.status not in TERMINAL
    return Summary(state.game_id, "hog", state.place, state.status.value, live, state.version, seats, fields, decided)


def summarize(events: Iterable[Event]) -> Summary:
    """Fold a game's log into its summary."""
    return summary_of(tally(None, events))
