"""Domain errors: a command the rules refuse. ``message`` is written for the player who sent it."""

from __future__ import annotations


class CucumberError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidGame(CucumberError):
    """A game that cannot be created or dealt as asked (players, cards, target, a bad deal)."""


class NotAPlayer(CucumberError):
    """Someone who is not seated in the game tried to act in it."""


class NotYourTurn(CucumberError):
    """A player acted out of turn."""


class GameNotActive(CucumberError):
    """The game is over, or is waiting for a cut or a deal rather than a card."""


class IllegalCard(CucumberError):
    """A card the player does not hold, or may not play now (R7)."""
