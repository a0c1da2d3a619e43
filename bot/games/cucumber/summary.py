"""A Cucumber game at a glance, for the read models: each seat's score and result, its cucumbers and
the worst card it was stuck with (the highest last-trick card that scored against it)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.platform.contract import SeatSummary, Summary
from cucumber_core.cards import value
from cucumber_core.events import Event, HandScored
from cucumber_core.game import GameState, Phase, evolve

LIVE = frozenset({Phase.LOBBY, Phase.CUT, Phase.DEAL, Phase.PLAY})


def decided(state: GameState) -> bool:
    """Over with a loser, or at the hand limit: not a table that closed or a game called off."""
    over = state.phase is Phase.OVER and state.closed is None
    return over and (state.loser is not None or state.hand_number >= state.hand_limit)


def status(state: GameState) -> str:
    """``lobby``, ``playing``, ``finished``, or how it ended undecided (``expired``, ``cancelled``, ``void``)."""
    if state.phase is Phase.LOBBY:
        return "lobby"
    if state.phase is not Phase.OVER:
        return "playing"
    return "finished" if decided(state) else state.closed or "void"


def abandoned(state: GameState, seat: int) -> bool:
    """A person's seat that a bot played to the end (they left, or were still away): a forfeit."""
    return state.seats[seat].bot is None and state.bots[seat] is not None


def result(state: GameState, seat: int) -> str | None:
    """``loss`` for the loser and for a seat its person abandoned (a forfeit, however their stand-in
    did: no one gains by leaving a game to a bot), ``win`` for the winners, ``draw`` for the seats
    between (and for everyone at the hand limit); ``None`` while undecided."""
    if not decided(state):
        return None
    if seat == state.loser or abandoned(state, seat):
        return "loss"
    return "win" if seat in state.winners else "draw"


Tally = tuple[GameState, tuple[tuple[int, int], ...], int]
"""A log folded so far: the game, each seat's worst card so far (``(seat, value)``), and the version
that decided it (0: none yet)."""


def tally(kept: Tally | None, events: Iterable[Event]) -> Tally:
    """``kept`` (``None``: the start) with ``events`` folded in."""
    state, worst_so_far, decided_at = kept or (GameState(), (), 0)
    worst = dict(worst_so_far)
    for event in events:
        state = evolve(state, event)
        if isinstance(event, HandScored):
            worst[event.seat] = max(worst.get(event.seat, 0), value(event.card))
        if not decided_at and decided(state):
            decided_at = state.version
    return state, tuple(worst.items()), decided_at


def summary_of(folded: Tally) -> Summary:
    state, worst_cards, decided_at = folded
    worst = dict(worst_cards)
    done = decided(state)
    seats = tuple(
        SeatSummary(
            s.id,
            s.name,
            s.bot,
            state.scores[i] if state.scores else 0,
            result(state, i),
            {"cucumbers": state.cucumbers[i], "worst": worst.get(i, 0)} if done else {},
        )
        for i, s in enumerate(state.seats)
    )
    fields = {
        "players": str(len(state.seats)),
        "target": str(state.target),
        "cards": str(state.num_cards),
        "cucumbers": "on" if state.cucumber_rule else "off",
    }
    live = state.phase in LIVE
    return Summary(
        state.game_id, "cucumber", state.place, status(state), live, state.version, seats, fields, decided_at
    )


def summarize(events: Iterable[Event]) -> Summary:
    return summary_of(tally(None, events))
