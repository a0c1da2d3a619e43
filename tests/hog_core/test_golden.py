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

GOLDEN_DIR = Path(__file__).parent / "golden"
GOLDEN = sorted(GOLDEN_DIR.glob("*.json"))


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


def load(path: Path) -> list[ev.Event]:
    """A golden log's events, each decoded (and upcast) from the schema version it was stored at."""
    return [
        ev.decode(json.dumps(e["data"]), type_name=e["data"]["type"], version=e["v"])
        for e in json.loads(path.read_text())["events"]
    ]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_log_replays_to_its_final_state(path: Path) -> None:
    stored = json.loads(path.read_text())
    events = load(path)
    assert summary(replay(events)) == stored["final"]
    for entry, event in zip(stored["events"], events, strict=True):  # the serialization is stable
        if entry["v"] == type(event).VERSION:
            assert ev.encode(event) == json.dumps(entry["data"], separators=(",", ":"), ensure_ascii=False).encode()
