"""The terminal game, driven through its input like a person at a keyboard."""

from __future__ import annotations

import io
import subprocess
import sys

from bot.cli import main
from bot.console import play
from hog_core.game import GameState, Status


def fives(state: GameState, k: int) -> tuple[int, ...]:
    return (5,) * state.dice_for(k).count


def test_a_full_game_with_bad_input_along_the_way() -> None:
    out = io.StringIO()
    state = play(io.StringIO("x\n11\n-1\n" + "3\n" * 20), out, dice=fives, goal=40)
    text = out.getvalue()
    assert "'x' is not a number of dice." in text
    assert "Choose between 0 and 10 dice, not 11." in text
    assert "There is no Pork Chop in fa18" in text
    assert state.status is Status.FINISHED
    # You roll 15 a turn, the house 20: 15-0, 15-20, 30-20, 30-40 -> the house wins
    assert state.scores == (30, 40) and state.winner == 1
    assert text.rstrip().endswith("The house wins.")
    assert "Player rolls 5, 5, 5 for 15." in text
    assert "The house takes the lead by 5" in text


def test_quit_leaves_the_game_unfinished() -> None:
    out = io.StringIO()
    state = play(io.StringIO("q\n"), out, dice=fives)
    assert state.status is Status.ACTIVE and out.getvalue().rstrip().endswith("Bye!")


def test_entry_point_runs_a_real_game_on_stdin() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot", "--rules", "sp21", "--goal", "30"],
        input="10\n" * 60,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "Spring 2021" in result.stdout
    assert "You win!" in result.stdout or "The house wins." in result.stdout


def test_main_parses_options() -> None:
    out = io.StringIO()
    assert main(["--rules", "porkchop", "--goal", "20"], io.StringIO("q\n"), out) == 0
    assert "Pork Chop" in out.getvalue()


def test_a_bad_goal_is_a_clear_usage_error() -> None:
    result = subprocess.run([sys.executable, "-m", "bot", "--goal", "0"], capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert "The goal must be between 1 and 10000, not 0." in result.stderr
    assert "Traceback" not in result.stderr
