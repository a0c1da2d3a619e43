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
    kernel: Kernel, cur: int, opp: int, k: int, turn: int, extra: bool
) -> dict[tuple[int, int, bool], float]:
    rules = kernel.rules
    sides = rules.dice_sides(cur, opp, extra)
    rolls = list(itertools.product(range(1, sides + 1), repeat=k))
    out: dict[tuple[int, int, bool], float] = defaultdict(float)
    for roll in rolls:
        done = rules.resolve(Turn(cur=cur, opp=opp, k=k, outcomes=roll, turn_number=turn, is_extra=extra))
        out[(done.cur, done.opp, done.extra_turn)] += 1 / len(rolls)
    return out


def kernel_distribution(
    kernel: Kernel, cur: int, opp: int, k: int, turn: int, extra: bool
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
)
def test_kernel_matches_the_engine_roll_by_roll(
    kernels: dict[str, Kernel], rules: str, cur: int, opp: int, k: int, turn: int, extra: bool
) -> None:
    kernel = kernels[rules]
    extra = extra and kernel.extra_layers
    engine = engine_distribution(kernel, cur, opp, k, turn, extra)
    tabled = kernel_distribution(kernel, cur, opp, k, turn, extra)
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
        "fa18": 1,
        "sp22": 1,
        "sp16": 1,
        "porkchop": 4,
        "sp21": 1,
        "contest": 16,
    }
    assert kernels["sp22"].zero_loops.any() and not kernels["fa18"].zero_loops.any()
