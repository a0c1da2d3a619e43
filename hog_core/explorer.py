"""The contest explorer: where an entry's table chooses differently from perfect play, and what each
difference costs, exactly.

At the start of a turn (no extra turn, Pork Chop unused: where a contest's table is read), the cost
of a cell is the mover's chance of winning with the best move there minus their chance with the
table's move, both sides playing perfectly afterwards: what that one choice gives away. Where the
rules count turns (Time Trot's cycle of eight), a table holds one move for every turn of the cycle:
each move's chance is its mean over the cycle's turns (each exact), and the best is the best such
move, the most any table can do there. Two entries side by side: where each differs, and where they
choose differently from each other.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from hog_core.contest import SIZE, Table
from hog_core.game import PORK_CHOP, GameState, Status
from hog_core.review import Reviewer

Grid = npt.NDArray[np.float64]
"""``[score, opponent_score]``, 100 × 100."""
WORST = 10
"""The costliest cells named."""


def chances(reviewer: Reviewer) -> npt.NDArray[np.float64]:
    """``[turn, score, opponent_score, move]``: the mover's chance with each move (``move`` 0-10 by
    dice, the last Pork Chop), NaN where a move is not legal, at the start of each turn of the rules'
    cycle (one turn where the rules count none) of a contest game."""
    rules, period = reviewer.kernel.rules, reviewer.kernel.dims.turn_period
    states = [
        GameState(rules=rules, goal=SIZE, status=Status.ACTIVE, scores=(s, o), turn_number=t)
        for t in range(period)
        for s in range(SIZE)
        for o in range(SIZE)
    ]
    grid = np.full((len(states), rules.max_dice + 2), np.nan)
    for i, values in enumerate(reviewer.values_of(states)):
        for k, value in values.items():
            grid[i, -1 if k == PORK_CHOP else k] = value
    return grid.reshape(period, SIZE, SIZE, rules.max_dice + 2)


def costs(table: Table, values: npt.NDArray[np.float64]) -> Grid:
    """Each cell's chance given away by ``table``'s move there (0 where it is a best move); over the
    rules' cycle of turns, each move's mean chance."""
    mean = values.mean(axis=0)  # a move illegal at one turn is illegal at every turn: NaN stays NaN
    moves = np.where(table == PORK_CHOP, values.shape[3] - 1, table).astype(np.int64)
    chosen = np.take_along_axis(mean, moves[..., None], axis=2)[..., 0]
    given: Grid = np.clip(np.nanmax(mean, axis=2) - chosen, 0.0, None)
    return given


@dataclass(frozen=True)
class Cell:
    score: int
    opponent: int
    move: int
    best: int
    cost: float


@dataclass(frozen=True)
class Explored:
    """An entry's table against perfect play."""

    name: str
    costs: Grid
    worst: list[Cell]
    cycle: int = 1
    """The turns of the rules' cycle a table's move is read at (Time Trot's eight, else one)."""

    @property
    def differing(self) -> int:
        """Cells whose move gives chance away (more than a rounding's worth)."""
        return int((self.costs > 1e-9).sum())

    @property
    def average(self) -> float:
        """The mean cost over every cell."""
        return float(self.costs.mean())


def explored(name: str, table: Table, values: npt.NDArray[np.float64]) -> Explored:
    grid = costs(table, values)
    order = np.argsort(-grid, axis=None, kind="stable")[:WORST]
    best = np.nanargmax(values.mean(axis=0), axis=2)
    pork = values.shape[3] - 1
    worst = [
        Cell(int(s), int(o), int(table[s, o]), PORK_CHOP if best[s, o] == pork else int(best[s, o]), float(grid[s, o]))
        for s, o in zip(*np.unravel_index(order, grid.shape), strict=True)
        if grid[s, o] > 1e-9
    ]
    return Explored(name, grid, worst, values.shape[0])


@dataclass(frozen=True)
class Compared:
    """Two entries side by side: where they choose differently, and which is nearer perfect there."""

    first: Explored
    second: Explored
    apart: int
    """Cells where the two tables choose differently."""
    first_better: int
    second_better: int


def compared(first: Explored, second: Explored, tables: tuple[Table, Table]) -> Compared:
    apart = tables[0] != tables[1]
    better = first.costs < second.costs - 1e-9
    worse = second.costs < first.costs - 1e-9
    return Compared(first, second, int(apart.sum()), int((apart & better).sum()), int((apart & worse).sum()))
