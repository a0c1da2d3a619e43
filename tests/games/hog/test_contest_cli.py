"""``python -m bot contest`` at the terminal: a final strategy's file is tabled and entered, a table
file too, the standings and an entry read as text and JSON, the pictures drawn, and every bad input
refused in one line with nothing stored."""

from __future__ import annotations

import asyncio
import io
import json
import re
from pathlib import Path

import pytest

from bot.cli import main
from bot.games.hog.contest.entries import EVERYONE, Contest, Entered
from bot.games.hog.contest.pictures import MATRIX_TOP
from bot.platform.compose import platform
from bot.platform.settings import Settings
from hog_core.contest import MAX_BYTES, SIZE, to_json
from hog_core.game import GameState, Status
from hog_core.kernel import Kernel
from hog_core.review import Reviewer
from hog_core.rulesets import RULE_SETS
from hog_core.solver import Solution
from storage.events import NewEvent
from storage.shelves import FolderShelf
from tests.helpers import Terminal, refused
from tests.solved import shelve

STRATEGY = """
from helper import BIG


def final_strategy(score, opponent_score):
    return 5 if opponent_score < BIG else 7


def greedy(score, opponent_score):
    return 6
"""
EXAMPLE = Path(__file__).parents[3] / "examples" / "contest"


@pytest.fixture(autouse=True)
def where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, solutions: dict[str, Solution]) -> Path:
    monkeypatch.setenv("HOG_DB", str(tmp_path / "hog.sqlite3"))
    monkeypatch.setenv("HOG_CACHE", str(tmp_path / "cache"))
    asyncio.run(shelve(FolderShelf(tmp_path / "cache"), solutions))
    (tmp_path / "team.py").write_text(STRATEGY)
    (tmp_path / "helper.py").write_text("BIG = 60\n")  # imported beside it, as hog.py imports dice.py
    return tmp_path


def run(*argv: str) -> str:
    out = io.StringIO()
    assert main(list(argv), io.StringIO(), out) == 0
    return out.getvalue()


def test_a_strategy_and_a_table_are_entered_and_ranked(where: Path) -> None:
    said = run("contest", "submit", str(where / "team.py"), "--name", "Pigs", "-o", str(where / "pigs.csv"))
    assert (where / "pigs.csv").read_text().splitlines()[70] == ",".join(["5"] * 60 + ["7"] * 40)
    wrote, entered = said.splitlines()[:2]
    assert wrote == f"Wrote {where / 'pigs.csv'}: the table entered for Pigs."  # every file written is named
    assert entered.startswith("Entered Pigs in the Hog contest, Contest rules (everyone's): place 3 (2 wins, 2 losses)")
    run("contest", "table", f"{where / 'team.py'}:greedy", "-o", str(where / "greedy.json"))
    assert json.loads((where / "greedy.json").read_text()) == [[6] * SIZE] * SIZE
    said = run("contest", "submit", "--table", str(where / "greedy.json"), "--name", "Greedy")
    assert "place 2 (3 wins, 2 losses)" in said  # it ties always_roll(6): a loss for both, a place shared

    standings = json.loads(run("contest", "standings", "--json"))
    assert [(s["name"], s["place"]) for s in standings][:4] == [
        ("perfect", 1),
        ("always_roll(6)", 2),
        ("Greedy", 2),
        ("Pigs", 4),
    ]
    assert {s["name"]: s["reference"] for s in standings}["always_roll(4)"] is True
    assert set(standings[0]) == {"name", "wins", "losses", "place", "reference", "vs_perfect", "exploitability"}
    greedy = next(s for s in standings if s["name"] == "Greedy")
    six = next(s for s in standings if s["name"] == "always_roll(6)")
    assert greedy["place"] == six["place"] and greedy["vs_perfect"] == six["vs_perfect"]
    assert all(s["exploitability"] >= 0.5 and s["vs_perfect"] <= 0.5 for s in standings)

    shown = json.loads(run("contest", "show", "pigs", "--json"))
    assert shown["name"] == "Pigs" and shown["record"]["Greedy"] == pytest.approx(1 - json.loads(
        run("contest", "show", "Greedy", "--json"))["record"]["Pigs"], abs=1e-12)  # fmt: skip
    text = run("contest", "show", "Pigs", "--picture", str(where / "pigs.png"))
    assert "vs perfect" in text and (where / "pigs.png").read_bytes().startswith(b"\x89PNG")
    assert f"Wrote {where / 'pigs.png'}: the picture of Pigs's table beside the perfect strategy's." in text
    assert "Pigs" in run("contest", "standings") and "perfect *" in run("contest", "standings")
    matrix = run("contest", "matrix", "--picture", str(where / "matrix.png"))
    assert matrix.splitlines()[3].startswith("  1. perfect *") and (where / "matrix.png").stat().st_size > 1000
    ranked = [line.split()[0] for line in run("contest", "standings").splitlines()[3:]]
    rows = [line.split(".")[0].strip() for line in matrix.splitlines()[3:-1]]
    assert rows == ranked[: len(rows)] and matrix.splitlines()[2].split() == rows  # the standings' places
    assert (
        matrix.splitlines()[-1]
        == f"Wrote {where / 'matrix.png'}: the picture of the best {MATRIX_TOP} entries, each against each."
    )


