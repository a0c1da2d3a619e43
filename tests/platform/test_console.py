"""The terminal as one person meets it: their games wherever they look, the resume question, and
names without the ``console:`` prefix. Driven through ``python -m bot``'s own entry point."""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main, own_commands, parser_for, with_games
from bot.console import command_id
from bot.platform.compose import platform
from bot.platform.projection import Projector
from bot.platform.registry import Games
from bot.platform.settings import Settings
from cucumber_core.__main__ import parser as cucumber_parser
from hog_core.events import Player
from hog_core.game import CreateGame
from hog_core.rulesets import RULE_SETS
from tests.helpers import Terminal, interrupted_at, refused


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOG_DB", str(tmp_path / "hog.sqlite3"))
    monkeypatch.setenv("HOG_CACHE", str(tmp_path / "solutions"))
    monkeypatch.chdir(tmp_path)
    return tmp_path / "hog.sqlite3"


def run(*argv: str, keys: str = "") -> str:
    out = io.StringIO()
    assert main(list(argv), io.StringIO(keys), out) == 0
    return out.getvalue()


def games_in(db: Path) -> list[str]:
    """The ids ``history`` lists (every game in the database)."""
    return [line.split()[0] for line in run("history").splitlines()[:-1]]


def test_history_without_a_name_lists_every_game_here_newest_first(db: Path) -> None:
    assert run("history") == f"No games yet in {db} (HOG_DB names another file). Play one: python -m bot\n"
    run("--name", "Bea", "--house", "easy", keys="3\nquit\n")
    run("cucumber", "--name", "Cy", "--players", "2", keys="q\n")
    listed = run("history").splitlines()
    assert len(listed) == 3 and listed[-1].startswith("Page 1")
    assert "Cy, Strong bot · playing · 0 · 0 (to 21)" in listed[0]  # the newest first, from nobody's side
    assert re.search(r"  Bea \d+ – The house \(easy\) \d+ · Fall 2018 to 100 · playing$", listed[1]), listed[1]
    assert listed[0].index("  20") == listed[1].index("  20"), "the columns line up whatever the ids' lengths"
    assert "console:" not in "\n".join(listed)
    assert run("history", "--name", "Bea").splitlines()[0].split()[0] == listed[1].split()[0]
    nobody = run("history", "--name", "Nobody")
    assert nobody == f"No games of Nobody in {db} (2 games there: python -m bot history lists them all).\n"


def test_stats_name_a_person_as_they_typed_it_and_say_how_to_play_here(db: Path) -> None:
    said = run("stats", "--name", "Nobody")
    assert said.startswith("── Nobody's Hog stats ──") and "console:" not in said
    assert "Play one: python -m bot (the house), or python -m bot --vs NAME (a friend here)." in said
    assert "/hog" not in said
    cucumber = run("stats", "--game", "cucumber", "--name", "Nobody")
    assert cucumber.startswith("── Nobody's Cucumber stats ──") and "python -m bot cucumber" in cucumber


