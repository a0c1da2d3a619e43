"""Hog as a platform game module: its events namespaced ``hog.``, its house as the bot seat, its
challenge and turn deadlines, and the solved rule sets that the house and the win chances use."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from bot.games.hog import turns
from bot.games.hog.analysis import facts, remarks
from bot.games.hog.board import rules_name
from bot.games.hog.limits import MAX_SOLVED_GOAL, check
from bot.games.hog.picture import animate, chart_of, render
from bot.games.hog.solutions import SolutionCache
from bot.games.hog.summary import Tally, summarize, summary_of, tally
from bot.platform.contract import (
    Chance,
    Choice,
    Commands,
    ConsoleFront,
    Deadline,
    EventRecord,
    GameRow,
    Lines,
    Outcome,
    Refusal,
    Reminder,
    Setting,
    Subcommand,
    Summary,
)
from bot.platform.painter import drawn
from bot.platform.recent import Recent
from bot.platform.registry import load
from bot.platform.server_settings import DAY, whole_number
from bot.platform.settings import Settings, whole
from hog_core import events as ev
from hog_core.commentary import Story, Told, narrate, tell
from hog_core.errors import HogError
from hog_core.events import Player
from hog_core.game import (
    PORK_CHOP,
    Command,
    CreateGame,
    ExpireChallenge,
    Forfeit,
    GameState,
    Status,
    TakeTurn,
    VoidGame,
    decide,
    evolve,
    replay,
)
from hog_core.kernel import Kernel
from hog_core.puzzles import TRAINED
from hog_core.review import MoveReview, Reviewer
from hog_core.rulesets import DEFAULT_RULES, RULE_SETS, canonical
from hog_core.solver import Solution
from hog_core.strategies import house_move

if TYPE_CHECKING:
    from aiohttp import web

RESULTS = {"win": "won", "loss": "lost", "draw": "drew"}
REVIEWS_KEPT = 256
"""Games whose exact reviews are kept in memory (a few KB each)."""
STATUS_WORDS = {Status.ACTIVE.value: "playing", Status.CHALLENGED.value: "challenge open"}
"""A game's status as a list of games says it (every game's running games are ``playing``)."""


def warning_before(turn_timeout: int) -> float:
    """How long before a turn's deadline the player is warned: two minutes, or a fifth of a
    shorter timeout."""
    return min(120.0, turn_timeout / 5)


def turn(player: str, k: int) -> Commands[GameState, Command]:
    """``player`` chooses ``k`` dice (``-1``: Pork Chop), rolled by the platform's chance."""

    def commands(state: GameState, chance: Chance) -> list[Command]:
        dice = state.dice_for(k)
        return [TakeTurn(player, k, chance.roll(dice.count, dice.sides))]

    return commands


def resign(player: str, reason: str = "resigned") -> Commands[GameState, Command]:
    return lambda state, chance: [Forfeit(player, reason)]


def rule_set_setting(value: str) -> str:
    """A server's default rule set: a semester's id, an alias or a rule set of one's own, as its id."""
    try:
        return canonical(value)
    except HogError as error:
        raise Refusal(error.message) from None


