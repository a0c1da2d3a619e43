"""The Cucumber decider: commands in, events out; ``evolve`` folds events into the game's state.

Shuffles are an input. When ``GameState.phase`` is ``CUT`` or ``DEAL`` the game waits for cards: the
caller shuffles a deck and passes it in ``cut_from(deck)`` / ``deal_from(deck)``, whose commands carry
the cards themselves, so the events record every card and a replay never shuffles.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

import msgspec
from msgspec.structs import replace

from cucumber_core import rules
from cucumber_core.cards import DECK, Card, listing, short, value, value_name
from cucumber_core.errors import GameNotActive, IllegalCard, InvalidGame, NotAPlayer, NotYourTurn
from cucumber_core.events import (
    CardPlayed,
    CucumberTaken,
    DealerCut,
    Event,
    GameCreated,
    GameForfeited,
    GameOver,
    HandDealt,
    HandScored,
    LobbyClosed,
    LobbyOpened,
    Seat,
    SeatJoined,
    SeatLeft,
    SeatReturned,
    SeatTakenOver,
    TrickWon,
)


class Phase(StrEnum):
    NEW = "new"
    LOBBY = "lobby"
    """Players sit down until the host starts the game."""
    CUT = "cut"
    """Waiting for the cut for dealer."""
    DEAL = "deal"
    """Waiting for the next hand's cards."""
    PLAY = "play"
    OVER = "over"


class Trick(msgspec.Struct, frozen=True, gc=False):
    leader: int
    plays: tuple[tuple[int, Card], ...] = ()
    """``(seat, card)`` in play order."""

    @property
    def high(self) -> int:
        """The highest value played so far; 0 before the lead (R7's H)."""
        return max((value(card) for _, card in self.plays), default=0)


# --- commands ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CreateGame:
    game_id: str
    seats: tuple[Seat, ...]
    num_cards: int = 7
    target: int = 21
    cucumbers: bool = False
    cut: bool = False
    dealer: int = 0
    hand_limit: int = 1000
    turn_timeout: int = 0
    place: str = ""


@dataclass(frozen=True, slots=True)
class CutForDealer:
    cards: tuple[Card, ...]
    """One card per seat, from seat 0."""


@dataclass(frozen=True, slots=True)
class DealHand:
    hands: tuple[tuple[Card, ...], ...]
    """Each seat's cards in the order dealt."""


@dataclass(frozen=True, slots=True)
class PlayCard:
    player: str
    card: Card
    auto: bool = False


@dataclass(frozen=True, slots=True)
class TakeOver:
    """A bot plays ``player``'s seat from now on (they left, or their time ran out too often)."""

    player: str
    bot: str
    reason: str = "left"


@dataclass(frozen=True, slots=True)
class ReturnToSeat:
    player: str


@dataclass(frozen=True, slots=True)
class Forfeit:
    player: str
    reason: str = "resigned"


@dataclass(frozen=True, slots=True)
class OpenLobby:
    game_id: str
    host: Seat
    max_players: int
    num_cards: int = 7
    target: int = 21
    cucumbers: bool = False
    turn_timeout: int = 0
    lobby_timeout: int = 0
    place: str = ""


@dataclass(frozen=True, slots=True)
class JoinLobby:
    seat: Seat


@dataclass(frozen=True, slots=True)
class LeaveLobby:
    """``player`` gets up; when the host does, the table closes."""

    player: str


@dataclass(frozen=True, slots=True)
class StartGame:
    player: str
    fill: str | None = None
    """The bot that takes every empty seat, or ``None`` to play with the seats filled."""


@dataclass(frozen=True, slots=True)
class CloseLobby:
    reason: str = "expired"


@dataclass(frozen=True, slots=True)
class CallOff:
    """End the game with nobody winning or losing (it could never be shown)."""


Command = (
    CreateGame
    | CutForDealer
    | DealHand
    | PlayCard
    | TakeOver
    | ReturnToSeat
    | Forfeit
    | OpenLobby
    | JoinLobby
    | LeaveLobby
    | StartGame
    | CloseLobby
    | CallOff
)

MAX_PLAYERS = 6
"""The most seats a table opens with (the deck holds more, but a trick of seven is a long wait)."""