def test_a_name_typed_in_another_case_finds_its_player(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Names are compared folded: ``ada`` and ``ＡＤＡ`` are Ada; two players who fold alike are named."""
    run("--name", "Ada", "--house", "easy", keys="3\nquit\n")
    for typed in ("ada", "ＡＤＡ"):
        assert run("stats", "--name", typed).startswith("── Ada's Hog stats ──"), typed
    assert run("stats", "--name", "Nobody").startswith("── Nobody's Hog stats ──")
    run("--name", "ADA", "--house", "easy", keys="3\nquit\n")
    said = refused(["stats", "--name", "ada"], capsys)
    assert said == "Several players here are called 'ada': ADA, Ada. Type the name as it is written."
    assert run("stats", "--name", "ADA").startswith("── ADA's Hog stats ──")


async def first_version_game(db: Path) -> str:
    """A game as the first console stored it: players ``console:1`` and ``console:2`` under typed names."""
    async with platform(Settings(db=db, cache=db.parent / "solutions")) as p:
        players = (Player("console:1", "Ada"), Player("console:2", "Bob"))
        await p.service(p.games["hog"]).create("cold1", CreateGame("cold1", players, place="console"), command_id())
    return "cold1"


def test_a_game_of_the_first_version_is_listed_and_resumed_by_the_names_typed(db: Path) -> None:
    game = asyncio.run(first_version_game(db))
    assert run("history", "--name", "Ada").startswith(f"{game}  ")
    assert f"{game}  " in run("history", "--name", "Bob")
    played = run("--resume", game, "--name", "Ada", keys="2\nquit\n")
    assert "Ada, how many dice?" in played and f"go on with python -m bot --resume {game}" in played
    assert "Bob, how many dice?" in played, "the friend at the same keyboard moves next"


@pytest.mark.parametrize("rival", [["--house", "easy"], ["--vs", "Bob"]])
def test_the_command_printed_on_quit_goes_on_with_the_game_as_printed(db: Path, rival: list[str]) -> None:
    """``--resume ID`` alone resumes a game started under another name: the names are in the game."""
    said = run("--name", "Bea", *rival, keys="2\nquit\n")
    command = re.search(r"go on with (python -m bot --resume (c[0-9a-f]+))$", said.rstrip())
    assert command is not None, said
    again = run(*command[1].split()[3:], keys="quit\n")
    assert "Bea" in again and "is not" not in again and command[1] in again
    assert games_in(db) == [command[2]], "no new game was started"
    if rival[0] == "--vs":
        assert "Bob, how many dice?" in again, "the friend at the same keyboard moves next, as before the quit"


def test_the_question_offers_only_a_game_the_options_agree_with_and_says_which(db: Path) -> None:
    run("--name", "Ada", "--house", "easy", "--goal", "300", keys="quit\n")
    (old,) = games_in(db)
    said = run("--name", "Ada", "--rules", "sp21", "--goal", "50", keys="quit\n")
    assert f"A new game, as --rules sp21 --goal 50 asks. Your unfinished game {old}" in said
    assert f"python -m bot --resume {old}" in said and "Go on with it?" not in said
    assert "Spring 2021" in said and len(games_in(db)) == 2
    newest = games_in(db)[0]
    again = run("--name", "Ada", "--rules", "sp16", keys="quit\n")
    assert f"A new game, as --rules sp16 asks. Your unfinished game {newest}" in again, "the newest is named"
    asked = run("--name", "Ada", "--house", "easy", "--goal", "300", keys="y\nquit\n")
    assert f"You have an unfinished game, {old} (vs The house (easy) · Fall 2018 to 300 · playing 0–0)." in asked


def test_only_yes_or_no_answers_the_question(db: Path) -> None:
    run("--name", "Ada", "--house", "easy", keys="quit\n")
    (old,) = games_in(db)
    said = run("--name", "Ada", keys="maybe\nY\nquit\n")
    assert "Please answer y (or just Enter) or n, not 'maybe'." in said
    assert said.count("Go on with it? [Y/n]") == 2 and f"--resume {old}" in said and len(games_in(db)) == 1
    run("--name", "Ada", keys="no\nquit\n")
    assert len(games_in(db)) == 2, "no starts afresh"


def test_the_end_of_input_at_the_question_leaves_without_a_game(db: Path) -> None:
    run("--name", "Ada", "--house", "easy", keys="quit\n")
    said = run("--name", "Ada", keys="")
    assert said.rstrip().endswith("Bye! Nothing was started.") and len(games_in(db)) == 1


def test_ctrl_c_at_the_question_leaves_without_a_game(db: Path) -> None:
    run("--name", "Ada", "--house", "easy", keys="quit\n")
    status, said, err = interrupted_at(b"Go on with it? [Y/n]", ["--name", "Ada"], dict(os.environ))
    assert status == 130 and "Traceback" not in err, err
    assert "Bye! Nothing was started." in said and len(games_in(db)) == 1


def test_a_game_of_another_kind_says_which_command_goes_on_with_it(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run("cucumber", "--name", "Ada", keys="q\n")
    (table,) = games_in(db)
    said = refused(["--resume", table, "--name", "Ada"], capsys)
    assert said == f"Game {table} is a game of Cucumber: go on with it with python -m bot cucumber --resume {table}"
    hog = run("--name", "Ada", "--house", "easy", "--new", keys="quit\n")
    game = hog.split("saved as ")[1].split(":")[0]
    said = refused(["cucumber", "--resume", game, "--name", "Ada"], capsys)
    assert said == f"Game {game} is a game of Hog: go on with it with python -m bot --resume {game}"


def test_a_spent_pork_chop_is_refused_and_asked_again(db: Path) -> None:
    said = run("--rules", "porkchop", "--name", "Ada", "--vs", "Bob", keys="chop\nchop\n2\nchop\nquit\n")
    assert "Pork Chop! Ada trades 0 for Bob's 0: nothing changes, and the chop is spent." in said
    assert said.count("Your Pork Chop is spent: type a number of dice (0 to 10).") == 1  # Bob's is not
    assert "is already spent, so that's 10 dice" not in said


def bot_parser() -> argparse.ArgumentParser:
    """``python -m bot``'s command line with every installed game: the platform's commands and the games'."""
    games = Games.load(Settings())
    return parser_for(games, with_games(own_commands(Settings(), games, io.StringIO(), None), games))


def actions(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.Action]]:
    """Every option and argument of a command line, its subcommands' too, with the command's name."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from actions(sub)
        elif not isinstance(action, argparse._HelpAction):
            yield parser.prog, action


@pytest.mark.parametrize("make", [lambda: bot_parser(), cucumber_parser])
def test_every_option_and_command_has_a_help_line(make: Callable[[], argparse.ArgumentParser]) -> None:
    parser = make()
    silent = [f"{prog} {action.dest}" for prog, action in actions(parser) if not action.help]
    assert silent == []
    text = parser.format_help() + "".join(action.help or "" for _, action in actions(parser))
    assert "R11" not in text and "(default " not in text  # defaults are written one way: (default: X)
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert all(choice.help for choice in commands._choices_actions)


def commands_of(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every command of a command line, its commands' own commands too, by name."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield name, sub
                yield from commands_of(sub)


def test_every_commands_help_opens_with_what_it_does_and_no_two_names_are_a_letter_apart() -> None:
    parser = bot_parser()
    found = dict(commands_of(parser))
    assert {"web", "gui", "games", "rebuild", "replay", "verify", "tournaments", "compare", "submit"} <= set(found)
    for name, sub in found.items():
        opening = sub.format_help().split("\n\n")[1]  # the paragraph after the usage
        assert not opening.startswith(("positional", "options")), f"{name} --help says nothing of what it does"
        assert opening[0].isupper() and opening.rstrip().endswith("."), (name, opening)

    def a_letter_apart(a: str, b: str) -> bool:
        if abs(len(a) - len(b)) > 1 or a == b:
            return False
        if len(a) == len(b):
            return sum(x != y for x, y in zip(a, b, strict=True)) == 1
        short, long = sorted((a, b), key=len)
        return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))

    close = [(a, b) for a in found for b in found if a < b and a_letter_apart(a, b)]
    assert close == [], "names one typo apart run the wrong command"


def test_the_help_names_the_program_as_typed_and_both_games(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"], io.StringIO(), io.StringIO())
    said = capsys.readouterr().out
    assert said.startswith("usage: python -m bot ") and "Cucumber" in said and "DISCORD_TOKEN" in said
    with pytest.raises(SystemExit):
        main(["play", "--help"], io.StringIO(), io.StringIO())
    said = " ".join(capsys.readouterr().out.split())
    assert all(f"{rules} (" in said for rules in RULE_SETS)


def test_the_discord_command_without_a_token_says_what_is_missing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    said = refused(["discord"], capsys)
    assert said == "DISCORD_TOKEN is not set: give the bot's token from the Developer Portal (Bot, Reset Token)."


def test_rebuild_projects_each_game_once_and_shows_its_progress(
    db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A database far behind (its checkpoint forgotten) is projected by ``rebuild`` alone, not first
    caught up at start and then rebuilt: every game summed up once, a bar on a terminal's stderr."""
    for name in ("Ann", "Ben", "Cat"):
        run("--name", name, "--house", "easy", keys="3\nquit\n")

    async def forget() -> None:
        async with platform(Settings(db=db, cache=db.parent / "solutions")) as p:
            await p.views.apply([], 0)

    asyncio.run(forget())
    summed: list[int] = []
    whole = Projector._summaries

    async def counted(self: Projector, stream_ids: Any, *args: Any, **kwargs: Any) -> Any:
        summed.append(len(stream_ids))
        return await whole(self, stream_ids, *args, **kwargs)

    monkeypatch.setattr(Projector, "_summaries", counted)
    err = Terminal()
    monkeypatch.setattr("sys.stderr", err)
    said = run("rebuild")
    assert said.startswith(f"Rebuilt the read models of {db} from ") and "3 games" in said
    assert sum(summed) == 3, summed
    assert "Rebuilding" in err.getvalue() and re.search(r"100%.*\b(\d+)/\1 ", err.getvalue()), "every event, shown"


class Tty(io.StringIO):
    """Keys typed and a screen, as a terminal is to the program (``isatty``)."""

    def isatty(self) -> bool:
        return True


def test_a_replay_at_a_terminal_shows_a_step_at_a_time(db: Path) -> None:
    """At a terminal, Enter shows the next step and q stops; piped (or with --all), every step at once."""
    # To 100 neither side can win in fewer than two turns, so the replay has at least four steps.
    run("--name", "Ada", "--house", "easy", keys="4\n" * 60)
    game = games_in(db)[0]
    whole = run("replay", game)
    steps = whole.count("Step ")
    assert steps > 3 and "── Enter: the next step" not in whole
    screen = Tty()
    assert main(["replay", game], Tty("\n\nq\n"), screen) == 0
    shown = screen.getvalue()
    assert shown.count("Step ") == 3 and shown.count("── Enter: the next step · q: stop ──") == 3
    screen = Tty()
    assert main(["replay", game, "--all"], Tty(""), screen) == 0
    assert screen.getvalue().count("Step ") == steps and "── Enter" not in screen.getvalue()
