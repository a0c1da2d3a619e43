"""The named rules of every rule set, each a small function of one turn.

Rule sets (``hog_core.rulesets``) compose these in order; see ``shared/RULES.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from hog_core.digits import (
    digits,
    factor_count,
    is_prime,
    is_square,
    lead,
    leading_pair,
    next_prime,
    next_square,
    ones,
    pi_digit,
    seventh_digit,
    tens,
)
from hog_core.effects import ExtraTurn, Gain, HogPile, PiggyBack, PigOut, PrimeBoost, Swap, ZeroDice
from hog_core.turn import Rule, Turn

# --- scoring a roll of k >= 1 dice ------------------------------------------------------------


def _ones_rule(name: str, penalty: int) -> Rule:
    def score_roll(turn: Turn) -> Turn:
        if turn.k <= 0:
            return turn
        n_ones = turn.outcomes.count(1)
        if n_ones:
            return turn.scored(penalty, PigOut(name, penalty, n_ones))
        return turn.scored(sum(turn.outcomes))

    score_roll.__name__ = name.lower().replace(" ", "_")
    return score_roll


pig_out = _ones_rule("Pig Out", 1)
"""fa18: any 1 scores 1, else the sum."""
pig_out_to_zero = _ones_rule("Pig Out", 0)
"""sp16 / porkchop: any 1 scores 0, else the sum."""
sow_sad = _ones_rule("Sow Sad", 1)
"""sp22 / sp21 / contest: any 1 scores 1, else the sum."""


# --- scoring zero dice --------------------------------------------------------------------------


def _zero_dice_rule(name: str, score: Callable[[int, int], tuple[int, str]], doc: str) -> Rule:
    """A rule for rolling no dice: ``score(cur, opp)`` gives its points and how they came."""

    def score_zero(turn: Turn) -> Turn:
        if turn.k != 0:
            return turn
        points, why = score(turn.cur, turn.opp)
        return turn.scored(points, ZeroDice(name, points, why))

    score_zero.__name__ = f"{name.lower().replace(' ', '_')}_{doc.split(':')[0]}"
    score_zero.__doc__ = doc
    return score_zero


def _twice_tens_less_ones(cur: int, opp: int) -> tuple[int, str]:
    t, o = tens(opp), ones(opp)
    points = max(2 * t - o, 1)
    return points, f"max(2×{t} − {o}, 1) = {points}"


free_bacon = _zero_dice_rule("Free Bacon", _twice_tens_less_ones, "fa18: max(2 * tens(opp) - ones(opp), 1).")
oink_points = _zero_dice_rule("Oink Points", _twice_tens_less_ones, "su22: fa18's Free Bacon, renamed.")


_HEFTY = (
    lambda v: v + 1,
    lambda v: v**2,
    lambda v: v * 3,
    lambda v: v // 4,
    lambda v: v - 5,
    lambda v: v % 6,
    lambda v: int((v % 7) * 8),
    lambda v: int(v * 8.8),
    lambda v: int(v / 99 * 15) + 10,
    lambda v: v,
)


_HEFTY_WORDS = ("+1", "squared", "×3", "÷4 down", "−5", "mod 6", "mod 7 ×8", "×8.8", "÷99 ×15 +10", "unchanged")
"""What each digit's function does, for the commentary."""


def hefty_hogs_points(cur: int, opp: int) -> int:
    """sp22 zero-dice points: apply f_d for each digit d of ``opp`` (ones first) to ``cur``."""
    if opp == 0:
        return 1
    v = cur
    for d in digits(opp):
        v = _HEFTY[d](v)
    return v % 30


