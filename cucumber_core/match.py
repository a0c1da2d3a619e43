"""Whole games through the engine (decide/evolve), every seat played by a bot: for tournaments with
bots the vectorized simulator cannot run (the strong bot, a user's), and for tests."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cucumber_core.bots import Bot
from cucumber_core.events import Event
from cucumber_core.game import Command, CreateGame, GameState, Phase, PlayCard, run
from cucumber_core.views import seat_view


def play_match(
    create: CreateGame, bots: Sequence[Bot], rng: np.random.Generator, *, log: list[Event] | None = None
) -> GameState:
    """Play ``create``'s game to its end, seat s by ``bots[s]``; shuffles come from ``rng``. The
    events are appended to ``log`` when one is given."""
    state, events = run(GameState(), create)
    while True:
        if log is not None:
            log.extend(events)
        if state.phase is Phase.OVER:
            return state
        command: Command
        if state.phase is Phase.CUT:
            command = state.cut_from(rng.permutation(52).tolist())
        elif state.phase is Phase.DEAL:
            command = state.deal_from(rng.permutation(52).tolist())
        else:
            seat = state.to_play or 0
            card = bots[seat](seat_view(state, seat), rng)
            command = PlayCard(state.seats[seat].id, card)
        state, events = run(state, command)
