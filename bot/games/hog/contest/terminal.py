"""``python -m bot contest``: enter a final strategy, write its table, and read the standings."""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from tqdm import tqdm

from bot.games.hog.contest.arena import Contests, Progress, Results
from bot.games.hog.contest.bounded import LOAD_SECONDS, StrategyFailed, each_call_limited, limited, quiet, told
from bot.games.hog.contest.entries import EVERYONE, Contest, Entries
from bot.games.hog.contest.pictures import MATRIX_TOP, costs_picture, matrix_picture, table_picture
from bot.games.hog.contest.words import (
    explored_json,
    explored_text,
    matrix_text,
    placed,
    record_json,
    record_text,
    standings_json,
    standings_text,
)
from bot.platform.compose import platform
from bot.platform.contract import Refusal, Subcommand, command
from bot.platform.painter import drawn
from hog_core.contest import MAX_BYTES, BadTable, Table, of_strategy, parse, to_csv, to_json
from hog_core.kernel import CONTESTABLE
from hog_core.rulesets import RULE_SETS, RuleSet

if TYPE_CHECKING:
    from bot.games.hog.module import HogGame

DEFAULT_CONTEST = "contest"
SOURCE = "a Python file, and the strategy function in it after a colon (default: final_strategy)"


def load_strategy(source: str) -> tuple[Callable[[int, int], object], str]:
    """The function ``source`` names, loaded from its file (its folder importable, as the course's
    ``hog.py`` imports ``dice`` and ``ucb`` beside it)."""
    path_text, _, name = source.partition(":")
    name = name or "final_strategy"
    path = Path(path_text)
    if path.suffix != ".py" or not path.is_file():
        raise Refusal(f"There is no Python file {path_text!r}.")
    spec = importlib.util.spec_from_file_location(f"hog_contest_entry_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise Refusal(f"{path_text} cannot be loaded as Python.")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent.resolve()))
    try:
        with limited(LOAD_SECONDS, f"Loading {path_text}"):
            spec.loader.exec_module(module)
    except Exception as error:
        raise Refusal(f"{path_text} failed as it loaded: {type(error).__name__}: {error}") from error
    finally:
        sys.path.remove(str(path.parent.resolve()))
    function = getattr(module, name, None)
    if not callable(function):
        raise Refusal(f"{path_text} has no function {name}.")
    return function, name


def table_of(source: str, rules: RuleSet, err: TextIO) -> Table:
    """The table of the strategy ``source`` names, run here, bounded (``bounded``): what it prints is
    said in one line on ``err``, what goes wrong in a ``Refusal``."""
    with quiet() as printed:
        try:
            function, name = load_strategy(source)
            return of_strategy(each_call_limited(function, name), rules, name)
        except BadTable as error:
            raise Refusal(str(error)) from error
        except StrategyFailed as error:
            raise Refusal(f"{error}: nothing was entered.") from error
        finally:
            if (line := told(printed, source)) is not None:
                print(line, file=err)


def read_table(path_text: str, rules: RuleSet) -> Table:
    """A table file, its size checked before it is read."""
    path = Path(path_text)
    if not path.is_file():
        raise Refusal(f"There is no file {path_text!r}.")
    if (size := path.stat().st_size) > MAX_BYTES:
        raise Refusal(f"{path_text} is {size:,} bytes; a table is at most {MAX_BYTES:,}.")
    try:
        return parse(path.read_bytes(), rules)
    except BadTable as error:
        raise Refusal(f"{path_text}: {error}") from error


def _contest_arguments(parser: argparse.ArgumentParser, *, server: bool = True) -> None:
    parser.add_argument(
        "--rules",
        choices=CONTESTABLE,
        default=DEFAULT_CONTEST,
        metavar="RULES",
        help=f"the contest's rule set (default: {DEFAULT_CONTEST}): {', '.join(CONTESTABLE)}",
    )
    if server:
        parser.add_argument(
            "--server", metavar="ID", help="a Discord server's contest, by its id (default: everyone's)"
        )


def arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    submit = command(actions, "submit", "enter a final strategy (or a table) in everyone's contest")
    submit.add_argument("source", nargs="?", metavar="FILE.py[:final_strategy]", help=SOURCE)
    submit.add_argument("--table", metavar="FILE", help="enter a table file instead (CSV or JSON)")
    submit.add_argument("--name", required=True, metavar="TEAM", help="your team's name")
    submit.add_argument("-o", "--output", metavar="FILE", help="also write the table entered (.csv or .json)")
    _contest_arguments(submit, server=False)
    table = command(actions, "table", "write a final strategy's table, without entering it")
    table.add_argument("source", metavar="FILE.py[:final_strategy]", help=SOURCE)
    table.add_argument("-o", "--output", required=True, metavar="FILE", help="where to write it (.csv or .json)")
    _contest_arguments(table, server=False)
    standings = command(actions, "standings", "every entry ranked by wins")
    standings.add_argument("--json", action="store_true", help="a list of objects, for scripts")
    _contest_arguments(standings)
    show = command(actions, "show", "one entry's record against every other, and its picture")
    show.add_argument("name", metavar="NAME", help="the entry's team name (or a reference: perfect, ...)")
    show.add_argument("--json", action="store_true", help="its record as an object, for scripts")
    show.add_argument("--picture", metavar="FILE.png", help="also draw its table beside the perfect strategy's")
    show.add_argument(
        "--diff", nargs="?", const="", metavar="OTHER",
        help="where it differs from perfect play and what each difference costs, exactly (beside OTHER's when given)",
    )  # fmt: skip
    _contest_arguments(show)
    matrix = command(actions, "matrix", f"the best {MATRIX_TOP} entries, each against each")
    matrix.add_argument("--picture", metavar="FILE.png", help="also draw it")
    _contest_arguments(matrix)


def _write(path: str, data: bytes, what: str, told: TextIO) -> None:
    """Write a file and say so in one line (on ``told``: stderr when stdout is JSON for a script)."""
    try:
        Path(path).write_bytes(data)
    except OSError as error:
        raise Refusal(f"Cannot write {path}: {error.strerror}.") from error
    print(f"Wrote {path}: {what}.", file=told)


def _write_table(path: str, table: Table, what: str, told: TextIO) -> None:
    _write(path, (to_json(table) if path.endswith(".json") else to_csv(table)).encode(), what, told)


@contextmanager
def progress_bar(stream: TextIO) -> Iterator[Progress]:
    """A progress bar on ``stream`` (stderr; only where it is a terminal) for work that takes seconds:
    the contest's first standings compile, solve and sweep for about 20 s."""
    with tqdm(file=stream, disable=None, unit="sweep", leave=False, dynamic_ncols=True) as bar:

        def told(what: str, done: int, total: int) -> None:
            bar.set_description_str(what[0].upper() + what[1:], refresh=False)
            bar.total = total or None
            bar.n = done
            bar.refresh()

        yield told


async def _run(hog: HogGame, args: argparse.Namespace, out: TextIO, err: TextIO) -> None:
    rules = RULE_SETS[args.rules]
    notes = err if getattr(args, "json", False) else out  # a script reads stdout as JSON
    if args.action == "table":
        table = table_of(args.source, rules, err)
        _write_table(args.output, table, f"the table of {args.source} for {args.rules}", notes)
        return
    if args.action == "submit":
        if (args.source is None) == (args.table is None):
            raise Refusal("Give a strategy's file (FILE.py[:final_strategy]) or --table FILE, one of them.")
        table = table_of(args.source, rules, err) if args.source else read_table(args.table, rules)
        if args.output:
            _write_table(args.output, table, f"the table entered for {args.name}", notes)
    contest = Contest(args.rules, getattr(args, "server", None) or EVERYONE)
    async with platform(hog.platform_settings) as p:
        contests = Contests(Entries(p.store), hog.solutions, threads=os.cpu_count())  # no players waiting here
        with progress_bar(err) as progress:
            if args.action == "submit":
                arena = await contests.arena(args.rules, progress)
                entry, _ = await contests.entries.submit(
                    contest, f"console:{args.name}", args.name, args.name, table, tuple(arena.references)
                )
            results = await contests.results(contest, progress)
            if args.action == "show" and args.diff is not None:  # the table against perfect play, exactly
                name, other = _named(results, args.name), _named(results, args.diff) if args.diff else None
                found, beside = await contests.explored(results, name, other)
    if args.action == "submit":
        standing = results.standing(entry.team)
        assert standing is not None
        print(f"Entered {entry.team} in the {contest.title}: {placed(standing)}.", file=out)
    elif args.action == "standings":
        print(standings_json(results) if args.json else standings_text(results), file=out)
    elif args.action == "show" and args.diff is not None:
        print(explored_json(found, beside) if args.json else explored_text(found, beside), file=out)
        if args.picture:
            shown = [found] if beside is None else [found, beside.second]
            picture = await drawn(costs_picture, shown, results.contest.title)
            _write(args.picture, picture, "the picture of what each cell's move gives away", notes)
    elif args.action == "show":
        name = _named(results, args.name)
        print(record_json(results, name) if args.json else record_text(results, name), file=out)
        if args.picture:
            picture = await drawn(table_picture, results, name)
            _write(args.picture, picture, f"the picture of {name}'s table beside the perfect strategy's", notes)
    else:
        print(matrix_text(results, MATRIX_TOP), file=out)
        if args.picture:
            picture = await drawn(matrix_picture, results)
            _write(args.picture, picture, f"the picture of the best {MATRIX_TOP} entries, each against each", notes)


def _named(results: Results, name: str) -> str:
    found = results.find(name)
    if found is None:
        raise Refusal(f"There is no entry {name!r} in the {results.contest.title}.")
    return found


def contest_command(hog: HogGame) -> Subcommand:
    def run(args: argparse.Namespace, out: TextIO) -> int:
        asyncio.run(_run(hog, args, out, sys.stderr))
        return 0

    return Subcommand("contest", "the course's Hog contest: enter a final strategy, see the standings", arguments, run)
