"""The bot's random source: cryptographically secure, so nobody can predict a roll or a deal."""

from __future__ import annotations

import secrets
from collections.abc import Sequence


class SecretChance:
    def roll(self, count: int, sides: int) -> tuple[int, ...]:
        return tuple(secrets.randbelow(sides) + 1 for _ in range(count))

    def shuffled(self, items: Sequence[int]) -> tuple[int, ...]:
        deck = list(items)
        for i in range(len(deck) - 1, 0, -1):  # Fisher-Yates, each swap from the secure source
            j = secrets.randbelow(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        return tuple(deck)
