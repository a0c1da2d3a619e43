"""``/hog rules``: each rule set in plain words, with worked examples.

The examples are not written by hand: each is a turn played through the engine from the stated
totals and narrated by the live commentary, so an example can never disagree with the game.
"""

from __future__ import annotations

import argparse
from collections.abc import Container, Iterator
from dataclasses import dataclass

import msgspec

from hog_core import rules as r
from hog_core.commentary import describe_turn
from hog_core.errors import HogError
from hog_core.events import Player
from hog_core.game import PORK_CHOP, CreateGame, GameState, TakeTurn, decide, replay
from hog_core.rulesets import DEFAULT_RULES, OFF, ON, RULE_SETS, TOGGLES, RuleSet, canonical, toggles
from hog_core.turn import Rule, SidesRule

RULE_SETS_HELP = "; ".join(f"{rs.id} ({rs.semester})" for rs in RULE_SETS.values()) + (
    "; or your own: a semester with rules added or taken away, fa23+time_trot, sp21~more_boar"
)
"""The rule sets in one line, for a command line's help: ``sp14 (Spring 2014); sp15 (Spring 2015)...``"""


class RuleSetIds(Container[str]):
    """``--rules``'s choices: every id ``canonical`` finds (a rule set of one's own too) is one; listed
    (a form's picker), the semesters newest first, each labelled by its semester."""

    default = DEFAULT_RULES

    def __contains__(self, rules_id: object) -> bool:
        try:
            return isinstance(rules_id, str) and canonical(rules_id) == rules_id
        except HogError:
            return False

    def __iter__(self) -> Iterator[str]:
        return reversed(list(RULE_SETS))

    def label(self, rules_id: str) -> str:
        rs = RULE_SETS[rules_id]
        return f"{rs.semester} ({', '.join([rs.id, *rs.aliases])})" if rs.aliases else f"{rs.semester} ({rs.id})"


class Toggles(Container[str]):
    """``--without``'s choices: every rule a game may turn off, each knowing the semesters that have it
    (a form shows a semester's own)."""

    def __contains__(self, key: object) -> bool:
        return key in TOGGLES

    def __iter__(self) -> Iterator[str]:
        return iter(TOGGLES)

    def label(self, key: str) -> str:
        return TOGGLES[key][0]

    def where(self, key: str) -> list[str]:
        return [rs.id for rs in RULE_SETS.values() if key in dict(toggles(rs))]


def rule_set_id(text: str) -> str:
    """``--rules``: a semester's id or alias, or a rule set of one's own, as its canonical id."""
    try:
        return canonical(text)
    except HogError as error:
        raise argparse.ArgumentTypeError(error.message) from None


ANY_TURN = "First to the goal (100 unless chosen) wins. On your turn, roll 0 to 10 dice: the turn scores their sum."

