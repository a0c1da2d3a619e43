"""A finished Cucumber game's estimated review (``cucumber_core.review``) in words: for each player
the cards where the strong bot would have saved the most, and each card beside the bot's choice."""

from __future__ import annotations

from collections.abc import Sequence

from cucumber_core.cards import short, value
from cucumber_core.events import Event
from cucumber_core.review import CardReview, costliest

ESTIMATE = "estimated by the strong bot, from each player's view: expected points by the end of the hand"
NOTHING = "No card to review: each was forced by the rules or played by a bot."


def card_words(r: CardReview) -> str:
    """``hand 2, trick 3: K♠ (4♣ would save 2.3)``, or ``hand 2, trick 3: K♠, the bot's choice too``."""
    where = f"hand {r.hand}, trick {r.trick}: {short(r.played)}"
    if value(r.choice) == value(r.played):
        return f"{where}, as the bot would"
    if r.lost < 0.05:
        return f"{where} ({short(r.choice)} was about as good)"
    return f"{where} ({short(r.choice)} would save {r.lost:.1f})"


def player_line(name: str, reviewed: Sequence[CardReview], seat: int) -> str:
    """``Ann: 12 cards chosen, 4.1 points over the bot's; most on hand 2, trick 3: K♠ (4♣ would save 2.3)``."""
    mine = [r for r in reviewed if r.seat == seat]
    worst = costliest(reviewed, seat, 2)
    over = sum(r.lost for r in mine)
    line = f"{name}: {len(mine)} card{'s' * (len(mine) != 1)} chosen, {over:.1f} points over the bot's"
    return line + (f"; most on {'; '.join(card_words(r) for r in worst)}" if worst else "")


def step_review(events: Sequence[Event], reviewed: Sequence[CardReview]) -> list[CardReview | None]:
    """Each event's card as reviewed, ``None`` for an event that is no card a person chose."""
    at = {r.at: r for r in reviewed}
    return [at.get(i) for i in range(len(events))]


def review_lines(names: Sequence[str], reviewed: Sequence[CardReview]) -> list[str]:
    """Every player's line, then every card that cost something worth a name, in order (or why none)."""
    lines = [
        player_line(name, reviewed, seat) for seat, name in enumerate(names) if any(r.seat == seat for r in reviewed)
    ]
    notable = [r for r in reviewed if r.lost >= 0.05]
    return [*lines, *(f"{names[r.seat]}, {card_words(r)}" for r in notable)] or [NOTHING]
