"""A table before its game: people sit down and get up, bots are added, the host starts it or it closes."""

from __future__ import annotations

import pytest

from cucumber_core.errors import CucumberError
from cucumber_core.events import GameCreated, LobbyClosed, Seat, SeatJoined
from cucumber_core.game import (
    CallOff,
    CloseLobby,
    CutForDealer,
    GameState,
    JoinLobby,
    LeaveLobby,
    OpenLobby,
    Phase,
    PlayCard,
    ReturnToSeat,
    StartGame,
    TakeOver,
    bot_seat,
    run,
)
from tests.cucumber_core.helpers import apply, card, cards, dealt

ANN, BOB, CAT = Seat("ann", "Ann"), Seat("bob", "Bob"), Seat("cat", "Cat")


def lobby(max_players: int = 4, **options: object) -> GameState:
    state, _ = run(GameState(), OpenLobby("t1", ANN, max_players, place="c1", **options))  # type: ignore[arg-type]
    return state


def test_people_sit_down_and_the_host_starts_with_bots_in_the_empty_seats() -> None:
    state = apply(lobby(4, turn_timeout=60), [JoinLobby(BOB), JoinLobby(bot_seat("magic", [ANN, BOB]))])
    assert state.phase is Phase.LOBBY and [s.name for s in state.seats] == ["Ann", "Bob", "Magic bot"]
    state, events = run(state, StartGame("ann", fill="strong"))
    assert [type(e) for e in events] == [SeatJoined, GameCreated]
    assert [s.name for s in state.seats] == ["Ann", "Bob", "Magic bot", "Strong bot"]
    assert state.bots == (None, None, "magic", "strong") and state.phase is Phase.CUT
    assert (state.turn_timeout, state.place, state.version) == (60, "c1", 5)


def test_a_second_bot_of_a_kind_has_its_own_seat_and_name() -> None:
    first = bot_seat("strong", [ANN])
    second = bot_seat("strong", [ANN, first])
    assert (first.id, second.id, second.name) == ("bot:strong:1", "bot:strong:2", "Strong bot 2")


@pytest.mark.parametrize(
    ("commands", "message"),
    [
        ([JoinLobby(ANN)], "You are at this table already."),
        ([JoinLobby(BOB), JoinLobby(CAT)], "The table is full: 2 seats."),
        ([StartGame("ann")], "Cucumber needs at least 2 players: wait for someone to join, or add a bot."),
        ([JoinLobby(BOB), StartGame("bob")], "Only Ann, who opened the table, can start the game."),
        ([LeaveLobby("cat")], "You are not at this table."),
        ([JoinLobby(BOB), StartGame("ann"), JoinLobby(CAT)], "This game has begun."),
        ([CloseLobby(), JoinLobby(BOB)], "This table is closed."),
    ],
)
def test_what_a_table_refuses(commands: list[object], message: str) -> None:
    state = lobby(2)
    *before, last = commands
    state = apply(state, before)  # type: ignore[arg-type]
    with pytest.raises(CucumberError, match=message):
        run(state, last)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "message"),
    [({"max_players": 7}, "2 to 6 players"), ({"max_players": 6, "num_cards": 9}, "a deck has 52")],
)
def test_impossible_tables_are_refused(options: dict[str, int], message: str) -> None:
    with pytest.raises(CucumberError, match=message):
        run(GameState(), OpenLobby("t1", ANN, **options))  # type: ignore[arg-type]


def test_a_guest_gets_up_and_the_host_leaving_closes_the_table() -> None:
    state = apply(lobby(), [JoinLobby(BOB), LeaveLobby("bob")])
    assert [s.id for s in state.seats] == ["ann"]
    state, events = run(state, LeaveLobby("ann"))
    assert events == [LobbyClosed("cancelled")] and state.is_over and state.closed == "cancelled"


def started(num_cards: int, *hands: str) -> GameState:
    """Ann and Bob's game, Ann cutting the higher card (so Bob leads), dealt ``hands``."""
    state = apply(lobby(2, num_cards=num_cards), [JoinLobby(BOB), StartGame("ann"), CutForDealer(cards("A♠ 2♣"))])
    return dealt(state, *hands)


def test_calling_off_a_table_or_a_game_decides_nothing() -> None:
    state, events = run(lobby(), CallOff())
    assert events == [LobbyClosed("void")] and state.is_over
    state, _ = run(started(1, "2♣", "3♣"), CallOff())
    assert state.is_over and state.loser is None and state.winners == ()


def test_timeouts_count_turns_in_a_row_that_a_bot_played_for_a_person() -> None:
    state = started(3, "2♣ 3♣ 4♣", "5♦ 6♦ 7♦")
    assert state.timeouts == (0, 0) and state.moment == "1.1.0"
    state = apply(state, [PlayCard("bob", card("5♦"), auto=True), PlayCard("ann", card("2♣"))])
    assert state.timeouts == (0, 1) and state.moment == "1.2.0"
    state = apply(state, [PlayCard("bob", card("6♦"), auto=True)])
    assert state.timeouts == (0, 2)
    state = apply(state, [PlayCard("ann", card("3♣")), TakeOver("bob", "strong", "away"), ReturnToSeat("bob")])
    assert state.timeouts == (0, 0) and state.bots == (None, None)