def test_the_example_table_is_a_valid_entry() -> None:
    said = run("contest", "submit", "--table", str(EXAMPLE / "final_strategy.csv"), "--name", "Example")
    assert said.startswith("Entered Example in the Hog contest")


def test_bad_input_is_refused_in_one_line_and_stores_nothing(where: Path, capsys: pytest.CaptureFixture[str]) -> None:
    team = str(where / "team.py")
    (where / "bad.py").write_text("def final_strategy(score, opponent_score):\n    return score // 10 + 6\n")
    (where / "broken.py").write_text("import nowhere\n")
    (where / "huge.csv").write_bytes(b"4," * (MAX_BYTES // 2 + 1))
    (where / "short.json").write_text(to_json(__import__("numpy").zeros((99, SIZE), dtype="int8")))
    cases = {
        ("submit", team, "--name", "perfect"): "'perfect' is the name of a reference entry: choose another.",
        (
            "submit",
            team,
            "--name",
            "ｐｅｒｆｅｃｔ",
        ): "'ｐｅｒｆｅｃｔ' is the name of a reference entry: choose another.",
        ("submit", team, "--name", "<b>pigs</b>"): "'<b>pigs</b>' can't be a team's name",
        ("submit", "--name", "X"): "Give a strategy's file (FILE.py[:final_strategy]) or --table FILE, one of them.",
        ("submit", team, "--table", team, "--name", "X"): "Give a strategy's file",
        ("submit", str(where / "nope.py"), "--name", "X"): "There is no Python file",
        ("submit", f"{team}:missing", "--name", "X"): "team.py has no function missing.",
        ("submit", str(where / "broken.py"), "--name", "X"): "failed as it loaded: ModuleNotFoundError",
        ("submit", str(where / "bad.py"), "--name", "X"): "final_strategy(50, 0) returned 11, not a number of dice",
        ("submit", "--table", str(where / "huge.csv"), "--name", "X"): "bytes; a table is at most 1,000,000.",
        ("submit", "--table", str(where / "short.json"), "--name", "X"): "The table has 99 rows; it needs 100",
        ("show", "Nobody"): "There is no entry 'Nobody' in the Hog contest, Contest rules (everyone's).",
    }
    for argv, words in cases.items():
        assert words in refused(["contest", *argv], capsys)
    assert json.loads(run("contest", "standings", "--json", "--rules", "contest"))[0]["name"] == "perfect"
    assert all(s["reference"] for s in json.loads(run("contest", "standings", "--json")))  # nothing was entered


def test_the_first_standings_show_their_progress_on_stderr(monkeypatch: pytest.MonkeyPatch) -> None:
    err = Terminal()
    monkeypatch.setattr("sys.stderr", err)
    out = run("contest", "standings")
    drawn = err.getvalue()
    assert "perfect *" in out and "Every pair played exactly" in drawn and "Each entry's best response" in drawn
    total = re.findall(r"(\d+)/(\d+) \[", drawn)
    assert total and total[-1][0] == total[-1][1], "the bar reaches its end"
    assert "Every pair" not in out, "stdout holds the standings alone"
    err.seek(0)
    err.truncate()
    run("contest", "standings")
    assert "Every pair played exactly" not in err.getvalue(), "the values are kept: no sweep the second time"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("import sys\nsys.exit(0)\n", "Loading {file} tried to end the program (exit(0)): nothing was entered."),
        (
            "import sys\ndef final_strategy(score, opponent_score):\n    sys.exit(3)\n",
            "final_strategy(0, 0) tried to end the program (exit(3)): nothing was entered.",
        ),
        (
            "def final_strategy(score, opponent_score):\n    while True:\n        pass\n",
            "final_strategy(0, 0) took longer than 1 s: nothing was entered.",
        ),
        (
            "def final_strategy(score, opponent_score):\n    try:\n        while True:\n            pass\n"
            "    except Exception:\n        return 4\n",
            "final_strategy(0, 0) took longer than 1 s: nothing was entered.",  # its own except cannot keep it
        ),
    ],
    ids=["exits as it loads", "exits when called", "loops", "loops and catches"],
)
def test_a_strategy_that_exits_or_loops_is_reported_and_enters_nothing(
    where: Path, capsys: pytest.CaptureFixture[str], body: str, words: str
) -> None:
    (where / "wild.py").write_text(body)
    said = refused(["contest", "submit", str(where / "wild.py"), "--name", "Wild"], capsys)
    assert said == words.format(file=where / "wild.py")
    assert all(s["reference"] for s in json.loads(run("contest", "standings", "--json")))


