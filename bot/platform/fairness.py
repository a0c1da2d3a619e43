"""``verify``: a finished game's every die and card recomputed from its revealed seed and compared with
its log. The seed of a game still being played is never used here, nor shown."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.platform.chance import SealedChance, commitment
from bot.platform.codec import ForeignStream, from_records
from bot.platform.registry import AnyGame
from bot.platform.service import GameService, Seals

FAIR, UNFAIR, UNCHECKED = 0, 1, 2
"""A verdict's exit status: verified, an outcome the seed does not give, nothing to check."""


@dataclass(frozen=True, slots=True)
class Verdict:
    status: int
    text: str


async def verify(service: GameService[Any, Any, Any], seals: Seals, game_id: str) -> Verdict:
    """The verdict on ``game_id``'s draws. A log changed so that it no longer folds is still checked
    event by event (it can never be played on again), so the first outcome that differs is named."""
    game = service.game
    try:
        events = from_records(game, await service.store.load(game_id))
    except ForeignStream:
        events = []
    except Exception as error:  # an event that cannot even be read
        return Verdict(UNFAIR, f"NOT fair: game {game_id}'s log cannot be read ({error}).")
    if not events:
        return Verdict(UNCHECKED, f"There is no {game.title} game {game_id!r}.")
    if game.draws is None:
        return Verdict(UNCHECKED, f"Nothing in {game.title} is left to chance: there is nothing to check.")
    if not _over(game, events):
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
        try:
            state = game.evolve(state, event)
        except Exception as error:
            return Verdict(
                UNFAIR, f"NOT fair: event {position} ({type(event).__name__}) cannot follow the game ({error})."
            )
    sealed = commitment(seed)
    return Verdict(
        FAIR,
        f"fair: all {drawn} {game.draws} of game {game_id} match the sealed seed.\n"
        f"seed   {seed.hex()}\nsealed {sealed} (its SHA-256, shown while the game was played)",
    )


def _over(game: AnyGame, events: list[Any]) -> bool:
    """Whether the game has ended; a log that cannot be folded counts as ended (it is never played on)."""
    state = game.initial()
    try:
        for event in events:
            state = game.evolve(state, event)
    except Exception:
        return True
    return bool(state.is_over)
