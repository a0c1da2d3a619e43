"""A drop-in for the course's ``cuke.py`` (CS 88, Spring 2016, Project 1), over this package's engine.

Same names, signatures and printed output as CUCUMBER.md §2, so the course's doctests and a student's
``strategy(board, player_name, hand) -> card`` run unchanged. Cards are the course's strings
(``'Queen Spades'``); decks and boards are ``Table``s that print as ``datascience`` does. As in the
course, ``play_game`` deals every hand through this module's ``deal``, which shuffles through
``shuffle_deck``: a test arranges the cards by replacing either. The rules themselves are the
engine's (``cucumber_core.game``), not written again here.

Like the course's code, ``shuffle_deck`` shuffles with Python's ``random`` when nobody arranges the cards.
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from cucumber_core import bots, rules
from cucumber_core import strong as _strong
from cucumber_core.bots import Bot
from cucumber_core.cards import NUMS, SUITS, Card, first_max, first_min, name, parse
from cucumber_core.errors import IllegalCard, InvalidGame
from cucumber_core.events import HandScored, Seat
from cucumber_core.game import CreateGame, DealHand, GameState, Phase, PlayCard, Trick, run, why_illegal
from cucumber_core.table import Table
from cucumber_core.views import PublicSeat, PublicView, SeatView

Strategy = Callable[[Table, str, list[str]], str]

NOT_PLAYED = "*NOT PLAYED*"

card_nums = list(NUMS)
card_suits = list(SUITS)


def card_value(card: Any) -> int:
    """Return the value of a card, 2-14, Aces high; 0 for anything that is not a card.

    >>> card_value('2 Clubs'), card_value('Jack Spades'), card_value('Ace Diamonds'), card_value(NOT_PLAYED)
    (2, 11, 14, 0)
    """
    card_id = parse(card) if isinstance(card, str) else None
    return 0 if card_id is None else card_id % 13 + 2


def remove_item(s: Sequence[Any], item: Any) -> list[Any]:
    """Return a list with the first occurrence of item removed."""
    assert item in s, "Attempt to remove non-existent item from sequence"
    i = list(s).index(item)
    return [*s[:i], *s[i + 1 :]]


def rotate_list(s: Sequence[Any], n: int) -> list[Any]:
    """Return a list rotated left by n elements."""
    if not s:
        return []
    n %= len(s)
    return [*s[n:], *s[:n]]


def new_hand() -> list[str]:
    return []


def highest_card(hand: Sequence[str]) -> str:
    """The highest-valued card; the first in the hand on ties."""
    assert hand, "Attempt to find highest card of empty hand."
    return hand[first_max([card_value(c) for c in hand])]


def lowest_card(hand: Sequence[str]) -> str:
    """The lowest-valued card; the first in the hand on ties."""
    return hand[first_min([card_value(c) for c in hand])]


def playable(hand: Sequence[str], value: int) -> list[str]:
    """The cards in hand of value >= value, in hand order."""
    return [c for c in hand if card_value(c) >= value]


def legal_play(card: str, hand: Sequence[str], high_value: int) -> bool:
    """Whether card, from hand, may be played when high_value is the trick's highest so far (R7)."""
    return card in hand and card in [hand[i] for i in rules.legal([card_value(c) for c in hand], high_value)]


def print_hands(players: Sequence[str], hands: Sequence[Sequence[str]]) -> None:
    for player, hand in zip(players, hands, strict=False):
        print(player, "holds", hand)


def new_deck() -> Table:
    """A deck of 52 cards: Clubs, Diamonds, Hearts, Spades, 2 to Ace in each."""
    return Table().with_column("Card", [f"{num} {suit}" for suit in card_suits for num in card_nums])


def shuffle_deck(deck: Table) -> Table:
    """The deck's rows in a random order."""
    order = _random.sample(range(deck.num_rows), deck.num_rows)
    shuffled = Table()
    for label in deck.labels:
        column = deck.column(label)
        shuffled = shuffled.with_column(label, [column[i] for i in order])
    return shuffled


def deal(
    deck: Table, players: Sequence[str], dealer: int, number_of_cards: int, shuffle: bool = True
) -> list[list[str]]:
    """The hands dealt from deck, one card at a time starting with the dealer (R5)."""
    if shuffle:
        deck = shuffle_deck(deck)
    return rules.deal(deck.column("Card"), len(players), dealer, number_of_cards)