def test_a_strategy_that_prints_is_tabled_and_its_printing_counted(
    where: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (where / "loud.py").write_text(
        "print('loading')\ndef final_strategy(score, opponent_score):\n    print('x' * 1000)\n    return 4\n"
    )
    said = run("contest", "submit", str(where / "loud.py"), "--name", "Loud")
    assert said.startswith("Entered Loud") and "xxxx" not in said
    err = capsys.readouterr().err
    assert (
        err.strip()
        == f"{where / 'loud.py'} printed 20,020,008 characters while it was tabled (not shown, first: 'loading')."
    )


@pytest.mark.parametrize(
    "text",
    ["[" * 3_000 + "]" * 3_000, "[[" + "9" * 5_000 + "]]"],
    ids=["nested 3,000 deep", "a 5,000-digit number"],
)
def test_a_table_nested_deep_or_holding_a_huge_number_is_refused_in_words(
    where: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    (where / "odd.json").write_text(text)
    said = refused(["contest", "submit", "--table", str(where / "odd.json"), "--name", "Odd"], capsys)
    words = "The JSON is nested too deep or holds a number too long: a table is a list of 100 lists of 100 small"
    assert said == f"{where / 'odd.json'}: {words} integers."


def test_an_entry_that_cannot_be_read_is_set_aside_and_the_contest_stands(where: Path) -> None:
    run("contest", "submit", "--table", str(EXAMPLE / "final_strategy.csv"), "--name", "Example")

    async def damage() -> None:
        async with platform(Settings.from_env()) as p:
            contest = Contest("contest", EVERYONE)
            bad = NewEvent(Entered.TYPE, Entered.VERSION, b'{"rules_version": 1, "table": "not a table"}')
            await p.store.append(contest.stream_id, [bad], await p.store.version(contest.stream_id))

    asyncio.run(damage())
    standings = run("contest", "standings")
    assert "1 entry (1 stored entry set aside: unreadable)" in standings and "Example" in standings
    assert "Example" in run("contest", "show", "Example")


def test_a_look_alike_of_a_taken_team_name_is_taken(where: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run("contest", "submit", "--table", str(EXAMPLE / "final_strategy.csv"), "--name", "Team Pig")
    said = refused(["contest", "submit", "--table", str(EXAMPLE / "final_strategy.csv"), "--name", "Team Рig"], capsys)
    assert said == "Another entrant's team is called 'Team Рig' in this contest: choose another name."


def test_the_explorer_says_where_an_entry_differs_from_perfect_play_and_what_each_cell_costs(
    where: Path, solutions: dict[str, Solution]
) -> None:
    """``contest show NAME --diff [OTHER]``: each cell's cost is the best move's chance minus the
    table's move's, read here from the solver by another road (one state at a time), and the perfect
    entry costs nothing anywhere."""
    run("contest", "submit", str(where / "team.py"), "--name", "Pigs")
    run("contest", "submit", str(where / "team.py") + ":greedy", "--name", "Greedy")
    shown = json.loads(run("contest", "show", "Pigs", "--diff", "--json"))["entry"]
    kernel = Kernel(RULE_SETS["contest"], SIZE)
    reviewer, period = Reviewer(kernel, solutions["contest"]), kernel.dims.turn_period
    assert period == 8  # Time Trot: a table's move is read at every turn of the cycle
    for cell in shown["worst"]:
        at = [
            reviewer.move_values(
                GameState(rules=RULE_SETS["contest"], status=Status.ACTIVE, scores=(cell["score"], cell["opponent"]),
                          turn_number=t)
            )
            for t in range(period)
        ]  # fmt: skip
        mean = {k: sum(v[k] for v in at) / period for k in at[0]}
        cost = max(mean.values()) - mean[cell["move"]]
        assert cell["move"] == (5 if cell["opponent"] < 60 else 7) and mean[cell["best"]] == max(mean.values())
        assert cell["cost"] == pytest.approx(cost, abs=1e-6)
    assert shown["worst"] == sorted(shown["worst"], key=lambda c: -c["cost"]) and len(shown["worst"]) == 10
    assert 9000 < shown["differing"] <= SIZE * SIZE and shown["average_cost"] > 0
    perfect = json.loads(run("contest", "show", "perfect", "--diff", "--json"))["entry"]
    assert 0 < perfect["average_cost"] < shown["average_cost"]  # perfect at the cycle's first turn, not all eight
    fa18 = json.loads(run("contest", "show", "perfect", "--diff", "--json", "--rules", "fa18"))["entry"]
    assert fa18["differing"] == 0 and fa18["worst"] == [] and fa18["average_cost"] == 0  # no cycle: perfect is best

    text = run("contest", "show", "Pigs", "--diff", "Greedy", "--picture", str(where / "costs.png"))
    assert text.startswith("Pigs against perfect play (the best one move over the rules' cycle of 8 turns), each ")
    apart = re.search(r"Pigs and Greedy choose differently in ([\d,]+) positions: Pigs is nearer perfect play in "
                      r"([\d,]+) of them, Greedy in ([\d,]+)\.", text)  # fmt: skip
    assert apart is not None and int(apart[1].replace(",", "")) == SIZE * SIZE  # 5 or 7 dice, never 6
    assert int(apart[2].replace(",", "")) + int(apart[3].replace(",", "")) <= SIZE * SIZE
    assert (where / "costs.png").read_bytes().startswith(b"\x89PNG") and "Wrote " in text.splitlines()[-1]
