"""Commentary: the course's doctests, every rule event in words, and replays that retell a game."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from msgspec.structs import replace

from hog_core import classic
from hog_core import events as ev
from hog_core.classic import always_roll, make_test_dice, play
from hog_core.commentary import (
    MAX_LINES,
    Commentary,
    Lines,
    announce_highest,
    announce_lead_changes,
    at_most,
    both,
    default_commentary,
    narrate,
    say_scores,
    tell,
)
from hog_core.events import Event
from hog_core.game import AcceptChallenge, Forfeit, GameState, decide, evolve
from tests.helpers import move, new_game
from tests.hog_core.test_golden import load

# --- the course's doctests (seed 000), directly and through classic.play --------------------------


def test_course_doctest_announce_lead_changes(capsys: pytest.CaptureFixture[str]) -> None:
    f0 = classic.announce_lead_changes()
    f1 = f0(5, 0)
    assert capsys.readouterr().out == "Player 0 takes the lead by 5\n"
    f2 = f1(5, 12)
    assert capsys.readouterr().out == "Player 1 takes the lead by 7\n"
    f3 = f2(8, 12)
    f4 = f3(8, 13)
    assert capsys.readouterr().out == ""
    f4(15, 13)
    assert capsys.readouterr().out == "Player 0 takes the lead by 2\n"


def test_course_doctest_both(capsys: pytest.CaptureFixture[str]) -> None:
    h0 = classic.both(classic.say_scores, classic.announce_lead_changes())
    h1 = h0(10, 0)
    assert capsys.readouterr().out == "Player 0 now has 10 and Player 1 now has 0\nPlayer 0 takes the lead by 10\n"
    h2 = h1(10, 6)
    assert capsys.readouterr().out == "Player 0 now has 10 and Player 1 now has 6\n"
    h2(6, 17)  # Player 0 gets 7 points, then Swine Swap applies
    assert capsys.readouterr().out == "Player 0 now has 6 and Player 1 now has 17\nPlayer 1 takes the lead by 11\n"


def test_course_doctest_announce_highest(capsys: pytest.CaptureFixture[str]) -> None:
    f0 = classic.announce_highest(1)  # only announce Player 1 score gains
    f1 = f0(11, 0)
    f2 = f1(11, 9)
    assert capsys.readouterr().out == "9 point(s)! That's the biggest gain yet for Player 1\n"
    f3 = f2(20, 9)
    f4 = f3(12, 20)  # Player 1 gets 4 points, then Swine Swap applies
    assert capsys.readouterr().out == "11 point(s)! That's the biggest gain yet for Player 1\n"
    f5 = f4(20, 32)  # Player 0 gets 4 points, then Swine Swap applies
    assert capsys.readouterr().out == "12 point(s)! That's the biggest gain yet for Player 1\n"
    f5(20, 42)  # Player 1 gets 10 points; not enough for a new high
    assert capsys.readouterr().out == ""


def test_the_same_commentary_pure_and_direct() -> None:
    """The pure form returns the lines the course form prints."""
    names = classic.CLASSIC_PLAYERS
    say: Commentary = both(say_scores, both(announce_lead_changes(), announce_highest(1)))
    heard: list[Lines] = []
    previous = GameState(players=names)
    for scores in [(10, 0), (10, 6), (6, 17)]:
        after = GameState(players=names, scores=scores)
        lines, say = say(previous, after)
        heard.append(lines)
        previous = after
    assert heard == [
        ("Player 0 now has 10 and Player 1 now has 0", "Player 0 takes the lead by 10"),
        ("Player 0 now has 10 and Player 1 now has 6", "6 point(s)! That's the biggest gain yet for Player 1"),
        (
            "Player 0 now has 6 and Player 1 now has 17",
            "Player 1 takes the lead by 11",
            "11 point(s)! That's the biggest gain yet for Player 1",
        ),
    ]


def test_course_commentary_through_classic_play(capsys: pytest.CaptureFixture[str]) -> None:
    # 10 a turn: 10-0, 10-10 (equal totals swap to the same), 20-10
    say = classic.both(classic.say_scores, classic.both(classic.announce_lead_changes(), classic.announce_highest(0)))
    assert play(always_roll(2), always_roll(2), dice=make_test_dice(5), goal=20, say=say) == (20, 10)
    assert capsys.readouterr().out.splitlines() == [
        "Player 0 now has 10 and Player 1 now has 0",
        "Player 0 takes the lead by 10",
        "10 point(s)! That's the biggest gain yet for Player 0",
        "Player 0 now has 10 and Player 1 now has 10",
        "Player 0 now has 20 and Player 1 now has 10",
        "Player 0 takes the lead by 10",
    ]


# --- every rule event in words -------------------------------------------------------------------


def lines_of(log: list[Event]) -> list[str]:
    return [line for _, _, lines in narrate(log) for line in lines]


def game_log(rules: str, *moves: tuple[int, ...], goal: int = 100) -> list[Event]:
    state, log = new_game(rules, goal=goal)
    for k, *outcomes in moves:
        state = move(state, k, *outcomes, log=log)
    return log


def said(text: list[str], *needles: str) -> None:
    for needle in needles:
        assert any(needle in line for line in text), f"{needle!r} not in {text}"


def test_fa18_words() -> None:
    # 11 vs 0 swaps (|1 - 1| = |0 - 0|); Bob's bacon vs 0 is 1; Alice pigs out; Alice then wins
    text = lines_of(game_log("fa18", (3, 3, 4, 4), (0,), (2, 1, 3), (2, 2, 3), (4, 6, 6, 6, 6), goal=20))
    said(
        text,
        "Alice rolls 3, 4, 4 for 11.",
        "Swine Swap! Alice had 11 and Bob 0: they trade totals.",
        "Free Bacon! Bob rolls no dice and takes 1 point (max(2×0 − 0, 1) = 1).",
        "Alice rolls 1, 3.",  # the dice of a Pig Out turn are told too
        "Pig Out! A 1 among Alice's dice: just 1 point.",
        "🏆",
        "Alice wins, 36 to 6",
    )


def test_a_swap_of_equal_totals_goes_unmentioned() -> None:
    # 10 v 0, then Bob reaches 10: |1 - 0| = |1 - 0|, a swap that changes nothing
    text = lines_of(game_log("fa18", (2, 5, 5), (2, 5, 5)))
    assert "Bob rolls 5, 5 for 10." in text
    assert not any("Swine Swap" in line for line in text)


def test_sp22_words() -> None:
    text = lines_of(game_log("sp22", (2, 2, 3), (1, 5), (0,), (2, 1, 2)))
    said(
        text,
        "Hog Pile! Both totals end in 5: Bob piles on 5 more.",
        "Hefty Hogs! Alice rolls no dice and takes",
        "Sow Sad! A 1 among Bob's dice: just 1 point.",
    )


def test_sp16_words() -> None:
    # 0-0: Hog Wild d4. Alice 4,4,4,4,3 = 19 -> 23. Bob 1,2 -> 0, Alice +2 = 25. Alice bacon vs 0: 1.
    text = lines_of(game_log("sp16", (5, 4, 4, 4, 4, 3), (2, 1, 2), (0,)))
    said(
        text,
        "Hog Wild! The totals sum to a multiple of 7, so Alice rolls four-sided dice.",
        "Alice rolls 4, 4, 4, 4, 3 for 19.",
        "Hogtimus Prime! 19 is prime, so it becomes 23.",
        "Pig Out! A 1 among Bob's dice: not a single point.",
        "Piggy Back: Bob scored nothing, so Alice picks up 2 points.",
        "Free Bacon! Alice rolls no dice and takes 1 point (1 + 0 = 1).",
    )


def test_porkchop_words() -> None:
    text = lines_of(game_log("porkchop", (2, 3, 3), (-1,), (1, 4), (-1, *(2,) * 10)))
    said(text, "Pork Chop! Bob trades 0 for Alice's 6.", "Bob's Pork Chop is already spent, so that's 10 dice.")


def test_sp21_words() -> None:
    text = lines_of(game_log("sp21", (0,), (4, 5, 5, 5, 4), (1, 4)))  # 3, 19, then 7 vs 19
    said(
        text,
        "Piggy Points! Alice rolls no dice and takes 3 points (0² = 0, 3 + 0 = 3).",
        "More Boar! Alice trails on both leading digits and goes again.",
    )


def test_contest_words() -> None:
    text = lines_of(game_log("contest", (0,), (1, 8)))
    said(text, "Time Trot! Alice matched the turn number and goes again on eight-sided dice.")


def test_a_comeback_a_streak_and_a_record() -> None:
    # sp22: Alice Sow Sads while Bob rolls 12s (Hog Pile twice), then Alice rolls 36
    state, log = new_game("sp22", goal=50)
    for _ in range(3):
        state = move(state, 2, 1, 1, log=log)
        state = move(state, 2, 6, 6, log=log)
    assert state.scores == (5, 40)
    state = move(state, 6, *(6,) * 6, log=log)
    text = lines_of(log)
    said(
        text,
        "Bob is on a roll: 3 turns in a row of 10+ points.",
        "16 points! That's the biggest gain yet for Bob",
        "Comeback! Alice was 35 behind and now leads.",
        "36 points! That's the biggest gain yet for Alice",
    )


def held(value: object) -> Iterator[object]:
    """``value`` and every value it holds, through struct fields and tuples."""
    yield value
    fields = getattr(value, "__struct_fields__", ())
    for inner in (getattr(value, f) for f in fields) if fields else value if isinstance(value, tuple) else ():
        yield from held(inner)


def test_a_kept_story_is_nothing_the_garbage_collector_walks() -> None:
    """A live game keeps its story between moves (``tell``); with thousands in memory, every object
    in them that the collector tracks is walked again at each of its passes. What a story after a
    long game holds that it tracks is shared by every game (the rule set, module-level commentaries)."""
    stories = []
    for dice in ((1, 1), (6, 6)):
        state, log = new_game("sp22", goal=100)
        for _ in range(4):
            state = move(state, 2, *dice, log=log)
            state = move(state, 2, 5, 6, log=log)
        story, told = tell(None, log)
        assert [lines for *_, lines in told] == [lines for *_, lines in narrate(log)]
        stories.append(story)
    gc.collect()  # tuples of numbers are untracked at the collector's first pass over them
    first, second = ({id(v): v for v in held(story) if gc.is_tracked(v)} for story in stories)
    assert first and first.keys() == second.keys()  # the same objects, shared
    assert len([v for v in held(stories[0]) if isinstance(v, msgspec.Struct)]) > 10  # what the game remembers


def test_close_finish() -> None:
    state, log = new_game("fa18", goal=20)
    state = move(state, 2, 4, 4, log=log)  # Alice 8 (|0-8|... vs 0: no swap)
    state = move(state, 3, 6, 6, 5, log=log)  # Bob 17 vs 8: |1-7| = 6 vs 8: no
    state = move(state, 2, 6, 6, log=log)  # Alice 20: wins, Bob 3 away
    text = lines_of(log)
    said(text, "Alice wins", "20 to 17", "What a finish: Bob was only 3 away.")
    assert text[-2:] == [t for t in text if "Alice wins" in t or "What a finish" in t]  # the ending comes last


def test_challenges_and_forfeits_are_told() -> None:
    state, log = new_game("fa18", challenge=True)
    log += decide(state, AcceptChallenge("b"))
    state = evolve(state, log[-1])
    state = move(state, 3, 4, 4, 4, log=log)
    log += decide(state, Forfeit("b", "timeout"))
    said(
        lines_of(log),
        "Alice challenges Bob to Hog (fa18, first to 100).",
        "Bob accepts. Alice moves first.",
        "Bob runs out of time: Alice wins (12 to 0).",
    )


def test_a_draw_is_told() -> None:
    # Alice rolls a 1 (1 point), Bob 30; then Hefty Hogs gives 0 both ways until the turn limit
    log = game_log("sp22", (1, 1), (5, 6, 6, 6, 6, 6), *[(0,)] * 998)
    assert lines_of(log)[-1] == "After 1000 turns nobody has reached 100: it's a draw."


def test_many_rules_in_one_turn_stay_within_the_bound() -> None:
    say = at_most(2, both(say_scores, both(say_scores, say_scores)))
    lines, _ = say(GameState(players=classic.CLASSIC_PLAYERS), GameState(players=classic.CLASSIC_PLAYERS))
    assert len(lines) == 2
    for _, _, lines in narrate(game_log("sp16", (5, 4, 4, 4, 4, 3), (2, 1, 2), (0,))):
        assert len(lines) <= MAX_LINES


# --- replays retell the game word for word --------------------------------------------------------


GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_replay_regenerates_the_live_lines(path: Path) -> None:
    log = load(path)
    # live: a service keeps the commentary between turns and hears each event as it is decided
    live: list[Lines] = []
    say = default_commentary()
    state = GameState()
    for event in log:
        before, state = state, evolve(state, event)
        if isinstance(event, ev.TurnTaken):
            lines, say = say(before, state)
            live.append(lines)
    replayed = [lines for event, _, lines in narrate(log) if isinstance(event, ev.TurnTaken)]
    assert replayed == live
    assert any(live)


def test_a_one_point_pig_out_is_no_record() -> None:
    """The course's announce_highest cheers any first gain; the bot waits for one worth it."""
    text = lines_of(game_log("fa18", (2, 1, 3)))  # Pig Out: 1 point
    assert not [line for line in text if "biggest gain" in line]
    assert announce_highest(0)(
        GameState(players=classic.CLASSIC_PLAYERS), GameState(players=classic.CLASSIC_PLAYERS, scores=(1, 0))
    )[0] == ("1 point(s)! That's the biggest gain yet for Player 0",)  # the course's own behaviour stays


def test_nobody_goes_again_after_winning() -> None:
    """100 v 95 is a More Boar position (1 < 9, 0 < 5), but 100 has won."""
    state, log = new_game("sp21")
    state = replace(state, scores=(90, 95))
    state = move(state, 2, 5, 5, log=log)
    assert state.is_over and state.last_turn is not None and state.last_turn.resolution.extra_turn
    lines, _ = default_commentary()(replace(state, scores=(90, 95)), state)
    assert not [line for line in lines if "goes again" in line]
    said(list(lines), "Alice wins, 100 to 95.")


def test_hefty_hogs_is_told_in_words() -> None:
    text = lines_of(game_log("sp22", (1, 1), (2, 5, 5), (0,)))  # Alice 1, Bob 10; Alice at 1 v 10
    said(text, "Hefty Hogs! Alice rolls no dice and takes")
    assert not [line for line in text if "f0(" in line or "f1(" in line or "% 30" in line]
