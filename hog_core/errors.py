"""Domain errors: a command the rules refuse. ``message`` is written for the player who sent it."""

from __future__ import annotations


class HogError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidGame(HogError):
    """A game that cannot be created as asked (unknown rules, bad goal, bad players)."""


class NotAPlayer(HogError):
    """Someone who is not seated in the game tried to act in it."""


class NotYourTurn(HogError):
    """A player acted out of turn."""


class GameNotActive(HogError):
    """The game is over, or is still waiting for its challenge to be answered."""


class InvalidMove(HogError):
    """A move outside the rules: bad number of dice, wrong outcomes, an unavailable Pork Chop."""


class DamagedLog(HogError):
    """A stored event the game cannot have come to (a turn after its end, out of turn): the log was
    changed behind the game's back. The projector sets such a game aside; a replay says so."""