RULE_WORDS: dict[Rule, str] = {
    r.pig_out: "**Pig Out**: if any die shows a 1, the turn scores just 1.",
    r.pig_out_to_zero: "**Pig Out**: if any die shows a 1, the turn scores 0.",
    r.sow_sad: "**Sow Sad**: if any die shows a 1, the turn scores just 1.",
    r.free_bacon: "**Free Bacon**: rolling no dice scores twice the tens digit of the opponent's total "
    "minus its ones digit (at least 1).",
    r.hefty_hogs: "**Hefty Hogs**: rolling no dice works your own total through a function for each digit "
    "of the opponent's total (ones first) and scores the result modulo 30.",
    r.free_bacon_max_digit: "**Free Bacon**: rolling no dice scores 1 more than the largest digit of the "
    "opponent's total.",
    r.piggy_points: "**Piggy Points**: rolling no dice scores 3 plus the smallest digit of the square of the "
    "opponent's total.",
    r.hogtimus_prime: "**Hogtimus Prime**: a turn that scores a prime scores the next prime instead.",
    r.piggy_back: "**Piggy Back**: a turn that scores nothing gives the opponent as many points as dice rolled.",
    r.hog_pile: "**Hog Pile**: if your new total ends in the same digit as the opponent's, you gain that digit again.",
    r.swine_swap: "**Swine Swap**: if the gap between the last two digits of your total equals that of the "
    "opponent's, the totals swap (even past the goal).",
    r.swine_swap_reversed: "**Swine Swap**: if the last two digits of the totals are each other reversed "
    "(24 and 42), the totals swap.",
    r.more_boar: "**More Boar**: if both leading digits of your total are smaller than the opponent's "
    "(6 counts as 06), you go again.",
    r.time_trot: "**Time Trot**: rolling as many dice as the turn number modulo 8 (turns count from 0) "
    "gives another turn, but not twice running.",
    r.time_trot_mod5: "**Time Trot**: rolling as many dice as the turn number modulo 5 (turns count from 0) "
    "gives another turn, but not twice running.",
    r.free_bacon_sp14: "**Free Bacon**: rolling no dice scores 1 more than the larger of the last two digits "
    "of the opponent's total.",
    r.free_bacon_sp18: "**Free Bacon**: rolling no dice scores 2 plus the gap between the two digits of the "
    "opponent's total.",
    r.free_bacon_su18: "**Free Bacon**: rolling no dice scores 1 plus the last digit of the product of the "
    "opponent's two digits.",
    r.free_bacon_sp19: "**Free Bacon**: rolling no dice scores 1 more than the smaller digit of the opponent's total.",
    r.free_bacon_su19: "**Free Bacon**: rolling no dice scores 10 minus the smaller digit of the opponent's total.",
    r.free_bacon_sp20: "**Free Bacon**: rolling no dice scores 1 plus the alternating sum of the digits of the "
    "cube of the opponent's total, made positive.",
    r.free_bacon_su20: "**Free Bacon**: rolling no dice scores 10 minus the ones digit of the opponent's "
    "total plus its tens digit.",
    r.free_bacon_fa20: "**Free Bacon**: rolling no dice scores 3 plus the digit of pi at the opponent's total "
    "(the 3 before the point when they have 0).",
    r.picky_piggy: "**Picky Piggy**: rolling no dice scores the digit of 1/7 = 0.142857… at the opponent's "
    "total (7 when they have 0).",
    r.oink_points: "**Oink Points**: rolling no dice scores twice the tens digit of the opponent's total "
    "minus its ones digit (at least 1).",
    r.pig_tail: "**Pig Tail**: rolling no dice scores twice the gap between the opponent's two digits, plus 1.",
    r.boar_brawl: "**Boar Brawl**: rolling no dice scores three times the gap between the opponent's tens "
    "digit and your ones digit (at least 1).",
    r.swine_swap_double: "**Swine Swap**: if one total is exactly double the other, the totals swap "
    "(even past the goal).",
    r.swine_swap_multiple: "**Swine Swap**: if both totals are above 1 and one divides the other, the totals swap.",
    r.swine_swap_su18: "**Swine Swap**: if your ones digit equals the opponent's tens digit, the totals swap.",
    r.swine_swap_sp19: "**Swine Swap**: if the totals hold the same digit in some place (ones, tens…), they swap.",
    r.swine_swap_su19: "**Swine Swap**: if your leading digit equals the opponent's ones digit, the totals swap.",
    r.swine_swap_fa19: "**Swine Swap**: if leading digit × ones digit is the same for both totals, they swap.",
    r.swine_swap_sp20: "**Swine Swap**: if 3 to the power of the two totals' sum starts and ends with the same "
    "digit, the totals swap.",
    r.swine_swap_su20: "**Swine Swap**: if the gap between the two ones digits equals the opponent's tens "
    "digit, the totals swap.",
    r.feral_hogs_dice: "**Feral Hogs**: rolling exactly 2 dice more or fewer than on your own previous turn "
    "gives you 3 more points.",
    r.feral_hogs_points: "**Feral Hogs**: rolling a number of dice exactly 2 away from the points your own "
    "previous turn scored gives you 3 more points.",
    r.hogtimus_prime_leader: "**Hogtimus Prime**: if the two totals differ and add up to a prime, the leader "
    "gains this turn's points again.",
    r.pig_pass: "**Pig Pass**: if you end your turn 1 or 2 behind, you go again.",
    r.swine_align: "**Swine Align**: if both totals share a factor of 10 or more, you go again.",
    r.hog_pile_double: "**Hog Pile**: if your new total equals the opponent's, it doubles.",
    r.pigs_on_prime: "**Pigs on Prime**: if your new total is prime, it becomes the next prime.",
    r.square_swine: "**Square Swine**: if your new total is a perfect square, it becomes the next one.",
    r.sus_fuss: "**Sus Fuss**: if your new total has exactly 3 or 4 factors, it becomes the next prime.",
}

SIDES_WORDS: dict[SidesRule, str] = {
    r.hog_wild: "**Hog Wild**: when the two totals add up to a multiple of 7, the turn rolls four-sided dice "
    "(the first turn too).",
    r.eight_sided_extra_turns: "Every extra turn rolls **eight-sided** dice.",
}

CHOP_WORDS = (
    "**Pork Chop**: once a game, instead of rolling, swap the two totals (the Pork Chop button). "
    "Used again, it rolls 10 dice."
)


