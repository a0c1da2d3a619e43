"""The next round of a tournament, from its log: pure, so that a round is paired the same however
often it is asked, by whichever process asks (the log keeps the pairing it recorded).

Two-player games (Hog) use ``pairing``'s Swiss, circle method and seeded bracket. Tables of several
seats (Cucumber) are dealt by ``pairing.tables``: Swiss balances the first round by rating, then seats
players of like points together; a
round robin (a league) seats each round so that as few players as possible meet again; a knockout
sends each table's winners on until one table plays the final.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence

from bot.platform.tournaments import pairing
from bot.platform.tournaments.state import KNOCKOUT, ROUND_ROBIN, SWISS, Round, Standing, Tournament

GAME_ID = re.compile(r"t([0-9a-f]{8})r\d{1,2}g\d{1,2}")
TABLE_ROUNDS = 3
Next = tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]
"""A round's tables (each game's players in seat order) and byes."""
"""A Swiss of tables plays this many rounds unless told otherwise."""


def game_id(t: Tournament, number: int, table: int) -> str:
    """A tournament game's id: ``t<tournament>r<round>g<table>``, so a finished game names its tournament."""
    return f"t{t.tournament_id}r{number}g{table + 1}"


def tournament_of(game_id: str) -> str | None:
    """The id of the tournament a game belongs to, from its id (``None``: no tournament's)."""
    found = GAME_ID.fullmatch(game_id)
    return found[1] if found else None


def records(t: Tournament, standings: Sequence[Standing]) -> list[pairing.Entrant]:
    return [
        pairing.Entrant(s.player, s.points, s.rating, s.opponents, s.byes, s.firsts, s.games + s.byes)
        for s in standings
        if not s.out
    ]


def planned(t: Tournament) -> int | None:
    """How many rounds it plays (``None``: a knockout, until one is left)."""
    assert t.created is not None
    fmt, asked, n = t.created.format, t.created.rounds, len(t.ratings) if t.started else len(t.players)
    if fmt == KNOCKOUT:
        return None
    if fmt == ROUND_ROBIN and t.pairs:
        return n - 1 if n % 2 == 0 else n
    if asked:
        return asked
    if fmt == SWISS:
        return max(1, math.ceil(math.log2(max(n, 2)))) if t.pairs else TABLE_ROUNDS
    sizes = table_sizes(n, t.created.smallest, t.created.largest)
    return max(1, math.ceil((n - 1) / max(1.0, sum(sizes) / len(sizes) - 1)))


