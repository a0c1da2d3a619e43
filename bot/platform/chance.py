"""The platform's random source: sealed dice and decks. Each game draws a secret 32-byte seed when it
is created (``secrets``); every die and every shuffle of the game is derived from it, so the SHA-256
of the seed, shown while the game is played, commits the bot to every outcome in advance, and the
seed, revealed when the game is over, lets anyone check them (``docs/fairness.md``).

A draw made when the game stands at version ``v`` reads the byte stream
``HMAC-SHA256(seed, f"{game_id}:{v}:{block}")`` for ``block`` = 0, 1, 2...; a number below ``n`` takes
the next 4 bytes as a big-endian integer, rejected and redrawn when it is at or above the largest
multiple of ``n`` below 2**32 (so every value is exactly equally likely), and is that integer mod
``n``. A die of ``s`` sides is ``1 +`` a number below ``s``; a shuffle is Fisher-Yates from the last
position down, swapping position ``i`` with a number below ``i + 1``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence

SEED_BYTES = 32
SPACE = 2**32


def commitment(seed: bytes) -> str:
    """What a running game shows of its seed: the SHA-256, in hex."""
    return hashlib.sha256(seed).hexdigest()


def seal_words(draws: str, seed: bytes, over: bool, check: str, *, short: bool = False) -> str:
    """What every front says of a game's seed: while it is played, that its ``draws`` are sealed,
    with the seed's SHA-256 (its first 16 digits where room is short); once it is over, the seed
    itself and ``check`` (how to check it, or what checking it found)."""
    if over:
        return f"🔓 seed {seed.hex()} · {check}"
    digest = commitment(seed)
    return f"🔒 {draws} sealed: {digest[:16] + '…' if short else digest} (revealed when the game ends)"


class Draws:
    """Dice and shuffles from uniform numbers below ``n`` (``below``, each source's own)."""

    def below(self, n: int) -> int:
        raise NotImplementedError

    def roll(self, count: int, sides: int) -> tuple[int, ...]:
        return tuple(1 + self.below(sides) for _ in range(count))

    def shuffled(self, items: Sequence[int]) -> tuple[int, ...]:
        deck = list(items)
        for i in range(len(deck) - 1, 0, -1):  # Fisher-Yates
            j = self.below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        return tuple(deck)


class SealedChance(Draws):
    """The draws of one game at one version."""

    def __init__(self, seed: bytes, game_id: str, version: int) -> None:
        self._words = _words(seed, f"{game_id}:{version}")

    def below(self, n: int) -> int:
        """A number from 0 to ``n - 1``, each exactly as likely."""
        limit = SPACE - SPACE % n
        while (word := next(self._words)) >= limit:
            pass
        return word % n


class SecretChance(Draws):
    """Unsealed secure draws, for a game stored before seeds were drawn (it has none to reveal)."""

    def below(self, n: int) -> int:
        return secrets.randbelow(n)


def _words(seed: bytes, label: str) -> Iterator[int]:
    """The stream's 4-byte big-endian words, block after block."""
    block = 0
    while True:
        digest = hmac.new(seed, f"{label}:{block}".encode(), hashlib.sha256).digest()
        for at in range(0, len(digest), 4):
            yield int.from_bytes(digest[at : at + 4], "big")
        block += 1
