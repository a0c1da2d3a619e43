"""What the table hears: the moments that matter are told, and a deal never names a card."""

from __future__ import annotations

from cucumber_core.cards import short
from cucumber_core.commentary import narrate
from cucumber_core.events import Event, HandDealt, Seat
from cucumber_core.game import Command, CreateGame, DealHand, GameState, PlayCard, run
from tests.cucumber_core.helpers import card, cards, seats


def logged(players: int, plays: list[str | tuple[str, ...]], **options: object) -> list[Event]:
    """The events of a game of ``players``: a tuple of short names is a deal (one hand per seat,
    from seat 0), a single name is a card played by whoever is to play."""
    state, events = run(GameState(), CreateGame("g1", seats(players), **options))  # type: ignore[arg-type]
    for step in plays:
        command: Command
        if isinstance(step, tuple):
            command = DealHand(tuple(cards(hand) for hand in step))
        else:
            seat = state.to_play
            assert seat is not None
            command = PlayCard(state.seats[seat].id, card(step))
        state, new = run(state, command)
        events += new
    return events


def told(events: list[Event]) -> list[str]:
    return [line for _, _, lines in narrate(events) for line in lines]


def test_a_hand_told_from_the_deal_to_the_last_trick() -> None:
    # Ann deals, Bob leads 9♦; Cat's K♠ beats it; Ann cannot reach a King; Cat leads 2♥ and Ann takes the Q♦
    events = logged(3, [("9♣ Q♦", "9♦ 3♠", "K♠ 2♥"), "9♦", "K♠", "9♣", "2♥", "Q♦", "3♠"], num_cards=2, target=30)
    lines = told(events)
    for line in (
        "Hand 1: Ann deals 2 cards each; Bob leads.",
        "Bob leads 9♦.",
        "Ann cannot reach King and must throw their lowest: 9♣.",
        "Cat takes trick 1 with K♠ and leads.",
        "Ann is stuck with the last trick: Q♦.",
        "Ann scores 12: 0 → 12.",
    ):
        assert line in lines, lines
    deal = next(e for e in events if isinstance(e, HandDealt))
    deal_lines = [line for e, _, told_lines in narrate(events) if e is deal for line in told_lines]
    assert not any(short(c) in line for hand in deal.hands for c in hand for line in deal_lines)


def test_a_tie_passes_the_lead_and_a_matching_last_card_is_subtracted() -> None:
    events = logged(3, [("9♣ K♦", "9♦ K♠", "2♥ 3♥"), "9♦", "2♥", "9♣", "K♦", "K♠", "3♥"], num_cards=2, target=50)
    lines = told(events)
    assert "Ann's 9♣ ties Bob's 9: the later card takes the trick, and Ann leads." in lines, lines
    assert "Bob scores 13: 0 → 13." in lines
    assert "Ann also played King in the last trick: −0, to 0." not in lines  # floored at 0 from 0: nothing to tell


def test_a_cucumber_and_the_end_of_the_game() -> None:
    # hand 1: Bob leads 2♦, Ann's A♣ takes the last trick: 14, a cucumber; hand 2: Ann leads A♣ again
    events = logged(2, [("A♣", "2♦"), "2♦", "A♣", ("A♣", "2♦"), "A♣", "2♦"], num_cards=1, target=10, cucumbers=True)
    lines = told(events)
    assert "🥒 Ann reached 10 and takes a cucumber: back to 0, level with the highest." in lines, lines
    assert lines[-1] == "🏁 Ann took a second cucumber and loses. Bob wins!", lines


def test_a_seat_handed_to_a_bot_is_told() -> None:
    from cucumber_core.game import TakeOver

    state, events = run(GameState(), CreateGame("g1", (Seat("a", "Ann"), Seat("b", "Bob"))))
    state, more = run(state, TakeOver("b", "strong", "away"))
    assert told(events + more)[-1].startswith("Bob missed three turns in a row: the strong bot plays for them")
