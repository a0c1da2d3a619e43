"""The decider: commands become events, illegal commands become plain-worded errors."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from hog_core.commentary import narrate
from hog_core.errors import GameNotActive, HogError, InvalidGame, InvalidMove, NotAPlayer, NotYourTurn
from hog_core.events import ChallengeAccepted, GameCreated, GameForfeited, Player, TurnTaken
from hog_core.game import (
    AcceptChallenge,
    Command,
    CreateGame,
    DeclineChallenge,
    Dice,
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
from tests.helpers import ALICE, BOB, move, new_game


def refused(state: GameState, command: Command, error: type[HogError], words: str) -> None:
    with pytest.raises(error) as info:
        decide(state, command)
    assert words in info.value.message


def test_create_pins_rules_version_and_turn_limit() -> None:
    state, events = new_game("sp22", goal=50)
    created = events[0]
    assert isinstance(created, GameCreated)
    assert (created.rules, created.rules_version, created.goal, created.turn_limit) == ("sp22", 1, 50, 500)
    assert state.status is Status.ACTIVE and state.version == 1 and state.mover == 0


@pytest.mark.parametrize(
    ("command", "words"),
    [
        (CreateGame("g", (ALICE, BOB), rules="fa99"), "Unknown rule set 'fa99'"),
        (CreateGame("g", (ALICE, BOB), goal=0), "goal must be between 1 and 10000, not 0"),
        (CreateGame("g", (ALICE, Player("a", "Alice again"))), "two different players"),
        (CreateGame("g", (ALICE, BOB), first=2), "seat 0 or seat 1"),
    ],
)
def test_bad_games_are_refused(command: CreateGame, words: str) -> None:
    refused(GameState(), command, InvalidGame, words)


def test_a_game_is_created_once() -> None:
    state, _ = new_game()
    refused(state, CreateGame("g1", (ALICE, BOB)), InvalidGame, "already exists")


def test_first_mover_is_data() -> None:
    state, _ = new_game(first=1)
    assert state.mover == 1
    refused(state, TakeTurn("a", 1, (3,)), NotYourTurn, "It's Bob's turn, not yours.")


def test_challenge_accept_flow() -> None:
    state, _ = new_game(challenge=True)
    assert state.status is Status.CHALLENGED
    refused(state, TakeTurn("a", 1, (3,)), GameNotActive, "Bob has not accepted yet")
    refused(state, AcceptChallenge("a"), NotAPlayer, "Only Bob can answer this challenge.")
    refused(state, AcceptChallenge("z"), NotAPlayer, "Only Bob")
    events = decide(state, AcceptChallenge("b"))
    assert events == [ChallengeAccepted("b")]
    state = replay(events, state)
    assert state.status is Status.ACTIVE
    refused(state, AcceptChallenge("b"), GameNotActive, "already been answered")


def test_challenge_decline_and_expiry_end_the_game() -> None:
    state, _ = new_game(challenge=True)
    declined = replay(decide(state, DeclineChallenge("b")), state)
    assert declined.status is Status.DECLINED and declined.is_over and declined.winner is None
    expired = replay(decide(state, ExpireChallenge()), state)
    assert expired.status is Status.EXPIRED and expired.is_over
    refused(expired, ExpireChallenge(), GameNotActive, "no open challenge")


def test_turn_event_records_raw_dice() -> None:
    state, _ = new_game()
    assert decide(state, TakeTurn("a", 3, (6, 1, 4))) == [TurnTaken(seat=0, k=3, outcomes=(6, 1, 4), sides=6)]


@pytest.mark.parametrize(
    ("command", "error", "words"),
    [
        (TakeTurn("z", 1, (3,)), NotAPlayer, "You are not playing in this game."),
        (TakeTurn("b", 1, (3,)), NotYourTurn, "It's Alice's turn, not yours."),
        (TakeTurn("a", 11, (3,) * 11), InvalidMove, "Choose between 0 and 10 dice, not 11."),
        (TakeTurn("a", -2, ()), InvalidMove, "Choose between 0 and 10 dice, not -2."),
        (TakeTurn("a", -1, ()), InvalidMove, "Choose between 0 and 10 dice, not -1."),
        (TakeTurn("a", 3, (3, 3)), InvalidMove, "That move rolls 3 dice, but 2 outcomes were given."),
        (TakeTurn("a", 0, (3,)), InvalidMove, "That move rolls 0 dice, but 1 outcomes were given."),
        (TakeTurn("a", 2, (3, 7)), InvalidMove, "A 6-sided die cannot show 7."),
        (TakeTurn("a", 2, (0, 3)), InvalidMove, "A 6-sided die cannot show 0."),
        (Forfeit("z"), NotAPlayer, "You are not playing"),
    ],
)
def test_illegal_moves_are_refused_and_change_nothing(command: Command, error: type[HogError], words: str) -> None:
    state, _ = new_game()
    before = state
    refused(state, command, error, words)
    assert state == before


def test_hog_wild_dice_limit_outcomes_to_four() -> None:
    state, _ = new_game("sp16")
    assert state.dice_for(2) == Dice(2, 4)
    refused(state, TakeTurn("a", 2, (5, 2)), InvalidMove, "A 4-sided die cannot show 5.")


def test_forfeit_ends_the_game_for_the_other_player() -> None:
    state, _ = new_game()
    state = move(state, 1, 4)
    events = decide(state, Forfeit("a", "timeout"))
    assert events == [GameForfeited(0, "timeout")]
    state = replay(events, state)
    assert (state.status, state.winner, state.forfeited_by) == (Status.FINISHED, 1, 0)
    refused(state, TakeTurn("b", 1, (3,)), GameNotActive, "This game is over.")
    refused(state, Forfeit("b"), GameNotActive, "This game is over.")


def test_the_game_ends_at_the_goal() -> None:
    state, _ = new_game(goal=10)
    state = move(state, 2, 6, 6)
    assert (state.status, state.winner, state.scores) == (Status.FINISHED, 0, (12, 0))
    assert state.is_over


def test_sp22_mutual_zero_point_loop_is_a_draw_at_the_turn_limit() -> None:
    # Hefty Hogs gives 0 both ways at 1 vs 30 (and the ones digits differ: no Hog Pile)
    state, _ = new_game("sp22", goal=100)
    state = replace(state, scores=(1, 30))
    while not state.is_over:
        state = move(state, 0)
    assert state.status is Status.DRAWN and state.winner is None
    assert (state.scores, state.turn_number) == ((1, 30), 1000)


def test_evolve_counts_versions() -> None:
    state, _ = new_game()
    for n in range(2, 6):
        state = move(state, 1, 2)
        assert state.version == n
    assert evolve(state, TurnTaken(0, 1, (2,), 6)).version == 6


def test_a_game_called_off_counts_for_nobody() -> None:
    for challenge in (False, True):
        state, log = new_game(challenge=challenge)
        voided = replay(decide(state, VoidGame()), state)
        assert voided.status is Status.VOIDED and voided.is_over and voided.winner is None
        log += decide(state, VoidGame())
        assert [lines for _, _, lines in narrate(log)][-1] == (
            "The game is called off: its board could not be shown, so nobody wins or loses.",
        )
        with pytest.raises(GameNotActive, match="Only a game being played"):
            decide(voided, VoidGame())
