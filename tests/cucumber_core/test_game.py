"""The engine against every rule of CUCUMBER.md §1 and the tricky cases of §6, through decide/evolve."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from cucumber_core import events as ev
from cucumber_core.cards import DECK, value
from cucumber_core.errors import GameNotActive, IllegalCard, InvalidGame, NotAPlayer, NotYourTurn
from cucumber_core.events import Seat
from cucumber_core.game import (
    CreateGame,
    CutForDealer,
    DealHand,
    Forfeit,
    GameState,
    Phase,
    PlayCard,
    ReturnToSeat,
    TakeOver,
    replay,
    run,
    why_illegal,
)
from cucumber_core.views import public_view, seat_view

from .helpers import card, cards, dealt, new_game, play, seats


def test_card_values_and_deck_order() -> None:
    assert [value(c) for c in DECK[:13]] == list(range(2, 15))
    assert value(card("J♠")) == 11 and value(card("A♦")) == 14  # R2, §6.14


def test_the_dealer_gets_the_first_card_and_its_left_leads() -> None:
    state = new_game(3, num_cards=2, dealer=2)
    deal = state.deal_from(list(DECK))
    assert deal.hands == (cards("3♣ 6♣"), cards("4♣ 7♣"), cards("2♣ 5♣"))  # §6.11
    state, _ = run(state, deal)
    assert state.dealer == 2 and state.to_play == 0


def test_the_leader_may_play_anything() -> None:  # §6.1
    for lead in ("2♣", "A♠"):
        state = dealt(new_game(2, num_cards=2), "3♦ 4♦", "2♣ A♠")
        state, _ = play(state, lead)
        assert state.to_play == 0


@pytest.mark.parametrize(
    ("hand", "legal", "message"),
    [
        ("9♥ K♠ 3♦", "9♥ K♠", "You must play 9 or higher: you hold 9♥ and K♠."),  # §6.2: equal is >=
        ("3♣ Q♥ 4♦", "Q♥", "You must play 9 or higher: you hold Q♥."),  # §6.3: no dumping
        ("5♠ 2♥ 2♣", "2♥ 2♣", "You hold nothing of 9 or higher, so you must play your lowest: 2♥ or 2♣."),  # §6.4
    ],
)
def test_following_must_reach_the_high_card_or_play_lowest(hand: str, legal: str, message: str) -> None:
    state = dealt(new_game(2, num_cards=3), hand, "9♣ 10♣ J♣")  # seat 1 leads 9♣
    state, _ = play(state, "9♣")
    assert state.legal_cards(0) == cards(legal)
    illegal = next(c for c in cards(hand) if c not in cards(legal))
    with pytest.raises(IllegalCard) as refused:
        run(state, PlayCard("ann", illegal))
    assert refused.value.message == message
    assert state.version == replay(_log(state)).version  # a refusal changes nothing


def _log(state: GameState) -> list[ev.Event]:
    """The events that made ``state`` (rebuilt from its trick history for the refusal test)."""
    log: list[ev.Event] = [ev.GameCreated("g1", state.seats, num_cards=state.num_cards)]
    hands = [tuple(h) for h in state.hands]
    for seat, c in state.trick.plays:
        hands[seat] = (*hands[seat], c)
    log.append(ev.HandDealt(1, state.dealer, tuple(hands)))
    log += [ev.CardPlayed(seat, c) for seat, c in state.trick.plays]
    return log


def test_lowest_already_reaching_high_makes_both_legal() -> None:  # §6.5
    state = dealt(new_game(2, num_cards=3), "5♦ 9♣ 10♦", "4♣ 2♦ 3♦")
    state, _ = play(state, "4♣")
    assert state.legal_cards(0) == cards("5♦ 9♣ 10♦")


def test_the_last_high_card_wins_and_leads_next() -> None:  # §6.6, the seed's trick 2
    state = dealt(new_game(4, num_cards=2, dealer=3), "6♣ 2♦", "10♣ 2♥", "10♠ 2♠", "6♦ 7♦")
    state, events = play(state, "6♣", "10♣", "10♠", "6♦")
    assert events[-1] == ev.TrickWon(0, 2, card("10♠"))
    assert state.to_play == 2


def test_play_order_not_seat_order() -> None:  # §6.7
    state = dealt(new_game(4, num_cards=2, dealer=1), "Q♣ 3♣", "2♠ 4♣", "Q♦ 5♣", "7♥ 8♣")
    assert state.to_play == 2
    state, events = play(state, "Q♦", "7♥", "Q♣", "2♠")
    assert events[-1] == ev.TrickWon(0, 0, card("Q♣"))


def _last_trick_game(scores: tuple[int, ...], **options: object) -> GameState:
    """A game whose scores are ``scores`` before a one-card hand, led by seat 0 (dealer n-1)."""
    n = len(scores)
    state = new_game(n, num_cards=1, dealer=n - 1, **options)
    return replace(state, scores=scores)


def test_bonus_subtracts_floored_at_zero() -> None:  # §6.8
    state = dealt(_last_trick_game((5, 0, 3, 0)), "9♣", "9♥", "4♠", "9♠")
    state, events = play(state, "9♣", "9♥", "4♠", "9♠")
    assert state.scores == (0, 0, 3, 9)
    assert ev.HandScored(3, card("9♠"), (0, 0, 3, 9)) in events


def test_only_the_last_trick_scores() -> None:  # §6.9
    state = dealt(new_game(2, num_cards=2, dealer=1), "A♣ 2♦", "3♦ K♣")
    state, _ = play(state, "A♣", "3♦", "2♦", "K♣")  # the Ace takes trick 1 and scores nothing
    assert state.scores == (0, 13) and state.phase is Phase.DEAL and state.dealer == 1
    assert state.next_dealer == 0  # R4: the deal passes on whoever won


@pytest.mark.parametrize(("before", "over"), [(14, True), (13, False)])
def test_exactly_the_target_ends(before: int, over: bool) -> None:  # §6.10
    state = dealt(_last_trick_game((before, 0)), "7♣", "2♦")
    state, events = play(state, "7♣", "2♦")
    assert state.is_over is over
    if over:
        assert events[-1] == ev.GameOver(0, (1,)) and state.loser == 0 and state.winners == (1,)


def test_winners_are_the_others_with_the_lowest_score() -> None:
    state = dealt(_last_trick_game((20, 3, 3, 9)), "5♣", "2♦", "3♦", "4♦")
    state, _ = play(state, "5♣", "2♦", "3♦", "4♦")
    assert (state.loser, state.winners) == (0, (1, 2))


def test_first_cucumber_resets_after_the_bonus() -> None:  # §6.12
    state = dealt(_last_trick_game((15, 12, 4), cucumbers=True), "Q♣", "Q♥", "3♣")
    state, events = play(state, "Q♣", "Q♥", "3♣")
    assert state.scores == (3, 4, 4) and state.cucumbers == (0, 1, 0) and not state.is_over
    assert ev.CucumberTaken(1, 1, 4) in events


def test_second_cucumber_ends_and_keeps_the_score() -> None:  # §6.13
    state = _last_trick_game((0, 20, 3), cucumbers=True)
    state = replace(state, cucumbers=(0, 1, 0))
    state = dealt(state, "2♣", "6♥", "3♦")
    state, _ = play(state, "2♣", "6♥", "3♦")
    assert state.is_over and state.loser == 1 and state.scores == (0, 26, 3) and state.cucumbers == (0, 2, 0)
    assert state.winners == (0,)


def test_two_players_follow_the_same_rules() -> None:  # §6.19
    state = dealt(new_game(2, num_cards=3, dealer=0), "5♣ 6♣ 7♣", "8♣ 2♦ 3♦")
    state, events = play(state, "8♣", "5♣", "2♦", "6♣", "7♣", "3♦")
    assert [e.seat for e in events if isinstance(e, ev.TrickWon)] == [1, 0, 0]
    assert state.scores == (7, 0)


def test_cut_for_dealer_breaks_ties_by_suit() -> None:  # R4
    state = new_game(3, cut=True, num_cards=1)
    assert state.phase is Phase.CUT
    with pytest.raises(GameNotActive):
        run(state, DealHand(()))
    state, events = run(state, CutForDealer(cards("K♦ 4♣ K♥")))
    assert events == [ev.DealerCut(cards("K♦ 4♣ K♥"), 2)] and state.next_dealer == 2
    state = dealt(state, "2♣", "3♣", "4♣")
    assert state.dealer == 2 and state.to_play == 0


def test_hand_limit_guards_against_endless_games() -> None:  # §6.22
    state = new_game(2, num_cards=1, hand_limit=2)
    for _ in range(2):
        state = dealt(state, "2♣", "2♦")
        state, _ = play(state, *(["2♦", "2♣"] if state.to_play == 1 else ["2♣", "2♦"]))
    assert state.is_over and state.loser is None and state.winners == ()


@pytest.mark.parametrize(
    ("create", "message"),
    [
        (CreateGame("g", seats(8)), "8 players × 7 cards need 56 cards; a deck has 52."),  # §6.16
        (CreateGame("g", seats(1)), "Cucumber needs at least 2 players, not 1."),
        (CreateGame("g", (Seat("a", "A"), Seat("a", "B"))), "Every seat needs a different player."),
        (CreateGame("g", seats(2), target=0), "The target score must be at least 1, not 0."),
        (CreateGame("g", seats(2), dealer=2), "The first dealer must be a seat from 0 to 1, not 2."),
        (CreateGame("g", seats(2), num_cards=0), "Each hand deals at least one card, not 0."),
    ],
)
def test_impossible_games_are_refused(create: CreateGame, message: str) -> None:
    with pytest.raises(InvalidGame) as refused:
        run(GameState(), create)
    assert refused.value.message == message


def test_seven_players_of_seven_cards_fit() -> None:
    state = new_game(7)
    state, _ = run(state, state.deal_from(list(DECK)))
    assert sum(len(h) for h in state.hands) == 49


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        ((cards("2♣ 3♣"), cards("2♣ 4♣")), "The deal has a card twice."),
        ((cards("2♣ 3♣"), (5, 60)), "The deal has something that is not a card of the deck."),
        ((cards("2♣ 3♣"),), "A hand deals 2 cards to each of 2 seats."),
    ],
)
def test_bad_deals_are_refused(hands: tuple[tuple[int, ...], ...], message: str) -> None:
    with pytest.raises(InvalidGame) as refused:
        run(new_game(2, num_cards=2), DealHand(hands))
    assert refused.value.message == message


def test_turns_and_players_are_checked() -> None:
    state = dealt(new_game(3, num_cards=1), "2♣", "3♣", "4♣")
    with pytest.raises(NotYourTurn, match=r"^It is Bob's turn, not yours[.]$"):
        run(state, PlayCard("ann", card("2♣")))
    with pytest.raises(NotAPlayer):
        run(state, PlayCard("zed", card("2♣")))
    with pytest.raises(IllegalCard, match=r"^You do not hold 5♠[.]$"):
        run(state, PlayCard("bob", card("5♠")))
    with pytest.raises(GameNotActive, match="not been dealt"):
        run(new_game(3), PlayCard("ann", 0))


def test_forfeit_ends_the_game_with_the_others_winning() -> None:
    state = dealt(_last_trick_game((4, 9, 2, 2)), "2♣", "3♣", "4♣", "5♣")
    state, events = run(state, Forfeit("bob"))
    assert events == [ev.GameForfeited(1, "resigned"), ev.GameOver(1, (2, 3))]
    with pytest.raises(GameNotActive, match="over"):
        run(state, PlayCard("ann", card("2♣")))


def test_a_seat_taken_over_and_returned() -> None:
    state = new_game(2)
    state, _ = run(state, TakeOver("bob", "strong", "away"))
    assert state.bots == (None, "strong") and public_view(state).seats[1].bot == "strong"
    state, _ = run(state, ReturnToSeat("bob"))
    assert state.bots == (None, None)
    with pytest.raises(InvalidGame, match="already playing"):
        run(state, ReturnToSeat("bob"))


def test_views_keep_hands_private() -> None:
    state = dealt(new_game(3, num_cards=2), "2♣ 3♣", "4♣ 5♣", "6♣ 7♣")
    state, _ = play(state, "4♣")
    public = public_view(state)
    assert [s.cards_left for s in public.seats] == [2, 1, 2]
    assert "hands" not in public.__struct_fields__
    mine = seat_view(state, 2)
    assert mine.hand == cards("6♣ 7♣") and mine.legal == cards("6♣ 7♣") and public.high == 4
    assert seat_view(state, 0).legal == ()  # not its turn


def test_events_round_trip_as_json() -> None:
    state = dealt(_last_trick_game((15, 12, 4), cucumbers=True), "Q♣", "Q♥", "3♣")
    log: list[ev.Event] = []
    for short in ("Q♣", "Q♥", "3♣"):
        seat = state.to_play or 0
        state, new = run(state, PlayCard(state.seats[seat].id, card(short)))
        log += new
    assert [ev.decode(ev.encode(e)) for e in log] == log


def test_the_cards_you_may_play_are_said_low_to_high() -> None:
    hand = [card(text) for text in ("9♠", "Q♠", "10♠", "2♥")]
    assert why_illegal(hand, hand[3], 9) == "You must play 9 or higher: you hold 9♠, 10♠ and Q♠."
