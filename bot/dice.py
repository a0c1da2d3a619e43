"""The bot's dice: a cryptographically secure source, so nobody can predict a roll."""

from __future__ import annotations

import secrets

from hog_core.game import Dice


def roll(dice: Dice) -> tuple[int, ...]:
    return tuple(secrets.randbelow(dice.sides) + 1 for _ in range(dice.count))
