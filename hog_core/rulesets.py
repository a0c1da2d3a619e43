"""The six rule sets: each is data (id, version, dice, Pork Chop) plus an ordered list of rules."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from hog_core import rules as r
from hog_core.errors import InvalidGame
from hog_core.turn import Rule, SidesRule, Turn


@dataclass(frozen=True)
class RuleSet:
    id: str
    version: int
    """Bumped whenever the rules' behaviour changes; a stored game pins the version it began with."""
    name: str
    rules: tuple[Rule, ...]
    dice_sides: SidesRule = r.six_sided
    pork_chop: bool = False
    max_dice: int = 10

    def resolve(self, turn: Turn, *, chop: bool = False) -> Turn:
        """Run the turn through this rule set's rules in order (or the Pork Chop when ``chop``)."""
        if chop:
            return r.pork_chop(turn)
        for rule in self.rules:
            turn = rule(turn)
        return turn


FA18 = RuleSet(
    "fa18",
    1,
    "Fall 2018: Pig Out, Free Bacon, Swine Swap",
    (r.pig_out, r.free_bacon, r.add_points, r.swine_swap),
)
SP22 = RuleSet(
    "sp22",
    1,
    "Spring 2022: Sow Sad, Hefty Hogs, Hog Pile",
    (r.sow_sad, r.hefty_hogs, r.add_points, r.hog_pile),
)
_SP16_RULES = (
    r.pig_out_to_zero,
    r.free_bacon_max_digit,
    r.hogtimus_prime,
    r.piggy_back,
    r.add_points,
    r.swine_swap_reversed,
)
SP16 = RuleSet(
    "sp16",
    1,
    "Spring 2016: Pig Out, Free Bacon, Hogtimus Prime, Hog Wild, Piggy Back, Swine Swap",
    _SP16_RULES,
    dice_sides=r.hog_wild,
)
PORKCHOP = RuleSet(
    "porkchop",
    1,
    "Pork Chop: Spring 2016 plus a once-per-player swap",
    _SP16_RULES,
    dice_sides=r.hog_wild,
    pork_chop=True,
)
SP21 = RuleSet(
    "sp21",
    1,
    "Spring 2021: Sow Sad, Piggy Points, More Boar",
    (r.sow_sad, r.piggy_points, r.add_points, r.more_boar),
)
CONTEST = RuleSet(
    "contest",
    1,
    "Contest: Spring 2021 plus Time Trot and eight-sided extra turns",
    (r.sow_sad, r.piggy_points, r.add_points, r.more_boar, r.time_trot),
    dice_sides=r.eight_sided_extra_turns,
)

NAMED: dict[str, RuleSet] = {rs.id: rs for rs in (FA18, SP22, SP16, PORKCHOP, SP21, CONTEST)}
DEFAULT_RULES = FA18.id

TOGGLES: dict[str, tuple[str, tuple[object, ...]]] = {
    "swine_swap": ("Swine Swap", (r.swine_swap, r.swine_swap_reversed)),
    "hefty_hogs": ("Hefty Hogs", (r.hefty_hogs,)),
    "hog_pile": ("Hog Pile", (r.hog_pile,)),
    "hogtimus_prime": ("Hogtimus Prime", (r.hogtimus_prime,)),
    "piggy_back": ("Piggy Back", (r.piggy_back,)),
    "more_boar": ("More Boar", (r.more_boar,)),
    "time_trot": ("Time Trot", (r.time_trot,)),
    "hog_wild": ("Hog Wild", (r.hog_wild,)),
    "eight_sided": ("eight-sided extra turns", (r.eight_sided_extra_turns,)),
    "pork_chop": ("Pork Chop", ()),
}
"""The course's rules a game may be played without, by key: their name, and the functions that are
them. How dice score (Pig Out, Sow Sad) and adding the points stay: without them there is no Hog;
so does what rolling no dice scores (Free Bacon, Piggy Points): without it a roll of no dice would
score nothing yet could still swap the totals or earn a turn, a game with no end to solve. Every
rule set made of the rest is solved exactly (a test builds each)."""
OFF = "~"
"""Joins a rule set's id and the rules a game turns off: ``fa18~swine_swap`` is Fall 2018 without Swine Swap."""


