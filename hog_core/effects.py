"""What a special rule did during one turn.

A turn's resolution collects these in order, so commentary and the board can tell the story
without re-deriving the rules. They are derived from events, never stored.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PigOut:
    """A 1 among the dice: the roll scores ``points`` instead of its sum (Pig Out / Sow Sad)."""

    rule: str
    points: int
    ones: int


@dataclass(frozen=True, slots=True)
class ZeroDice:
    """Rolling zero dice scored ``points`` (Free Bacon / Hefty Hogs / Piggy Points)."""

    rule: str
    points: int
    why: str


@dataclass(frozen=True, slots=True)
class PrimeBoost:
    """Hogtimus Prime: prime turn points became the next prime."""

    before: int
    after: int


@dataclass(frozen=True, slots=True)
class PiggyBack:
    """A 0-point turn gave the opponent ``gain`` points."""

    gain: int


@dataclass(frozen=True, slots=True)
class HogPile:
    """Matching ones digits gave the mover ``bonus`` more points."""

    bonus: int


@dataclass(frozen=True, slots=True)
class Swap:
    """The totals were exchanged; ``mover`` and ``opponent`` are the totals just before."""

    rule: str
    mover: int
    opponent: int


@dataclass(frozen=True, slots=True)
class ExtraTurn:
    """The mover plays again (More Boar / Time Trot)."""

    rule: str


Effect = PigOut | ZeroDice | PrimeBoost | PiggyBack | HogPile | Swap | ExtraTurn
