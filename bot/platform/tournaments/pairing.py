"""Who plays whom in a tournament's round, for every game: Swiss, round robin, knockout, and tables
of several seats (Cucumber). Pure functions of the standings, so a round is paired the same way
however often it is asked (a tournament's log records the pairing, not how it was found).

**Swiss** pairs by maximum-weight matching (networkx's blossom algorithm, as pairing engines do),
with weights in strict tiers, each worth more than everything below it together:
1. no rematch, and no second bye, while any pairing avoids them;
2. the bye (an odd number of players) to the lowest-ranked player who has not had one;
3. opponents as close in score as possible;
4. within a score group, the top half against the bottom half (1 v 4, 2 v 5, 3 v 6: the Dutch system);
5. seats balanced: opponents who lean to the same seat avoided; the one who has moved first less
   often moves first.

**Round robin** is the circle method (one player fixed, the rest rotating; a bye each round for an
odd number). **Knockout** seeds by rating into the standard bracket (1 v 16, 8 v 9, ...: the top
two seeds meet only in the final), the top seeds given the byes up to a power of two.
**Tables** deals players into tables of ``smallest``-``largest`` seats, as even in size as
possible, in snake order of rating, so each table has one of the strongest.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx


@dataclass(frozen=True)
class Entrant:
    """A player's tournament so far."""

    player: str
    score: float = 0.0
    rating: float = 0.0
    opponents: frozenset[str] = field(default_factory=frozenset)
    byes: int = 0
    firsts: int = 0
    """Games this player moved first in (Hog's seat: a colour, in chess)."""
    games: int = 0


@dataclass(frozen=True)
class Pairs:
    """A round's pairs, each ``(moves first, moves second)``, and who sits out with a bye."""

    pairs: tuple[tuple[str, str], ...]
    bye: str | None = None


BYE = "\x00bye"
"""The matching's stand-in for the bye."""


def ranked(records: Sequence[Entrant]) -> list[Entrant]:
    """Best first: by score, then rating, then id (so equal records rank the same every time)."""
    return sorted(records, key=lambda r: (-r.score, -r.rating, r.player))


def _seats(a: Entrant, b: Entrant) -> tuple[str, str]:
    """Who moves first: the one who has moved first less often, relative to their games; else the better ranked."""
    lean_a, lean_b = 2 * a.firsts - a.games, 2 * b.firsts - b.games
    return (a.player, b.player) if lean_a <= lean_b else (b.player, a.player)


def swiss(records: Sequence[Entrant]) -> Pairs:
    """The next Swiss round for ``records`` (``ValueError`` for fewer than two players)."""
    order = ranked(records)
    n = len(order)
    if n < 2:
        raise ValueError("A round needs two players at least.")
    position = {r.player: i for i, r in enumerate(order)}
    groups: dict[float, list[str]] = {}
    for r in order:
        groups.setdefault(r.score, []).append(r.player)
    place = {p: (i, len(group)) for group in groups.values() for i, p in enumerate(group)}
    half_points = max(1, round(2 * max(r.score for r in order)) + 1)
    edges = n // 2 + 1  # in a matching, the bye's included
    colour, most = 1, edges  # each tier's unit is more than every lower tier's most, summed
    dutch = most + 1
    most += edges * n * dutch
    closeness = most + 1
    most += edges * half_points**2 * closeness
    bye_tier = most + 1
    most += n * bye_tier
    rule = most + 1
    graph: nx.Graph[str] = nx.Graph()
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            gap = round(2 * abs(a.score - b.score))
            (ia, size), (ib, _) = place[a.player], place[b.player]
            halves = n - abs(abs(ia - ib) - size // 2) if a.score == b.score else 0
            balanced = 1 if (2 * a.firsts - a.games) != (2 * b.firsts - b.games) else 0
            weight = (rule if b.player not in a.opponents else 0) + (half_points**2 - gap**2) * closeness
            graph.add_edge(a.player, b.player, weight=weight + halves * dutch + balanced * colour)
        if n % 2:
            fresh = rule if a.byes == 0 else 0
            graph.add_edge(a.player, BYE, weight=fresh + bye_tier * position[a.player])
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    bye = next((a if b == BYE else b for a, b in matched if BYE in (a, b)), None)
    by_id = {r.player: r for r in order}
    pairs = [_seats(by_id[a], by_id[b]) for a, b in matched if BYE not in (a, b)]
    pairs.sort(key=lambda pair: min(position[pair[0]], position[pair[1]]))
    return Pairs(tuple(pairs), bye)


def round_robin(players: Sequence[str]) -> list[Pairs]:
    """Every round of a round robin by the circle method: each pair meets once, seats alternating."""
    if len(players) < 2:
        raise ValueError("A round robin needs two players at least.")
    circle: list[str | None] = [*players, None] if len(players) % 2 else list(players)
    n = len(circle)
    rounds = []
    for r in range(n - 1):
        pairs, bye = [], None
        for i in range(n // 2):
            a, b = circle[i], circle[n - 1 - i]
            if a is None or b is None:
                bye = b if a is None else a
                continue
            pairs.append((b, a) if i == 0 and r % 2 else (a, b))  # the fixed player alternates; the rest move rows
        rounds.append(Pairs(tuple(pairs), bye))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def bracket(size: int) -> list[int]:
    """The standard seeding of a bracket of ``size`` (a power of two): seed numbers, in bracket order."""
    seeds = [1]
    while len(seeds) < size:
        total = 2 * len(seeds) + 1
        seeds = [s for seed in seeds for s in (seed, total - seed)]
    return seeds


def knockout(records: Sequence[Entrant]) -> tuple[Pairs, list[str | None]]:
    """A knockout's first round, seeded by rating, and the bracket's order of players (``None``
    where a seed is missing: their opponent has a bye and goes through)."""
    seeded = sorted(records, key=lambda r: (-r.rating, r.player))
    if len(seeded) < 2:
        raise ValueError("A knockout needs two players at least.")
    size = 1 << math.ceil(math.log2(len(seeded)))
    order: list[str | None] = [seeded[s - 1].player if s <= len(seeded) else None for s in bracket(size)]
    pairs = [(a, b) for a, b in zip(order[::2], order[1::2], strict=True) if a is not None and b is not None]
    return Pairs(tuple(pairs)), order


def tables(records: Sequence[Entrant], smallest: int = 3, largest: int = 6) -> list[tuple[str, ...]]:
    """Players dealt into tables of ``smallest`` to ``largest`` seats, sizes differing by one at most,
    in snake order of rating; ``ValueError`` when they cannot be seated so."""
    count = -(-len(records) // largest)
    if count == 0 or len(records) < smallest * count:
        raise ValueError(f"{len(records)} players cannot sit at tables of {smallest} to {largest}.")
    seats: list[list[str]] = [[] for _ in range(count)]
    for i, record in enumerate(sorted(records, key=lambda r: (-r.rating, r.player))):
        lap, at = divmod(i, count)
        seats[at if lap % 2 == 0 else count - 1 - at].append(record.player)
    return [tuple(table) for table in seats]
