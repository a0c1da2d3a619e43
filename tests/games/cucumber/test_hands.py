"""A hand as its owner sees it: value order, the cards allowed now, and one line saying why."""

from __future__ import annotations

import re

from bot.games.cucumber.hands import hand_of, hint, hint_source, in_value_order, seeded
from cucumber_core import strong
from cucumber_core.cards import short, value
from cucumber_core.game import CreateGame, DealHand, GameState, PlayCard, TakeOver, run
from cucumber_core.review import review
from cucumber_core.views import seat_view
from tests.cucumber_core.helpers import cards, dealt, new_game, play, seats


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


def test_the_hints_card_is_never_the_reviews_mistake() -> None:
    """A hint and the review of the same position draw the same worlds (``hint_source``): a player who
    plays every hint's card has nothing reviewed against them."""
    state, log = run(GameState(), CreateGame("g1", seats(3), num_cards=5))
    state, new = run(state, DealHand(tuple(cards(h) for h in ("K♦ 2♣ 9♥ 7♠ 4♦", "5♠ 4♣ 3♦ Q♥ 8♣", "J♠ 6♦ 10♥ 2♦ 9♣"))))
    log += new
    chosen = 0
    while (seat := state.to_play) is not None:
        view = seat_view(state, seat)
        values = sorted({value(c) for c in view.legal})
        costs = strong.costs(view, values, hint_source(state)).tolist() if len(values) > 1 else [0.0]
        best = values[costs.index(min(costs))]
        assert len(
            values
        ) == 1 or f"would play {short(next(c for c in in_value_order(view.legal) if value(c) == best))}" in hint(
            state, seat, hint_source(state)
        )
        chosen += len(values) > 1
        state, new = run(state, PlayCard(state.seats[seat].id, next(c for c in view.legal if value(c) == best)))
        log += new
    reviewed = review(log, hint_source)
    assert chosen and len(reviewed) == chosen
    assert all(value(r.choice) == value(r.played) and r.lost == 0 for r in reviewed), reviewed
