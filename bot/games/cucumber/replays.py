"""A replay's steps, trick by trick: each step runs from a trick's lead to the next lead, so it holds the
trick's cards, who took it, and what followed (a hand scored, a cucumber, the next deal). The setup
(the table, the cut, the first deal) is the first step."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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
    told = list(told)
    found: list[Step] = []
    begun = 0
    for end in step_ends(told):
        start = told[begun - 1][1] if begun else GameState()
        found.append(Step(start, told[end - 1][1], tuple(line for _, _, said in told[begun:end] for line in said)))
        begun = end
    return found


def step_ends(told: Sequence[tuple[Event, GameState, Lines]]) -> list[int]:
    """How many events each step ends after: a step ends before the lead of the next trick."""
    ends: list[int] = []
    previous = GameState()
    for n, (event, state, _) in enumerate(told):
        if n and isinstance(event, CardPlayed) and previous.phase is Phase.PLAY and not previous.trick.plays:
            ends.append(n)
        previous = state
    return [*ends, len(told)] if told else []
