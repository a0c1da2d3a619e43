"""``python -m bot rules ID`` and ``/hog rules``: every rule set in words, each of its rules named, with
examples the engine plays (a rule set of one's own with its semester's examples)."""

from __future__ import annotations

import pytest

from bot.games.hog.rules_help import EXAMPLES, RULE_WORDS, explain
from hog_core.rulesets import RULE_SETS


@pytest.mark.parametrize("rules", [*RULE_SETS, "fa23+time_trot", "sp21~more_boar"])
def test_every_rule_set_is_explained_with_examples_the_engine_plays(rules: str) -> None:
    title, text = explain(rules)
    rs = RULE_SETS[rules]
    assert title == rs.name and text.count("\n> ") == len(EXAMPLES[rules.split("+")[0].split("~")[0]]) >= 2
    for rule in rs.rules:
        if rule in RULE_WORDS:
            assert RULE_WORDS[rule] in text
    assert "Now Ada has" in text


def test_every_rule_of_every_semester_has_its_words() -> None:
    from hog_core import rules as r

    assert all(rule in RULE_WORDS for rs in RULE_SETS.values() for rule in rs.rules if rule is not r.add_points)
