"""A hand as its owner sees it: value order, the cards allowed now, and one line saying why."""

from __future__ import annotations

from bot.games.cucumber.hands import hand_of
from cucumber_core.game import TakeOver, run
from tests.cucumber_core.helpers import cards, dealt, new_game, play


def test_a_hand_in_value_order_with_what_the_rule_allows() -> None:
    state = dealt(new_game(2, num_cards=3), "K♦ 2♣ 9♥", "5♠ 4♣ 3♦")  # Ann deals: Bob leads
    bob = hand_of(state, 1)
    assert bob.cards == cards("3♦ 4♣ 5♠") and bob.legal == set(bob.cards) and bob.why == "Your lead: play any card."
    ann = hand_of(state, 0)
    assert ann.legal == frozenset() and ann.why == "Bob is to play; your cards wait for your turn."
    state, _ = play(state, "5♠")
    ann = hand_of(state, 0)
    assert ann.legal == set(cards("9♥ K♦")) and ann.why == "Play 5 or higher."
    state, _ = play(state, "K♦", "9♥")  # Ann takes the trick and leads a 9
    assert hand_of(state, 1).why == "You hold nothing of 9 or higher: play your lowest, 3♦."


def test_a_seat_a_bot_plays_says_how_to_take_it_back() -> None:
    state = dealt(new_game(2, num_cards=1), "K♦", "5♠")
    state, _ = run(state, TakeOver("ann", "strong", "away"))
    assert hand_of(state, 0).why == "A bot is playing your seat: press I'm back on the board to play it yourself."
