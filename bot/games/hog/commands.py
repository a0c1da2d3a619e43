"""Hog's own commands of ``python -m bot``: exact tournaments and simulations of strategies, and a
rule set explained. The game brings them (``HogGame.subcommands``); the platform's command line
knows none of them by name."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import json
import random
import re
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, TextIO

import numpy as np
from tqdm import tqdm

from bot.console import game_of, player_id
from bot.games.hog import puzzling
from bot.games.hog.analysis import review_json, review_text
from bot.games.hog.console import RULES_HELP
from bot.games.hog.contest.terminal import contest_command
from bot.games.hog.limits import GOALS, MAX_SOLVED_GOAL
from bot.games.hog.puzzle_book import book_of
from bot.games.hog.rules_help import explain, rule_set_id
from bot.games.hog.solutions import SolutionCache
from bot.platform.compose import platform
from bot.platform.contract import Refusal, Subcommand
from bot.platform.exercises import Marked
from bot.platform.names import checked
from hog_core.errors import HogError
from hog_core.game import replay
from hog_core.kernel import Kernel
from hog_core.puzzles import Puzzle, as_json
from hog_core.rulesets import DEFAULT_RULES, RULE_SETS
from hog_core.simulate import Chain, simulate
from hog_core.solver import Policy, Solution, win_rate
from hog_core.strategies import (
    DIFFICULTIES,
    Strategy,
    always_roll,
    bacon_strategy,
    house_policy,
    swap_strategy,
    tabulate,
)

if TYPE_CHECKING:
    from bot.games.hog.module import HogGame

TOURNAMENT = ("always_roll(4)", "always_roll(6)", "bacon", "swap", "medium", "perfect")
STRATEGIES = (
    "a strategy: perfect, medium, easy, bacon, swap, always_roll(N), or module:function for your own "
    "strategy(score, opponent_score) -> dice"
)


def resolve_strategy(spec: str, kernel: Kernel, solution: Solution) -> Policy:
    """A strategy by name (``perfect``, ``easy``, ``medium``, ``bacon``, ``swap``, ``always_roll(N)``)
    or as ``module:function`` for any Python ``strategy(score, opponent_score) -> k``."""
    rules = kernel.rules.id
    if spec in DIFFICULTIES:
        return house_policy(spec, kernel, solution)
    named: dict[str, Strategy] = {
        "bacon": lambda s, o: bacon_strategy(s, o, rules=rules),
        "swap": lambda s, o: swap_strategy(s, o, rules=rules),
    }
    if spec in named:
        return tabulate(named[spec], kernel)
    if match := re.fullmatch(r"always_roll\((-?\d+)\)", spec):
        return tabulate(always_roll(int(match[1])), kernel)
    module, _, name = spec.partition(":")
    if not name:
        raise Refusal(f"Unknown strategy {spec!r}: use a name or module:function.")
    try:
        function = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as error:
        raise Refusal(f"Cannot load strategy {spec!r}: {error}") from error
    return tabulate(function, kernel)


def tournament(solutions: SolutionCache, rules: str, goal: int, names: Sequence[str], out: TextIO) -> None:
    kernel = Kernel(RULE_SETS[rules], goal)
    solution = asyncio.run(solutions.get(RULE_SETS[rules], goal))
    policies = {name: resolve_strategy(name, kernel, solution) for name in names}
    width = max(len(n) for n in names) + 2
    print(f"Exact win rate of the row against the column, both seat orders averaged ({rules}, goal {goal})", file=out)
    print(" " * width + "".join(f"{n:>{width}}" for n in names), file=out)
    for row in names:
        rates = [win_rate(kernel, policies[row], policies[col]).average for col in names]
        print(f"{row:<{width}}" + "".join(f"{r:>{width}.5f}" for r in rates), file=out)


def run_simulation(
    solutions: SolutionCache, rules: str, goal: int, a: str, b: str, games: int, seed: int | None, out: TextIO
) -> None:
    kernel = Kernel(RULE_SETS[rules], goal)
    solution = asyncio.run(solutions.get(RULE_SETS[rules], goal))
    chain = Chain(kernel, resolve_strategy(a, kernel, solution), resolve_strategy(b, kernel, solution))
    rng = np.random.default_rng(seed)
    started = time.perf_counter()
    with tqdm(total=games, unit="game", unit_scale=True, file=sys.stderr, disable=None) as bar:
        result = simulate(chain, games, rng, progress=bar.update)
    elapsed = time.perf_counter() - started
    exact = win_rate(kernel, *chain.policies)
    print(f"{a} vs {b} ({rules}, goal {goal}), {games:,} games in {elapsed:.2f} s ({games / elapsed:,.0f}/s)", file=out)
    print(f"simulated win rate of {a}: {result.win_rate:.5f} ± {result.standard_error:.5f}", file=out)
    print(f"exact win rate of {a}:     {exact.average:.5f}", file=out)
    if result.draws:
        print(f"{result.draws:,} games reached the turn limit (draws)", file=out)


def plain(markdown: str) -> str:
    """Discord's markdown (``**bold**``, ``__underline__``, ``> quote``) as plain terminal text."""
    return re.sub(r"\*\*|__", "", markdown).replace("\n> ", "\n  ")


