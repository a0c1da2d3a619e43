"""Tournaments for every game on the platform: a tournament is a stream of its own events (who joined,
each round's pairing, each game's result), its standings folded from them; the director creates each
round's games through the game's module and records their results as they finish."""
