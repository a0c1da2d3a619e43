"""The public table in words, for the board and the replay: made from ``PublicView`` alone, which holds
no hand, so nothing drawn here can show a card before it is played."""

from __future__ import annotations

from cucumber_core.cards import short, value
from cucumber_core.game import Phase, Trick
from cucumber_core.views import PublicView

STORY_LINES = 12
"""The most commentary lines a board shows: a batch in which bots played whole hands is cut to its end."""


def story(lines: tuple[str, ...]) -> str:
    if len(lines) <= STORY_LINES:
        return "\n".join(lines)
    return "\n".join(("…", *lines[-(STORY_LINES - 1) :]))


def trick_line(view: PublicView, trick: Trick) -> str:
    """``Ann 9♣ · Bob 10♦ · **Cat K♠**``: each card in play order, the one taking the trick so far in bold."""
    if not trick.plays:
        return f"{view.seats[trick.leader].name} to lead"
    top = max(value(card) for _, card in trick.plays)
    taking = max(i for i, (_, card) in enumerate(trick.plays) if value(card) == top)
    cards = [
        f"**{view.seats[s].name} {short(c)}**" if i == taking else f"{view.seats[s].name} {short(c)}"
        for i, (s, c) in enumerate(trick.plays)
    ]
    return " · ".join(cards)


def earlier_tricks(view: PublicView) -> str:
    """This hand's finished tricks, one a line (R12: they stay face up)."""
    done = [t for t in view.tricks if len(t.plays) == len(view.seats)]
    return "\n".join(f"{i}. {trick_line(view, t)}" for i, t in enumerate(done, 1))


def seat_lines(view: PublicView) -> str:
    """Each seat: score, cucumbers, cards left, the dealer, and who plays it."""
    lines = []
    for i, seat in enumerate(view.seats):
        marks = [f"{seat.score} pts"]
        if seat.cucumbers:
            marks.append("🥒" * seat.cucumbers)
        if view.phase is Phase.PLAY:
            marks.append(f"{seat.cards_left} card{'s' if seat.cards_left != 1 else ''}")
        if i == view.dealer and view.hand_number:
            marks.append("dealer")
        if seat.bot is not None:
            marks.append(f"🤖 {seat.bot.replace('_', ' ')}")
        pointer = "▶ " if i == view.to_play else ""
        lines.append(f"{pointer}**{seat.name}** — {' · '.join(marks)}")
    return "\n".join(lines)


def current_trick(view: PublicView) -> tuple[str, str] | None:
    """The trick being played, as a field's name and value, while cards are played."""
    if view.phase is not Phase.PLAY or not view.tricks:
        return None
    number = len(view.tricks)
    return f"Trick {number} of {view.num_cards}", trick_line(view, view.tricks[-1])
