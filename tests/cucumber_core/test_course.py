"""The course's API (``cuke.py``) on our engine: the course's own 59 doctest examples, the seed's
``test_game()`` transcript, and the hooks students and tests use (replacing ``deal``/``shuffle_deck``)."""

from __future__ import annotations

import doctest
import io
from collections.abc import Iterator

import pytest

from cucumber_core import course
from cucumber_core.errors import IllegalCard, InvalidGame
from cucumber_core.table import Table

# The examples of the course's released starter cuke.py (CS 88 sp16), its autograder, verbatim.
COURSE_DOCTESTS = """
>>> card_value('2 Clubs')
2
>>> card_value('Jack Spades')
11
>>> card_value('Ace Diamonds')
14
>>> remove_item([2, 3, 'a', 3], 3)
[2, 'a', 3]
>>> remove_item([2, 3, 'a', 3], 2)
[3, 'a', 3]
>>> remove_item([2, 3, 'a', 4], 4)
[2, 3, 'a']
>>> rotate_list([2, 3, 'a', 4], 0)
[2, 3, 'a', 4]
>>> rotate_list([2, 3, 'a', 4], 1)
[3, 'a', 4, 2]
>>> rotate_list([2, 3, 'a', 4], 7)
[4, 2, 3, 'a']
>>> highest_card(['Queen Spades', '7 Clubs', 'Ace Spades', '9 Clubs'])
'Ace Spades'
>>> lowest_card(['Queen Spades', '7 Clubs', 'Ace Spades', '9 Clubs'])
'7 Clubs'
>>> playable(['Queen Spades', '7 Clubs', 'Queen Clubs', '9 Clubs'], 7)
['Queen Spades', '7 Clubs', 'Queen Clubs', '9 Clubs']
>>> playable(['Queen Spades', '7 Clubs', 'Queen Clubs', '9 Clubs'], 11)
['Queen Spades', 'Queen Clubs']
>>> playable(['Queen Spades', '7 Clubs', 'Queen Clubs', '9 Clubs'], 13)
[]
>>> legal_play('7 Clubs', ['7 Clubs', '10 Clubs', '2 Hearts'], 7)
True
>>> legal_play('7 Clubs', ['7 Clubs', '10 Clubs', '2 Hearts'], 8)
False
>>> legal_play('2 Clubs', ['7 Clubs', '10 Clubs', '2 Hearts'], 8)
False
>>> legal_play('10 Clubs', ['7 Clubs', '10 Clubs', '2 Hearts'], 8)
True
>>> legal_play('3 Clubs', ['7 Clubs', '10 Clubs', '2 Hearts'], 8)
False
>>> new_deck().num_rows
52
>>> list(new_deck()["Card"][0:5])
['2 Clubs', '3 Clubs', '4 Clubs', '5 Clubs', '6 Clubs']
>>> list(new_deck()["Card"][46:51])
['9 Spades', '10 Spades', 'Jack Spades', 'Queen Spades', 'King Spades']
>>> deal(new_deck(), ["P1", "P2", "P3"],1,3,False)
[['4 Clubs', '7 Clubs', '10 Clubs'], ['2 Clubs', '5 Clubs', '8 Clubs'], ['3 Clubs', '6 Clubs', '9 Clubs']]
>>> new_board(['player0', 'player1', 'player2', 'player3'])
lead | player0 | player1 | player2 | player3
>>> start_trick(new_board(['player0', 'player1', 'player2', 'player3']),3)
lead | player0      | player1      | player2      | player3
3    | *NOT PLAYED* | *NOT PLAYED* | *NOT PLAYED* | *NOT PLAYED*
>>> b = start_trick(new_board(['p0', 'p1']),0)
>>> play_card(b, 'p0', '3 Clubs')
>>> b
lead | p0      | p1
0    | 3 Clubs | *NOT PLAYED*
>>> b = new_board(['p0', 'p1'])
>>> start_trick(b, 1)
lead | p0           | p1
1    | *NOT PLAYED* | *NOT PLAYED*
>>> get_trick(b)
0
>>> play_card(b, 'p1', '2 Clubs')
>>> play_card(b, 'p0', '3 Clubs')
>>> start_trick(b, 0)
lead | p0           | p1
1    | 3 Clubs      | 2 Clubs
0    | *NOT PLAYED* | *NOT PLAYED*
>>> get_trick(b)
1
>>> play_card(b, 'p0', '4 Clubs')
>>> get_trick(b)
1
>>> b
lead | p0      | p1
1    | 3 Clubs | 2 Clubs
0    | 4 Clubs | *NOT PLAYED*
>>> b = new_board(['p0', 'p1'])
>>> start_trick(b, 1)
lead | p0           | p1
1    | *NOT PLAYED* | *NOT PLAYED*
>>> get_trick(b)
0
>>> play_card(b, 'p1', '2 Clubs')
>>> get_highest_in_trick(b)
2
>>> play_card(b, 'p0', '3 Clubs')
>>> get_highest_in_trick(b)
3
>>> start_trick(b, 0)
lead | p0           | p1
1    | 3 Clubs      | 2 Clubs
0    | *NOT PLAYED* | *NOT PLAYED*
>>> get_highest_in_trick(b)
0
>>> play_card(b, 'p0', '4 Clubs')
>>> get_highest_in_trick(b)
4
>>> players = ['P0', 'P1']
>>> hands = deal(new_deck(), players, 0, 3, shuffle=False)
>>> hands
[['2 Clubs', '4 Clubs', '6 Clubs'], ['3 Clubs', '5 Clubs', '7 Clubs']]
>>> board = new_board(players)
>>> new_lead = play_trick(board, 1, players, hands, [play_first, play_first])
>>> board
lead | P0      | P1
1    | 4 Clubs | 3 Clubs
>>> hands
[['2 Clubs', '6 Clubs'], ['5 Clubs', '7 Clubs']]
>>> play_trick(board, new_lead, players, hands, [play_first, play_first])
1
>>> board
lead | P0      | P1
1    | 4 Clubs | 3 Clubs
0    | 2 Clubs | 5 Clubs
>>> hands
[['6 Clubs'], ['7 Clubs']]
"""


