"""A replay's steps, trick by trick: each step runs from a trick's lead to the next lead, so it holds the
trick's cards, who took it, and what followed (a hand scored, a cucumber, the next deal). The setup
(the table, the cut, the first deal) is the first step."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from cucumber_core.events import CardPlayed, Event
from cucumber_core.game import GameState, Phase

Lines = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Step:
    before: GameState
    """The game as the step began: at a trick's lead, every hand as it was then."""
    after: GameState
    lines: Lines


def steps(told: Iterable[tuple[Event, GameState, Lines]]) -> list[Step]:
    found: list[Step] = []
    start = previous = GameState()
    lines: list[str] = []
    for event, state, said in told:
        leads = isinstance(event, CardPlayed) and previous.phase is Phase.PLAY and not previous.trick.plays
        if leads and lines:
            found.append(Step(start, previous, tuple(lines)))
            start, lines = previous, []
        lines += said
        previous = state
    if lines:
        found.append(Step(start, previous, tuple(lines)))
    return found