def at_least_one(text: str) -> int:
    """A count of games, for argparse."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


@contextmanager
def refused_in_words() -> Iterator[None]:
    """A strategy that cannot be used (unknown, failing, choosing too many dice) as a ``Refusal``: one line."""
    try:
        yield
    except HogError as error:
        raise Refusal(error.message) from error
    except ValueError as error:
        raise Refusal(str(error)) from error


def keyboard(out: TextIO) -> Callable[[str], str | None]:
    """A line read from this terminal after ``prompt`` (``None`` once input ends)."""

    def ask(prompt: str) -> str | None:
        print(prompt, end="", file=out, flush=True)
        return sys.stdin.readline() or None

    return ask


def rule_set_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", type=rule_set_id, default=DEFAULT_RULES, metavar="RULES", help=RULES_HELP)
    parser.add_argument("--goal", type=int, default=100, help="the score that wins (default: 100)")


def subcommands(hog: HogGame) -> tuple[Subcommand, ...]:
    """Hog's commands of ``python -m bot``: ``compare``, ``simulate``, ``rules``, ``puzzle``, ``analyze``
    and ``contest``."""
    solutions = hog.solutions

    def tournament_arguments(parser: argparse.ArgumentParser) -> None:
        rule_set_arguments(parser)
        default = " ".join(TOURNAMENT)
        parser.add_argument(
            "strategies",
            nargs="*",
            default=list(TOURNAMENT),
            metavar="STRATEGY",
            help=f"{STRATEGIES} (default: {default})",
        )

    def simulate_arguments(parser: argparse.ArgumentParser) -> None:
        rule_set_arguments(parser)
        parser.add_argument("a", metavar="A", help=STRATEGIES)
        parser.add_argument("b", metavar="B", help="its opponent, the same way")
        parser.add_argument("--games", type=at_least_one, default=1_000_000, help="how many games (default: 1000000)")
        parser.add_argument(
            "--seed", type=int, default=None, help="seed the dice, to repeat a run (default: a fresh one)"
        )

    def rules_arguments(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "rules", nargs="?", type=rule_set_id, default=DEFAULT_RULES, metavar="RULES", help=RULES_HELP
        )

    def run_tournament(args: argparse.Namespace, out: TextIO) -> int:
        with refused_in_words():
            tournament(solutions, args.rules, args.goal, args.strategies, out)
        return 0

    def run_simulate(args: argparse.Namespace, out: TextIO) -> int:
        with refused_in_words():
            run_simulation(solutions, args.rules, args.goal, args.a, args.b, args.games, args.seed, out)
        return 0

    def run_rules(args: argparse.Namespace, out: TextIO) -> int:
        title, words = explain(args.rules)
        print(f"{title}\n\n{plain(words)}", file=out)
        return 0

    def analyze_arguments(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("game", metavar="GAME", help="the game's id (see history)")
        parser.add_argument("--json", action="store_true", help="one object per move, for scripts")

    def puzzle_arguments(parser: argparse.ArgumentParser) -> None:
        rule_set_arguments(parser)
        parser.add_argument("--theme", help="only puzzles of this theme (a part of its name: bacon, swap, lead …)")
        parser.add_argument("--seed", type=int, default=None, help="the same puzzles again (default: fresh ones)")
        parser.add_argument(
            "--name", default="Player", help="whose answers these are: rated and kept under it (default: Player)"
        )
        parser.add_argument(
            "--json", action="store_true", help="print the puzzles, one JSON object a line, for scripts"
        )
        parser.add_argument("--count", type=int, default=None, metavar="N", help="at most N puzzles (--json: all)")

    def run_puzzle(args: argparse.Namespace, out: TextIO) -> int:
        if not GOALS[0] <= args.goal <= MAX_SOLVED_GOAL:
            raise Refusal(f"Puzzles come from the solved game: goals {GOALS[0]} to {MAX_SOLVED_GOAL}, not {args.goal}.")
        if args.count is not None and args.count < 1:
            raise Refusal(f"--count is how many puzzles: 1 or more, not {args.count}.")
        name = checked(args.name)
        kept = contextlib.AsyncExitStack()
        with refused_in_words(), asyncio.Runner() as loop:
            try:
                p = loop.run(kept.enter_async_context(platform(hog.platform_settings)))  # stored games mined too
                book = book_of(p, solutions)

                def rate(puzzle: Puzzle, k: int) -> Marked | None:
                    return loop.run(book.answer(puzzle, player_id(name), name, k, "puzzle", time.time()))

                return serve_puzzles(list(loop.run(book.pool(args.rules, args.goal)).values()), args, out, rate)
            finally:
                loop.run(kept.aclose())

    def serve_puzzles(
        pool: list[Puzzle], args: argparse.Namespace, out: TextIO, rate: Callable[[Puzzle, int], Marked | None]
    ) -> int:
        """The pool's puzzles of the theme asked, shuffled by the seed: as JSON, or played at this
        terminal, each answer rated and kept under the player's name."""
        found = puzzling.of_theme(pool, args.theme)
        if not found and args.theme:
            themes = ", ".join(sorted({p.theme for p in pool}))
            raise Refusal(f"No puzzle's theme holds {args.theme.strip()[:40]!r}: the themes are {themes}.")
        random.Random(args.seed).shuffle(found)
        found = found[: args.count]
        if args.json:
            out.writelines(json.dumps(as_json(puzzle)) + "\n" for puzzle in found)
        elif not found:
            print("No puzzles turned up in these rules: try another rule set.", file=out)
        else:
            puzzling.train(found, keyboard(out), out, rate)
        return 0

    def train_arguments(parser: argparse.ArgumentParser) -> None:
        person = parser.add_mutually_exclusive_group()
        person.add_argument("--name", default="Player", help="a player at this terminal, by name (default: Player)")
        person.add_argument("--player", metavar="ID", help="a Discord user, by id")

    def run_train(args: argparse.Namespace, out: TextIO) -> int:
        who = args.player or player_id(args.name)

        async def page(offset: int) -> tuple[int, list[Puzzle]]:
            async with platform(hog.platform_settings) as p:
                total = await (await p.settled_views()).mistakes_count(who, hog.name)
                return total, await puzzling.your_mistakes(p, hog, who, offset, puzzling.TRAINING_PAGE)

        def pages(first: list[Puzzle]) -> Iterator[Puzzle]:
            """The positions a page at a time, the next read when the last is done."""
            found, offset = first, 0
            while found:
                yield from found
                offset += puzzling.TRAINING_PAGE
                found = asyncio.run(page(offset))[1]

        total, first = asyncio.run(page(0))
        if not first:
            print("No move of yours cost five points of chance in a finished game: nothing to train on yet.", file=out)
            return 0
        puzzling.retrain(pages(first), total, keyboard(out), out)
        return 0

    def run_analyze(args: argparse.Namespace, out: TextIO) -> int:
        print(asyncio.run(analyzed(hog, args.game, args.json)), file=out)
        return 0

    return (
        Subcommand(
            "compare",
            "strategies' exact win rates, each against each, ranked (not the servers' tournaments)",
            tournament_arguments,
            run_tournament,
        ),
        Subcommand(
            "simulate",
            "Monte Carlo games between two strategies, beside their exact win rate",
            simulate_arguments,
            run_simulate,
        ),
        Subcommand("rules", "a Hog rule set explained, with examples", rules_arguments, run_rules),
        Subcommand(
            "puzzle", "Hog puzzles from the solved game: find the one clearly best move", puzzle_arguments, run_puzzle
        ),
        Subcommand(
            "train",
            "the positions of your own Hog games where a move cost you five points, until you find the best",
            train_arguments,
            run_train,
        ),
        Subcommand(
            "analyze",
            "a Hog game's exact review: each move's chances, accuracy, blunders",
            analyze_arguments,
            run_analyze,
        ),
        contest_command(hog),
    )


async def analyzed(hog: HogGame, game_id: str, as_json: bool) -> str:
    """The review of ``game_id`` in the games' database, in words or as JSON; ``Refusal`` when there is none."""
    async with platform(hog.platform_settings) as p:
        owner, title = await game_of(p, game_id)
        if owner != hog.name:
            raise Refusal(f"Game {game_id} is a game of {title}: an exact review is for Hog games.")
        events = await p.service(hog.name).events(game_id)
    moves = await hog.review(events)
    if moves is None:
        raise Refusal(f"Game {game_id} is played past what is solved (goals up to {MAX_SOLVED_GOAL}): no exact review.")
    return review_json(moves) if as_json else review_text(replay(events), moves)