def test_the_course_doctests_pass() -> None:
    test = doctest.DocTestParser().get_doctest(COURSE_DOCTESTS, vars(course).copy(), "cuke", None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out = io.StringIO()
    runner.run(test, out=out.write)
    assert runner.failures == 0, out.getvalue()
    assert runner.tries >= 59


SEED_TRANSCRIPT = """\
You current hand ['2 Hearts', 'Ace Clubs', '6 Clubs']
Current board
lead | You          | Bot1      | Bot2        | Bot3
1    | *NOT PLAYED* | 10 Hearts | Jack Hearts | Jack Diamonds
Card to play: Sorry.  3 Hearts is not a legal play.
Please enter a card in your hand.
Card to play: Sorry.  6 Clubs is not a legal play.
Please play as high as previous or lowest in hand.
Card to play: You current hand ['2 Hearts', '6 Clubs']
Current board
lead | You          | Bot1         | Bot2         | Bot3
1    | Ace Clubs    | 10 Hearts    | Jack Hearts  | Jack Diamonds
0    | *NOT PLAYED* | *NOT PLAYED* | *NOT PLAYED* | *NOT PLAYED*
Card to play: You current hand ['2 Hearts']
Current board
lead | You          | Bot1         | Bot2         | Bot3
1    | Ace Clubs    | 10 Hearts    | Jack Hearts  | Jack Diamonds
0    | 6 Clubs      | 10 Clubs     | 10 Spades    | 6 Diamonds
2    | *NOT PLAYED* | *NOT PLAYED* | Queen Spades | 7 Spades
Card to play: lead | You       | Bot1      | Bot2         | Bot3
1    | Ace Clubs | 10 Hearts | Jack Hearts  | Jack Diamonds
0    | 6 Clubs   | 10 Clubs  | 10 Spades    | 6 Diamonds
2    | 2 Hearts  | 9 Clubs   | Queen Spades | 7 Spades
Winner: Bot2 with Queen Spades
Scores [0, 0, 12, 0]
"""
"""The seed's "little example" as a terminal shows it when the typed lines are not echoed
(the seed's "Jack Diamond" is its misprint of Jack Diamonds, CUCUMBER.md §6.21)."""

SEED_HANDS = {
    "You": ["2 Hearts", "Ace Clubs", "6 Clubs"],
    "Bot1": ["10 Hearts", "10 Clubs", "9 Clubs"],
    "Bot2": ["Jack Hearts", "10 Spades", "Queen Spades"],
    "Bot3": ["Jack Diamonds", "6 Diamonds", "7 Spades"],
}


@pytest.fixture
def arranged(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The seed's deal: the deck "shuffled" so that dealer 0 deals each player the seed's hand."""
    order = [card for round_ in zip(*SEED_HANDS.values(), strict=True) for card in round_]
    rest = [c for c in course.new_deck()["Card"] if c not in order]
    monkeypatch.setattr(course, "shuffle_deck", lambda deck: Table().with_column("Card", order + rest))
    yield


def test_test_game_reproduces_the_seed_transcript(
    arranged: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("3 Hearts\n6 Clubs\nAce Clubs\n6 Clubs\n2 Hearts\n"))
    assert course.test_game() == [0, 0, 12, 0]
    assert capsys.readouterr().out == SEED_TRANSCRIPT


@pytest.mark.parametrize("leaving", [KeyboardInterrupt, EOFError])
def test_leaving_the_little_example_is_no_traceback(
    leaving: type[BaseException], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C (or Ctrl-D) at ``Card to play:`` in the REPL leaves the game in words, not a traceback."""

    def pressed(prompt: str) -> str:
        raise leaving

    monkeypatch.setattr("builtins.input", pressed)
    assert course.test_game() is None
    assert capsys.readouterr().out.endswith("\nGame abandoned.\n")


def test_replacing_deal_arranges_every_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    original = course.deal

    def fixed(deck: Table, players: list[str], dealer: int, n: int, shuffle: bool = True) -> list[list[str]]:
        calls.append(dealer)
        return original(deck, players, dealer, n, shuffle=False)

    monkeypatch.setattr(course, "deal", fixed)
    scores = course.play_game(["a", "b", "c"], [course.play_first] * 3, num_cards=2, max_score=30)
    assert max(scores) >= 30
    assert calls[:4] == [0, 1, 2, 0], "the deal passes to the left after every hand (R4)"


def test_shuffle_false_repeats_the_deal_and_still_ends() -> None:
    scores = course.play_game(["a", "b", "c", "d"], [course.play_first] * 4, shuffle=False, num_cards=3)
    assert max(scores) >= 21


def test_a_students_strategy_runs_unchanged() -> None:
    """A strategy written against the course's Table API: columns by name, rows, num_rows."""

    def student(board: Table, player: str, hand: list[str]) -> str:
        mine = [c for c in board.column(player) if c != "*NOT PLAYED*"]
        assert len(mine) == board.num_rows - 1
        options = course.playable(hand, course.get_highest_in_trick(board))
        return course.highest_card(options) if options else course.lowest_card(hand)

    scores = course.play_game(["me", "x", "y", "z"], [student, course.fimp, course.magic, course.strong])
    assert max(scores) >= 21 and min(scores) >= 0


def test_an_illegal_strategy_is_named_with_the_reason() -> None:
    def cheat(board: Table, player: str, hand: list[str]) -> str:
        return course.lowest_card(hand)

    with pytest.raises(IllegalCard, match=r"cheat's strategy played '.+', which is not a legal play: You must play"):
        course.play_game(["lead", "cheat"], [course.play_first, cheat], shuffle=False, dealer=0)
    with pytest.raises(IllegalCard, match="not a card"):
        course.play_game(["a", "b"], [lambda b, p, h: "Joker", course.play_first])


def test_bad_tables_are_refused_in_words() -> None:
    with pytest.raises(InvalidGame, match="8 players × 7 cards need 56 cards"):
        course.deal(course.new_deck(), [str(i) for i in range(8)], 0, 7, shuffle=False)
    assert len(course.deal(course.new_deck(), [str(i) for i in range(7)], 0, 7)) == 7
    with pytest.raises(ValueError, match="different name"):
        course.new_board(["a", "a"])


def test_card_helpers_on_edge_cases() -> None:
    assert course.card_value("*NOT PLAYED*") == 0
    assert course.card_value("Jack Hearts") == 11  # never 10 (§6.14)
    assert course.card_value(3) == 0
    assert course.highest_card(["Ace Clubs", "5 Hearts", "Ace Spades"]) == "Ace Clubs"
    assert course.lowest_card(["5 Spades", "2 Hearts", "2 Clubs"]) == "2 Hearts"
    b = course.start_trick(course.new_board(["p0", "p1"]), 1)
    assert course.get_highest_in_trick(b) == 0  # the int lead cell is ignored (§6.15)
    deck = course.new_deck()
    assert str(deck).endswith("... (42 rows omitted)") and len(str(deck).splitlines()) == 12


@pytest.mark.parametrize(
    ("hand", "card"),
    [
        (["Ace Clubs", "5 Hearts", "Ace Spades"], "Ace Spades"),  # §6.17: duplicates
        (["9 Clubs", "King Hearts", "2 Spades"], "9 Clubs"),
        (["7 Hearts"], "7 Hearts"),
    ],
)
def test_magic_leads_the_second_card_in_value_order(hand: list[str], card: str) -> None:
    assert course.lead_second_highest_follow_low(course.new_board(["a"]), "a", hand) == card


def test_manual_reprompts_until_legal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    board = course.start_trick(course.new_board(["me", "you"]), 1)
    course.play_card(board, "you", "9 Clubs")
    monkeypatch.setattr("sys.stdin", io.StringIO("3 Clubs\n5 Spades\nKing Spades\n"))
    assert course.manual(board, "me", ["5 Spades", "King Spades"]) == "King Spades"
    out = capsys.readouterr().out
    assert "Sorry.  3 Clubs is not a legal play.\nPlease enter a card in your hand." in out
    assert "Sorry.  5 Spades is not a legal play.\nPlease play as high as previous or lowest in hand." in out


def test_strong_as_a_course_strategy_reads_the_board() -> None:
    """Two cards left, the Ace must go now (see test_strong): from the course's board and hand alone."""
    assert course.strong(course.new_board(["me", "you"]), "me", ["2 Diamonds", "Ace Clubs"]) == "Ace Clubs"
    board = course.start_trick(course.new_board(["you", "me"]), 0)
    course.play_card(board, "you", "9 Clubs")
    assert course.strong(board, "me", ["2 Diamonds", "King Spades", "3 Hearts"]) == "King Spades"
