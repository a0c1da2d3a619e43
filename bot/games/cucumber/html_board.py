"""Cucumber's table as HTML, for the web front (``contract.HtmlBoard``): each seat with its score
against the target, its cucumbers, how many cards it holds and whose turn it is (in words); this
hand's tricks, who played what; the commentary; and for a seated viewer their own hand. Never a card
of another seat before it is played: only the public view and the viewer's own seat are read."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from bot.games.cucumber.hands import hand_of
from bot.platform.contract import Choice
from bot.web.render import templates
from cucumber_core.cards import Card, name, short
from cucumber_core.game import GameState, Phase

HERE = Path(__file__).parent / "web"
TEMPLATES = templates(HERE)
RED = {"♥", "♦"}


@dataclass(frozen=True)
class Shown:
    """A card as the table shows it: ``Q♠``, its name in words, and whether its suit is red."""

    short: str
    words: str
    red: bool


def shown(card: Card) -> Shown:
    return Shown(short(card), name(card), short(card)[-1] in RED)


@dataclass(frozen=True)
class SeatPanel:
    name: str
    score: int
    cucumbers: int
    held: int
    to_play: bool
    bot: str | None
    lost: bool


def html(state: GameState, story: tuple[str, ...], viewer: str) -> Markup:
    n = len(state.seats)
    scores, cucumbers = state.scores or (0,) * n, state.cucumbers or (0,) * n
    seats = [
        SeatPanel(
            s.name, scores[i], cucumbers[i], len(state.hands[i]) if state.hands else 0,
            state.phase is Phase.PLAY and state.to_play == i, state.bots[i] if state.bots else None, state.loser == i,
        )
        for i, s in enumerate(state.seats)
    ]  # fmt: skip
    tricks = [[shown(dict(t.plays)[i]) if i in dict(t.plays) else None for i in range(n)] for t in state.tricks]
    seat = state.seat_of(viewer) if viewer else None
    hand = hand_of(state, seat) if seat is not None and state.phase is Phase.PLAY else None
    return Markup(
        TEMPLATES.get_template("board.html").render(
            target=state.target, hand_number=state.hand_number, seats=seats, names=[s.name for s in state.seats],
            tricks=tricks, story=story, hand=[shown(c) for c in hand.cards] if hand else None,
            why=hand.why if hand else "", over=state.is_over,
        )
    )  # fmt: skip


def choices(state: GameState, player: str) -> list[Choice]:
    """A button for each card of ``player``'s hand (keys 1-9), those the rules forbid now disabled
    with the rule's reason."""
    seat = state.seat_of(player)
    if seat is None or state.phase is not Phase.PLAY or state.to_play != seat:
        return []
    hand = hand_of(state, seat)
    return [
        Choice(
            str(i),
            short(c),
            f"play {name(c)}",
            str(i) if i < 10 else "",
            "" if c in hand.legal else hand.why,
            "cuc-card-button cuc-red" if shown(c).red else "cuc-card-button",
        )
        for i, c in enumerate(hand.cards, 1)
    ]
