"""Hog at the terminal: the console front (what to ask, what a line means, the board as text), and
the Hog-only commands of ``python -m bot``: replay with win chances and pictures, and stats.

Play the house (``--house easy|medium|perfect``) or a friend at the same keyboard (``--vs NAME``).
"""

from __future__ import annotations

import argparse
import secrets
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, TextIO

from bot import console
from bot.games.hog.analysis import move_words, moves_by_step
from bot.games.hog.board import board, hint, percent, text
from bot.games.hog.limits import GOALS, MAX_SOLVED_GOAL, check
from bot.games.hog.picture import animate, chart_of, render
from bot.games.hog.replays import chances_around
from bot.games.hog.rules_help import RULE_SETS_HELP, RuleSetIds, Toggles, rule_set_id
from bot.games.hog.stats import player_stats, sections
from bot.platform.compose import platform
from bot.platform.contract import Chance, GameRow, Outcome, Refusal, Replay
from bot.platform.names import checked, folded
from bot.platform.painter import drawn
from bot.platform.settings import Settings
from hog_core.errors import HogError
from hog_core.events import Event, Player
from hog_core.game import PORK_CHOP, Command, CreateGame, Forfeit, GameState, TakeTurn
from hog_core.rulesets import DEFAULT_RULES, OFF, turned_off
from hog_core.strategies import DIFFICULTIES
from storage.games import GameViews

if TYPE_CHECKING:
    from bot.games.hog.module import HogGame


def help_for(state: GameState) -> str:
    """What may be typed at this table: Pork Chop only where the rule set has it."""
    chop = "'chop' for Pork Chop, " if state.rules.pork_chop else ""
    return (
        f"Type a number of dice (0 to {state.legal_moves()[-1]}), {chop}'hint' for the best move, "
        "'forfeit' to resign, or 'quit' to leave the game for later."
    )


Commands = Callable[[GameState, Chance], list[Command]]


