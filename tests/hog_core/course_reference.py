"""Course-style reference implementations of each semester's ``play``, written as the course's
``hog.py`` was (roll_dice, take_turn, is_swap, a while loop) straight from shared/RULES.md.

They share no code with ``hog_core``: the tests play both on the same dice and strategies and
expect the same final scores.
"""

from __future__ import annotations

from collections.abc import Callable

Strategy = Callable[[int, int], int]
Dice = Callable[[int], int]


def _digits(n: int) -> list[int]:
    return [int(c) for c in str(n)][::-1]


def _roll(k: int, dice: Dice, sides: int, pig_out_points: int) -> int:
    outcomes = [dice(sides) for _ in range(k)]
    return pig_out_points if 1 in outcomes else sum(outcomes)


def _is_prime(n: int) -> bool:
    return n > 1 and all(n % f for f in range(2, n))


def play_fa18(s0: Strategy, s1: Strategy, dice: Dice, goal: int = 100) -> tuple[int, int]:
    def take_turn(k: int, opp: int) -> int:
        if k == 0:
            return max(2 * (opp // 10 % 10) - opp % 10, 1)
        return _roll(k, dice, 6, 1)

    def is_swap(a: int, b: int) -> bool:
        return abs(a // 10 % 10 - a % 10) == abs(b // 10 % 10 - b % 10)

    score = [0, 0]
    who = 0
    strategies = (s0, s1)
    while score[0] < goal and score[1] < goal:
        score[who] += take_turn(strategies[who](score[who], score[1 - who]), score[1 - who])
        if is_swap(score[0], score[1]):
            score.reverse()
        who = 1 - who
    return score[0], score[1]


def hefty_hogs(cur: int, opp: int) -> int:
    fs: dict[int, Callable[[int], int]] = {
        0: lambda v: v + 1,
        1: lambda v: v**2,
        2: lambda v: v * 3,
        3: lambda v: v // 4,
        4: lambda v: v - 5,
        5: lambda v: v % 6,
        6: lambda v: int((v % 7) * 8),
        7: lambda v: int(v * 8.8),
        8: lambda v: int(v / 99 * 15) + 10,
        9: lambda v: v,
    }
    if opp == 0:
        return 1
    v = cur
    for d in _digits(opp):
        v = fs[d](v)
    return v % 30


def play_sp22(s0: Strategy, s1: Strategy, dice: Dice, goal: int = 100, cap: int = 1000) -> tuple[int, int]:
    score = [0, 0]
    who = 0
    strategies = (s0, s1)
    turns = 0
    while score[0] < goal and score[1] < goal and turns < cap:
        cur, opp = score[who], score[1 - who]
        k = strategies[who](cur, opp)
        cur += hefty_hogs(cur, opp) if k == 0 else _roll(k, dice, 6, 1)
        if cur % 10 == opp % 10:
            cur += cur % 10
        score[who] = cur
        who = 1 - who
        turns += 1
    return score[0], score[1]


def play_sp16(s0: Strategy, s1: Strategy, dice: Dice, goal: int = 100, pork_chop: bool = False) -> tuple[int, int]:
    score = [0, 0]
    chopped = [False, False]
    who = 0
    strategies = (s0, s1)
    while score[0] < goal and score[1] < goal:
        cur, opp = score[who], score[1 - who]
        sides = 4 if (cur + opp) % 7 == 0 else 6
        k = strategies[who](cur, opp)
        if pork_chop and k == -1 and not chopped[who]:
            chopped[who] = True
            cur, opp = opp, cur
        else:
            if k == -1:
                k = 10
            pts = 1 + max(_digits(opp)) if k == 0 else _roll(k, dice, sides, 0)
            if _is_prime(pts):
                pts += 1
                while not _is_prime(pts):
                    pts += 1
            if pts == 0:
                opp += k
            cur += pts
            if cur // 10 % 10 == opp % 10 and cur % 10 == opp // 10 % 10:
                cur, opp = opp, cur
        score[who], score[1 - who] = cur, opp
        who = 1 - who
    return score[0], score[1]


def play_sp21(s0: Strategy, s1: Strategy, dice: Dice, goal: int = 100, contest: bool = False) -> tuple[int, int]:
    def lead2(n: int) -> str:
        return str(n).zfill(2)[:2]

    score = [0, 0]
    who = 0
    strategies = (s0, s1)
    turn = 0
    extra = False
    while score[0] < goal and score[1] < goal:
        cur, opp = score[who], score[1 - who]
        k = strategies[who](cur, opp)
        sides = 8 if contest and extra else 6
        if k == 0:
            cur += 3 + min(_digits(opp**2))
        else:
            cur += _roll(k, dice, sides, 1)
        a, b = lead2(cur), lead2(opp)
        again = a[0] < b[0] and a[1] < b[1]
        if contest and not extra and turn % 8 == k:
            again = True
        score[who] = cur
        turn += 1
        extra = again
        if not again:
            who = 1 - who
    return score[0], score[1]


PLAYS: dict[str, Callable[[Strategy, Strategy, Dice, int], tuple[int, int]]] = {
    "fa18": play_fa18,
    "sp22": lambda s0, s1, dice, goal: play_sp22(s0, s1, dice, goal, cap=10 * goal),
    "sp16": play_sp16,
    "porkchop": lambda s0, s1, dice, goal: play_sp16(s0, s1, dice, goal, pork_chop=True),
    "sp21": play_sp21,
    "contest": lambda s0, s1, dice, goal: play_sp21(s0, s1, dice, goal, contest=True),
}


# --- every other semester, from shared/RULES.md section 7, one turn at a time ------------------------

PI = "31415926535897932384626433832795028841971693993751058209749445923078164062862089986280348253421170679"


def _tens(n: int) -> int:
    return n // 10 % 10


def _lead(n: int) -> int:
    return int(str(n)[0])


def _next_prime(n: int) -> int:
    n += 1
    while not _is_prime(n):
        n += 1
    return n


def _factors(n: int) -> int:
    return sum(1 for f in range(1, n + 1) if n % f == 0)


def _sp19_swap(a: int, b: int) -> bool:
    while a > 0 and b > 0:
        if a % 10 == b % 10:
            return True
        a, b = a // 10, b // 10
    return False


def _sp20_bacon(opp: int) -> int:
    ds = [int(c) for c in str(opp**3)]
    return 1 + abs(sum(-d if i % 2 else d for i, d in enumerate(ds)))


BACON: dict[str, Callable[[int, int], int]] = {
    "sp14": lambda cur, opp: 1 + max(_tens(opp), opp % 10),
    "sp18": lambda cur, opp: 2 + abs(_tens(opp) - opp % 10),
    "su18": lambda cur, opp: 1 + (_tens(opp) * (opp % 10)) % 10,
    "sp19": lambda cur, opp: 1 + min(_tens(opp), opp % 10),
    "su19": lambda cur, opp: 10 - min(_tens(opp), opp % 10),
    "sp20": lambda cur, opp: _sp20_bacon(opp),
    "su20": lambda cur, opp: 10 - opp % 10 + _tens(opp),
    "fa20": lambda cur, opp: 3 + int(PI[opp]),
    "fa21": lambda cur, opp: 7 if opp == 0 else int("142857"[(opp - 1) % 6]),
    "fa18": lambda cur, opp: max(2 * _tens(opp) - opp % 10, 1),
    "fa22": lambda cur, opp: 2 * abs(_tens(opp) - opp % 10) + 1,
    "fa23": lambda cur, opp: max(3 * abs(_tens(opp) - cur % 10), 1),
}
SWAP: dict[str, Callable[[int, int], bool]] = {
    "sp14": lambda a, b: a == 2 * b or b == 2 * a,
    "su15": lambda a, b: _tens(a) == b % 10 and a % 10 == _tens(b),
    "fa17": lambda a, b: a > 1 and b > 1 and (a % b == 0 or b % a == 0),
    "su18": lambda a, b: a % 10 == _tens(b),
    "fa18": lambda a, b: abs(_tens(a) - a % 10) == abs(_tens(b) - b % 10),
    "sp19": _sp19_swap,
    "su19": lambda a, b: _lead(a) == b % 10,
    "fa19": lambda a, b: _lead(a) * (a % 10) == _lead(b) * (b % 10),
    "sp20": lambda a, b: str(3 ** (a + b))[0] == str(3 ** (a + b))[-1],
    "su20": lambda a, b: abs(a % 10 - b % 10) == _tens(b),
}
SEMESTERS: dict[str, tuple[str, str | None, bool]] = {
    # id: (Free Bacon of, Swine Swap of, Hog Wild)
    "sp14": ("sp14", "sp14", True),
    "sp15": ("sp14", None, True),
    "su15": ("sp14", "su15", True),
    "fa17": ("sp14", "fa17", False),
    "fa17_contest": ("sp14", "fa17", False),
    "sp18": ("sp18", "fa17", False),
    "su18": ("su18", "su18", False),
    "fa18_contest": ("fa18", "fa18", False),
    "sp19": ("sp19", "sp19", False),
    "su19": ("su19", "su19", False),
    "fa19": ("su19", "fa19", False),
    "sp20": ("sp20", "sp20", False),
    "su20": ("su20", "su20", False),
    "fa20": ("fa20", None, False),
    "fa21": ("fa21", None, False),
    "su22": ("fa18", None, False),
    "fa22": ("fa22", None, False),
    "fa23": ("fa23", None, False),
}
TROT = {"fa17_contest": 8, "fa18_contest": 5}


def turns_of(rules: str, s0: Strategy, s1: Strategy, dice: Dice, goal: int = 100) -> list[tuple[int, int]]:
    """Both totals after every turn of a game of ``rules`` (one of ``SEMESTERS``), played course-style."""
    bacon, swap_of, wild = SEMESTERS[rules]
    score, prev, who, turn, extra = [0, 0], [0, 0], 0, 0, False
    strategies = (s0, s1)
    seen = []
    while score[0] < goal and score[1] < goal and turn < 10 * goal:
        cur, opp = score[who], score[1 - who]
        k = strategies[who](cur, opp)
        sides = 4 if wild and (cur + opp) % 7 == 0 else 6
        pts = BACON[bacon](cur, opp) if k == 0 else _roll(k, dice, sides, 1)
        cur += pts
        if rules == "fa19" and abs(k - prev[who]) == 2:
            cur += 3
        if rules in ("sp20", "su20") and abs(k - prev[who]) == 2:
            cur += 3
        prev[who] = k if rules == "fa19" else pts
        again = False
        if rules == "sp15" and cur != opp and _is_prime(cur + opp):
            if cur > opp:
                cur += pts
            else:
                opp += pts
        if rules == "fa20":
            again = 0 < opp - cur < 3 or (cur > 0 and opp > 0 and __import__("math").gcd(cur, opp) >= 10)
        if rules == "fa21" and cur == opp:
            cur *= 2
        if rules == "su22" and (_is_prime(cur) or cur == 1):  # the course's own fuzz games: 1 -> 2
            cur = _next_prime(cur)
        if rules == "fa22" and int(cur**0.5) ** 2 == cur:
            cur = (int(cur**0.5) + 1) ** 2
        if rules == "fa23" and _factors(cur) in (3, 4):
            cur = _next_prime(cur)
        if swap_of is not None and SWAP[swap_of](cur, opp):
            cur, opp = opp, cur
        if rules in TROT and not extra and turn % TROT[rules] == k:
            again = True
        score[who], score[1 - who] = cur, opp
        seen.append((score[0], score[1]))
        turn += 1
        extra = again
        if not again:
            who = 1 - who
    return seen


def _final(rules: str) -> Callable[[Strategy, Strategy, Dice, int], tuple[int, int]]:
    return lambda s0, s1, dice, goal: turns_of(rules, s0, s1, dice, goal)[-1]


PLAYS.update({rules: _final(rules) for rules in SEMESTERS})
