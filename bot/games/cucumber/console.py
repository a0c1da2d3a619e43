"""Cucumber at the terminal: you and bots at one table, the hand's tricks as the course's board, your
hand numbered. Stored like a Discord game, so it can be replayed."""

from __future__ import annotations

import argparse
import re
import secrets
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, TextIO

from bot.console import name_of, sections_text
from bot.games.cucumber.analysis import ESTIMATE, review_lines
from bot.games.cucumber.hands import hand_of, hint, hint_source, in_value_order
from bot.games.cucumber.moves import play
from bot.games.cucumber.picture import animate, chart, charts, render
from bot.games.cucumber.replays import steps
from bot.games.cucumber.stats import player_stats, sections
from bot.platform.contract import Chance, GameRow, Lines, Outcome, Refusal, Replay
from bot.platform.names import checked
from bot.platform.painter import drawn
from cucumber_core.bots import BOTS
from cucumber_core.cards import SHORT_NUMS, SUIT_SYMBOLS, Card, name, short
from cucumber_core.errors import CucumberError, IllegalCard
from cucumber_core.events import Event, Seat
from cucumber_core.game import MAX_PLAYERS, Command, CreateGame, GameState, Phase, bot_seat
from cucumber_core.review import CardReview
from cucumber_core.rules import check_table
from cucumber_core.table import Table
from storage.games import GameViews

PLACE = "console"
INVITE = "Play one: python -m bot cucumber."
PLAYERS, TARGET, CARDS = 3, 21, 7
"""A new table's defaults: you and two strong bots, seven cards a hand, 21 loses."""
HELP = (
    "Type a card of your hand: its number (1 to {n}) or its name, like Q♠, qs or Queen Spades. Cards in "
    "brackets cannot be played now: play at least the trick's highest value, or your lowest card if you "
    "hold nothing that high. Only the last trick of a hand scores, and reaching {target} loses. "
    "'hint' asks the strong bot for its card, 'quit' (or q) keeps the game for later."
)
SUIT_LETTERS = {"c": 0, "d": 1, "h": 2, "s": 3, **{symbol: i for i, symbol in enumerate(SUIT_SYMBOLS)}}


def players(text: str) -> int:
    if not text.isdigit() or not 2 <= int(text) <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(f"a table seats 2 to {MAX_PLAYERS} players, not {text!r}")
    return int(text)


def bots(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in BOTS]
    if not names or unknown:
        wrong = ", ".join(unknown) or repr(text)
        raise argparse.ArgumentTypeError(f"no bot {wrong}: the bots are {', '.join(BOTS)}")
    return names


def whole(low: int, high: int) -> Callable[[str], int]:
    def number(text: str) -> int:
        if not text.isdigit() or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"must be a whole number from {low} to {high}, not {text!r}")
        return int(text)

    return number


def parse_card(text: str) -> Card | None:
    """``Q♠``, ``qs``, ``10h``, ``Queen Spades``: the card a player types, or ``None``."""
    words = text.strip()
    if match := re.fullmatch(r"(10|[2-9JQKA])\s*([cdhs♣♦♥♠])", words, re.IGNORECASE):
        return SHORT_NUMS.index(match[1].upper()) + 13 * SUIT_LETTERS[match[2].lower()]
    return next((c for c in range(52) if name(c).lower() == words.lower()), None)


def table_of(state: GameState) -> Table:
    """This hand's tricks as the course prints its board: who led (the course prints the seat's
    index; a name reads better), then each player's card."""
    board = Table(["led by", *(s.name for s in state.seats)])
    for trick in state.tricks:
        played = dict(trick.plays)
        cards = (name(played[i]) if i in played else "" for i in range(len(state.seats)))
        board.append([state.seats[trick.leader].name, *cards])
    return board


def hands_line(state: GameState, hands: Sequence[Sequence[Card]]) -> str:
    """Every seat's cards in value order: only for a game that is over."""
    held = (" ".join(short(c) for c in in_value_order(cards)) or "-" for cards in hands)
    cards = " · ".join(f"{s.name} {h}" for s, h in zip(state.seats, held, strict=True))
    return f"Cards in hand (shown now that the game is over): {cards}"


class Replayed(Protocol):
    """What the console's replay asks of the game: its story, and its review once it is over."""

    def narrate(self, events: Sequence[Event]) -> Iterator[tuple[Event, GameState, Lines]]: ...

    async def review(self, events: Sequence[Event]) -> list[CardReview] | None: ...


