"""What a special rule did during one turn.

A turn's resolution collects these in order, so commentary and the board can tell the story
without re-deriving the rules. They are derived from events, never stored.
"""

from __future__ import annotations

import msgspec


class PigOut(msgspec.Struct, frozen=True, gc=False):
    """A 1 among the dice: the roll scores ``points`` instead of its sum (Pig Out / Sow Sad)."""

    rule: str
    points: int
    ones: int


class ZeroDice(msgspec.Struct, frozen=True, gc=False):
    """Rolling zero dice scored ``points`` (Free Bacon / Hefty Hogs / Piggy Points)."""

    rule: str
    points: int
    why: str


class PrimeBoost(msgspec.Struct, frozen=True, gc=False):
    """Hogtimus Prime: prime turn points became the next prime."""

    before: int
    after: int


class PiggyBack(msgspec.Struct, frozen=True, gc=False):
    """A 0-point turn gave the opponent ``gain`` points."""

    gain: int


class HogPile(msgspec.Struct, frozen=True, gc=False):
    """Matching ones digits gave the mover ``bonus`` more points."""

    bonus: int


class Swap(msgspec.Struct, frozen=True, gc=False):
    """The totals were exchanged; ``mover`` and ``opponent`` are the totals just before."""

    rule: str
    mover: int
    opponent: int


class ExtraTurn(msgspec.Struct, frozen=True, gc=False):
    """The mover plays again (More Boar / Time Trot)."""

    rule: str


class Gain(msgspec.Struct, frozen=True, gc=False):
    """A rule moved one total from ``before`` to ``after`` (Feral Hogs, Pigs on Prime, Square Swine, Sus
    Fuss, Fall 2021's Hog Pile, Spring 2015's Hogtimus Prime); ``mover`` says whose."""

    rule: str
    mover: bool
    before: int
    after: int
    why: str


Effect = PigOut | ZeroDice | PrimeBoost | PiggyBack | HogPile | Swap | ExtraTurn | Gain


def felt(effects: tuple[Effect, ...]) -> tuple[Effect, ...]:
    """The effects a player would notice: all but a swap of equal totals, which changes nothing
    (a Pork Chop's is felt: it spends the chop). What the commentary tells, the picture marks and the
    table of turns lists: the same for all three."""
    return tuple(e for e in effects if not (isinstance(e, Swap) and e.mover == e.opponent and e.rule != "Pork Chop"))
