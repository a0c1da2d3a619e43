"""Every worked example of the seeds' rule text and of RULES.md, per rule set."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from hog_core.digits import digits, leading_pair, next_prime
from hog_core.effects import ExtraTurn, HogPile, PiggyBack, PigOut, PrimeBoost, Swap, ZeroDice
from hog_core.rules import hefty_hogs_points, hog_wild
from hog_core.rulesets import PORKCHOP
from hog_core.turn import Turn
from tests.helpers import move, new_game, one_turn

# --- fa18 (seed 000) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("outcomes", "points"),
    [((1, 1, 1, 1, 1, 2, 3), 1), ((3, 3, 3, 3), 12)],
)
def test_fa18_pig_out_examples(outcomes: tuple[int, ...], points: int) -> None:
    turn = one_turn("fa18", 0, 50, len(outcomes), outcomes)
    assert turn.points == points


@pytest.mark.parametrize(("opp", "points"), [(46, 2), (73, 11), (27, 1), (7, 1)])
def test_fa18_free_bacon_examples(opp: int, points: int) -> None:
    turn = one_turn("fa18", 30, opp, 0)
    assert turn.points == points
    assert isinstance(turn.effects[0], ZeroDice) and turn.effects[0].rule == "Free Bacon"


@pytest.mark.parametrize(
    ("cur", "opp", "roll", "after"),
    [
        ((41, 83, (4, 4), (83, 49))),
        ((41, 5, (2, 3, 3), (5, 49))),
        ((35, 5, (2, 3, 3), (43, 5))),
        ((0, 0, (3, 4, 4), (0, 11))),
        ((96, 48, (4, 4), (48, 104))),  # RULES.md: a swap even past the goal
    ],
)
def test_fa18_swine_swap_examples(cur: int, opp: int, roll: tuple[int, ...], after: tuple[int, int]) -> None:
    turn = one_turn("fa18", cur, opp, len(roll), roll)
    assert (turn.cur, turn.opp) == after
    swapped = any(isinstance(e, Swap) for e in turn.effects)
    assert swapped == (after != (cur + sum(roll), opp))


def test_fa18_swap_past_goal_makes_the_opponent_win() -> None:
    state, _ = new_game("fa18")
    state = move(replace(state, scores=(96, 48)), 2, 4, 4)
    assert state.scores == (48, 104)
    assert state.winner == 1


# --- sp22 (seed 001) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cur", "opp", "points"),
    [(5, 123, 9), (5, 456, 29), (3, 56, 0), (4, 12, 24), (10, 32, 7), (7, 0, 1), (33, 5439, 3)],
)
def test_sp22_hefty_hogs_examples(cur: int, opp: int, points: int) -> None:
    assert hefty_hogs_points(cur, opp) == points
    assert one_turn("sp22", cur, opp, 0).points == points


def test_sp22_hefty_hogs_seed_example_is_f3_of_f2() -> None:
    # f2(10) = 30, f3(30) = 7
    turn = one_turn("sp22", 10, 32, 0)
    assert turn.points == 7
    effect = turn.effects[0]
    assert isinstance(effect, ZeroDice) and effect.why == (
        "10 through the digits of 32, ones first: 2: ×3 → 30, 3: ÷4 down → 7; mod 30 → 7"
    )


def test_sp22_sow_sad() -> None:
    assert one_turn("sp22", 0, 50, 7, (1, 1, 1, 1, 1, 2, 3)).points == 1
    assert one_turn("sp22", 0, 50, 4, (3, 3, 3, 3)).points == 12


def test_sp22_hog_pile_seed_example() -> None:

    state, _ = new_game("sp22")
    state = move(state, 2, 2, 3)
    assert state.scores == (5, 0)
    state = move(state, 1, 5)
    assert state.scores == (5, 10)
    assert state.last_turn is not None and HogPile(5) in state.last_turn.resolution.effects
    state = move(state, 2, 3, 3)
    assert state.scores == (11, 10)
    state = move(state, 8, 1, 2, 2, 2, 2, 2, 2, 2)
    assert state.scores == (11, 12)


def test_sp22_hog_pile_of_zero_adds_nothing() -> None:
    turn = one_turn("sp22", 4, 20, 2, (3, 3))
    assert (turn.cur, turn.effects) == (10, ())


# --- sp16 and porkchop (seed 003) --------------------------------------------------------------


def test_sp16_pig_out_scores_zero_and_piggy_back_gives_k() -> None:
    turn = one_turn("sp16", 10, 20, 3, (1, 5, 1))
    assert turn.points == 0
    assert (turn.cur, turn.opp) == (10, 23)
    assert PiggyBack(3) in turn.effects
    assert PigOut("Pig Out", 0, 2) in turn.effects


@pytest.mark.parametrize(("opp", "bacon"), [(42, 5), (48, 9), (7, 8), (0, 1)])
def test_sp16_free_bacon_examples(opp: int, bacon: int) -> None:
    turn = one_turn("sp16", 1, opp, 0)
    first = turn.effects[0]
    assert isinstance(first, ZeroDice) and first.points == bacon
    # Hogtimus Prime applies to Free Bacon too: 5 -> 7, 9 stays, 8 stays, 1 stays
    assert turn.points == (next_prime(bacon) if bacon in (2, 3, 5, 7) else bacon)


def test_sp16_hogtimus_prime_19_becomes_23() -> None:
    turn = one_turn("sp16", 0, 50, 4, (4, 5, 5, 5))
    assert turn.points == 23
    assert PrimeBoost(19, 23) in turn.effects


@pytest.mark.parametrize(
    ("cur", "opp", "sides"), [(0, 0, 4), (7, 7, 4), (10, 11, 4), (20, 15, 4), (3, 3, 6), (50, 1, 6)]
)
def test_sp16_hog_wild_picks_four_sided_dice(cur: int, opp: int, sides: int) -> None:

    assert hog_wild(cur, opp, False) == sides


def test_sp16_opening_turn_rolls_d4() -> None:
    state, _ = new_game("sp16")
    assert state.dice_for(3).sides == 4


@pytest.mark.parametrize(("a", "b"), [(2, 20), (55, 55), (114, 41), (41, 14)])
def test_sp16_swine_swap_reversed_digits(a: int, b: int) -> None:
    # the mover reaches ``a`` with one die showing 4 (not prime, so no Hogtimus Prime)
    turn = one_turn("sp16", a - 4, b, 1, (4,))
    assert (turn.cur, turn.opp) == (b, a)


def test_sp16_no_swap_for_non_reversed() -> None:
    turn = one_turn("sp16", 8, 31, 1, (4,))
    assert (turn.cur, turn.opp) == (12, 31)


def test_porkchop_swaps_once_then_plays_as_ten_dice() -> None:

    state, _ = new_game("porkchop")
    state = move(state, 2, 3, 3)  # Alice 0 + 6 -> 6 (d4 at 0-0)
    assert state.scores == (6, 0)
    assert -1 in state.legal_moves()
    state = move(state, -1)  # Bob chops: 0 <-> 6
    assert state.scores == (0, 6)
    assert state.chop_used == (False, True)
    state = move(state, 1, 4)  # Alice 0 + 4 = 4
    assert state.dice_for(-1).count == 10
    assert -1 not in state.legal_moves()
    state = move(state, -1, *(2,) * 10)  # Bob's second chop is 10 dice: 20 -> prime? no, 6 + 20 = 26
    assert state.scores == (4, 26)


def test_porkchop_has_no_piggy_back_and_no_swine_swap_check() -> None:
    # 12 vs 21 are reversed digits: a Swine Swap check after the chop would swap them back
    chop = PORKCHOP.resolve(Turn(cur=12, opp=21, k=-1, outcomes=()), chop=True)
    assert (chop.cur, chop.opp) == (21, 12)
    assert [type(e) for e in chop.effects] == [Swap]


# --- sp21 and contest (seed 004) ---------------------------------------------------------------


@pytest.mark.parametrize(("opp", "points"), [(0, 3), (12, 4), (9, 4), (5, 5), (30, 3), (88, 7)])
def test_sp21_piggy_points(opp: int, points: int) -> None:
    # 12² = 144 -> 1; 9² = 81 -> 1; 5² = 25 -> 2; 30² = 900 -> 0; 88² = 7744 -> 4
    assert one_turn("sp21", 50, opp, 0).points == points


@pytest.mark.parametrize(
    ("cur_before", "roll", "opp", "again"),
    [
        (200, (9,), 980, True),  # 209 vs 980: 2<9 and 0<8
        (2, (4,), 17, True),  # 06 vs 17
        (10, (4,), 25, True),  # 14 vs 25
        (10, (5,), 25, False),  # 15 vs 25: 5 is not < 5
        (10, (4,), 14, False),
        (30, (5,), 46, True),  # 35 vs 46
        (90, (5,), 100, False),  # 95 vs 10(0): 9 is not < 1
    ],
)
def test_sp21_more_boar(cur_before: int, roll: tuple[int, ...], opp: int, again: bool) -> None:
    turn = one_turn("sp21", cur_before, opp, len(roll), roll)
    assert turn.extra_turn is again
    assert (ExtraTurn("More Boar") in turn.effects) is again


def test_more_boar_uses_two_leading_digits() -> None:
    assert leading_pair(209) == (2, 0)
    assert leading_pair(6) == (0, 6)
    assert digits(5439) == (9, 3, 4, 5)


def test_sp21_more_boar_extra_turns_chain_on_six_sided_dice() -> None:

    state, _ = new_game("sp21")
    state = move(state, 1, 6)  # Alice 6 vs 0: no extra turn
    state = move(state, 2, 6, 6)  # Bob 12 vs 6: no
    state = move(state, 1, 4)  # Alice 10 vs 12: 1<1 fails
    assert state.mover == 1
    state = move(state, 3, 6, 6, 6)  # Bob 30
    state = move(state, 1, 2)  # Alice 12 vs 30: 1<3 and 2<0 fails
    state = move(state, 4, 5, 5, 5, 5)  # Bob 50
    state = move(state, 1, 5)  # Alice 17 vs 50: 1<5, 7<0 no
    state = move(state, 5, 6, 6, 6, 6, 6)  # Bob 80
    state = move(state, 2, 3, 3)  # Alice 23 vs 80: 2<8, 3<0 no
    state = move(state, 1, 1)  # Bob 81
    state = move(state, 2, 2, 2)  # Alice 27 vs 81: 2<8 and 7<1 no
    state = move(state, 0)  # Bob: 81 + 3 + min digit 27² = 729 -> 2 -> 86
    assert state.scores == (27, 86)
    state = move(state, 1, 5)  # Alice 32 vs 86: 3<8 and 2<6: extra turn
    assert state.mover == 0 and state.is_extra
    assert state.sides() == 6  # sp21 has no eight-sided extra turns
    state = move(state, 1, 2)  # Alice 34 vs 86: extra turn again (chains)
    assert state.mover == 0


def test_contest_time_trot_and_eight_sided_extra_turns() -> None:

    state, _ = new_game("contest")
    state = move(state, 0)  # turn 0, k 0: Time Trot; Alice 3 vs 0
    assert state.mover == 0 and state.is_extra
    assert state.last_turn is not None and ExtraTurn("Time Trot") in state.last_turn.resolution.effects
    assert state.dice_for(1).sides == 8
    state = move(state, 1, 8)  # turn 1, k 1, an extra turn: no Time Trot; 11 vs 0: no More Boar
    assert state.mover == 1 and not state.is_extra
    assert state.dice_for(2).sides == 6
    state = move(state, 3, 2, 2, 2)  # turn 2, k 3: no; Bob 6 vs 11: 0<1 and 6<1 no
    assert state.mover == 0
    state = move(state, 3, 2, 2, 2)  # turn 3, k 3: Time Trot; Alice 17 vs 6
    assert state.mover == 0 and state.is_extra


def test_contest_more_boar_after_an_extra_turn() -> None:
    # an extra turn (is_extra) can still earn More Boar: 06 vs 17
    turn = one_turn("contest", 2, 17, 1, (4,), turn_number=1, is_extra=True)
    assert turn.extra_turn
    assert turn.effects == (ExtraTurn("More Boar"),)


def test_contest_both_rules_give_one_extra_turn() -> None:
    turn = one_turn("contest", 2, 17, 1, (4,), turn_number=9)
    assert turn.effects == (ExtraTurn("More Boar"),)
