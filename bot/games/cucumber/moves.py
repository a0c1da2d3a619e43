"""What a player asks of a Cucumber game, as the platform's commands: shared by the console and Discord."""

from __future__ import annotations

from bot.platform.contract import Chance, Commands, Refusal
from cucumber_core.cards import Card
from cucumber_core.game import Command, GameState, LeaveLobby, Phase, PlayCard, TakeOver

STAND_IN = "strong"
"""The bot that plays for a person whose time ran out, or who left."""


class StaleHand(Refusal):
    """A card pressed on a hand shown before the table moved on."""


def play(player: str, card: Card, moment: str) -> Commands[GameState, Command]:
    """``player`` plays ``card`` from a hand shown at ``moment`` (``GameState.moment``): refused as
    stale when the table has moved on since, however legal the card still is."""

    def commands(state: GameState, chance: Chance) -> list[Command]:
        if state.phase is Phase.PLAY and state.seat_of(player) is not None and state.moment != moment:
            raise StaleHand("The table moved on since this hand was shown: here it is as it stands.")
        return [PlayCard(player, card)]

    return commands


def leave(player: str) -> Commands[GameState, Command]:
    """Get up from a table, or hand one's seat in a game to the bot."""

    def commands(state: GameState, chance: Chance) -> list[Command]:
        return [LeaveLobby(player) if state.phase is Phase.LOBBY else TakeOver(player, STAND_IN, "left")]

    return commands
