"""A rule set of one's own: one of the six with some of its rules turned off (the course's toggles),
found by an id that says so, played, replayed and solved exactly like the six."""

from __future__ import annotations

import itertools

import pytest

from hog_core.effects import Swap
from hog_core.errors import InvalidGame
from hog_core.events import Player
from hog_core.game import CreateGame, GameState, decide, evolve, replay
from hog_core.kernel import Kernel
from hog_core.rulesets import RULE_SETS, rule_set, toggles, without
from hog_core.solver import sweep
from hog_core.turn import Turn


@pytest.mark.parametrize("base", sorted(RULE_SETS))
def test_every_subset_of_every_rule_sets_toggles_is_a_rule_set_found_again_by_its_id(base: str) -> None:
    keys = [key for key, _ in toggles(RULE_SETS[base])]
    assert keys, base
    for n in range(1, len(keys) + 1):
        for off in itertools.combinations(keys, n):
            own = without(base, frozenset(off))
            assert rule_set(own.id) is rule_set(own.id) and rule_set(own.id).rules == own.rules
            assert own.id not in RULE_SETS and own.version == RULE_SETS[base].version  # listed: the six only
            assert all(name in own.name for key, name in toggles(RULE_SETS[base]) if key in off)
            if n in (1, len(keys)):
                Kernel(own, 100)  # solvable: no move that scores nothing moves the totals for ever


@pytest.mark.parametrize(
    "rules_id",
    [
        "fa18~nothing",
        "fa18~more_boar",
        "nope~swine_swap",
        "fa18~free_bacon",
        "fa18~swine_swap~swine_swap",
        "sp16~hog_wild~swine_swap",
    ],
)
def test_an_id_that_names_no_rule_set_of_ones_own_is_refused(rules_id: str) -> None:
    with pytest.raises(KeyError):
        rule_set(rules_id)
    with pytest.raises(InvalidGame, match="Unknown rule set"):
        decide(GameState(), CreateGame("g", (Player("a", "A"), Player("b", "B")), rules=rules_id))


def test_fall_2018_without_swine_swap_never_swaps_and_is_solved_for_it() -> None:
    own = rule_set("fa18~swine_swap")
    swapping = Turn(cur=9, opp=40, k=3, outcomes=(2, 2, 2))  # fa18: 15 and 40 swap (|1 - 5| = |4 - 0|)
    assert any(isinstance(e, Swap) for e in RULE_SETS["fa18"].resolve(swapping).effects)
    assert not any(isinstance(e, Swap) for e in own.resolve(swapping).effects)
    fa18, mine = sweep(Kernel(RULE_SETS["fa18"], 100)), sweep(Kernel(own, 100))
    assert abs(float(fa18.value_a[0, 0, 0]) - float(mine.value_a[0, 0, 0])) > 1e-4  # another game, solved
    events = list(decide(GameState(), CreateGame("g", (Player("a", "A"), Player("b", "B")), rules=own.id)))
    assert replay(events).rules is own and evolve(GameState(), events[0]).rules.id == "fa18~swine_swap"
