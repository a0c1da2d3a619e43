"""What a table hears as Cucumber is played: one function of the log, so the words are the same live,
after a restart and in a replay. Only what everyone at the table sees is told: a deal says how many
cards, never which; a card is named when it is played face up (R12)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from cucumber_core.cards import short, value, value_name
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
    SeatJoined,
    SeatLeft,
    SeatReturned,
    SeatTakenOver,
    TrickWon,
)
from cucumber_core.game import GameState, evolve

Lines = tuple[str, ...]
CUCUMBER = "🥒"


def bot_name(bot: str) -> str:
    return f"the {bot.replace('_', ' ')} bot"


def names(state: GameState, seats: Iterable[int]) -> str:
    listed = [state.seats[s].name for s in seats]
    return listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " and " + listed[-1]


def narrate(events: Iterable[Event], state: GameState | None = None) -> Iterator[tuple[Event, GameState, Lines]]:
    """Each event with the state after it and its lines (told after ``state``: from the start when
    none; a table's lines need nothing but the game before and after each event)."""
    state = GameState() if state is None else state
    for event in events:
        before, state = state, evolve(state, event)
        yield event, state, tuple(_lines(before, state, event))


def tell(story: GameState | None, events: Iterable[Event]) -> tuple[GameState, list[tuple[Event, GameState, Lines]]]:
    """``events`` told after the story so far (the game as it stood; ``None``: from the start), and
    the story after them."""
    told = list(narrate(events, story))
    return (told[-1][1] if told else story or GameState()), told


def _lines(before: GameState, after: GameState, event: Event) -> Iterator[str]:
    match event:
        case CardPlayed(seat, card, auto):
            who, high = before.seats[seat].name, before.trick.high
            if auto:
                yield f"⏰ {who}'s time ran out: {bot_name('strong')} played {short(card)} for them."
            elif before.trick.plays and value(card) < high:
                yield f"{who} cannot reach {value_name(high)} and must throw their lowest: {short(card)}."
            elif not before.trick.plays:
                yield f"{who} leads {short(card)}."
            else:
                yield f"{who} plays {short(card)}."
        case TrickWon(index, seat, card):
            yield from _trick_won(before, after, index, seat, card)
        case HandScored(seat, card, scores):
            yield from _hand_scored(before, seat, card, scores)
        case CucumberTaken(seat, count, score):
            who = after.seats[seat].name
            if count == 1:
                level = "level with the highest"
                yield f"{CUCUMBER} {who} reached {after.target} and takes a cucumber: back to {score}, {level}."
            else:
                yield f"{CUCUMBER}{CUCUMBER} {who} reached {after.target} with a cucumber already: a second one."
        case GameOver(loser, winners):
            yield _game_over(after, loser, winners)
        case HandDealt(number, dealer, hands):
            leader = after.seats[(dealer + 1) % len(after.seats)].name
            yield f"Hand {number}: {after.seats[dealer].name} deals {len(hands[0])} cards each; {leader} leads."
        case DealerCut(cards, dealer):
            cut = ", ".join(f"{s.name} {short(c)}" for s, c in zip(after.seats, cards, strict=True))
            yield f"Cut for dealer: {cut}. {after.seats[dealer].name} deals first."
        case GameCreated(seats=seats, target=target, num_cards=cards, cucumbers=cucumbers):
            rule = f"; two {CUCUMBER} to lose" if cucumbers else ""
            who = names(after, range(len(seats)))
            yield f"The game begins: {who}. Reach {target} and you lose{rule}. {cards} cards a hand."
        case SeatTakenOver(seat, bot, reason):
            who = after.seats[seat].name
            if reason == "away":
                yield f"{who} missed three turns in a row: {bot_name(bot)} plays for them until they press I'm back."
            else:
                yield f"{who} left the table: {bot_name(bot)} plays their seat."
        case SeatReturned(seat):
            yield f"{after.seats[seat].name} is back at the table."
        case GameForfeited(seat, _):
            yield f"{after.seats[seat].name} resigned."
        case LobbyOpened(host=host, max_players=n, target=target, num_cards=cards):
            yield f"{host.name} opened a table for up to {n}: {cards} cards a hand, reach {target} and you lose."
        case SeatJoined(seat):
            yield f"{seat.name} sat down."
        case SeatLeft(player):
            yield f"{next(s.name for s in before.seats if s.id == player)} got up."
        case LobbyClosed(reason):
            yield {
                "expired": "Nobody started the game in time: the table closed.",
                "cancelled": f"{before.seats[0].name} closed the table.",
            }.get(reason, "The table was called off.")


def _trick_won(before: GameState, after: GameState, index: int, seat: int, card: int) -> Iterator[str]:
    who, last = after.seats[seat].name, index + 1 == after.num_cards
    plays = before.trick.plays
    tied = [s for s, c in plays if value(c) == value(card) and s != seat]
    if tied and not last:
        yield (
            f"{who}'s {short(card)} ties {names(after, tied)}'s {value_name(value(card))}: "
            f"the later card takes the trick, and {who} leads."
        )
    elif not last:
        yield f"{who} takes trick {index + 1} with {short(card)} and leads."
    else:
        yield f"{who} is stuck with the last trick: {short(card)}."


def _hand_scored(before: GameState, seat: int, card: int, scores: tuple[int, ...]) -> Iterator[str]:
    who, points = before.seats[seat].name, value(card)
    yield f"{who} scores {points}: {before.scores[seat]} → {scores[seat]}."
    for other, (old, new) in enumerate(zip(before.scores, scores, strict=True)):
        if other != seat and new != old:
            who = before.seats[other].name
            yield f"{who} also played {value_name(points)} in the last trick: −{old - new}, to {new}."


def _game_over(after: GameState, loser: int | None, winners: tuple[int, ...]) -> str:
    if loser is None:
        return "The game ends with nobody losing." if not after.winners else "The game is over."
    who = after.seats[loser].name
    if after.forfeited_by == loser:
        cause = f"{who} resigned"
    elif after.cucumber_rule and after.cucumbers[loser] >= 2:
        cause = f"{who} took a second cucumber"
    else:
        cause = f"{who} reached {after.scores[loser]}"
    return f"🏁 {cause} and loses. {names(after, winners)} {'wins' if len(winners) == 1 else 'win'}!"