def new_board(players: Sequence[str]) -> Table:
    """A board: a 'lead' column and one column per player, a row per trick."""
    if len(set(players)) != len(players):
        raise ValueError(f"every player needs a different name: {list(players)}")
    return Table(["lead", *players])


def start_trick(board: Table, lead: int) -> Table:
    """Add a row for a trick led by player index lead, every card not played yet."""
    return board.append([lead, *[NOT_PLAYED] * (board.num_columns - 1)])


def play_card(board: Table, player: str, card: str) -> None:
    board.set_cell(player, get_trick(board), card)


def get_trick(board: Table) -> int:
    return board.num_rows - 1


def get_highest_in_trick(board: Table) -> int:
    """The value of the highest card played in the current trick; 0 if none."""
    if not board.num_rows:
        return 0
    return max(card_value(cell) for cell in board.row(get_trick(board))[1:])


def _pick(picker: bots.Picker) -> Strategy:
    def strategy(board: Table, player: str, hand: list[str]) -> str:
        return hand[picker([card_value(c) for c in hand], get_highest_in_trick(board))]

    strategy.__name__ = picker.__name__
    strategy.__doc__ = picker.__doc__
    return strategy


play_first = _pick(bots.play_first)
fimp = _pick(bots.fimp)
lead_second_highest_follow_low = _pick(bots.magic)
magic = lead_second_highest_follow_low

_strong_rng = np.random.default_rng()


def strong(board: Table, player: str, hand: list[str]) -> str:
    """Our strong bot (``cucumber_core.strong``) with the course's signature. The course's board shows
    no scores, so it plays each hand as if the match were level at 0."""
    view = _seat_view(board, player, hand)
    return hand[view.hand.index(_strong.choose(view, _strong_rng))]


def _seat_view(board: Table, player: str, hand: Sequence[str]) -> SeatView:
    """What the course's arguments tell a seat, as the engine's view of it."""
    names = board.labels[1:]
    n, seat = len(names), names.index(player)
    tricks = []
    for row in board.rows:
        order = rotate_list(range(n), row[0])
        plays = [(i, parse(row[i + 1])) for i in order]
        tricks.append(Trick(row[0], tuple((i, c) for i, c in plays if c is not None)))
    if not tricks:  # a board with no trick started: this seat is about to lead
        tricks.append(Trick(seat))
    played = [sum(1 for t in tricks for i, _ in t.plays if i == s) for s in range(n)]
    total = len(hand) + played[seat]
    ids = tuple(c for c in map(parse, hand) if c is not None)
    high = tricks[-1].high
    public = PublicView(
        game_id="course",
        phase=Phase.PLAY,
        num_cards=total,
        target=21,
        cucumber_rule=False,
        hand_number=1,
        dealer=(tricks[0].leader - 1) % n,
        seats=tuple(PublicSeat(name, None, 0, 0, total - played[i]) for i, name in enumerate(names)),
        tricks=tuple(tricks),
        to_play=seat,
        high=high,
        loser=None,
        winners=(),
    )
    legal = tuple(ids[i] for i in rules.legal([c % 13 + 2 for c in ids], high))
    return SeatView(public, seat, ids, legal)


def as_bot(strategy: Strategy) -> Bot:
    """A course-signature strategy as an engine bot: it is shown the course's board of the current
    hand and its hand as strings, and its card is checked like anyone's."""

    def bot(view: SeatView, rng: np.random.Generator) -> Card:
        names = [s.name for s in view.public.seats]
        board = new_board(names)
        for trick in view.public.tricks:
            start_trick(board, trick.leader)
            for seat, card in trick.plays:
                play_card(board, names[seat], name(card))
        hand = [name(c) for c in view.hand]
        return _checked(names[view.seat], strategy(board, names[view.seat], hand), hand, view.public.high)

    return bot


