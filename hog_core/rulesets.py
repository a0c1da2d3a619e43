"""The six rule sets: each is data (id, version, dice, Pork Chop) plus an ordered list of rules."""

from __future__ import annotations

from dataclasses import dataclass

from hog_core import rules as r
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

RULE_SETS: dict[str, RuleSet] = {rs.id: rs for rs in (FA18, SP22, SP16, PORKCHOP, SP21, CONTEST)}
DEFAULT_RULES = FA18.id


def rule_set(rules_id: str, version: int | None = None) -> RuleSet:
    """The rule set ``rules_id`` at ``version`` (the current one when omitted).

    Raises ``KeyError`` for an unknown id or a version this code cannot play.
    """
    found = RULE_SETS[rules_id]
    if version is not None and version != found.version:
        raise KeyError(f"{rules_id} v{version}")
    return found
