"""The strong bot: legal, honest (its seat's view only), sound where the answer is certain, and strong."""

from __future__ import annotations

import numpy as np
import pytest

from cucumber_core import bots, rules, strong
from cucumber_core.cards import Card, value
from cucumber_core.events import Seat
from cucumber_core.game import CreateGame
from cucumber_core.match import play_match
from cucumber_core.views import SeatView, seat_view

from .helpers import card, dealt, new_game, play


def test_it_leads_the_ace_when_the_ace_must_be_shed_now() -> None:
    """Holding A♣ 2♦ with two cards left, leading the Ace wins: whatever the other holds, it must
    answer low, and the 2 is left for the last trick; leading the 2 leaves the Ace to take 14."""
    for other in ("3♦ 4♦", "K♥ Q♥", "2♣ 5♠"):
        state = dealt(new_game(2, num_cards=2, dealer=1), "A♣ 2♦", other)
        assert strong.choose(seat_view(state, 0), np.random.default_rng(1)) == card("A♣")


def test_its_choice_depends_on_its_own_view_only() -> None:
    """Two games that differ only in what the other seats hold look the same to seat 0 and get
    the same card."""
    a = dealt(new_game(3, num_cards=3), "9♣ 4♦ J♥", "2♣ 3♣ K♦", "5♣ 6♣ 7♣")
    b = dealt(new_game(3, num_cards=3), "9♣ 4♦ J♥", "2♣ 6♣ 7♣", "5♣ 3♣ K♦")
    a, _ = play(a, "2♣", "5♣")
    b, _ = play(b, "2♣", "5♣")
    assert a.hands != b.hands and seat_view(a, 0) == seat_view(b, 0)
    pick_a = strong.choose(seat_view(a, 0), np.random.default_rng(3))
    pick_b = strong.choose(seat_view(b, 0), np.random.default_rng(3))
    assert value(pick_a) == value(pick_b)


def test_sampled_worlds_respect_what_forced_plays_showed() -> None:
    """Bob could not reach the Queen and played his lowest, a 5: he holds only 5s to Jacks now."""
    state = dealt(new_game(3, num_cards=4, dealer=2), "Q♣ 2♦ 3♦ 4♦", "5♣ 6♥ 7♥ 8♦", "A♣ 9♦ 8♥ 10♥")
    state, _ = play(state, "Q♣", "5♣", "A♣")
    hands = strong._sample(seat_view(state, 0), np.random.default_rng(0), 500)
    assert hands.shape == (500, 3, 3) and (hands > 0).all()
    assert (hands[:, 0] == [2, 3, 4]).all()
    assert hands[:, 1].min() >= 5 and hands[:, 1].max() <= 11
    assert hands[:, 2].max() == 14 and hands[:, 2].min() == 2, "Cat's hand is unconstrained"
    seen = np.concatenate([hands.reshape(500, -1), np.tile([12, 5, 14], (500, 1))], axis=1)
    for v in range(2, 15):
        assert ((seen == v).sum(axis=1) <= 4).all(), "no value more than four times"


def test_it_loses_fewest_in_a_rotating_table() -> None:
    names = ["strong", "magic", "play_first", "random"]
    table = {
        "strong": strong.choose,
        "magic": bots.from_picker(bots.magic),
        "play_first": bots.from_picker(bots.play_first),
        "random": bots.random_bot,
    }
    losses = dict.fromkeys(names, 0)
    rng = np.random.default_rng(8)
    games = 120
    for g in range(games):
        order = [names[(s + g) % 4] for s in range(4)]
        state = play_match(
            CreateGame("t", tuple(Seat(str(i), n) for i, n in enumerate(order))), [table[n] for n in order], rng
        )
        assert state.loser is not None
        losses[order[state.loser]] += 1
    assert losses["strong"] <= 0.6 * min(losses[n] for n in names[1:]), losses


def solved(view: SeatView, values: list[int], worlds: list[list[list[int]]]) -> list[float]:
    """The endgame's costs worked out the plain way, a world and a way of playing at a time: this
    trick, each player after the seat playing what costs them least (the lower card on ties), then
    the last trick, forced."""
    public, me = view.public, view.seat
    n, trick = len(public.seats), public.tricks[-1]
    scores = [s.score for s in public.seats]

    def cost(last: list[tuple[int, int]]) -> list[int]:
        new = rules.score_hand(scores, last, last[rules.trick_winner([v for _, v in last])][0])
        return [new[s] - scores[s] + strong.LOSS_PENALTY * (new[s] >= public.target) for s in range(n)]

    def play_out(plays: list[tuple[int, int]], held: list[list[int]]) -> list[int]:
        if len(plays) == n:
            lead = plays[rules.trick_winner([v for _, v in plays])][0]
            return cost([((lead + i) % n, held[(lead + i) % n][0]) for i in range(n)])
        seat = (trick.leader + len(plays)) % n
        high = max((v for _, v in plays), default=0)
        options = sorted({held[seat][i] for i in rules.legal(held[seat], high)})
        return min((play_out([*plays, (seat, v)], without(held, seat, v)) for v in options), key=lambda c: c[seat])

    so_far = [(s, value(c)) for s, c in trick.plays]
    return [
        sum(play_out([*so_far, (me, v)], without(held, me, v))[me] for held in worlds) / len(worlds) for v in values
    ]


def without(held: list[list[int]], seat: int, v: int) -> list[list[int]]:
    hand = list(held[seat])
    hand.remove(v)
    return [hand if s == seat else h for s, h in enumerate(held)]


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_the_endgame_is_solved_as_each_player_would_play_it(seats: int) -> None:
    """With two cards left, every way the trick can go is weighed at once on arrays: the costs are
    those of playing each sampled world out one way at a time."""
    seen: list[tuple[SeatView, list[int]]] = []

    def watched(view: SeatView, rng: np.random.Generator) -> Card:
        if len(view.hand) == strong.ENDGAME:
            seen.append((view, sorted({value(c) for c in view.hand})))
        return bots.from_picker(bots.fimp)(view, rng)

    create = CreateGame("t", tuple(Seat(str(i), str(i)) for i in range(seats)), num_cards=4, target=15)
    rng = np.random.default_rng(seats)
    while len(seen) < 100:
        play_match(create, [watched] * seats, rng)
    for view, values in seen:
        sampled = strong._sample(view, np.random.default_rng(9), 16)
        worlds = [[[int(v) for v in hand if v > 0] for hand in world] for world in sampled]
        costs = strong._endgame_costs(view, values, np.random.default_rng(9), 16)
        assert costs.tolist() == solved(view, values, worlds)