class CucumberConsole:
    def __init__(self, game: Replayed) -> None:
        self.game = game

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """The options that shape a new table; each defaults to ``None`` (see ``conflicts``)."""
        seats = f"(default: {PLAYERS}; 2 to {MAX_PLAYERS})"
        parser.add_argument("--players", type=players, help=f"players at the table, you included {seats}")
        parser.add_argument(
            "--bots",
            type=bots,
            help=f"your opponents, comma-separated (default: strong for every other seat; from {', '.join(BOTS)})",
        )
        parser.add_argument("--target", type=whole(1, 1000), help=f"the score that loses (default: {TARGET})")
        parser.add_argument("--cards", type=whole(1, 25), help=f"cards per hand (default: {CARDS})")
        parser.add_argument(
            "--cucumbers",
            action="store_true",
            default=None,
            help="reaching the target the first time costs a cucumber (your score starts again), the second loses",
        )

    def new_game(self, args: argparse.Namespace, player_id: str, name: str) -> tuple[str, CreateGame]:
        count = args.players or (len(args.bots) + 1 if args.bots else PLAYERS)
        opponents = list(args.bots or ["strong"] * (count - 1))
        if len(opponents) != count - 1:
            raise Refusal(f"--players {count} seats {count - 1} bots beside you, but --bots names {len(opponents)}.")
        cards, target = args.cards or CARDS, args.target or TARGET
        try:
            check_table(count, cards)
        except CucumberError as error:
            raise Refusal(error.message) from error
        seats: list[Seat] = [Seat(player_id, checked(name, "Your name"))]
        for bot in opponents:
            seats.append(bot_seat(bot, seats))
        game_id = f"c{secrets.token_hex(5)}"
        create = CreateGame(game_id, tuple(seats), cards, target, bool(args.cucumbers), cut=True, place=PLACE)
        return game_id, create

    def conflicts(self, args: argparse.Namespace, row: GameRow) -> list[str]:
        """The options given that the unfinished table ``row`` was not set with."""
        fields, opponents = row.fields, [s.bot for s in row.seats if s.bot is not None]
        differ = {
            "--players": args.players is not None and fields.get("players") != str(args.players),
            "--bots": args.bots is not None and opponents != args.bots,
            "--target": args.target is not None and fields.get("target") != str(args.target),
            "--cards": args.cards is not None and fields.get("cards") != str(args.cards),
            "--cucumbers": args.cucumbers is not None and fields.get("cucumbers", "on") != "on",
        }
        given = {"--bots": ",".join(args.bots or ()), "--cucumbers": ""}
        return [
            f"{option} {given.get(option, getattr(args, option[2:]))}".strip()
            for option, differs in differ.items()
            if differs
        ]

    def to_move(self, state: GameState) -> str | None:
        seat = state.to_play
        return None if seat is None or state.bots[seat] is not None else state.seats[seat].id

    def prompt(self, state: GameState) -> str:
        return "Your card (its number, or its name like Q♠ or qs; 'hint', 'help', q to quit): "

    async def answer(
        self, state: GameState, player_id: str, line: str
    ) -> Callable[[Any, Chance], Sequence[Command]] | str:
        seat = state.seat_of(player_id)
        assert seat is not None
        held = hand_of(state, seat).cards
        if line.lower() in ("h", "help", "?"):
            return HELP.format(n=len(held), target=state.target)
        if line.lower() == "hint":
            return hint(state, seat, hint_source(state))
        card = held[int(line) - 1] if line.isdigit() and 1 <= int(line) <= len(held) else parse_card(line)
        if card is None:
            raise IllegalCard(f"{line!r} is not a card: type its number (1 to {len(held)}) or its name, like Q♠ or qs.")
        return play(player_id, card, state.moment)

    async def stats(self, views: GameViews, player_id: str, stdout: TextIO) -> None:
        record, totals = await player_stats(views, player_id)
        name = await name_of(views, player_id)
        print(sections_text(f"{name}'s Cucumber stats", sections(record, totals, INVITE)), file=stdout)

    async def replay(self, events: Sequence[Event], game_id: str, stdout: TextIO, asked: Replay) -> None:
        """The game trick by trick as the table saw it; every hand too, once the game is over."""
        game, step, picture, gif = self.game, asked.step, asked.picture, asked.gif
        found = steps(game.narrate(events))
        final = found[-1].after
        if step is not None and not 1 <= step <= len(found):
            raise Refusal(f"Game {game_id} has steps 1 to {len(found)}, not {step}.")
        for i in range(len(found)) if step is None else [step - 1]:
            now = found[i]
            print(f"Step {i + 1} of {len(found)}", file=stdout)
            print("\n".join(now.lines), file=stdout)
            hands = now.after.hands  # as the step leaves them: its cards played (none left once a hand ends)
            if final.is_over and any(hands):
                print(hands_line(final, hands), file=stdout)
            if now.after.scores:
                scores = " · ".join(f"{s.name} {n}" for s, n in zip(final.seats, now.after.scores, strict=True))
                print(f"Scores: {scores}\n", file=stdout)
            if step is None and not await asked.goes_on(i + 1, len(found)):
                break
        if step is None and (reviewed := await game.review(events)) is not None:
            lines = review_lines([s.name for s in final.seats], reviewed)
            print(f"── Review ──\n  ({ESTIMATE})", *(f"  {line}" for line in lines), sep="\n", file=stdout)
        if picture is not None:
            picture.write_bytes(await drawn(render, chart(events)))
            print(f"The picture of the game is in {picture}.", file=stdout)
        if gif is not None:
            frames = list(charts(events))
            if len(frames) == 1:
                print("No animation: no trick has been taken yet.", file=stdout)
                return
            gif.write_bytes(await drawn(animate, frames))
            print(f"The animation of the game is in {gif}.", file=stdout)

    async def board(self, outcome: Outcome[Any, Any], viewer: str) -> str:
        state: GameState = outcome.state
        lines = [*outcome.story, ""]
        if state.tricks:
            lines += [f"Hand {state.hand_number}:", table_of(state).as_text(), ""]
        n = len(state.seats)  # a table not yet started has no scores: every seat stands at 0
        points, cucumbers = state.scores or (0,) * n, state.cucumbers or (0,) * n
        scores = "   ".join(f"{s.name} {points[i]}{' 🥒' * cucumbers[i]}" for i, s in enumerate(state.seats))
        lines.append(f"Scores (reach {state.target} and you lose): {scores}")
        seat = state.seat_of(viewer)
        if seat is not None and state.phase is Phase.PLAY:
            hand = hand_of(state, seat)
            cards = "  ".join(
                f"{i}:{short(c)}" if c in hand.legal else f"({i}:{short(c)})" for i, c in enumerate(hand.cards, 1)
            )
            lines += [f"Your hand: {cards}", hand.why]
        return "\n".join(lines)
