"""One turn in progress, seen from the mover's side, and the shapes of the rules that change it."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from hog_core.effects import Effect


class Turn(msgspec.Struct, frozen=True, gc=False):
    """The facts of a turn as its rules see them.

    ``cur``/``opp`` are the mover's and the opponent's totals. ``k`` is the number of dice
    actually rolled (a spent Pork Chop plays as 10). Each rule returns a new ``Turn``.
    """

    cur: int
    opp: int
    k: int
    outcomes: tuple[int, ...]
    turn_number: int = 0
    is_extra: bool = False
    points: int = 0
    prev: int = 0
    """What the mover's Feral Hogs remembers of their own previous turn (its dice, or its points)."""
    extra_turn: bool = False
    effects: tuple[Effect, ...] = ()

    def scored(self, points: int, effect: Effect | None = None) -> Turn:
        effects = self.effects if effect is None else (*self.effects, effect)
        return msgspec.structs.replace(self, points=points, effects=effects)

    def totals(self, cur: int, opp: int, effect: Effect | None = None) -> Turn:
        effects = self.effects if effect is None else (*self.effects, effect)
        return msgspec.structs.replace(self, cur=cur, opp=opp, effects=effects)

    def again(self, effect: Effect) -> Turn:
        return msgspec.structs.replace(self, extra_turn=True, effects=(*self.effects, effect))


Rule = Callable[[Turn], Turn]
"""A rule reads the turn and returns it changed, or unchanged when it does not apply."""

SidesRule = Callable[[int, int, bool], int]
"""``(cur, opp, is_extra_turn) -> sides`` of the dice for the coming roll."""