def toggles(base: RuleSet) -> list[tuple[str, str]]:
    """The rules of ``base`` a game may turn off: each one's key and name, in the rule set's order."""
    present = [*base.rules, base.dice_sides]
    found = [(key, name) for key, (name, fns) in TOGGLES.items() if any(f in present for f in fns)]
    return found + ([("pork_chop", "Pork Chop")] if base.pork_chop else [])


def without(base_id: str, off: frozenset[str]) -> RuleSet:
    """``base_id``'s rule set with the rules ``off`` turned off (each of its ``toggles``), under an id
    that says so; its version is its base's. ``KeyError`` for a rule it does not have."""
    base = NAMED[base_id]
    allowed = dict(toggles(base))
    if not off:
        return base
    if not off <= allowed.keys():
        raise KeyError(f"{base_id} has no rule {', '.join(sorted(off - allowed.keys()))} to turn off")
    gone = {f for key in off for f in TOGGLES[key][1]}
    keys = sorted(off, key=list(allowed).index)
    return RuleSet(
        OFF.join([base_id, *keys]),
        base.version,
        f"{base.name.split(':')[0]} without {', '.join(allowed[k] for k in keys)}",
        tuple(rule for rule in base.rules if rule not in gone),
        dice_sides=r.six_sided if base.dice_sides in gone else base.dice_sides,
        pork_chop=base.pork_chop and "pork_chop" not in off,
        max_dice=base.max_dice,
    )


def turned_off(base_id: str, off: Iterable[str]) -> str:
    """The id of ``base_id`` with the rules ``off`` turned off (their ``TOGGLES`` keys), for a player
    to ask by: ``InvalidGame``, in words, for a rule set unknown or a rule it cannot turn off."""
    off = frozenset(off)
    if base_id not in NAMED:
        raise InvalidGame(f"There is no rule set {base_id!r}: choose one of {', '.join(NAMED)}.")
    try:
        return without(base_id, off).id
    except KeyError:
        offered = ", ".join(key for key, _ in toggles(NAMED[base_id])) or "none"
        raise InvalidGame(f"{NAMED[base_id].name.split(':')[0]} cannot play without {', '.join(sorted(off))}: its "
                          f"rules that may be turned off are {offered}.") from None  # fmt: skip


class RuleSets(Mapping[str, RuleSet]):
    """The six rule sets by id (what is listed and offered); a rule set of one's own (``fa18~swine_swap``)
    is found by its id too, made once. ``in`` asks only of the six: an id from outside is never work."""

    def __init__(self, named: dict[str, RuleSet]) -> None:
        self._named = named

    def __getitem__(self, rules_id: str) -> RuleSet:
        if rules_id in self._named:
            return self._named[rules_id]
        return _own(rules_id)

    def __contains__(self, rules_id: object) -> bool:
        return rules_id in self._named

    def __iter__(self) -> Iterator[str]:
        return iter(self._named)

    def __len__(self) -> int:
        return len(self._named)


@functools.lru_cache(maxsize=256)
def _own(rules_id: str) -> RuleSet:
    base_id, *off = rules_id.split(OFF)
    found = without(base_id, frozenset(off)) if off else None
    if found is None or found.id != rules_id:  # each rule once, in the rule set's order: one id a set
        raise KeyError(rules_id)
    return found


RULE_SETS = RuleSets(NAMED)


def rule_set(rules_id: str, version: int | None = None) -> RuleSet:
    """The rule set ``rules_id`` at ``version`` (the current one when omitted): one of the six, or one
    of them with rules turned off.

    Raises ``KeyError`` for an unknown id or a version this code cannot play.
    """
    found = RULE_SETS[rules_id]
    if version is not None and version != found.version:
        raise KeyError(f"{rules_id} v{version}")
    return found
