"""Cucumber as a platform game module: events namespaced ``cucumber.``, a table (lobby) before each
game, the platform's shuffles for the cut and every deal, bots in empty or abandoned seats, and a turn
deadline after which the strong bot plays for an absent person (three in a row: their seat is the
bot's until they come back).

A bot's card is chosen from its seat's view alone, with a random source seeded by the game and its
version: a replay never asks a bot again (the card is in the log), and a timer that fires twice
chooses the same card.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Mapping, Sequence
from functools import cached_property
from pathlib import Path

import msgspec

from bot.games.cucumber.analysis import ESTIMATE, card_words, player_line, step_review
from bot.games.cucumber.hands import hint_source, seeded
from bot.games.cucumber.moves import STAND_IN
from bot.games.cucumber.picture import animate, chart, charts, render
from bot.games.cucumber.replays import step_ends
from bot.games.cucumber.summary import Tally, summarize, summary_of, tally
from bot.platform.contract import (
    Chance,
    Choice,
    ConsoleFront,
    Deadline,
    EventRecord,
    GameRow,
    Lines,
    Outcome,
    Reminder,
    Setting,
    Summary,
)
from bot.platform.painter import drawn
from bot.platform.recent import Recent
from bot.platform.registry import load
from bot.platform.server_settings import DAY, whole_number
from bot.platform.settings import Settings, whole
from cucumber_core import commentary, strong
from cucumber_core import events as ev
from cucumber_core import review as estimated
from cucumber_core.bots import BOTS
from cucumber_core.cards import DECK, Card
from cucumber_core.errors import CucumberError
from cucumber_core.events import Seat
from cucumber_core.game import (
    MAX_PLAYERS,
    CallOff,
    CloseLobby,
    Command,
    CreateGame,
    GameState,
    Phase,
    PlayCard,
    TakeOver,
    decide,
    evolve,
    replay,
)
from cucumber_core.review import CardReview
from cucumber_core.views import PublicView, SeatView, public_view, seat_view

REVIEWS_KEPT = 64
"""Finished games whose estimated reviews are kept in memory."""
ASIDE_FROM = 5
"""Seats at a table from which the strong bot searches in a thread (``bot_card_aside``)."""
AWAY_AFTER = 3
"""Turns in a row a person may let run out before their seat is the bot's until they come back."""


def warning_before(turn_timeout: int) -> float:
    """How long before a turn's deadline its player is reminded: a quarter of the time."""
    return turn_timeout / 4


def bot_card(state: GameState, seat: int, bot: str, view: SeatView | None = None) -> Card:
    """The card ``bot`` plays for ``seat``, from that seat's view (``view``, when made already) and a
    source seeded by the game's version; a seat with one legal card plays it (no bot is asked, and
    no source made: a bot's every other move)."""
    view = seat_view(state, seat) if view is None else view
    if len(view.legal) == 1:
        return view.legal[0]
    return BOTS[bot](view, seeded(f"{state.game_id}:{state.version}"))


async def bot_card_aside(state: GameState, seat: int, bot: str) -> Card:
    """``bot_card``; the strong bot's search at a table of ``ASIDE_FROM`` seats or more in a thread.
    There a search takes up to 3 ms, and in a thread the event loop answers other games' clicks in
    between (numpy lets go of the GIL in its operations on the search's arrays, and the loop takes
    it back at least every ``sys.getswitchinterval``): while a table of six is handed to bots, other
    games' acknowledgements p90 14 ms, beside 24 ms on the loop (``bench/pause.py``). At smaller
    tables a search is under a millisecond, and handing the GIL back and forth would cost more CPU
    than it spares in waiting."""
    view = seat_view(state, seat)
    if bot == "strong" and len(state.seats) >= ASIDE_FROM and strong.searches(view):
        return await asyncio.to_thread(bot_card, state, seat, bot, view)
    return bot_card(state, seat, bot, view)


