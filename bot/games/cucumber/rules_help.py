"""Cucumber's rules in a few lines, and a trick worked through by the engine itself (so the example
can never disagree with the game)."""

from __future__ import annotations

from bot.games.cucumber.console import parse_card
from cucumber_core.commentary import narrate
from cucumber_core.events import Event, Seat
from cucumber_core.game import CreateGame, DealHand, GameState, PlayCard, run

RULES = (
    "**Cards** rank 2 to 10, then Jack 11, Queen 12, King 13, Ace 14; suits never matter in play.\n"
    "**A hand**: everyone is dealt the same number of cards; the player left of the dealer leads.\n"
    "**A trick**: the leader plays any card. Everyone after must play a card **at least as high** as the "
    "highest so far; with none, you must play your **lowest**. The last card of the highest value takes "
    "the trick (a tie goes to the later card), and its player leads the next.\n"
    "**Scoring**: only the hand's **last trick** counts. Whoever takes it adds its card's value to their "
    "score; anyone else who played that same value in it subtracts it (never below 0).\n"
    "**The end**: reach the target (21) and you lose; the others with the lowest score win. With "
    "cucumbers, the first time costs a 🥒 (your score drops to the highest of the others) and the second loses."
)

EXAMPLE_HANDS = (("9♣", "K♦", "3♠"), ("9♦", "4♥", "Q♣"), ("2♥", "8♠", "5♦"))


def _card(text: str) -> int:
    card = parse_card(text)
    assert card is not None, text
    return card


def worked_trick() -> list[str]:
    """Ann, Bob and Cat play one trick: Bob leads a 9, Cat cannot reach it, Ann ties it and takes the lead."""
    seats = (Seat("ann", "Ann"), Seat("bob", "Bob"), Seat("cat", "Cat"))
    state, events = run(GameState(), CreateGame("example", seats, num_cards=3))
    hands = tuple(tuple(_card(c) for c in hand) for hand in EXAMPLE_HANDS)
    state, dealt = run(state, DealHand(hands))
    log: list[Event] = [*events, *dealt]
    for card in ("9♦", "2♥", "9♣"):
        seat = state.to_play
        assert seat is not None
        state, played = run(state, PlayCard(seats[seat].id, _card(card)))
        log += played
    told = [line for _, _, lines in narrate(log) for line in lines]
    holding = ", ".join(f"{s.name} {' '.join(h)}" for s, h in zip(seats, EXAMPLE_HANDS, strict=True))
    return [f"{holding}; Ann deals.", *told[2:]]
