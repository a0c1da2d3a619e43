"""What a Hog game gives the read models: its seats' totals and results, its rules and goal, and
each seat's biggest turn."""

from __future__ import annotations

from bot.games.hog.summary import summarize
from hog_core.game import Forfeit, VoidGame, decide
from tests.helpers import ALICE, move, new_game


def test_a_finished_game_tells_each_seat_its_result_and_best_turn() -> None:
    state, log = new_game(rules="sp21", goal=50)
    state = move(state, 3, 6, 6, 6, log=log)  # Alice: 18
    state = move(state, 1, 4, log=log)
    log += decide(state, Forfeit(ALICE.id))
    summary = summarize(log)
    assert (summary.game, summary.status, summary.live) == ("hog", "finished", False)
    assert summary.fields == {"rules": "sp21", "goal": "50"}
    assert [(s.player_id, s.score, s.result, s.facts["turn"]) for s in summary.seats] == [
        ("a", state.scores[0], "loss", 18),
        ("b", state.scores[1], "win", 4),
    ]


def test_a_game_called_off_counts_for_nobody() -> None:
    state, log = new_game(challenge=True)
    summary = summarize([*log, *decide(state, VoidGame())])
    assert summary.status == "voided" and not summary.live
    assert [s.result for s in summary.seats] == [None, None]
