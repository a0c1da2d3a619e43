"""Properties of whole games under any deal and any legal play (hypothesis chooses both)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from cucumber_core import events as ev
from cucumber_core.cards import DECK
from cucumber_core.commentary import narrate, tell
from cucumber_core.game import CreateGame, GameState, Phase, PlayCard, replay, run

from .helpers import seats


@st.composite
def games(draw: st.DrawFn) -> tuple[GameState, list[ev.Event]]:
    n = draw(st.integers(2, 6))
    k = draw(st.integers(1, 52 // n if n > 2 else 9))
    target = draw(st.integers(1, 30))
    cucumbers = draw(st.booleans())
    state, log = run(
        GameState(), CreateGame("p", seats(n), k, target, cucumbers, cut=draw(st.booleans()), hand_limit=40)
    )
    while not state.is_over:
        if state.phase in (Phase.CUT, Phase.DEAL):
            deck = draw(st.permutations(DECK))
            state, new = run(state, state.cut_from(deck) if state.phase is Phase.CUT else state.deal_from(deck))
        else:
            seat = state.to_play
            assert seat is not None
            legal = state.legal_cards(seat)
            assert legal, "a legal move always exists"
            state, new = run(state, PlayCard(state.seats[seat].id, draw(st.sampled_from(legal))))
        log += new
        assert min(state.scores) >= 0, "scores never go negative"
    return state, log


@settings(max_examples=150, deadline=None)
@given(games())
def test_every_dealt_card_is_played_exactly_once_per_hand(game: tuple[GameState, list[ev.Event]]) -> None:
    _, log = game
    hands = [e for e in log if isinstance(e, ev.HandDealt)]
    played = Counter[int]()
    hand = 0
    for e in log:
        if isinstance(e, ev.HandDealt):
            hand = e.number
        elif isinstance(e, ev.CardPlayed):
            played[hand * 100 + e.card] += 1
    for h in hands:
        assert all(played[h.number * 100 + c] == 1 for cards in h.hands for c in cards)
    assert sum(played.values()) == sum(len(c) for h in hands for c in h.hands)


@settings(max_examples=150, deadline=None)
@given(games())
def test_replaying_the_log_gives_the_same_state(game: tuple[GameState, list[ev.Event]]) -> None:
    state, log = game
    assert replay(log) == state
    assert replay(ev.decode(ev.encode(e)) for e in log) == state
    assert state.version == len(log)


@settings(max_examples=150, deadline=None)
@given(games())
def test_a_finished_game_has_one_loser_at_the_target(game: tuple[GameState, list[ev.Event]]) -> None:
    state, _ = game
    if state.loser is None:
        assert state.hand_number == 40
        return
    assert state.scores[state.loser] >= state.target
    assert sum(s >= state.target for s in state.scores) == 1
    assert state.loser not in state.winners and state.winners
    if state.cucumber_rule:
        assert state.cucumbers[state.loser] == 2


@settings(max_examples=100, deadline=None)
@given(games(), st.data())
def test_a_game_told_in_pieces_is_told_as_narrated_whole(
    game: tuple[GameState, list[ev.Event]], data: st.DataObject
) -> None:
    """The service tells each move after the game as it stood: the same words as the whole game narrated."""
    _, log = game
    cuts = sorted(data.draw(st.lists(st.integers(0, len(log)), max_size=4)))
    story: GameState | None = None
    told: list[object] = []
    for start, end in zip([0, *cuts], [*cuts, len(log)], strict=True):
        story, more = tell(story, log[start:end])
        told += more
    assert told == list(narrate(log))
