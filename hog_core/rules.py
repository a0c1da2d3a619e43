"""The named rules of every rule set, each a small function of one turn.

Rule sets (``hog_core.rulesets``) compose these in order; see ``shared/RULES.md``.
"""

from __future__ import annotations

from hog_core.digits import digits, is_prime, leading_pair, next_prime, ones, tens
from hog_core.effects import ExtraTurn, HogPile, PiggyBack, PigOut, PrimeBoost, Swap, ZeroDice
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


def free_bacon(turn: Turn) -> Turn:
    """fa18: ``max(2 * tens(opp) - ones(opp), 1)``."""
    if turn.k != 0:
        return turn
    t, o = tens(turn.opp), ones(turn.opp)
    points = max(2 * t - o, 1)
    return turn.scored(points, ZeroDice("Free Bacon", points, f"max(2×{t} − {o}, 1) = {points}"))


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


def time_trot(turn: Turn) -> Turn:
    """contest: ``k`` dice on turn ``n`` with ``n % 8 == k`` grant another turn, not after an extra turn."""
    if turn.is_extra or turn.extra_turn or turn.turn_number % 8 != turn.k:
        return turn
    return turn.again(ExtraTurn("Time Trot"))


# --- how many sides the dice have ----------------------------------------------------------------


def six_sided(cur: int, opp: int, is_extra: bool) -> int:
    return 6


def hog_wild(cur: int, opp: int, is_extra: bool) -> int:
    """sp16 / porkchop: four-sided dice when the totals sum to a multiple of 7."""
    return 4 if (cur + opp) % 7 == 0 else 6


def eight_sided_extra_turns(cur: int, opp: int, is_extra: bool) -> int:
    """contest: every extra turn rolls eight-sided dice."""
    return 8 if is_extra else 6
