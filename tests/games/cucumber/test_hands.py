"""A hand as its owner sees it: value order, the cards allowed now, and one line saying why."""

from __future__ import annotations

import re

from bot.games.cucumber.hands import hand_of, hint, seeded
from cucumber_core import strong
from cucumber_core.cards import short
from cucumber_core.game import TakeOver, run
from cucumber_core.views import seat_view
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


def costed(said: str) -> tuple[str, float, dict[str, float]]:
    """The card a hint names, its expected cost, and the other playable cards' costs."""
    found = re.fullmatch(
        r"The strong bot would play (\S+): about ([\d.]+) points by the end of the hand "
        r"\(expected, reaching 21 counted as 40 more\), against ((?:\S+ [\d.]+(?:, )?)+)\.",
        said,
    )
    assert found is not None, said
    return found[1], float(found[2]), {c: float(x) for c, x in (pair.split() for pair in found[3].split(", "))}


def test_a_hint_is_the_strong_bots_card_with_each_playable_value_costed() -> None:
    state = dealt(new_game(3, num_cards=4), "K♦ 2♣ 9♥ 3♠", "5♠ 4♣ 3♦ 8♣", "A♠ 6♣ 10♦ J♥")  # Bob leads
    said = hint(state, 1, seeded("g1:hint"))
    best, cost, others = costed(said)
    assert best == short(strong.choose(seat_view(state, 1), seeded("g1:hint"))), "the strong bot's, same draws"
    assert {*others, best} == {"3♦", "4♣", "5♠", "8♣"} and all(cost <= c for c in others.values())
    assert hint(state, 1, seeded("g1:hint")) == said, "the same source, the same words"
    state, _ = play(state, "8♣")  # Cat may play 10♦, J♥ or A♠, never 6♣
    best, _, others = costed(hint(state, 2, seeded("x")))
    assert {*others, best} == {"10♦", "J♥", "A♠"}
    forced = dealt(new_game(2, num_cards=2), "K♦ 2♣", "5♠ 4♣")
    forced, _ = play(forced, "5♠")
    assert hint(forced, 0, seeded("x")) == "Only K♦ can be played now: the rules leave no choice."
    twins = dealt(new_game(2, num_cards=2), "2♥ 2♠", "K♦ 5♣")
    twins, _ = play(twins, "K♦")
    said = hint(twins, 0, seeded("x"))
    assert said == "Only a 2 can be played now (2♥ or 2♠: suits never matter), so no hint is needed."