def bot_seat(bot: str, seats: Sequence[Seat]) -> Seat:
    """A seat for ``bot`` beside ``seats``: ``Strong bot``, then ``Strong bot 2``..."""
    title = f"{bot.replace('_', ' ').capitalize()} bot"
    count = 1 + sum(1 for s in seats if s.bot == bot)
    return Seat(f"bot:{bot}:{count}", title if count == 1 else f"{title} {count}", bot)


# --- state ---------------------------------------------------------------------------------------


class GameState(msgspec.Struct, frozen=True, gc=False):
    game_id: str = ""
    seats: tuple[Seat, ...] = ()
    num_cards: int = 7
    target: int = 21
    cucumber_rule: bool = False
    hand_limit: int = 1000
    turn_timeout: int = 0
    place: str = ""
    phase: Phase = Phase.NEW
    dealer: int = 0
    """This hand's dealer; before the first deal, the first dealer."""
    hand_number: int = 0
    hands: tuple[tuple[Card, ...], ...] = ()
    """Every seat's cards still held: private, never part of a public view."""
    tricks: tuple[Trick, ...] = ()
    """This hand's tricks, the current one last."""
    scores: tuple[int, ...] = ()
    cucumbers: tuple[int, ...] = ()
    bots: tuple[str | None, ...] = ()
    """Who plays each seat now: a bot's name, or ``None`` for its person."""
    loser: int | None = None
    winners: tuple[int, ...] = ()
    forfeited_by: int | None = None
    timeouts: tuple[int, ...] = ()
    """Per seat, the turns in a row its person let run out (a bot played for them)."""
    max_players: int = 0
    """In the lobby: how many may sit down."""
    lobby_timeout: int = 0
    closed: str | None = None
    """Why the table closed before its game began (``expired``, ``cancelled``, ``void``)."""
    version: int = 0
    """How many events made this state: the version a new append must expect."""

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def host(self) -> Seat | None:
        """Who opened the table (the first seat)."""
        return self.seats[0] if self.seats else None

    @property
    def moment(self) -> str:
        """Where play stands, as ``hand.trick.plays``: a hand shown at one moment is out of date at any other."""
        if not self.tricks:
            return f"{self.hand_number}.0.0"
        return f"{self.hand_number}.{len(self.tricks)}.{len(self.tricks[-1].plays)}"

    @property
    def trick(self) -> Trick:
        return self.tricks[-1]

    @property
    def to_play(self) -> int | None:
        """The seat whose card the game waits for, or ``None`` outside play."""
        if self.phase is not Phase.PLAY:
            return None
        trick = self.tricks[-1]
        return (trick.leader + len(trick.plays)) % len(self.seats)

    @property
    def next_dealer(self) -> int:
        return self.dealer if self.hand_number == 0 else (self.dealer + 1) % len(self.seats)

    def seat_of(self, player_id: str) -> int | None:
        for seat, s in enumerate(self.seats):
            if s.id == player_id:
                return seat
        return None

    def legal_cards(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` may play now (R7), in hand order; empty when it is not its turn."""
        if seat != self.to_play:
            return ()
        hand = self.hands[seat]
        return tuple(hand[i] for i in rules.legal([value(c) for c in hand], self.trick.high))

    def cut_from(self, deck: Sequence[Card]) -> CutForDealer:
        """The cut off a shuffled deck: one card to each seat, from seat 0."""
        return CutForDealer(tuple(deck[: len(self.seats)]))

    def deal_from(self, deck: Sequence[Card]) -> DealHand:
        """The next hand dealt off a shuffled deck (R5)."""
        hands = rules.deal(deck, len(self.seats), self.next_dealer, self.num_cards)
        return DealHand(tuple(tuple(h) for h in hands))


# --- decide --------------------------------------------------------------------------------------


def decide(state: GameState, command: Command) -> list[Event]:
    """The events ``command`` causes, or a ``CucumberError`` saying why it is refused."""
    match command:
        case PlayCard():
            return _play(state, command)
        case DealHand(hands):
            return [_deal(state, hands)]
        case CutForDealer(cards):
            if state.phase is not Phase.CUT:
                raise GameNotActive("There is no cut for dealer to make now.")
            _check_cards(cards, len(state.seats), 1, "cut")
            return [DealerCut(tuple(cards), rules.cut(cards))]
        case CreateGame():
            return [_create(state, command)]
        case OpenLobby() | JoinLobby() | LeaveLobby() | StartGame() | CloseLobby():
            return _lobby(state, command)
        case CallOff():
            if state.phase is Phase.OVER:
                raise GameNotActive("This game is over.")
            return [LobbyClosed("void")] if state.phase in (Phase.NEW, Phase.LOBBY) else [GameOver(None, ())]
        case TakeOver(player, bot, reason):
            seat = _seat(state, player)
            return [SeatTakenOver(seat, bot, reason)]
        case ReturnToSeat(player):
            seat = _seat(state, player)
            if state.bots[seat] == state.seats[seat].bot:
                raise InvalidGame("You are already playing your seat.")
            return [SeatReturned(seat)]
        case Forfeit(player, reason):
            seat = _seat(state, player)
            winners = rules.lowest_others(state.scores, state.cucumbers, seat)
            return [GameForfeited(seat, reason), GameOver(seat, winners)]


def _lobby(state: GameState, command: OpenLobby | JoinLobby | LeaveLobby | StartGame | CloseLobby) -> list[Event]:
    if isinstance(command, OpenLobby):
        if state.phase is not Phase.NEW:
            raise InvalidGame("This game already exists.")
        if not 2 <= command.max_players <= MAX_PLAYERS:
            raise InvalidGame(f"A table seats 2 to {MAX_PLAYERS} players, not {command.max_players}.")
        rules.check_table(command.max_players, command.num_cards)
        if command.target < 1 or command.turn_timeout < 0 or command.lobby_timeout < 0:
            raise InvalidGame("The target must be at least 1, and the timeouts cannot be negative.")
        c = command
        return [
            LobbyOpened(
                c.game_id,
                c.host,
                c.max_players,
                c.num_cards,
                c.target,
                c.cucumbers,
                c.turn_timeout,
                c.lobby_timeout,
                c.place,
            )
        ]
    if state.phase is not Phase.LOBBY:
        raise GameNotActive("This table is closed." if state.phase is Phase.OVER else "This game has begun.")
    match command:
        case JoinLobby(joining):
            if state.seat_of(joining.id) is not None:
                raise InvalidGame("You are at this table already.")
            if len(state.seats) >= state.max_players:
                raise InvalidGame(f"The table is full: {state.max_players} seats.")
            return [SeatJoined(joining)]
        case LeaveLobby(player):
            at = state.seat_of(player)
            if at is None:
                raise NotAPlayer("You are not at this table.")
            return [LobbyClosed("cancelled")] if at == 0 else [SeatLeft(player)]
        case StartGame(player, fill):
            if state.seat_of(player) != 0:
                raise NotAPlayer(f"Only {state.seats[0].name}, who opened the table, can start the game.")
            seats = list(state.seats)
            while fill is not None and len(seats) < state.max_players:
                seats.append(bot_seat(fill, seats))
            if len(seats) < rules.MIN_PLAYERS:
                raise InvalidGame("Cucumber needs at least 2 players: wait for someone to join, or add a bot.")
            joined: list[Event] = [SeatJoined(s) for s in seats[len(state.seats) :]]
            create = CreateGame(
                state.game_id,
                tuple(seats),
                state.num_cards,
                state.target,
                state.cucumber_rule,
                cut=True,
                turn_timeout=state.turn_timeout,
                place=state.place,
            )
            return [*joined, _create(GameState(), create)]
        case CloseLobby(reason):
            return [LobbyClosed(reason)]
    raise AssertionError(command)


def _create(state: GameState, c: CreateGame) -> GameCreated:
    if state.phase is not Phase.NEW:
        raise InvalidGame("This game already exists.")
    n = len(c.seats)
    rules.check_table(n, c.num_cards)
    if len({s.id for s in c.seats}) != n:
        raise InvalidGame("Every seat needs a different player.")
    if c.target < 1:
        raise InvalidGame(f"The target score must be at least 1, not {c.target}.")
    if not 0 <= c.dealer < n:
        raise InvalidGame(f"The first dealer must be a seat from 0 to {n - 1}, not {c.dealer}.")
    if c.hand_limit < 1 or c.turn_timeout < 0:
        raise InvalidGame("The hand limit must be at least 1 and the turn timeout cannot be negative.")
    return GameCreated(
        game_id=c.game_id,
        seats=c.seats,
        num_cards=c.num_cards,
        target=c.target,
        cucumbers=c.cucumbers,
        cut=c.cut,
        dealer=c.dealer,
        hand_limit=c.hand_limit,
        turn_timeout=c.turn_timeout,
        place=c.place,
    )


def _check_cards(cards: Iterable[Card], groups: int, size: int, what: str) -> None:
    flat = list(cards)
    if len(flat) != groups * size:
        raise InvalidGame(f"The {what} needs {groups * size} cards, not {len(flat)}.")
    if any(not (isinstance(c, int) and c in DECK) for c in flat):
        raise InvalidGame(f"The {what} has something that is not a card of the deck.")
    if len(set(flat)) != len(flat):
        raise InvalidGame(f"The {what} has a card twice.")


def _deal(state: GameState, hands: tuple[tuple[Card, ...], ...]) -> HandDealt:
    if state.phase is not Phase.DEAL:
        raise GameNotActive(
            "The cards are in play; there is no hand to deal now."
            if state.phase is Phase.PLAY
            else "There is no hand to deal now."
        )
    if len(hands) != len(state.seats) or any(len(h) != state.num_cards for h in hands):
        raise InvalidGame(f"A hand deals {state.num_cards} cards to each of {len(state.seats)} seats.")
    _check_cards((c for h in hands for c in h), len(state.seats), state.num_cards, "deal")
    return HandDealt(state.hand_number + 1, state.next_dealer, tuple(tuple(h) for h in hands))


def _seat(state: GameState, player: str) -> int:
    seat = state.seat_of(player)
    if seat is None:
        raise NotAPlayer("You are not playing in this game.")
    if state.phase is Phase.OVER:
        raise GameNotActive("This game is over.")
    return seat


def _play(state: GameState, c: PlayCard) -> list[Event]:
    seat = _seat(state, c.player)
    if state.phase is not Phase.PLAY:
        raise GameNotActive("The cards have not been dealt yet.")
    if seat != state.to_play:
        raise NotYourTurn(f"It is {state.seats[state.to_play or 0].name}'s turn, not yours.")
    reason = why_illegal(state.hands[seat], c.card, state.trick.high)
    if reason:
        raise IllegalCard(reason)
    events: list[Event] = [CardPlayed(seat, c.card, c.auto)]
    plays = (*state.trick.plays, (seat, c.card))
    if len(plays) < len(state.seats):
        return events
    values = [value(card) for _, card in plays]
    win_seat, win_card = plays[rules.trick_winner(values)]
    trick_index = len(state.tricks) - 1
    events.append(TrickWon(trick_index, win_seat, win_card))
    if trick_index + 1 < state.num_cards:
        return events
    return events + _score(state, [(s, value(card)) for s, card in plays], win_seat, win_card)


def why_illegal(hand: Sequence[Card], card: Card, high: int) -> str | None:
    """Why ``card`` may not be played from ``hand`` when ``high`` leads the trick, or ``None`` if it may."""
    if card not in hand:
        return f"You do not hold {short(card) if card in DECK else repr(card)}."
    legal = sorted((hand[i] for i in rules.legal([value(c) for c in hand], high)), key=value)  # as said: low to high
    if card in legal:
        return None
    if value(legal[0]) >= high:
        return f"You must play {value_name(high)} or higher: you hold {listing(legal)}."
    return f"You hold nothing of {value_name(high)} or higher, so you must play your lowest: {listing(legal, 'or')}."


def _score(state: GameState, last: list[tuple[int, int]], winner: int, card: Card) -> list[Event]:
    """R9-R11 after the last trick of a hand."""
    scores = rules.score_hand(state.scores, last, winner)
    events: list[Event] = [HandScored(winner, card, scores)]
    cucumbers = list(state.cucumbers)
    over = scores[winner] >= state.target
    if over and state.cucumber_rule:
        cucumbers[winner] += 1
        kept = scores[winner]
        if cucumbers[winner] == 1:
            kept = max(s for seat, s in enumerate(scores) if seat != winner)
            over = False
        events.append(CucumberTaken(winner, cucumbers[winner], kept))
        scores = (*scores[:winner], kept, *scores[winner + 1 :])
    if over:
        events.append(GameOver(winner, rules.lowest_others(scores, cucumbers, winner)))
    elif state.hand_number >= state.hand_limit:
        events.append(GameOver(None, ()))
    return events


# --- evolve --------------------------------------------------------------------------------------


def evolve(state: GameState, event: Event) -> GameState:
    """The state after ``event``. Events are facts: they were checked when they were decided."""
    version = state.version + 1
    match event:
        case CardPlayed(seat, card, auto):  # first: nearly every event is a card
            missed = state.timeouts[seat] + 1 if auto else 0
            timeouts = (*state.timeouts[:seat], missed, *state.timeouts[seat + 1 :])
            hands = list(state.hands)
            hand = list(hands[seat])
            hand.remove(card)
            hands[seat] = tuple(hand)
            trick = state.tricks[-1]
            trick = Trick(trick.leader, (*trick.plays, (seat, card)))
            return replace(
                state, hands=tuple(hands), tricks=(*state.tricks[:-1], trick), timeouts=timeouts, version=version
            )
        case TrickWon(index, seat):
            tricks = state.tricks if index + 1 >= state.num_cards else (*state.tricks, Trick(seat))
            return replace(state, tricks=tricks, version=version)
        case HandDealt(number, dealer, hands):
            leader = (dealer + 1) % len(state.seats)
            return replace(
                state,
                phase=Phase.PLAY,
                hand_number=number,
                dealer=dealer,
                hands=hands,
                tricks=(Trick(leader),),
                version=version,
            )
        case HandScored(_, _, scores):
            return replace(state, scores=scores, phase=Phase.DEAL, version=version)
        case CucumberTaken(seat, count, score):
            cucumbers = (*state.cucumbers[:seat], count, *state.cucumbers[seat + 1 :])
            scores = (*state.scores[:seat], score, *state.scores[seat + 1 :])
            return replace(state, cucumbers=cucumbers, scores=scores, version=version)
        case GameOver(loser, winners):
            return replace(state, phase=Phase.OVER, loser=loser, winners=winners, version=version)
        case GameCreated():
            n = len(event.seats)
            return GameState(
                game_id=event.game_id,
                seats=event.seats,
                num_cards=event.num_cards,
                target=event.target,
                cucumber_rule=event.cucumbers,
                hand_limit=event.hand_limit,
                turn_timeout=event.turn_timeout,
                place=event.place,
                phase=Phase.CUT if event.cut else Phase.DEAL,
                dealer=event.dealer,
                scores=(0,) * n,
                cucumbers=(0,) * n,
                bots=tuple(s.bot for s in event.seats),
                timeouts=(0,) * n,
                version=version,
            )
        case LobbyOpened():
            return GameState(
                game_id=event.game_id,
                seats=(event.host,),
                num_cards=event.num_cards,
                target=event.target,
                cucumber_rule=event.cucumbers,
                turn_timeout=event.turn_timeout,
                place=event.place,
                phase=Phase.LOBBY,
                max_players=event.max_players,
                lobby_timeout=event.lobby_timeout,
                version=version,
            )
        case SeatJoined(seat):
            return replace(state, seats=(*state.seats, seat), version=version)
        case SeatLeft(player):
            return replace(state, seats=tuple(s for s in state.seats if s.id != player), version=version)
        case LobbyClosed(reason):
            return replace(state, phase=Phase.OVER, closed=reason, version=version)
        case DealerCut(_, dealer):
            return replace(state, phase=Phase.DEAL, dealer=dealer, version=version)
        case SeatTakenOver(seat, bot):
            return replace(state, bots=(*state.bots[:seat], bot, *state.bots[seat + 1 :]), version=version)
        case SeatReturned(seat):
            own = state.seats[seat].bot
            bots = (*state.bots[:seat], own, *state.bots[seat + 1 :])
            timeouts = (*state.timeouts[:seat], 0, *state.timeouts[seat + 1 :])
            return replace(state, bots=bots, timeouts=timeouts, version=version)
        case GameForfeited(seat):
            return replace(state, forfeited_by=seat, version=version)


def replay(events: Iterable[Event], state: GameState | None = None) -> GameState:
    """Fold ``events`` into a state (from scratch unless ``state`` is given)."""
    state = GameState() if state is None else state
    for event in events:
        state = evolve(state, event)
    return state


def run(state: GameState, command: Command) -> tuple[GameState, list[Event]]:
    """Decide and apply: the new state and the events that made it."""
    events = decide(state, command)
    return replay(events, state), events
