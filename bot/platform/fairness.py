"""``verify``: a finished game's every die and card recomputed from its revealed seed and compared with
its log. The seed of a game still being played is never used here, nor shown."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.platform.chance import SealedChance, commitment
from bot.platform.service import GameService, Seals

FAIR, UNFAIR, UNCHECKED = 0, 1, 2
"""A verdict's exit status: verified, an outcome the seed does not give, nothing to check."""


@dataclass(frozen=True, slots=True)
class Verdict:
    status: int
    text: str


async def verify(service: GameService[Any, Any, Any], seals: Seals, game_id: str) -> Verdict:
    game = service.game
    events = await service.events(game_id)
    if not events:
        return Verdict(UNCHECKED, f"There is no {game.title} game {game_id!r}.")
    if not (await service.load(game_id)).is_over:
        return Verdict(UNCHECKED, f"Game {game_id} is still being played: its seed is revealed when it ends.")
    seed = await seals.seed(game_id)
    if seed is None:
        return Verdict(UNCHECKED, f"Game {game_id} was played before sealed {game.draws}: there is no seed to check.")
    state, drawn = game.initial(), 0
    for position, event in enumerate(events, 1):
        redone = game.redraw(state, event, SealedChance(seed, game_id, state.version))
        if redone is not None:
            expected, count = redone
            if expected != event:
                return Verdict(
                    UNFAIR,
                    f"NOT fair: event {position} ({type(event).__name__}) is {event}, "
                    f"but the sealed seed gives {expected}.",
                )
            drawn += count
        state = game.evolve(state, event)
    sealed = commitment(seed)
    return Verdict(
        FAIR,
        f"fair: all {drawn} {game.draws} of game {game_id} match the sealed seed.\n"
        f"seed   {seed.hex()}\nsealed {sealed} (its SHA-256, shown while the game was played)",
    )