class CucumberGame:
    name = "cucumber"
    title = "Cucumber"
    draws = "cards"
    refusal = CucumberError
    discord_front = "bot.games.cucumber.discord.front:CucumberFront"
    subcommands = ()

    settings = (
        ("HOG_CARD_TIMEOUT", "seconds a player has to play before a bot plays for them (0: no limit; default 60)"),
        ("HOG_LOBBY_TIMEOUT", "seconds before a table nobody starts closes (0: never; default 600)"),
    )
    """The environment variables it reads, and what they mean."""

    def __init__(self, settings: Settings | None = None) -> None:
        env = (settings or Settings()).env
        self.card_timeout = whole(env, "HOG_CARD_TIMEOUT", 60)
        self.lobby_timeout = whole(env, "HOG_LOBBY_TIMEOUT", 600)
        self.server_settings = (
            Setting("cucumber-turn-timeout", "seconds to play a card before a bot plays for you (0: no limit)",
                    str(self.card_timeout), whole_number(0, DAY)),
            Setting("cucumber-lobby-timeout", "seconds before a table nobody starts closes (0: never)",
                    str(self.lobby_timeout), whole_number(0, DAY)),
        )  # fmt: skip
        """What a server's admins may set (``bot.platform.server_settings``)."""
        self._reviews: Recent[str, list[CardReview]] = Recent(REVIEWS_KEPT)
        """The latest finished games' reviews (a finished game never changes): a replay's every step
        shows one, and a game's takes tens of milliseconds."""

    def initial(self) -> GameState:
        return GameState()

    table_sizes = (3, MAX_PLAYERS)
    """A tournament seats Cucumber players at tables of 3 to 6 (``bot.platform.tournaments``)."""

    def tournament_game(
        self, game_id: str, place: str, players: Sequence[tuple[str, str]], options: Mapping[str, str]
    ) -> CreateGame:
        """A tournament's table, dealt at once after a cut for the dealer; a player who does not play
        in time is played for, as at any table."""
        seats = tuple(Seat(p, name) for p, name in players)
        timeout = int(options.get("turn-timeout", self.card_timeout))
        target, cards = int(options.get("target", "21")), int(options.get("cards", "7"))
        cucumbers = options.get("cucumbers") == "yes"
        return CreateGame(game_id, seats, cards, target, cucumbers, cut=True, turn_timeout=timeout, place=place)

    def withdraw(self, state: GameState, player: str) -> list[Command]:
        """A dropped player's seat is played by a stand-in to the end of the game."""
        return [TakeOver(player, STAND_IN, "left")]

    def decide(self, state: GameState, command: Command) -> list[ev.Event]:
        return decide(state, command)

    def evolve(self, state: GameState, event: ev.Event) -> GameState:
        return evolve(state, event)

    def encode(self, event: ev.Event) -> EventRecord:
        return type(event).__name__, type(event).VERSION, ev.encode(event)

    def decode_all(self, records: Sequence[EventRecord]) -> list[ev.Event]:
        decoded = []
        for name, schema, data in records:
            event = ev.decode(data)
            if type(event).__name__ != name or schema != type(event).VERSION:
                raise msgspec.ValidationError(f"a {name} v{schema} record holds a {type(event).__name__}")
            decoded.append(event)
        return decoded

    @cached_property
    def console(self) -> ConsoleFront[GameState, Command]:
        """The game at a terminal (``bot.games.cucumber.console``, imported when first used)."""
        console: ConsoleFront[GameState, Command] = load("bot.games.cucumber.console:CucumberConsole")(self)
        return console

    def narrate(self, events: Sequence[ev.Event]) -> Iterator[tuple[ev.Event, GameState, Lines]]:
        return commentary.narrate(events)

    def tell(
        self, story: GameState | None, events: Sequence[ev.Event]
    ) -> tuple[GameState, list[tuple[ev.Event, GameState, Lines]]]:
        """A move told after the game as it stood (a table's lines need nothing more)."""
        return commentary.tell(story, events)

    async def automatic(self, state: GameState, chance: Chance) -> Command | None:
        """The cut and every deal, off the platform's shuffled deck; a bot's card when a bot is to play."""
        if state.phase is Phase.CUT:
            return state.cut_from(chance.shuffled(DECK))
        if state.phase is Phase.DEAL:
            return state.deal_from(chance.shuffled(DECK))
        seat = state.to_play
        if seat is None or (bot := state.bots[seat]) is None:
            return None
        return PlayCard(state.seats[seat].id, await bot_card_aside(state, seat, bot))

    def deadlines(self, state: GameState, created_at: float, last_at: float) -> list[Deadline]:
        """A table nobody starts closes; a person who does not play is reminded, then played for."""
        if state.phase is Phase.LOBBY and state.lobby_timeout:
            return [Deadline(created_at + state.lobby_timeout, "expire")]
        seat = state.to_play
        if seat is None or not state.turn_timeout or state.bots[seat] is not None:
            return []
        end = last_at + state.turn_timeout
        return [Deadline(end - warning_before(state.turn_timeout), "warn"), Deadline(end, "turn")]

    def on_deadline(self, state: GameState, kind: str) -> list[Command] | Reminder | None:
        if kind == "expire":
            return [CloseLobby("expired")] if state.phase is Phase.LOBBY else None
        seat = state.to_play
        if seat is None or state.bots[seat] is not None:
            return None
        player = state.seats[seat].id
        if kind == "warn":
            seconds = round(warning_before(state.turn_timeout))
            return Reminder(player, f"it's your turn: {seconds} seconds before a bot plays for you.")
        if kind != "turn":
            return None
        played: list[Command] = [PlayCard(player, bot_card(state, seat, STAND_IN), auto=True)]
        after = replay(decide(state, played[0]), state)
        if after.timeouts[seat] >= AWAY_AFTER and not after.is_over:
            played.append(TakeOver(player, STAND_IN, "away"))
        return played

    def call_off(self, state: GameState) -> list[Command]:
        return [CallOff()]

    def redraw(self, before: GameState, event: ev.Event, chance: Chance) -> tuple[ev.Event, int] | None:
        """The cut or a deal as ``chance`` shuffles the deck for it."""
        if isinstance(event, ev.DealerCut):
            return decide(before, before.cut_from(chance.shuffled(DECK)))[0], len(event.cards)
        if isinstance(event, ev.HandDealt):
            return decide(before, before.deal_from(chance.shuffled(DECK)))[0], sum(map(len, event.hands))
        return None

    def summary(self, events: Sequence[ev.Event]) -> Summary:
        return summarize(events)

    def summing(self, kept: Tally | None, events: Sequence[ev.Event]) -> tuple[Tally, Summary]:
        folded = tally(kept, events)
        return folded, summary_of(folded)

    async def review(self, events: Sequence[ev.Event]) -> list[CardReview] | None:
        """The estimated review of a finished game (``cucumber_core.review``), worked out off the
        event loop, each position from the source its hint draws from (``hint_source``): the same
        every time, and the hint's card is the review's choice; ``None`` while the game runs: it would
        tell about hands still held."""
        final = replay(events)
        if not final.is_over:
            return None
        if (kept := self._reviews.get(final.game_id)) is None:
            reviewed = await asyncio.to_thread(estimated.review, events, hint_source)
            kept = self._reviews.put(final.game_id, reviewed)
        return kept

    async def remarks(self, events: Sequence[ev.Event], step: int) -> tuple[str, ...]:
        """Once the game is over: each player's line of the estimated review, and that step's card."""
        reviewed = await self.review(events)
        if not reviewed:
            return ()
        names = [s.name for s in replay(events).seats]
        lines = [player_line(names[seat], reviewed, seat) for seat in sorted({r.seat for r in reviewed})]
        ends = step_ends(list(self.narrate(events)))
        at = max(1, min(step, len(ends)))
        cards = [c for c in step_review(events, reviewed)[ends[at - 2] if at > 1 else 0 : ends[at - 1]] if c]
        this = [f"This trick: {'; '.join(names[c.seat] + ', ' + card_words(c) for c in cards)}"] if cards else []
        return (*lines, *this, f"({ESTIMATE})")

    def replay_steps(self, told: Sequence[tuple[ev.Event, GameState, Lines]]) -> list[int]:
        """A trick a step, as the terminal and Discord replay it (``bot.games.cucumber.replays``)."""
        return step_ends(told)

    async def assess(self, events: Sequence[ev.Event]) -> None:
        """No facts beyond the summary's (a review of Cucumber would be the strong bot's estimate)."""

    async def picture(self, events: Sequence[ev.Event], step: int | None = None) -> bytes | None:
        """The score race and the hand's tricks (as they stood at step ``step``): played cards only."""
        ends = step_ends(list(self.narrate(events)))  # a trick a step, as the replay steps
        shown = events[: ends[max(1, min(step, len(ends))) - 1]] if step and ends else events
        return await drawn(render, chart(shown)) if shown else None

    async def animation(self, events: Sequence[ev.Event]) -> bytes | None:
        frames = list(charts(events))
        return await drawn(animate, frames) if len(frames) > 1 else None

    board_style = Path(__file__).parent / "web" / "board.css"
    emblem = Path(__file__).parent / "web" / "emblem.svg"
    blurb = (
        "Play a card a trick and dodge the points: whoever takes the last trick scores, and reaching the "
        "target loses. CS 88's card game."
    )

    async def html_board(self, outcome: Outcome[GameState, ev.Event], viewer: str) -> str:
        """The table as HTML, as ``viewer`` may see it (``bot.games.cucumber.html_board``)."""
        return load("bot.games.cucumber.html_board:html")(outcome.state, outcome.story, viewer)  # type: ignore[no-any-return]

    def move_choices(self, state: GameState, player: str) -> list[Choice]:
        """A button for each card of the player's hand, forbidden ones disabled with the reason."""
        return load("bot.games.cucumber.html_board:choices")(state, player)  # type: ignore[no-any-return]

    def public(self, state: GameState) -> PublicView:
        """The table as anyone may see it: scores, how many cards each holds, the tricks played."""
        return public_view(state)

    def history_line(self, row: GameRow, player_id: str | None) -> str:
        """Who played, how it ended (for ``player_id``, or who lost), and the final scores."""
        me = next((s for s in row.seats if s.player_id == player_id), None)
        scores = " · ".join(str(s.score) for s in row.seats)
        end = f"{scores} (to {row.fields.get('target', '?')})"
        if me is None:
            losers = " and ".join(s.name for s in row.seats if s.result == "loss")
            result = f"{losers} lost" if losers else row.status
            return f"{', '.join(s.name for s in row.seats)} · {result} · {end}"
        others = ", ".join(s.name for s in row.seats if s.player_id != player_id) or "nobody"
        result = {"win": "won", "loss": "lost", "draw": "safe"}.get(me.result or "", row.status)
        return f"with {others} · {result} · {end}"
