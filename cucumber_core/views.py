"""What each viewer may see (CUCUMBER.md §5). A front end renders a ``PublicView`` for the table and a
``SeatView`` for one seat's owner alone; neither can leak a hand by accident, since the public view
holds no hand at all and a seat view holds only its own."""

from __future__ import annotations

import msgspec

from cucumber_core.cards import Card
from cucumber_core.game import GameState, Phase, Trick


class PublicSeat(msgspec.Struct, frozen=True, gc=False):
    name: str
    bot: str | None
    """Who plays the seat now: a bot's name, or ``None`` for its person."""
    score: int
    cucumbers: int
    cards_left: int


class PublicView(msgspec.Struct, frozen=True, gc=False):
    game_id: str
    phase: Phase
    num_cards: int
    target: int
    cucumber_rule: bool
    hand_number: int
    dealer: int
    seats: tuple[PublicSeat, ...]
    tricks: tuple[Trick, ...]
    """This hand's tricks: every card played so far, face up (R12)."""
    to_play: int | None
    high: int
    """The highest value in the current trick, 0 before its lead."""
    loser: int | None
    winners: tuple[int, ...]


class SeatView(msgspec.Struct, frozen=True, gc=False):
    """Everything one seat knows: the table and its own hand. A bot decides from this alone."""

    public: PublicView
    seat: int
    hand: tuple[Card, ...]
    legal: tuple[Card, ...]
    """The cards it may play now, in hand order; empty when it is not its turn."""


def public_view(state: GameState) -> PublicView:
    n = len(state.seats)
    held = [len(h) for h in state.hands] if state.hands else [0] * n
    bots = state.bots or tuple(s.bot for s in state.seats)  # at a table before its game: as seated
    scores, cucumbers = state.scores or (0,) * n, state.cucumbers or (0,) * n
    return PublicView(
        game_id=state.game_id,
        phase=state.phase,
        num_cards=state.num_cards,
        target=state.target,
        cucumber_rule=state.cucumber_rule,
        hand_number=state.hand_number,
        dealer=state.dealer,
        seats=tuple(PublicSeat(s.name, bots[i], scores[i], cucumbers[i], held[i]) for i, s in enumerate(state.seats)),
        tricks=state.tricks,
        to_play=state.to_play,
        high=state.trick.high if state.tricks else 0,
        loser=state.loser,
        winners=state.winners,
    )


def seat_view(state: GameState, seat: int) -> SeatView:
    hand = state.hands[seat] if state.hands else ()
    return SeatView(public_view(state), seat, hand, state.legal_cards(seat))
