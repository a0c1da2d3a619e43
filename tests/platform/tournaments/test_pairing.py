"""Tournament pairings, alone, with hypothesis: everyone paired once or the one bye, no rematch and
no second bye while a pairing avoids them (checked against every possible pairing of small fields),
the bye to the lowest ranked, round robins where each pair meets once, seeded brackets, even tables."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.platform.tournaments.pairing import Entrant, Pairs, bracket, knockout, ranked, round_robin, swiss, tables


@st.composite
def fields(draw: st.DrawFn, most: int = 9) -> list[Entrant]:
    """A tournament in progress: players with scores, ratings, past opponents and byes."""
    n = draw(st.integers(2, most))
    players = [f"p{i}" for i in range(n)]
    met = draw(st.sets(st.tuples(st.sampled_from(players), st.sampled_from(players)), max_size=3 * n))
    had_bye = draw(st.sets(st.sampled_from(players), max_size=n))
    records = []
    for p in players:
        games = draw(st.integers(0, 6))
        faced = {b for a, b in met if a == p} | {a for a, b in met if b == p}
        records.append(
            Entrant(
                p,
                score=draw(st.integers(0, 2 * games)) / 2,
                rating=draw(st.floats(800, 2000)),
                opponents=frozenset(faced - {p}),
                byes=int(p in had_bye),
                firsts=draw(st.integers(0, games)),
                games=games,
            )
        )
    return records


def everyone_once(round_: Pairs, players: list[str]) -> bool:
    seen = [p for pair in round_.pairs for p in pair] + ([round_.bye] if round_.bye else [])
    return sorted(seen) == sorted(players) and (round_.bye is not None) == (len(players) % 2 == 1)


def pairings(players: list[str]) -> Iterator[tuple[list[tuple[str, str]], str | None]]:
    """Every way to pair ``players`` (with one bye for an odd number)."""
    if len(players) % 2:
        for bye in players:
            for pairs, _ in pairings([p for p in players if p != bye]):
                yield pairs, bye
        return
    if not players:
        yield [], None
        return
    first, rest = players[0], players[1:]
    for other in rest:
        for pairs, _ in pairings([p for p in rest if p != other]):
            yield [(first, other), *pairs], None


def faults(records: list[Entrant], pairs: list[tuple[str, str]], bye: str | None) -> int:
    """Rematches, and a bye to someone who had one."""
    by_id = {r.player: r for r in records}
    return sum(b in by_id[a].opponents for a, b in pairs) + (bye is not None and by_id[bye].byes > 0)


@settings(max_examples=150, deadline=None)
@given(fields())
def test_a_swiss_round_pairs_everyone_once_with_no_rematch_while_avoidable(records: list[Entrant]) -> None:
    round_ = swiss(records)
    players = [r.player for r in records]
    assert everyone_once(round_, players)
    least = min(faults(records, pairs, bye) for pairs, bye in pairings(players))
    assert faults(records, list(round_.pairs), round_.bye) == least


@settings(max_examples=100, deadline=None)
@given(fields())
def test_the_bye_goes_to_the_lowest_ranked_who_can_take_it(records: list[Entrant]) -> None:
    fresh = [r.player for r in records]
    records = [Entrant(r.player, r.score, r.rating, frozenset(), r.byes, r.firsts, r.games) for r in records]
    round_ = swiss(records)
    if len(fresh) % 2 == 0:
        assert round_.bye is None
        return
    without = [r.player for r in ranked(records) if r.byes == 0]
    assert round_.bye == (without[-1] if without else ranked(records)[-1].player)


def test_a_score_group_pairs_its_top_half_against_its_bottom_half_and_balances_seats() -> None:
    records = [Entrant(f"p{i}", rating=2000 - i) for i in range(6)]
    assert {frozenset(p) for p in swiss(records).pairs} == {
        frozenset(("p0", "p3")),
        frozenset(("p1", "p4")),
        frozenset(("p2", "p5")),
    }
    leaders = [Entrant("a", 2.0, 1500), Entrant("b", 2.0, 1400), Entrant("c", 1.0, 1900), Entrant("d", 1.0, 1800)]
    assert {frozenset(p) for p in swiss(leaders).pairs} == {frozenset(("a", "b")), frozenset(("c", "d"))}
    leaned = [Entrant("a", firsts=2, games=2), Entrant("b", firsts=0, games=2)]
    assert swiss(leaned).pairs == (("b", "a"),)  # b has moved first less often


@given(st.integers(2, 12))
def test_a_round_robin_meets_every_pair_once(n: int) -> None:
    players = [f"p{i}" for i in range(n)]
    rounds = round_robin(players)
    assert len(rounds) == (n if n % 2 else n - 1)
    assert all(everyone_once(r, players) for r in rounds)
    met = [frozenset(pair) for r in rounds for pair in r.pairs]
    assert sorted(met, key=sorted) == sorted(map(frozenset, itertools.combinations(players, 2)), key=sorted)
    assert len({r.bye for r in rounds if r.bye}) == (n if n % 2 else 0)  # each sits out once, if anyone does
    for p in players:
        firsts = sum(pair[0] == p for r in rounds for pair in r.pairs)
        seconds = sum(pair[1] == p for r in rounds for pair in r.pairs)
        assert abs(firsts - seconds) <= 1


@given(st.integers(2, 40))
def test_a_knockout_is_seeded_so_the_best_two_meet_last(n: int) -> None:
    records = [Entrant(f"p{i}", rating=3000 - i) for i in range(n)]
    first, order = knockout(records)
    size = len(order)
    assert size >= n and size & (size - 1) == 0 and size < 2 * n
    assert order.index("p0") < size // 2 <= order.index("p1")  # in different halves
    seeds = {f"p{i}": i + 1 for i in range(n)}
    assert all(seeds[a] + seeds[b] == size + 1 for a, b in first.pairs)
    through = [a or b for a, b in zip(order[::2], order[1::2], strict=True) if a is None or b is None]
    assert sorted(seeds[p] for p in through if p) == list(range(1, size - n + 1))  # byes to the top seeds
    assert sorted(bracket(8)) == list(range(1, 9)) and bracket(4) == [1, 4, 2, 3]


@given(st.integers(3, 60))
def test_tables_seat_everyone_evenly_with_a_strong_player_each(n: int) -> None:
    records = [Entrant(f"p{i}", rating=3000 - i) for i in range(n)]
    seated = tables(records)
    sizes = [len(t) for t in seated]
    assert sorted(p for t in seated for p in t) == sorted(r.player for r in records)
    assert min(sizes) >= 3 and max(sizes) <= 6 and max(sizes) - min(sizes) <= 1
    strongest = {f"p{i}" for i in range(len(seated))}
    assert all(len(strongest & set(t)) == 1 for t in seated)


def test_too_few_players_are_refused() -> None:
    with pytest.raises(ValueError, match="two players at least"):
        swiss([Entrant("alone")])
    with pytest.raises(ValueError, match="two players at least"):
        round_robin(["alone"])
    with pytest.raises(ValueError, match="two players at least"):
        knockout([Entrant("alone")])
    with pytest.raises(ValueError, match="2 players cannot sit at tables of 3 to 6"):
        tables([Entrant("a"), Entrant("b")])