def hefty_hogs(turn: Turn) -> Turn:
    if turn.k != 0:
        return turn
    points = hefty_hogs_points(turn.cur, turn.opp)
    if turn.opp == 0:
        why = "the opponent has 0, so 1 point"
    else:
        v, steps = turn.cur, []
        for d in digits(turn.opp):
            v = _HEFTY[d](v)
            steps.append(f"{d}: {_HEFTY_WORDS[d]} → {v}")
        why = f"{turn.cur} through the digits of {turn.opp}, ones first: {', '.join(steps)}; mod 30 → {points}"
    return turn.scored(points, ZeroDice("Hefty Hogs", points, why))


def free_bacon_max_digit(turn: Turn) -> Turn:
    """sp16 / porkchop: ``1 + max digit(opp)``."""
    if turn.k != 0:
        return turn
    top = max(digits(turn.opp))
    return turn.scored(top + 1, ZeroDice("Free Bacon", top + 1, f"1 + {top} = {top + 1}"))


def piggy_points(turn: Turn) -> Turn:
    """sp21 / contest: ``3 + smallest digit of opp**2``."""
    if turn.k != 0:
        return turn
    square = turn.opp**2
    low = min(digits(square))
    return turn.scored(low + 3, ZeroDice("Piggy Points", low + 3, f"{turn.opp}² = {square}, 3 + {low} = {low + 3}"))


# --- changing the turn's points ---------------------------------------------------------------


def hogtimus_prime(turn: Turn) -> Turn:
    """Prime turn points become the next prime (19 -> 23)."""
    if not is_prime(turn.points):
        return turn
    boosted = next_prime(turn.points)
    return turn.scored(boosted, PrimeBoost(turn.points, boosted))


def piggy_back(turn: Turn) -> Turn:
    """A 0-point turn gives the opponent ``k`` points."""
    if turn.points != 0:
        return turn
    return turn.totals(turn.cur, turn.opp + turn.k, PiggyBack(turn.k))


def add_points(turn: Turn) -> Turn:
    return turn.totals(turn.cur + turn.points, turn.opp)


# --- after the points are added -----------------------------------------------------------------


def hog_pile(turn: Turn) -> Turn:
    """sp22: matching ones digits give the mover that digit once more."""
    bonus = ones(turn.cur)
    if bonus == 0 or bonus != ones(turn.opp):
        return turn
    return turn.totals(turn.cur + bonus, turn.opp, HogPile(bonus))


def _swapped(turn: Turn, rule: str) -> Turn:
    return turn.totals(turn.opp, turn.cur, Swap(rule, turn.cur, turn.opp))


