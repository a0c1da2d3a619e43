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