GOAL = 100
HOUSE = "perfect"
RULES_HELP = f"the rule set: {RULE_SETS_HELP} (default: {DEFAULT_RULES}; python -m bot rules RULES explains one)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that shape a new game. Each defaults to ``None`` so that an unfinished game is
    offered again only when the options given agree with it (``conflicts``)."""
    parser.add_argument("--rules", type=rule_set_id, choices=RuleSetIds(), metavar="RULES", help=RULES_HELP)
    parser.add_argument(
        "--without", action="append", choices=Toggles(), metavar="RULE",
        help="turn off one of the rule set's rules (again for another): the game is solved exactly for it",
    )  # fmt: skip
    parser.add_argument(
        "--goal",
        type=int,
        help=f"the score that wins (default: {GOAL}; {GOALS[0]} to {GOALS[-1]}, "
        f"above {MAX_SOLVED_GOAL} only against the easy house)",
    )
    rival = parser.add_mutually_exclusive_group()
    rival.add_argument("--house", choices=DIFFICULTIES, help=f"play the house at this level (default: {HOUSE})")
    rival.add_argument("--vs", metavar="NAME", help="play a friend at this keyboard instead of the house")


def rules_of(rules: str | None, off: Sequence[str] | None) -> str:
    """The id of ``rules`` (the default's when ``None``) with the rules ``off`` turned off."""
    return turned_off(rules or DEFAULT_RULES, off or ())


def new_game(
    rules: str | None, goal: int | None, name: str, house: str | None, vs: str | None, off: Sequence[str] | None = None
) -> tuple[str, CreateGame]:
    name = checked(name, "Your name")
    vs = checked(vs, "Your friend's name") if vs is not None else None
    if vs is not None and folded(vs) == folded(name):
        raise HogError(f"Two players need two names: --name and --vs are both {name!r}.")
    level = house or HOUSE
    rival = Player(console.player_id(vs), vs) if vs else Player(f"house:{level}", "The house", house=level)
    game_id = f"c{secrets.token_hex(4)}"
    me = Player(console.player_id(name), name)
    create = CreateGame(
        game_id,
        (me, rival),
        rules=rules_of(rules, off),
        goal=GOAL if goal is None else goal,
        place=console.PLACE,
    )
    check(create)
    return game_id, create


def conflicts(args: argparse.Namespace, row: GameRow) -> list[str]:
    """The options given that the unfinished game ``row`` was not started with."""
    rival = next((s for s in row.seats if s.name != args.name or s.bot), None)
    differ = {
        "--rules": args.rules is not None and row.fields.get("rules", "").split(OFF)[0] != args.rules,
        "--without": bool(args.without) and row.fields.get("rules") != rules_of(args.rules, args.without),
        "--goal": args.goal is not None and row.fields.get("goal") != str(args.goal),
        "--house": args.house is not None and (rival is None or rival.bot != args.house),
        "--vs": args.vs is not None and (rival is None or rival.bot is not None or rival.name != args.vs),
    }
    given = {option: getattr(args, option[2:]) for option in differ}
    return [
        " ".join(f"{option} {v}" for v in value) if isinstance(value, list) else f"{option} {value}"
        for option, value in given.items()
        if differ[option]
    ]


class HogConsole:
    def __init__(self, game: HogGame) -> None:
        self.game = game

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        add_arguments(parser)  # --name, --resume and --new are every game's

    def new_game(self, args: argparse.Namespace, player_id: str, name: str) -> tuple[str, CreateGame]:
        return new_game(args.rules, args.goal, name, args.house, args.vs, args.without)

    def conflicts(self, args: argparse.Namespace, row: GameRow) -> list[str]:
        return conflicts(args, row)

    def to_move(self, state: GameState) -> str | None:
        return state.players[state.mover].id if not state.is_over else None

    async def replay(self, events: Sequence[Event], game_id: str, stdout: TextIO, asked: Replay) -> None:
        await replay_game(self.game, events, game_id, stdout, asked)

    async def stats(self, views: GameViews, player_id: str, stdout: TextIO) -> None:
        await show_stats(views, player_id, stdout)

    def prompt(self, state: GameState) -> str:
        moves = state.legal_moves()
        chop = ", 'chop'" if PORK_CHOP in moves else ""
        return f"{state.players[state.mover].name}, how many dice? (0 to {moves[-1]}{chop}; 'help') "

    async def answer(self, state: GameState, player_id: str, line: str) -> Commands | str:
        answer = line.lower()
        if answer in ("h", "help", "?"):
            return help_for(state)
        if answer == "hint":
            return hint(state, await self.game.solution(state))
        if answer == "forfeit":
            return lambda state, chance: [Forfeit(player_id)]
        if answer == "chop" and state.rules.pork_chop and not state.chop_available():
            raise HogError(f"Your Pork Chop is spent: type a number of dice (0 to {state.legal_moves()[-1]}).")
        if answer == "chop" and not state.rules.pork_chop:
            raise HogError(f"Pork Chop is no rule of this game: type a number of dice (0 to {state.rules.max_dice}).")
        k = PORK_CHOP if answer == "chop" else _dice(answer, state)

        def turn(state: GameState, chance: Chance) -> list[Command]:
            dice = state.dice_for(k)
            return [TakeTurn(player_id, k, chance.roll(dice.count, dice.sides))]

        return turn

    async def board(self, outcome: Outcome[GameState, object], viewer: str) -> str:
        """The board after a command, with every line its events brought (the house's turns too)."""
        state = outcome.state
        solution = await self.game.solution(state)
        chances = None if solution is None else solution.win_chances(state)
        return text(board(state, outcome.story, chances))


def _dice(answer: str, state: GameState) -> int:
    try:
        return int(answer)
    except ValueError:
        raise HogError(f"{answer!r} is not a number of dice. {help_for(state)}") from None


async def table(
    stdin: TextIO,
    stdout: TextIO,
    settings: Settings,
    rules: str = DEFAULT_RULES,
    goal: int = GOAL,
    name: str = console.DEFAULT_NAME,
    house: str = HOUSE,
    vs: str | None = None,
    chance: Chance | None = None,
    resume: str | None = None,
    offer: bool = True,
) -> GameState:
    """One game of Hog at the terminal (see ``console.play``)."""
    new = new_game(rules, goal, name, house, vs)
    async with platform(settings, chance=chance) as p:
        state: GameState = await console.play(p, p.games["hog"], name, stdin, stdout, new, resume, offer)
        return state


async def replay_game(hog: HogGame, events: Sequence[Event], game_id: str, stdout: TextIO, asked: Replay) -> None:
    """Every step of a stored game (or step ``step``, counted from 1) as the table showed it, with the
    win chances before and after, a pause between two when ``asked`` says; ``picture`` saves the
    picture of the game there, ``gif`` its animation."""
    step, picture, gif = asked.step, asked.picture, asked.gif
    steps = list(hog.narrate(events))
    if step is not None and not 1 <= step <= len(steps):
        raise Refusal(f"Game {game_id} has steps 1 to {len(steps)}, not {step}.")
    solution = await hog.solution(steps[-1][1])
    reviewed = await hog.review(events) or []
    turns = moves_by_step(events, reviewed)
    for i in range(len(steps)) if step is None else [step - 1]:
        before, after = chances_around(steps, i, solution)
        was = f"    win chance before {percent(before[0])} · {percent(before[1])}" if before and i else ""
        print(f"Step {i + 1} of {len(steps)}{was}", file=stdout)
        if (move := turns[i]) is not None:  # the move of this step, marked by the exact review
            print(f"  this move: {move_words(move)}", file=stdout)
        print(text(board(steps[i][1], steps[i][2], after)), file=stdout)
        if step is None and not await asked.goes_on(i + 1, len(steps)):
            break
    c = chart_of(events, solution, reviewed)
    at = steps[step - 1][1].turn_number if step is not None else None
    for path, what, draw in ((picture, "picture", partial(render, at=at)), (gif, "animation", animate)):
        if path is None:
            continue
        if c is None:
            print(f"No {what}: nobody has moved yet.", file=stdout)
            continue
        path.write_bytes(await drawn(draw, c))
        print(f"The {what} of the game is in {path}.", file=stdout)


async def show_stats(views: GameViews, player: str, stdout: TextIO) -> None:
    stats, play = await player_stats(views, player)
    name = await console.name_of(views, player)
    invite = "Play one: python -m bot (the house), or python -m bot --vs NAME (a friend here)."
    print(console.sections_text(f"{name}'s Hog stats", sections(stats, play, invite)), file=stdout)