def manual(board: Table, player: str, hand: list[str]) -> str:
    """Let a real person play the hand."""
    print(player, "current hand", hand)
    print("Current board")
    print(board)
    card = input("Card to play: ")
    while not legal_play(card, hand, get_highest_in_trick(board)):
        print(f"Sorry.  {card} is not a legal play.")
        if card not in hand:
            print("Please enter a card in your hand.")
        else:
            print("Please play as high as previous or lowest in hand.")
        card = input("Card to play: ")
    return card


def _card(text: Any) -> Card | None:
    return parse(text) if isinstance(text, str) else None


def _checked(player: str, card: Any, hand: Sequence[str], high: int) -> Card:
    """The engine's card for a strategy's choice, or an error that says whose choice was illegal and why."""
    card_id = _card(card)
    held = [c for c in map(_card, hand) if c is not None]
    reason = "it is not a card" if card_id is None else why_illegal(held, card_id, high)
    if card_id is None or reason:
        raise IllegalCard(f"{player}'s strategy played {card!r}, which is not a legal play: {reason}")
    return card_id


def _dealt(hand: Sequence[str]) -> tuple[Card, ...]:
    cards = tuple(map(_card, hand))
    if None in cards:
        raise InvalidGame(f"deal() gave a hand with something that is not a card: {list(hand)}")
    return tuple(c for c in cards if c is not None)


def play_trick(
    board: Table, lead: int, players: Sequence[str], hands: list[list[str]], strategies: Sequence[Strategy]
) -> int:
    """Play a trick led by player index lead; return the index of its winner (R8)."""
    start_trick(board, lead)
    order = rotate_list(range(len(players)), lead)
    for i in order:
        card = strategies[i](board, players[i], hands[i])
        _checked(players[i], card, hands[i], get_highest_in_trick(board))
        play_card(board, players[i], card)
        hands[i] = remove_item(hands[i], card)
    winner: int = order[rules.trick_winner([card_value(board[players[i]][-1]) for i in order])]
    return winner


deck = new_deck()


def play_game(
    players: Sequence[str],
    strategies: Sequence[Strategy],
    verbose: bool = False,
    shuffle: bool = True,
    num_cards: int = 7,
    dealer: int = 0,
    max_score: int = 21,
) -> list[int]:
    """Play hands until a player's score reaches max_score; return the scores."""
    seats = tuple(Seat(str(i), name) for i, name in enumerate(players))
    new_board(players)  # refuses duplicate names before anything is dealt
    state, _ = run(GameState(), CreateGame("course", seats, num_cards, max_score, dealer=dealer))
    while state.phase is not Phase.OVER:
        hands = deal(deck, players, state.next_dealer, num_cards, shuffle)
        state, _ = run(state, DealHand(tuple(_dealt(h) for h in hands)))
        board = new_board(players)
        while state.phase is Phase.PLAY:
            if not state.trick.plays:
                start_trick(board, state.trick.leader)
            seat = state.to_play or 0
            card = strategies[seat](board, players[seat], hands[seat])
            state, events = run(
                state, PlayCard(str(seat), _checked(players[seat], card, hands[seat], state.trick.high))
            )
            play_card(board, players[seat], card)
            hands[seat] = remove_item(hands[seat], card)
        if verbose:
            scored = next(e for e in events if isinstance(e, HandScored))
            print(board)
            print("Winner:", players[scored.seat], "with", name(scored.card))
            print("Scores", list(state.scores))
    return list(state.scores)


def test_game() -> list[int] | None:
    """The course's little example: you against three play_first bots, 3 cards a hand, to 11.
    Ctrl-C or Ctrl-D at the prompt leaves the game (``None``), with no traceback at the prompt."""
    players = ["You", "Bot1", "Bot2", "Bot3"]
    strategies = [manual, play_first, play_first, play_first]
    try:
        return play_game(players, strategies, verbose=True, num_cards=3, max_score=11)
    except (KeyboardInterrupt, EOFError):
        print("\nGame abandoned.")
        return None


def play(number_of_players: int = 4, verbose: bool = False) -> list[int]:
    players = ["player" + str(i) for i in range(number_of_players)]
    return play_game(players, [play_first] * number_of_players, verbose)


def main(verbose: bool = False) -> list[int]:
    players = ["player" + str(i) for i in range(4)]
    strategies: list[Strategy] = [manual] + [lead_second_highest_follow_low] * 3
    return play_game(players, strategies, verbose)
