"""The solver's tables agree with the engine: every roll of a few dice, enumerated, lands where
``RuleSet.resolve`` says, with the same probability."""

from __future__ import annotations

import itertools
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hog_core.kernel import Kernel
from hog_core.rulesets import RULE_SETS
from hog_core.turn import Turn


def engine_distribution(
    kernel: Kernel, cur: int, opp: int, k: int, turn: int, extra: bool, prev: int = 0
) -> dict[tuple[int, int, bool], float]:
    rules = kernel.rules
    sides = rules.dice_sides(cur, opp, extra)
    rolls = list(itertools.product(range(1, sides + 1), repeat=k))
    out: dict[tuple[int, int, bool], float] = defaultdict(float)
    for roll in rolls:
        turn_ = Turn(cur=cur, opp=opp, k=k, outcomes=roll, turn_number=turn, is_extra=extra, prev=prev)
        done = rules.resolve(turn_)
        out[(done.cur, done.opp, done.extra_turn)] += 1 / len(rolls)
    return out


def kernel_distribution(
    kernel: Kernel, cur: int, opp: int, k: int, turn: int, extra: bool, prev: int = 0
) -> dict[tuple[int, int, bool], float]:
    trot = bool(kernel.time_trot[turn % kernel.turn_period, int(extra), k])
    out: dict[tuple[int, int, bool], float] = defaultdict(float)
    if k == 0:
        moves = [(kernel.zero_dcur[cur, opp], kernel.zero_dopp[cur, opp], 1.0)]
    else:
        table = kernel.outcomes[int(kernel.sides[int(extra), cur, opp])]
        moves = [(table.dcur[i], table.dopp[i], table.prob[i]) for i in range(len(table.k)) if table.k[i] == k]
    for dcur, dopp, p in moves:
        c, o = cur + dcur, opp + dopp
        if kernel.direct:  # the landing read by the turn's points, the mover's bonus from their memory
            plane = int(dcur) if kernel.reads_points else 0
            c += int(kernel.bonus[min(prev, kernel.bonus.shape[0] - 1), k])
            land_cur, land_opp = kernel.land_by_points
            out[(int(land_cur[plane, c, o]), int(land_opp[plane, c, o]), trot)] += p
            continue
        landed = (int(kernel.land_cur[c, o]), int(kernel.land_opp[c, o]), bool(kernel.land_extra[c, o]) or trot)
        out[landed] += p
    return out


@settings(max_examples=150, deadline=None)
@given(
    rules=st.sampled_from(sorted(RULE_SETS)),
    cur=st.integers(0, 99),
    opp=st.integers(0, 99),
    k=st.integers(0, 3),
    turn=st.integers(0, 15),
    extra=st.booleans(),
    prev=st.integers(0, 10),
)
def test_kernel_matches_the_engine_roll_by_roll(
    kernels: dict[str, Kernel], rules: str, cur: int, opp: int, k: int, turn: int, extra: bool, prev: int
) -> None:
    kernel = kernels[rules]
    extra = extra and kernel.extra_layers
    prev = prev if kernel.history is not None else 0
    engine = engine_distribution(kernel, cur, opp, k, turn, extra, prev)
    tabled = kernel_distribution(kernel, cur, opp, k, turn, extra, prev)
    assert engine.keys() == tabled.keys()
    for outcome, p in engine.items():
        assert tabled[outcome] == pytest.approx(p, abs=1e-12)


@pytest.mark.parametrize("rules", sorted(RULE_SETS))
def test_every_roll_distribution_sums_to_one(kernels: dict[str, Kernel], rules: str) -> None:
    for table in kernels[rules].outcomes.values():
        for k in range(1, 11):
            assert table.prob[table.k == k].sum() == pytest.approx(1.0, abs=1e-12)


def test_layers_of_each_rule_set(kernels: dict[str, Kernel]) -> None:
    assert {rules: len(k.layers) for rules, k in kernels.items()} == {
        **dict.fromkeys(("sp14", "sp15", "su15", "sp16", "fa17", "sp18", "su18", "fa18", "sp19", "su19"), 1),
        **dict.fromkeys(("fa20", "sp21", "fa21", "sp22", "su22", "fa22", "fa23"), 1),
        "porkchop": 4,
        "fa17_contest": 16,  # turn mod 8, the extra-turn flag
        "fa18_contest": 10,  # turn mod 5, the extra-turn flag
        "contest": 16,
        "fa19": 121,  # each player's dice last turn, 0 to 10
        "sp20": 196,  # each player's points last turn, 0 to 12 and 13 or more
        "su20": 196,
    }
    assert kernels["sp22"].zero_loops.any() and not kernels["fa18"].zero_loops.any()
