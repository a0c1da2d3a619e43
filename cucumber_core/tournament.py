"""Round-robin tables of bots (CUCUMBER.md §4): game g seats bot (seat + g) mod k at each seat, so every
bot plays every seat equally often. Per bot: losses, shared wins (the other players with the fewest
cucumbers, then the lowest score, split on ties) and the mean final score, each with a 95% interval.

Games of bots that all have array policies run in batches (``simulate``); any other bot (the strong
one, a user's) plays through the engine, one game at a time, game g shuffled from ``[seed, g]``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from cucumber_core import simulate
from cucumber_core.bots import Bot
from cucumber_core.events import Seat
from cucumber_core.game import CreateGame
from cucumber_core.match import play_match
from cucumber_core.simulate import FloatArray, IntArray

Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class Options:
    num_cards: int = 7
    target: int = 21
    cucumbers: bool = False


@dataclass(frozen=True, slots=True)
class Results:
    """Per game and per bot (not per seat): final score, cucumbers and the game's loser (a bot index)."""

    scores: IntArray
    cucumbers: IntArray
    loser: IntArray


@dataclass(frozen=True, slots=True)
class Estimate:
    mean: float
    half_width: float
    """The 95% interval is ``mean ± half_width`` (normal approximation)."""


@dataclass(frozen=True, slots=True)
class Standing:
    name: str
    games: int
    losses: int
    loss_rate: Estimate
    wins: Estimate
    """Shared wins per game."""
    score: Estimate
    """Mean final score."""


def seating(games: int, bots: int) -> IntArray:
    """``(games, seats)``: the bot at each seat of each game."""
    order: IntArray = (np.arange(bots)[None, :] + np.arange(games)[:, None]) % bots
    return order


def play_arrays(policies: Sequence[simulate.Policy], games: int, seed: int, options: Options) -> Results:
    """Every game in batches, one batch per rotation of the seats."""
    k = len(policies)
    rng = np.random.default_rng(seed)
    scores = np.zeros((games, k), dtype=np.int64)
    cukes = np.zeros((games, k), dtype=np.int64)
    loser = np.full(games, -1, dtype=np.int64)
    seats = seating(games, k)
    for r in range(k):
        ids = np.arange(r, games, k)
        if not ids.size:
            continue
        order = seats[r]
        m = simulate.play_games(
            [policies[b] for b in order],
            ids.size,
            rng,
            num_cards=options.num_cards,
            target=options.target,
            cucumbers=options.cucumbers,
        )
        scores[ids[:, None], order] = m.scores
        cukes[ids[:, None], order] = m.cucumbers
        loser[ids] = np.where(m.loser >= 0, order[np.maximum(m.loser, 0)], -1)
    return Results(scores, cukes, loser)


def play_engine(
    bots: Sequence[Bot],
    names: Sequence[str],
    games: int,
    seed: int,
    options: Options,
    progress: Callable[[int], None] | None = None,
) -> Results:
    """Every game through the engine; ``progress(g)`` is told after each."""
    k = len(bots)
    scores = np.zeros((games, k), dtype=np.int64)
    cukes = np.zeros((games, k), dtype=np.int64)
    loser = np.full(games, -1, dtype=np.int64)
    for g, order in enumerate(seating(games, k)):
        seats = tuple(Seat(str(s), names[b], names[b]) for s, b in enumerate(order))
        create = CreateGame(f"t{g}", seats, options.num_cards, options.target, options.cucumbers)
        state = play_match(create, [bots[b] for b in order], np.random.default_rng([seed, g]))
        scores[g, order] = state.scores
        cukes[g, order] = state.cucumbers
        loser[g] = -1 if state.loser is None else order[state.loser]
        if progress:
            progress(g)
    return Results(scores, cukes, loser)


def _estimate(samples: FloatArray) -> Estimate:
    n = samples.size
    sd = float(samples.std(ddof=1)) if n > 1 else 0.0
    return Estimate(float(samples.mean()), Z95 * sd / math.sqrt(n))


def standings(names: Sequence[str], results: Results) -> list[Standing]:
    games, k = results.scores.shape
    lost = results.loser[:, None] == np.arange(k)
    rank = np.where(lost, np.iinfo(np.int64).max, results.cucumbers * 10_000 + results.scores)
    best = rank.min(axis=1, keepdims=True)
    winners = (rank == best) & (results.loser[:, None] >= 0)
    share = winners / np.maximum(winners.sum(axis=1, keepdims=True), 1)
    return [
        Standing(
            name=names[b],
            games=games,
            losses=int(lost[:, b].sum()),
            loss_rate=_estimate(lost[:, b].astype(np.float64)),
            wins=_estimate(share[:, b]),
            score=_estimate(results.scores[:, b].astype(np.float64)),
        )
        for b in range(k)
    ]


def table(rows: Sequence[Standing]) -> str:
    """The standings as text, fewest losses first."""
    width = max(len("bot"), *(len(r.name) for r in rows))
    lines = [f"{'bot':<{width}}  {'losses':>16}  {'shared wins':>16}  {'mean score':>14}"]
    for r in sorted(rows, key=lambda r: r.losses):
        lines.append(
            f"{r.name:<{width}}  {r.losses:>6} {100 * r.loss_rate.mean:5.1f}% ±{100 * r.loss_rate.half_width:4.1f}"
            f"  {r.wins.mean * r.games:>6.0f} {100 * r.wins.mean:5.1f}% ±{100 * r.wins.half_width:4.1f}"
            f"  {r.score.mean:7.2f} ±{r.score.half_width:5.2f}"
        )
    return "\n".join(lines)
