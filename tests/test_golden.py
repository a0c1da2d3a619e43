"""Golden logs: stored games of every rule set replay to the same end, forever.

If one of these fails, a change altered how an old game replays: pin the old behaviour under the
old rule-set version instead of editing the log.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hog_core import events as ev
from hog_core.game import GameState, replay
from hog_core.rulesets import RULE_SETS

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def summary(state: GameState) -> dict[str, Any]:
    return {
        "status": state.status.value,
        "scores": list(state.scores),
        "winner": state.winner,
        "turn_number": state.turn_number,
        "mover": state.mover,
        "chop_used": list(state.chop_used),
        "version": state.version,
    }


def test_every_rule_set_has_golden_logs() -> None:
    assert {p.name.split("-")[0] for p in GOLDEN} == set(RULE_SETS)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_log_replays_to_its_final_state(path: Path) -> None:
    stored = json.loads(path.read_text())
    raw = [json.dumps(e, separators=(",", ":"), ensure_ascii=False).encode() for e in stored["events"]]
    events = [ev.decode(data) for data in raw]
    assert [ev.encode(e) for e in events] == raw  # the serialization itself is stable
    assert summary(replay(events)) == stored["final"]
