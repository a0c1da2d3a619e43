"""An exact review of a Hog game: for every move, where the mover's chances went.

Hog is solved, so a review is a fact, not an engine's opinion. For each turn taken:

- ``chance_best``: the mover's chance to win before the move, under perfect play from both sides
  (the position's value), and ``best``, every move that keeps it (to 1e-9);
- ``chance_played``: the mover's chance with the move they made, before its dice fall (perfect
  play from both sides afterwards); the chance the move gave away is ``loss``;
- ``chance_after``: the mover's chance once its dice fell; ``luck`` is what the dice gave or took.

A player's **accuracy** is the share of the best chances they kept: 100 × Σ chance_played ÷
Σ chance_best over their moves (100% for perfect play; a move in a lost position weighs little,
since there was little to keep). A move is an **inaccuracy** from ``INACCURACY`` of chance lost, a
**mistake** from ``MISTAKE``, a **blunder** from ``BLUNDER``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from hog_core.events import Event, TurnTaken
from hog_core.game import PORK_CHOP, GameState, evolve
from hog_core.kernel import Kernel
from hog_core.solver import Solution, _fill_landings, _fill_terminal_landings, _move_values, _Player

BEST = 1e-9
"""Moves within this of the best chance are best moves too."""
INACCURACY, MISTAKE, BLUNDER = 0.02, 0.05, 0.10
"""The chance lost (as a fraction: 0.05 is 5 points of percentage) from which a move is so called."""


@dataclass(frozen=True, slots=True)
class MoveReview:
    turn: int
    """The game's turn number when the move was made (from 0)."""
    mover: int
    scores: tuple[int, int]
    """The mover's total and the opponent's, before the move."""
    dice: int
    """How many dice were chosen (``-1``: Pork Chop)."""
    best: tuple[int, ...]
    chance_best: float
    chance_played: float
    chance_after: float

    @property
    def loss(self) -> float:
        return max(0.0, self.chance_best - self.chance_played)

    @property
    def luck(self) -> float:
        return self.chance_after - self.chance_played

    @property
    def verdict(self) -> str:
        """``best``, ``good``, ``inaccuracy``, ``mistake`` or ``blunder``."""
        if self.dice in self.best:
            return "best"
        for name, least in (("blunder", BLUNDER), ("mistake", MISTAKE), ("inaccuracy", INACCURACY)):
            if self.loss >= least:
                return name
        return "good"


def accuracy(moves: Iterable[MoveReview]) -> float:
    """100 × the share of the best chances the moves kept (100 when there are none)."""
    played = best = 0.0
    for move in moves:
        played, best = played + move.chance_played, best + move.chance_best
    return 100.0 if best <= 0 else 100.0 * played / best


class Reviewer:
    """Reviews games of one solved rule set and goal. Built once (the landing table of every state,
    tens of milliseconds); a review then costs microseconds a move."""

    def __init__(self, kernel: Kernel, solution: Solution) -> None:
        if (kernel.rules.id, kernel.goal) != (solution.rules, solution.goal):
            raise ValueError(f"a kernel of {kernel.rules.id} to {kernel.goal} cannot review {solution.rules}")
        self.kernel, self.solution = kernel, solution
        perfect = _Player(kernel, None)
        perfect.value = solution.value
        _fill_terminal_landings(kernel, perfect)
        cur, opp = (a.ravel() for a in np.meshgrid(np.arange(kernel.goal), np.arange(kernel.goal), indexing="ij"))
        _fill_landings(kernel, cur, opp, perfect, perfect)
        self._perfect = perfect

    def move_values(self, state: GameState) -> dict[int, float]:
        """The mover's chance to win with each legal move from ``state``, before its dice fall."""
        return self.values_of([state])[0]

    def values_of(self, states: Sequence[GameState]) -> list[dict[int, float]]:
        """``move_values`` of each state, computed a layer at a time: a game's turns in a few
        array operations, not one per turn."""
        layers = [self.solution.layer_of(s) for s in states]
        rows: list[np.ndarray] = [np.empty(0)] * len(states)
        for layer in set(layers):
            at = [i for i, li in enumerate(layers) if li == layer]
            cur = np.array([states[i].scores[states[i].mover] for i in at])
            opp = np.array([states[i].scores[1 - states[i].mover] for i in at])
            for i, q in zip(at, _move_values(self.kernel, layer, cur, opp, self._perfect, self._perfect), strict=True):
                rows[i] = q
        top = self.kernel.rules.max_dice
        found = []
        for state, layer, q in zip(states, layers, rows, strict=True):
            m = state.mover
            values = {}
            for k in state.legal_moves():
                value = q[top + 1] if k == PORK_CHOP else q[k]
                if np.isnan(value):  # a 0-point move that keeps the sum (sp22): the opponent moves from the mirror
                    value = 1.0 - self.solution.value[layer, state.scores[1 - m], state.scores[m]]
                values[k] = float(value)
            found.append(values)
        return found

    def review(self, events: Sequence[Event]) -> list[MoveReview]:
        """Every turn of the game ``events`` tell, reviewed, in order."""
        state, turns = GameState(), []
        for event in events:
            before, state = state, evolve(state, event)
            if isinstance(event, TurnTaken):
                turns.append((before, event.k, state))
        reviewed = []
        for (before, k, after), values in zip(turns, self.values_of([t[0] for t in turns]), strict=True):
            best = max(values.values())
            mover = before.mover
            reviewed.append(
                MoveReview(
                    turn=before.turn_number,
                    mover=mover,
                    scores=(before.scores[mover], before.scores[1 - mover]),
                    dice=k,
                    best=tuple(m for m, v in values.items() if v >= best - BEST),
                    chance_best=best,
                    chance_played=values[k],
                    chance_after=self.solution.win_chances(after)[mover],
                )
            )
        return reviewed
