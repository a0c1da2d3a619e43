"""``/hog rules``: each rule set in plain words, with worked examples.

The examples are not written by hand: each is a turn played through the engine from the stated
totals and narrated by the live commentary, so an example can never disagree with the game.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from hog_core import rules as r
from hog_core.commentary import describe_turn
from hog_core.events import Player
from hog_core.game import PORK_CHOP, CreateGame, GameState, TakeTurn, decide, replay
from hog_core.rulesets import RULE_SETS, RuleSet
from hog_core.turn import Rule, SidesRule

RULE_SETS_HELP = "; ".join(f"{rs.id} ({rs.name.split(':')[0]})" for rs in RULE_SETS.values())
"""The rule sets in one line, for a command line's help: ``fa18 (Fall 2018); sp22 (Spring 2022)...``"""

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
    for ex in EXAMPLES[rs.id]:
        body.append("> " + " ".join(example_lines(rs, ex)))
    return rs.name, "\n".join(body)