def table_sizes(n: int, smallest: int, largest: int) -> list[int]:
    """``n`` players at as few tables as can seat them, sizes differing by one at most."""
    count = max(1, -(-n // largest))
    return [n // count + (i < n % count) for i in range(count)]


def next_round(t: Tournament) -> Next | None:
    """The next round's tables and byes; ``None`` when the tournament is over (every round played,
    or a knockout's champion known). Asked only once the current round is done."""
    assert t.created is not None
    number = len(t.rounds) + 1
    rounds = planned(t)
    if rounds is not None and number > rounds:
        return None
    fmt = t.created.format
    if fmt == KNOCKOUT:
        return _knockout(t)
    active = records(t, t.standings())
    if len(active) < 2:
        return None
    if fmt == ROUND_ROBIN and t.pairs:
        circle = pairing.round_robin(sorted(t.ratings, key=lambda p: (-t.ratings[p], p)))[number - 1]
        gone = t.gone
        pairs = tuple(pair for pair in circle.pairs if not gone & set(pair))
        walkovers = [p for pair in circle.pairs if gone & set(pair) for p in pair if p not in gone]
        bye = [circle.bye] if circle.bye is not None and circle.bye not in gone else []
        return pairs, (*bye, *walkovers)
    if t.pairs:
        paired = pairing.swiss(active)
        return paired.pairs, (paired.bye,) if paired.bye else ()
    if fmt == ROUND_ROBIN:
        return _league(t, active), ()
    if not t.rounds:  # nobody has points yet: tables balanced by rating
        return tuple(pairing.tables(active, t.created.smallest, t.created.largest)), ()
    return _chunks(active, t.created.smallest, t.created.largest), ()


def _chunks(active: Sequence[pairing.Entrant], smallest: int, largest: int) -> tuple[tuple[str, ...], ...]:
    """Tables of players of like points: the ranked players cut into tables in turn."""
    order = [r.player for r in pairing.ranked(active)]
    tables, at = [], 0
    for size in table_sizes(len(order), smallest, largest):
        tables.append(tuple(order[at : at + size]))
        at += size
    return tuple(tables)


def _league(t: Tournament, active: Sequence[pairing.Entrant]) -> tuple[tuple[str, ...], ...]:
    """A league round: tables dealt in snake order of rating, then improved by swapping two players
    of different tables while that seats fewer pairs who have met already (each repeat counted by how
    often they met): a local search, the same every time."""
    assert t.created is not None
    met: dict[frozenset[str], int] = {}
    for r in t.rounds:
        for table in r.tables:
            for pair in itertools.combinations(table, 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
    seats = [list(table) for table in pairing.tables(active, min(t.created.smallest, len(active)), t.created.largest)]

    def cost(table: Sequence[str]) -> int:
        return sum(met.get(frozenset(pair), 0) ** 2 for pair in itertools.combinations(table, 2))

    better = True
    while better:
        better = False
        for a, b in itertools.combinations(seats, 2):
            for x, y in itertools.product(range(len(a)), range(len(b))):
                before = cost(a) + cost(b)
                a[x], b[y] = b[y], a[x]
                if cost(a) + cost(b) < before:
                    better = True
                else:
                    a[x], b[y] = b[y], a[x]
    return tuple(tuple(table) for table in seats)


def _winners(r: Round, table: tuple[str, ...], game_id: str, seed: dict[str, int]) -> list[str]:
    """Who goes on from a knockout table: its winners, or (a game called off) its best seed."""
    results = r.results.get(game_id, ())
    won = [p for p, result in zip(table, results, strict=True) if result == "win"]
    return won or [min(table, key=lambda p: seed[p])]


def _knockout(t: Tournament) -> Next | None:
    assert t.created is not None
    order = sorted(t.ratings, key=lambda p: (-t.ratings[p], p))
    seed = {p: i for i, p in enumerate(order)}
    if t.pairs:
        return _bracket(t, order, seed)
    alive = list(order)
    for r in t.rounds:
        if len(r.tables) == 1 and not r.byes:
            return None  # the final table was played
        alive = [p for table, g in zip(r.tables, r.games, strict=True) for p in _winners(r, table, g, seed)]
        alive += list(r.byes)
    alive = [p for p in sorted(alive, key=lambda p: seed[p]) if p not in t.gone]
    if len(alive) < 2:
        return None
    smallest = min(t.created.smallest, len(alive))
    records = [pairing.Entrant(p, rating=float(len(order) - seed[p])) for p in alive]
    return tuple(pairing.tables(records, smallest, t.created.largest)), ()


def _bracket(t: Tournament, order: list[str], seed: dict[str, int]) -> Next | None:
    """The next round of a two-player knockout: the bracket's slots, halved each round."""
    records = [pairing.Entrant(p, rating=float(len(order) - seed[p])) for p in order]
    slots: list[str | None] = list(pairing.knockout(records)[1])
    for r in t.rounds:
        following: list[str | None] = []
        for a, b in zip(slots[::2], slots[1::2], strict=True):
            game = next((g for table, g in zip(r.tables, r.games, strict=True) if {a, b} == set(table)), None)
            if game is not None:
                table = r.table_of(game)
                assert table is not None
                following.append(_winners(r, table, game, seed)[0])
            else:
                following.append(a if a is not None and a not in t.gone else b if b not in t.gone else None)
        slots = following
    alive = [p for p in slots if p is not None]
    if len(slots) < 2 or len(alive) < 2:
        return None
    pairs, byes = [], []
    for a, b in zip(slots[::2], slots[1::2], strict=True):
        present = [p for p in (a, b) if p is not None and p not in t.gone]
        if len(present) == 2:
            pairs.append((present[0], present[1]))
        elif present:
            byes.append(present[0])
    return tuple(pairs), tuple(byes)