class HogGame:
    name = "hog"
    title = "Hog"
    draws = "dice"
    refusal = HogError
    discord_front = "bot.games.hog.discord.front:HogFront"

    settings = (
        ("HOG_CHALLENGE_TIMEOUT", "seconds before an unanswered challenge expires (0: never; default 600)"),
        ("HOG_TURN_TIMEOUT", "seconds a player has to move before forfeiting (0: no limit; default 600)"),
    )
    """The environment variables it reads, and what they mean."""

    def __init__(self, settings: Settings | None = None, solutions: SolutionCache | None = None) -> None:
        settings = self.platform_settings = settings or Settings()
        self.solutions = solutions or SolutionCache.of(settings)
        self.challenge_timeout = whole(settings.env, "HOG_CHALLENGE_TIMEOUT", 600)
        self.turn_timeout = whole(settings.env, "HOG_TURN_TIMEOUT", 600)
        self._reviewers: dict[tuple[str, int, int], Reviewer] = {}
        self._reviews: Recent[tuple[str, int], list[MoveReview]] = Recent(REVIEWS_KEPT)
        """The latest games' reviews by game and length: a finished game is reviewed for its board,
        for its stats and on every step of its replay, and its log never changes."""
        self.server_settings = (
            Setting("hog-rules", "the rule set of a game when none is chosen", DEFAULT_RULES, rule_set_setting),
            Setting("hog-goal", "the points to win when none are chosen (10 to 200)", "100", whole_number(10, 200)),
            Setting("hog-turn-timeout", "seconds to move before forfeiting (0: no limit)", str(self.turn_timeout),
                    whole_number(0, DAY)),
            Setting("hog-challenge-timeout", "seconds before a challenge nobody answers expires (0: never)",
                    str(self.challenge_timeout), whole_number(0, DAY)),
        )  # fmt: skip
        """What a server's admins may set (``bot.platform.server_settings``)."""

    def initial(self) -> GameState:
        return GameState()

    table_sizes = (2, 2)
    """A tournament's Hog games are between two players (``bot.platform.tournaments``)."""

    def tournament_game(
        self, game_id: str, place: str, players: Sequence[tuple[str, str]], options: Mapping[str, str]
    ) -> CreateGame:
        """A tournament's game, under way at once: the first player moves first; a player who never
        moves forfeits by the turn timeout."""
        (a, a_name), (b, b_name) = players
        rules, goal = options.get("rules", DEFAULT_RULES), int(options.get("goal", "100"))
        timeout = int(options.get("turn-timeout", self.turn_timeout))
        seats = (Player(a, a_name), Player(b, b_name))
        return CreateGame(game_id, seats, rules=rules, goal=goal, place=place, turn_timeout=timeout)

    def withdraw(self, state: GameState, player: str) -> list[Command]:
        return [Forfeit(player, "dropped")]

    def decide(self, state: GameState, command: Command) -> list[ev.Event]:
        if isinstance(command, CreateGame):
            check(command)
        return decide(state, command)

    def evolve(self, state: GameState, event: ev.Event) -> GameState:
        return evolve(state, event)

    def encode(self, event: ev.Event) -> EventRecord:
        return ev.event_type(event), type(event).VERSION, ev.encode(event)

    def decode_all(self, records: Sequence[EventRecord]) -> list[ev.Event]:
        return ev.decode_all(records)

    def narrate(self, events: Sequence[ev.Event]) -> Iterator[tuple[ev.Event, GameState, Lines]]:
        return narrate(events)

    def tell(self, story: Story | None, events: Sequence[ev.Event]) -> tuple[Story, list[Told]]:
        """A move told after the story so far (the game and the commentary's next speaker)."""
        return tell(story, events)

    async def solution(self, state: GameState) -> Solution | None:
        """The game's solved rule set (from the cache, or solved off the event loop), or ``None``
        for a goal past ``MAX_SOLVED_GOAL``: the board then shows no win chances."""
        if state.goal > MAX_SOLVED_GOAL:
            return None
        rules = RULE_SETS[state.rules.id]
        return await self.solutions.get(rules, state.goal)

    async def review(self, events: Sequence[ev.Event]) -> list[MoveReview] | None:
        """The exact review of the game ``events`` tell (``hog_core.review``), or ``None`` for a goal
        past what is solved."""
        if not events:
            return []
        last = replay(events)
        if (kept := self._reviews.get((last.game_id, len(events)))) is not None:
            return kept
        reviewer = await self.reviewer(last)
        if reviewer is None:
            return None
        return self._reviews.put((last.game_id, len(events)), await asyncio.to_thread(reviewer.review, events))

    async def reviewer(self, state: GameState) -> Reviewer | None:
        """The reviewer of the rules and goal of ``state``'s game, ``None`` for a goal past what is
        solved. A rule set's reviewer is built once, off the event loop."""
        solution = await self.solution(state)
        if solution is None:
            return None
        key = (solution.rules, solution.rules_version, solution.goal)
        reviewer = self._reviewers.get(key)
        if reviewer is None:
            reviewer = await asyncio.to_thread(Reviewer, Kernel(RULE_SETS[state.rules.id], state.goal), solution)
            self._reviewers[key] = reviewer
        return reviewer

    async def mistakes(self, events: Sequence[ev.Event]) -> list[list[int]] | None:
        """Each person's moves that cost them ``TRAINED`` of their chance or more, by the version of
        their ``TurnTaken`` (the house's are left out: nobody trains it): the trainer's positions."""
        moves = await self.review(events)
        if moves is None:
            return None
        players = replay(events).players
        found: list[list[int]] = [[], []]
        turns = [version for version, e in enumerate(events, 1) if isinstance(e, ev.TurnTaken)]
        for version, move in zip(turns, moves, strict=True):
            if move.loss >= TRAINED and players[move.mover].house is None:
                found[move.mover].append(version)
        return found

    turn_columns = turns.HEADER

    async def turn_rows(self, events: Sequence[ev.Event]) -> list[tuple[object, ...]]:
        """The game's turns, a row each, with its exact review beside them (``bot.games.hog.turns``)."""
        return list(turns.rows(events, await self.review(events)))

    async def remarks(self, events: Sequence[ev.Event], step: int) -> tuple[str, ...]:
        """The exact review at step ``step`` (from 1): each player's accuracy, and that step's move."""
        moves = await self.review(events)
        return remarks(events, moves, step) if moves else ()

    async def assess(self, events: Sequence[ev.Event]) -> list[dict[str, int]] | None:
        """Each seat's exact review in numbers (``analysis.facts``), for the stats."""
        moves = await self.review(events)
        return None if moves is None else [facts([m for m in moves if m.mover == seat]) for seat in (0, 1)]

    async def automatic(self, state: GameState, chance: Chance) -> Command | None:
        """The house's move while it is the house's turn (its extra turns included)."""
        if state.status is not Status.ACTIVE or (level := state.players[state.mover].house) is None:
            return None
        k = house_move(level, state, await self.solution(state) if level in ("medium", "perfect") else None)
        dice = state.dice_for(k)
        return TakeTurn(state.players[state.mover].id, k, chance.roll(dice.count, dice.sides))

    def deadlines(self, state: GameState, created_at: float, last_at: float) -> list[Deadline]:
        """An open challenge expires; a player who does not move is warned, then forfeits. The
        house never times out."""
        if state.status is Status.CHALLENGED and state.challenge_timeout:
            return [Deadline(created_at + state.challenge_timeout, "expire")]
        if state.status is Status.ACTIVE and state.turn_timeout and state.players[state.mover].house is None:
            end = last_at + state.turn_timeout
            return [Deadline(end - warning_before(state.turn_timeout), "warn"), Deadline(end, "timeout")]
        return []

    def on_deadline(self, state: GameState, kind: str) -> list[Command] | Reminder | None:
        if kind == "expire" and state.status is Status.CHALLENGED:
            return [ExpireChallenge()]
        if state.status is not Status.ACTIVE:
            return None
        if kind == "warn":
            minutes = max(1, round(warning_before(state.turn_timeout) / 60))
            left = f"{minutes} minute{'s' if minutes != 1 else ''} left before you forfeit."
            return Reminder(state.players[state.mover].id, f"it's your move: {left}")
        return [Forfeit(state.players[state.mover].id, "timeout")] if kind == "timeout" else None

    def call_off(self, state: GameState) -> list[Command]:
        return [VoidGame()]

    def redraw(self, before: GameState, event: ev.Event, chance: Chance) -> tuple[ev.Event, int] | None:
        """A turn's dice as ``chance`` rolls them for its choice (none for zero dice or Pork Chop)."""
        if not isinstance(event, ev.TurnTaken):
            return None
        dice = before.dice_for(event.k)
        return msgspec.structs.replace(event, outcomes=chance.roll(dice.count, dice.sides)), dice.count

    def summary(self, events: Sequence[ev.Event]) -> Summary:
        return summarize(events)

    def summing(self, kept: Tally | None, events: Sequence[ev.Event]) -> tuple[Tally, Summary]:
        folded = tally(kept, events)
        return folded, summary_of(folded)

    async def picture(self, events: Sequence[ev.Event], step: int | None = None) -> bytes | None:
        """Both totals turn by turn and the win chances below, up to step ``step`` (the empty board
        before the first turn)."""
        if not events:
            return None
        shown = events[:step] if step else events  # the game as it stood at that step: nothing after it
        c = chart_of(shown, await self.solution(replay(events)), await self.review(shown) or (), empty=True)
        return None if c is None else await drawn(render, c)

    async def animation(self, events: Sequence[ev.Event]) -> bytes | None:
        c = chart_of(events, await self.solution(replay(events)), await self.review(events) or ()) if events else None
        return None if c is None else await drawn(animate, c)

    @cached_property
    def console(self) -> ConsoleFront[GameState, Command]:
        """The game at a terminal (``bot.games.hog.console``, imported when first used)."""
        console: ConsoleFront[GameState, Command] = load("bot.games.hog.console:HogConsole")(self)
        return console

    @cached_property
    def subcommands(self) -> Sequence[Subcommand]:
        """``python -m bot solve``, ``analyze``, ``contest`` and the rest (``bot.games.hog.commands``,
        imported when first used)."""
        brought: Sequence[Subcommand] = load("bot.games.hog.commands:subcommands")(self)
        return brought

    def web_pages(self, app: web.Application) -> list[tuple[str, str]]:
        """The contest's pages on the web front (``bot.games.hog.contest.web``), and the front page's link to them."""
        load("bot.games.hog.contest.web:add_contest_pages")(app, self.solutions)
        load("bot.games.hog.puzzle_pages:add_puzzle_pages")(app, self.solutions)
        return [
            ("Hog puzzles: find the one clearly best move", "/puzzles"),
            ("The Hog contest: final strategies ranked exactly", "/contests/contest"),
        ]

    board_style = Path(__file__).parent / "web" / "board.css"
    emblem = Path(__file__).parent / "web" / "emblem.svg"
    blurb = "Roll up to ten dice, bank the points, reach the goal first: CS 61A's dice game, in every semester's rules."

    async def html_board(self, outcome: Outcome[GameState, ev.Event], viewer: str) -> str:
        """The board as HTML (``bot.games.hog.html_board``): everything in Hog is public."""
        state = outcome.state
        return load("bot.games.hog.html_board:html")(state, outcome.told, await self.solution(state))  # type: ignore[no-any-return]

    def move_choices(self, state: GameState, player: str) -> list[Choice]:
        """A button for each legal number of dice (keys 0-9) and Pork Chop (key c), for the mover."""
        if state.is_over or state.status is not Status.ACTIVE or state.players[state.mover].id != player:
            return []
        return [
            Choice("chop", "Pork Chop", "use Pork Chop: swap totals", "c")
            if k == PORK_CHOP
            else Choice(str(k), str(k), f"roll {k} {'die' if k == 1 else 'dice'}", str(k) if k < 10 else "")
            for k in state.legal_moves()
        ]

    def public(self, state: GameState) -> GameState:
        """Everything in Hog is public: the totals, the dice, whose turn it is."""
        return state

    def history_line(self, row: GameRow, player_id: str | None) -> str:
        """One game from ``player_id``'s side (opponent, rule set and goal, result and score), or
        from nobody's: both seats with their totals, then the winner."""
        rules = f"{rules_name(row.fields.get('rules', '?'))} to {row.fields.get('goal', '?')}"
        named = [f"{s.name} ({s.bot})" if s.bot else s.name for s in row.seats]
        status = STATUS_WORDS.get(row.status, row.status)
        me = next((i for i, s in enumerate(row.seats) if s.player_id == player_id), None)
        if me is None or len(row.seats) != 2:
            totals = " – ".join(f"{n} {s.score}" for n, s in zip(named, row.seats, strict=True))
            winner = next((n for n, s in zip(named, row.seats, strict=True) if s.result == "win"), None)
            return f"{totals} · {rules} · {f'{winner} won' if winner else status}"
        result = RESULTS.get(row.seats[me].result or "", status)
        return f"vs {named[1 - me]} · {rules} · {result} {row.scores[me]}–{row.scores[1 - me]}"
