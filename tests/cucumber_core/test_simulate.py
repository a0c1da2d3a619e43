"""The vectorized simulator plays exactly the engine's games: same decks, same bots, same cards."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cucumber_core import bots, simulate
from cucumber_core.events import Event, Seat
from cucumber_core.game import CreateGame
from cucumber_core.match import play_match

DECKS = np.random.default_rng(2024).permuted(np.broadcast_to(np.arange(52), (40, 60, 52)), axis=2)
"""Game g's hand h (from 1) is dealt from ``DECKS[g, h - 1]``."""


class Decks:
    """Feeds the engine, game by game, the decks the simulator takes hand by hand."""

    def __init__(self, game: int) -> None:
        self.game, self.hand = game, 0

    def permutation(self, _: int) -> simulate.IntArray:
        self.hand += 1
        deck: simulate.IntArray = DECKS[self.game, self.hand - 1]
        return deck


@pytest.mark.parametrize(
    ("names", "options"),
    [
        (["play_first", "fimp", "magic", "play_first"], {}),
        (["magic", "magic", "fimp"], {"num_cards": 5, "target": 15, "dealer": 2}),
        (["fimp", "play_first"], {"cucumbers": True, "num_cards": 9}),
        (["magic", "play_first", "fimp", "magic", "play_first", "fimp"], {"cucumbers": True}),
    ],
)
def test_same_games_as_the_engine(names: list[str], options: dict[str, int]) -> None:
    games = DECKS.shape[0]
    sim = simulate.play_games(
        [simulate.POLICIES[n] for n in names],
        games,
        np.random.default_rng(0),
        decks=lambda ids, hand: DECKS[ids, hand - 1],
        **options,  # type: ignore[arg-type]
    )
    for g in range(games):
        seats = tuple(Seat(str(i), n) for i, n in enumerate(names))
        create = CreateGame("s", seats, **options)  # type: ignore[arg-type]
        log: list[Event] = []
        state = play_match(create, [bots.from_picker(bots.PICKERS[n]) for n in names], Decks(g), log=log)  # type: ignore[arg-type]
        assert list(sim.scores[g]) == list(state.scores), g
        assert list(sim.cucumbers[g]) == list(state.cucumbers)
        assert sim.loser[g] == state.loser and sim.hands[g] == state.hand_number


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(2, 14), min_size=1, max_size=9).flatmap(
        lambda hand: st.tuples(st.just(hand), st.sampled_from([0, *range(2, 15)]), st.integers(0, 3))
    )
)
def test_vector_policies_pick_what_the_pickers_pick(case: tuple[list[int], int, int]) -> None:
    values, high, gaps = case
    row = np.array([values + [0] * gaps])  # played cards (0) after the held ones
    for name, picker in bots.PICKERS.items():
        assert simulate.POLICIES[name](row, np.array([high]), np.random.default_rng(0))[0] == picker(values, high)


def test_uniform_picks_every_legal_card_and_only_those() -> None:
    hand = np.array([[5, 12, 0, 9, 2, 12]] * 6000)
    picks = simulate.uniform(hand, np.full(6000, 9), np.random.default_rng(5))
    counts = np.bincount(picks, minlength=6)
    assert set(np.flatnonzero(counts)) == {1, 3, 5}
    assert counts[[1, 3, 5]].min() > 1800  # about 2000 each


def test_the_course_bots_tournament_matches_the_spec() -> None:
    """CUCUMBER.md §3: fimp, magic, play_first and random lose about 60%, 24%, 10% and 5% of games."""
    rng = np.random.default_rng(11)
    results = simulate.play_games([simulate.POLICIES[n] for n in ("fimp", "magic", "play_first", "random")], 8000, rng)
    losses = np.bincount(results.loser, minlength=4) / 8000
    assert np.allclose(losses, [0.60, 0.24, 0.10, 0.05], atol=0.03), losses


@settings(max_examples=120, deadline=None)
@given(st.integers(2, 6), st.integers(1, 9), st.integers(1, 40), st.integers(0, 5), st.integers(0, 2**32))
def test_random_rollouts_play_the_cards_uniform_plays(n: int, k: int, rows: int, played: int, seed: int) -> None:
    """The strong bot's fast rollouts: from the same draws, the same hands as ``finish_hands`` with
    every seat playing ``uniform``, from a trick's start or in its middle."""
    played = min(played, n - 1)
    rng = np.random.default_rng(seed)
    hands = rng.integers(2, 15, (rows, n, k))
    leader = rng.integers(0, n, rows)
    ar = np.arange(rows)
    high, winner = np.zeros(rows, dtype=np.int64), leader.copy()
    for j in range(played):  # the trick's first cards are down already
        seat = (leader + j) % n
        place = rng.integers(0, k, rows)
        v = hands[ar, seat, place]
        hands[ar, seat, place] = 0
        winner, high = np.where(v >= high, seat, winner), np.maximum(high, v)
    fast = simulate.random_rollout(
        hands.copy(), leader, np.random.default_rng(seed + 1), played=played, high=high, winner=winner
    )
    slow = simulate.finish_hands(
        hands, leader, [simulate.uniform] * n, np.random.default_rng(seed + 1), played=played, high=high, winner=winner
    )
    for field in ("winner", "top", "last"):
        assert np.array_equal(getattr(fast, field), getattr(slow, field)), field