@dataclass(frozen=True)
class Example:
    ours: int
    theirs: int
    k: int
    outcomes: tuple[int, ...] = ()
    turn_number: int = 0


EXAMPLES: dict[str, tuple[Example, ...]] = {
    "fa18": (Example(20, 30, 3, (4, 1, 6)), Example(20, 72, 0), Example(96, 48, 2, (4, 4))),
    "sp22": (Example(20, 30, 2, (1, 6)), Example(10, 32, 0), Example(20, 37, 2, (5, 2))),
    "sp16": (
        Example(20, 30, 2, (1, 5)),
        Example(20, 47, 0),
        Example(0, 0, 2, (3, 4)),
        Example(10, 41, 2, (2, 2)),
    ),
    "porkchop": (Example(30, 70, PORK_CHOP), Example(20, 30, 2, (5, 6))),
    "sp21": (Example(20, 13, 0), Example(10, 35, 2, (5, 5))),
    "contest": (Example(10, 35, 2, (5, 5)), Example(40, 30, 3, (4, 4, 4), turn_number=3)),
    "sp14": (Example(5, 20, 2, (2, 3)), Example(3, 42, 0), Example(94, 50, 2, (3, 3))),  # 144: six-sided
    "sp15": (Example(40, 37, 3, (2, 2, 2)), Example(7, 3, 0)),
    "su15": (Example(15, 91, 2, (2, 2)), Example(3, 30, 0)),
    "fa17": (Example(12, 36, 3, (2, 2, 2)), Example(95, 50, 0)),
    "fa17_contest": (Example(12, 36, 3, (2, 2, 2)), Example(20, 30, 0)),
    "sp18": (Example(10, 35, 0), Example(12, 48, 3, (3, 3, 6))),
    "su18": (Example(41, 92, 2, (4, 4)), Example(20, 46, 0)),
    "fa18_contest": (Example(20, 72, 0), Example(30, 41, 2, (3, 3), turn_number=7)),
    "sp19": (Example(10, 35, 0), Example(20, 31, 1, (1,))),
    "su19": (Example(20, 35, 0), Example(20, 2, 2, (2, 2))),
    "fa19": (Example(20, 35, 0), Example(22, 4, 2, (3, 3))),
    "sp20": (Example(10, 45, 0), Example(30, 40, 3, (2, 2, 3))),
    "su20": (Example(3, 11, 0), Example(40, 21, 2, (2, 3))),
    "fa20": (Example(10, 13, 1, (2,)), Example(15, 20, 1, (5,)), Example(20, 2, 0)),
    "fa21": (Example(20, 26, 2, (3, 3)), Example(0, 12, 0)),
    "su22": (Example(10, 13, 1, (3,)), Example(20, 46, 0)),
    "fa22": (Example(12, 30, 3, (6, 4, 3)), Example(20, 46, 0)),
    "fa23": (Example(2, 0, 1, (4,)), Example(21, 43, 0), Example(10, 38, 2, (2, 3))),
}


def example_lines(rs: RuleSet, ex: Example) -> tuple[str, ...]:
    """``ex`` played through the engine and narrated: Ada has ``ours``, Bob has ``theirs``."""
    created = replay(decide(GameState(), CreateGame("example", (Player("a", "Ada"), Player("b", "Bob")), rs.id)))
    before = msgspec.structs.replace(created, scores=(ex.ours, ex.theirs), turn_number=ex.turn_number)
    after = replay(decide(before, TakeTurn("a", ex.k, ex.outcomes)), before)
    lines, _ = describe_turn(before, after)
    setup = f"Turn {ex.turn_number}: " if ex.turn_number else ""
    totals = f"Now Ada has {after.scores[0]} and Bob {after.scores[1]}."
    return (f"{setup}Ada has {ex.ours}, Bob has {ex.theirs}.", *lines, totals)


def explain(rules_id: str) -> tuple[str, str]:
    """The title and text of ``/hog rules`` for one rule set."""
    rs = RULE_SETS[rules_id]
    words = [RULE_WORDS[rule] for rule in rs.rules if rule is not r.add_points]
    words += [SIDES_WORDS[rs.dice_sides]] if rs.dice_sides is not r.six_sided else []
    if rs.pork_chop:
        words.append(CHOP_WORDS)
    body = [ANY_TURN, *(f"• {w}" for w in words), "", "__Examples__"]
    for ex in EXAMPLES[rs.id.split(OFF)[0].split(ON)[0]]:
        body.append("> " + " ".join(example_lines(rs, ex)))
    return rs.name, "\n".join(body)
