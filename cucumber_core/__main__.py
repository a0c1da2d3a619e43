"""``python -m cucumber_core``: play the course's little example, run tournaments, time simulations.

    python -m cucumber_core play [--bots play_first,play_first,play_first] [--cards 3] [--target 11]
    python -m cucumber_core tournament --bots strong,magic,play_first,random --games 2000 --seed 1
    python -m cucumber_core simulate --bots play_first,fimp,magic,random --games 100000

A bot is one of ``strong, magic, play_first, fimp, random`` or your own strategy with the course's
signature, ``strategy(board, player_name, hand) -> card``, named ``module:function`` or
``path/to/file.py:function``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from cucumber_core import course, simulate, tournament
from cucumber_core.bots import BOTS, Bot
from cucumber_core.errors import CucumberError
from cucumber_core.rules import check_table


class UsageError(Exception):
    """A request this command cannot run, said in one line."""


def load_strategy(spec: str) -> course.Strategy:
    """A user's course-signature strategy from ``module:function`` or ``file.py:function``."""
    where, _, attr = spec.rpartition(":")
    if not where or not attr:
        raise UsageError(f"unknown bot {spec!r}: choose from {', '.join(BOTS)}, or give module:function")
    try:
        if where.endswith(".py"):
            path = Path(where)
            loader = importlib.util.spec_from_file_location(path.stem, path)
            if loader is None or loader.loader is None or not path.is_file():
                raise UsageError(f"no Python file at {where}")
            module = importlib.util.module_from_spec(loader)
            loader.loader.exec_module(module)
        else:
            module = importlib.import_module(where)
    except UsageError:
        raise
    except Exception as error:  # the user's module failed to import: say how, in one line
        raise UsageError(f"cannot load {where}: {type(error).__name__}: {error}") from error
    strategy = getattr(module, attr, None)
    if not callable(strategy):
        raise UsageError(f"{where} has no function {attr!r}")
    return strategy  # type: ignore[no-any-return]


STRATEGIES: dict[str, course.Strategy] = {
    "strong": course.strong,
    "magic": course.magic,
    "play_first": course.play_first,
    "fimp": course.fimp,
}


def strategy(name: str) -> course.Strategy:
    return STRATEGIES[name] if name in STRATEGIES else load_strategy(name)


def resolve(names: Sequence[str]) -> list[Bot]:
    return [BOTS[n] if n in BOTS else course.as_bot(load_strategy(n)) for n in names]


def unique(names: Sequence[str]) -> list[str]:
    """Names that tell repeated bots apart: ``magic``, ``magic 2``."""
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else f"{n} {seen[n]}")
    return out


def bot_list(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if len(names) < 2:
        raise argparse.ArgumentTypeError("name at least two bots, separated by commas")
    return names


def positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m cucumber_core", description="CS 88's card game Cucumber.")
    sub = p.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play against bots in the terminal (the course's little example)")
    play.add_argument(
        "--bots",
        type=bot_list,
        default=["play_first"] * 3,
        help="your opponents (default: play_first,play_first,play_first)",
    )
    play.add_argument("--cards", type=positive, default=3, help="cards per hand (default: 3)")
    play.add_argument("--target", type=positive, default=11, help="the score that loses (default: 11)")
    play.add_argument("--name", default="You", help="your name at the table (default: You)")
    for name, games, bots, helptext in (
        ("tournament", 2000, "strong,magic,play_first,random", "rotating tables of bots: losses, shared wins, scores"),
        ("simulate", 100_000, "play_first,fimp,magic,random", "how many games a second the bots play"),
    ):
        t = sub.add_parser(name, help=helptext)
        t.add_argument(
            "--bots", type=bot_list, default=bot_list(bots), help=f"the bots, comma-separated (default: {bots})"
        )
        t.add_argument("--games", type=positive, default=games, help=f"how many games (default: {games})")
        t.add_argument("--seed", type=int, default=1, help="the seed of the shuffles, to repeat a run (default: 1)")
        t.add_argument("--cards", type=positive, default=7, help="cards per hand (default: 7)")
        t.add_argument("--target", type=positive, default=21, help="the score that loses (default: 21)")
        t.add_argument(
            "--cucumbers",
            action="store_true",
            help="reaching the target the first time costs a cucumber (the score starts again), the second loses",
        )
    return p


def run_table(args: argparse.Namespace) -> tuple[list[str], tournament.Results, float]:
    check_table(len(args.bots), args.cards)
    names = unique(args.bots)
    options = tournament.Options(args.cards, args.target, args.cucumbers)
    start = time.perf_counter()
    if all(n in simulate.POLICIES for n in args.bots):
        results = tournament.play_arrays([simulate.POLICIES[n] for n in args.bots], args.games, args.seed, options)
    else:
        bots = resolve(args.bots)
        tick = max(1, args.games // 20)

        def progress(g: int) -> None:
            if sys.stderr.isatty() and (g + 1) % tick == 0:
                print(f"\r{g + 1}/{args.games} games", end="", file=sys.stderr, flush=True)

        results = tournament.play_engine(bots, names, args.games, args.seed, options, progress)
        if sys.stderr.isatty():
            print(file=sys.stderr)
    return names, results, time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        if args.command == "play":
            check_table(len(args.bots) + 1, args.cards)
            strategies = [course.manual] + [strategy(b) for b in args.bots]
            names = [args.name, *unique(args.bots)]
            scores = course.play_game(names, strategies, verbose=True, num_cards=args.cards, max_score=args.target)
            loser = max(range(len(scores)), key=scores.__getitem__)
            print(f"{names[loser]} reached {scores[loser]}: " + ("you lose." if loser == 0 else "you win!"))
            return 0
        names, results, seconds = run_table(args)
        if args.command == "tournament":
            print(f"{args.games} games, {len(names)} seats rotating, {args.cards} cards, to {args.target}")
            print(tournament.table(tournament.standings(names, results)))
        else:
            print(f"{args.games / seconds:,.0f} games/s ({args.games} games in {seconds:.2f} s)")
        return 0
    except (UsageError, CucumberError) as error:
        print(f"cucumber: {error}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, EOFError):
        print("\nGame abandoned.", file=sys.stderr)
        return 130
    except BrokenPipeError:  # ``... tournament | head -1``: the reader left, which is no error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so exit's flush stays quiet
        return 0


if __name__ == "__main__":
    sys.exit(main())