def swine_swap(turn: Turn) -> Turn:
    """fa18: swap when ``|tens - ones|`` of the last two digits match."""
    a, b = turn.cur, turn.opp
    if abs(a // 10 % 10 - a % 10) == abs(b // 10 % 10 - b % 10):  # tens and ones, inlined: a hot path
        return _swapped(turn, "Swine Swap")
    return turn


def swine_swap_reversed(turn: Turn) -> Turn:
    """sp16 / porkchop: swap when the last two digits are reverses of each other."""
    a, b = turn.cur, turn.opp
    if tens(a) == ones(b) and ones(a) == tens(b):
        return _swapped(turn, "Swine Swap")
    return turn


def pork_chop(turn: Turn) -> Turn:
    """porkchop, ``k == -1`` while unused: no roll, no points, the totals swap."""
    return _swapped(turn, "Pork Chop")


def more_boar(turn: Turn) -> Turn:
    """sp21 / contest: both leading digits below the opponent's grant another turn."""
    (c1, c2), (o1, o2) = leading_pair(turn.cur), leading_pair(turn.opp)
    if c1 < o1 and c2 < o2:
        return turn.again(ExtraTurn("More Boar"))
    return turn


@dataclass(frozen=True)
class TimeTrot:
    """``k`` dice on turn ``n`` with ``n % period == k`` grant another turn, never on an extra turn
    (contest: 8, with eight-sided extra turns; Fall 2017's contest: 8; Fall 2018's contest: 5)."""

    period: int

    def __call__(self, turn: Turn) -> Turn:
        if turn.is_extra or turn.extra_turn or turn.turn_number % self.period != turn.k:
            return turn
        return turn.again(ExtraTurn("Time Trot"))


time_trot = TimeTrot(8)
time_trot_mod5 = TimeTrot(5)


# --- how many sides the dice have ----------------------------------------------------------------


def six_sided(cur: int, opp: int, is_extra: bool) -> int:
    return 6


def hog_wild(cur: int, opp: int, is_extra: bool) -> int:
    """sp16 / porkchop: four-sided dice when the totals sum to a multiple of 7."""
    return 4 if (cur + opp) % 7 == 0 else 6


def eight_sided_extra_turns(cur: int, opp: int, is_extra: bool) -> int:
    """contest: every extra turn rolls eight-sided dice."""
    return 8 if is_extra else 6


# --- every other semester (shared/RULES.md section 7) ---------------------------------------------


def _bacon_max(cur: int, opp: int) -> tuple[int, str]:
    top = max(tens(opp), ones(opp))
    return top + 1, f"1 + the larger digit of {opp:02d} = {top + 1}"


def _bacon_sp18(cur: int, opp: int) -> tuple[int, str]:
    t, o = tens(opp), ones(opp)
    return 2 + abs(t - o), f"2 + |{t} − {o}| = {2 + abs(t - o)}"


def _bacon_su18(cur: int, opp: int) -> tuple[int, str]:
    t, o = tens(opp), ones(opp)
    return 1 + ones(t * o), f"1 + the last digit of {t}×{o} = {1 + ones(t * o)}"


def _bacon_sp19(cur: int, opp: int) -> tuple[int, str]:
    low = min(tens(opp), ones(opp))
    return 1 + low, f"1 + the smaller digit of {opp:02d} = {1 + low}"


def _bacon_su19(cur: int, opp: int) -> tuple[int, str]:
    low = min(tens(opp), ones(opp))
    return 10 - low, f"10 − the smaller digit of {opp:02d} = {10 - low}"


def _bacon_sp20(cur: int, opp: int) -> tuple[int, str]:
    cube = opp**3
    alternating = abs(sum(d if i % 2 == 0 else -d for i, d in enumerate(digits(cube))))
    return 1 + alternating, f"{opp}³ = {cube}, 1 + |its digits' alternating sum| = {1 + alternating}"


def _bacon_su20(cur: int, opp: int) -> tuple[int, str]:
    t, o = tens(opp), ones(opp)
    return 10 - o + t, f"10 − {o} + {t} = {10 - o + t}"


def _bacon_fa20(cur: int, opp: int) -> tuple[int, str]:
    d = pi_digit(opp)
    where = "pi's whole part" if opp == 0 else f"digit {opp} of pi"
    return 3 + d, f"3 + {where}, {d} = {3 + d}"


def _picky_piggy(cur: int, opp: int) -> tuple[int, str]:
    if opp == 0:
        return 7, "the opponent has 0, so 7 points"
    d = seventh_digit(opp)
    return d, f"digit {opp} of 1/7 = 0.142857… is {d}"


def _pig_tail(cur: int, opp: int) -> tuple[int, str]:
    t, o = tens(opp), ones(opp)
    return 2 * abs(t - o) + 1, f"2×|{t} − {o}| + 1 = {2 * abs(t - o) + 1}"


def _boar_brawl(cur: int, opp: int) -> tuple[int, str]:
    t, o = tens(opp), ones(cur)
    points = max(3 * abs(t - o), 1)
    return points, f"max(3×|{t} − {o}|, 1): their tens digit against your ones digit = {points}"


free_bacon_sp14 = _zero_dice_rule("Free Bacon", _bacon_max, "sp14: 1 + max(tens(opp), ones(opp)).")
free_bacon_sp18 = _zero_dice_rule("Free Bacon", _bacon_sp18, "sp18: 2 + |tens(opp) - ones(opp)|.")
free_bacon_su18 = _zero_dice_rule("Free Bacon", _bacon_su18, "su18: 1 + ones(tens(opp) * ones(opp)).")
free_bacon_sp19 = _zero_dice_rule("Free Bacon", _bacon_sp19, "sp19: 1 + min(tens(opp), ones(opp)).")
free_bacon_su19 = _zero_dice_rule("Free Bacon", _bacon_su19, "su19: 10 - min(tens(opp), ones(opp)).")
free_bacon_sp20 = _zero_dice_rule("Free Bacon", _bacon_sp20, "sp20: 1 + |alternating digit sum of opp**3|.")
free_bacon_su20 = _zero_dice_rule("Free Bacon", _bacon_su20, "su20: 10 - ones(opp) + tens(opp).")
free_bacon_fa20 = _zero_dice_rule("Free Bacon", _bacon_fa20, "fa20: 3 + the opp-th digit of pi (3 for opp 0).")
picky_piggy = _zero_dice_rule("Picky Piggy", _picky_piggy, "fa21: the opp-th digit of 1/7 (7 for opp 0).")
pig_tail = _zero_dice_rule("Pig Tail", _pig_tail, "fa22: 2 * |tens(opp) - ones(opp)| + 1.")
boar_brawl = _zero_dice_rule("Boar Brawl", _boar_brawl, "fa23: max(3 * |tens(opp) - ones(cur)|, 1).")


def _swap_rule(name: str, test: Callable[[int, int], bool], doc: str) -> Rule:
    """A swap of the two totals after the points are added, when ``test(mover's, opponent's)`` holds."""

    def swap(turn: Turn) -> Turn:
        return _swapped(turn, name) if test(turn.cur, turn.opp) else turn

    swap.__name__ = f"{name.lower().replace(' ', '_')}_{doc.split(':')[0]}"
    swap.__doc__ = doc
    return swap


def _shares_a_place(a: int, b: int) -> bool:
    while a > 0 and b > 0:
        if a % 10 == b % 10:
            return True
        a, b = a // 10, b // 10
    return False


def _power_of_three_ends_alike(a: int, b: int) -> bool:
    power = str(3 ** (a + b))
    return power[0] == power[-1]


swine_swap_double = _swap_rule(
    "Swine Swap", lambda a, b: a == 2 * b or b == 2 * a, "sp14: one total is double the other."
)
swine_swap_multiple = _swap_rule(
    "Swine Swap",
    lambda a, b: a > 1 and b > 1 and (a % b == 0 or b % a == 0),
    "fa17: both > 1, one a multiple of the other.",
)
swine_swap_su18 = _swap_rule(
    "Swine Swap", lambda a, b: ones(a) == tens(b), "su18: the mover's ones digit is the other's tens."
)
swine_swap_sp19 = _swap_rule("Swine Swap", _shares_a_place, "sp19: the totals share a digit in some place.")
swine_swap_su19 = _swap_rule(
    "Swine Swap", lambda a, b: lead(a) == ones(b), "su19: the mover's lead digit is the other's ones."
)
swine_swap_fa19 = _swap_rule(
    "Swine Swap", lambda a, b: lead(a) * ones(a) == lead(b) * ones(b), "fa19: lead × ones digit is the same for both."
)
swine_swap_sp20 = _swap_rule(
    "Swine Swap", _power_of_three_ends_alike, "sp20: 3**(a + b) starts and ends with one digit."
)
swine_swap_su20 = _swap_rule(
    "Swine Swap", lambda a, b: abs(ones(a) - ones(b)) == tens(b), "su20: |ones(mover) - ones(other)| == tens(other)."
)


def _extra_turn_rule(name: str, test: Callable[[int, int], bool], doc: str) -> Rule:
    def again(turn: Turn) -> Turn:
        return turn.again(ExtraTurn(name)) if test(turn.cur, turn.opp) else turn

    again.__name__ = name.lower().replace(" ", "_")
    again.__doc__ = doc
    return again


pig_pass = _extra_turn_rule("Pig Pass", lambda cur, opp: 0 < opp - cur < 3, "fa20: behind by 1 or 2, go again.")
swine_align = _extra_turn_rule(
    "Swine Align",
    lambda cur, opp: cur > 0 and opp > 0 and math.gcd(cur, opp) >= 10,
    "fa20: a gcd of 10 or more, go again.",
)


def _mover_gain_rule(name: str, change: Callable[[int, int], tuple[int, str] | None], doc: str) -> Rule:
    """A rule that moves the mover's total after the add: ``change(cur, opp)`` gives the new total and why."""

    def gain(turn: Turn) -> Turn:
        changed = change(turn.cur, turn.opp)
        if changed is None:
            return turn
        total, why = changed
        return turn.totals(total, turn.opp, Gain(name, True, turn.cur, total, why))

    gain.__name__ = f"{name.lower().replace(' ', '_')}_{doc.split(':')[0]}"
    gain.__doc__ = doc
    return gain


def _doubled(cur: int, opp: int) -> tuple[int, str] | None:
    return (2 * cur, f"both totals are {cur}") if cur == opp else None


def _prime_to_next(cur: int, opp: int) -> tuple[int, str] | None:
    """Summer 2022's course code counted 1 as prime: its own fuzz games take a total of 1 to 2."""
    if cur == 1:
        return 2, "1 counts as prime in Summer 2022"
    return (next_prime(cur), f"{cur} is prime") if is_prime(cur) else None


def _square_to_next(cur: int, opp: int) -> tuple[int, str] | None:
    return (next_square(cur), f"{cur} is a perfect square") if is_square(cur) else None


def _sus_to_prime(cur: int, opp: int) -> tuple[int, str] | None:
    n = factor_count(cur)
    return (next_prime(cur), f"{cur} has exactly {n} factors") if n in (3, 4) else None


hog_pile_double = _mover_gain_rule("Hog Pile", _doubled, "fa21: equal totals double the mover's.")
pigs_on_prime = _mover_gain_rule("Pigs on Prime", _prime_to_next, "su22: a prime total becomes the next prime.")
square_swine = _mover_gain_rule("Square Swine", _square_to_next, "fa22: a square total becomes the next square.")
sus_fuss = _mover_gain_rule("Sus Fuss", _sus_to_prime, "fa23: 3 or 4 factors: the next prime.")


def hogtimus_prime_leader(turn: Turn) -> Turn:
    """sp15: a prime sum of unequal totals after the add gives the leader the turn's points again."""
    a, b = turn.cur, turn.opp
    if a == b or not is_prime(a + b):
        return turn
    why = f"{a} + {b} = {a + b} is prime"
    if a > b:
        return turn.totals(a + turn.points, b, Gain("Hogtimus Prime", True, a, a + turn.points, why))
    return turn.totals(a, b + turn.points, Gain("Hogtimus Prime", False, b, b + turn.points, why))


@dataclass(frozen=True)
class FeralHogs:
    """fa19 / sp20 / su20: ``|k - prev| == 2`` gives the mover 3 more points, where ``prev`` is what
    they did on their own previous turn: how many dice they rolled (fa19) or the points those dice
    scored (sp20, su20), 0 before their first turn."""

    remembers: str  # "dice" or "points"

    def __call__(self, turn: Turn) -> Turn:
        if abs(turn.k - turn.prev) != 2:
            return turn
        what = "dice" if self.remembers == "dice" else "points"
        why = f"{turn.k} dice, 2 away from last turn's {turn.prev} {what}"
        return turn.totals(turn.cur + 3, turn.opp, Gain("Feral Hogs", True, turn.cur, turn.cur + 3, why))

    def remember(self, k: int, points: int) -> int:
        """What the next turn of this player compares against."""
        return k if self.remembers == "dice" else points


feral_hogs_dice = FeralHogs("dice")
feral_hogs_points = FeralHogs("points")
