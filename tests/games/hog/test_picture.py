"""The picture of a game: a real PNG of a sensible size for every rule set, with each swap, extra
turn and the win drawn where its turn is."""

from __future__ import annotations

import dataclasses
import io
import itertools

import pytest
from PIL import Image, ImageChops

from bot.games.hog.picture import GOLD, SWAP, Chart, Frame, animate, chart, ending, render
from bot.games.hog.turns import fired
from bot.platform.drawing import HEIGHT, WIDTH, drawable
from hog_core.commentary import narrate
from hog_core.effects import Swap
from hog_core.events import Event, GameForfeited, TurnTaken
from hog_core.game import GameState, Status, replay
from hog_core.kernel import Kernel
from hog_core.review import Reviewer
from hog_core.rulesets import RULE_SETS, toggles
from hog_core.solver import Solution
from tests.helpers import frames, move, new_game
from tests.hog_core.test_golden import GOLDEN, GOLDEN_DIR, load
from tests.hog_core.test_review import play


def even_chances(state: GameState) -> tuple[float, float]:
    """A stand-in for the solver: the leader's share of the points."""
    a, b = state.scores
    return (a + 1) / (a + b + 2), (b + 1) / (a + b + 2)


def picture(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.mode == "P"  # a palette keeps it small
    assert image.size == (WIDTH, HEIGHT)
    return image.convert("RGB")


def near(pixel: object, colour: tuple[int, int, int]) -> bool:
    """The palette may shift a colour a little."""
    assert isinstance(pixel, tuple)
    return bool(max(abs(a - b) for a, b in zip(pixel, colour, strict=True)) <= 16)


def games(rules: str) -> list[list[Event]]:
    return [load(path) for path in GOLDEN if path.stem.split("-")[0] == rules]


def changed(a: Image.Image, b: Image.Image, by: int = 48) -> tuple[int, int, int, int] | None:
    """The box around the pixels that differ by more than ``by`` (the palette may shift others a little)."""
    return ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > by else 0).getbbox()


def unmarked(c: Chart) -> Chart:
    turns = tuple(dataclasses.replace(m, swap=False, extra=False) for m in c.turns)
    return dataclasses.replace(c, turns=turns)


@pytest.mark.parametrize("rules", sorted(RULE_SETS))
def test_every_rule_set_gets_a_picture_with_its_swaps_and_extra_turns(rules: str) -> None:
    swaps = extras = 0
    for events in games(rules):
        c = chart(events, even_chances)
        picture(render(c))
        moves = [e for e in events if isinstance(e, TurnTaken)]
        assert [m.seat for m in c.turns] == [e.seat for e in moves]
        assert c.turns[-1].scores == replay(events).scores
        # an extra turn is a turn whose mover moves next (told here from the log, not the rules)
        assert [m.extra for m in c.turns[:-1]] == [a.seat == b.seat for a, b in itertools.pairwise(moves)]
        swaps += sum(m.swap for m in c.turns)
        extras += sum(m.extra for m in c.turns)
    rs, keys = RULE_SETS[rules], {key for key, _ in toggles(RULE_SETS[rules])}
    assert swaps == 0 or "swine_swap" in keys or rs.pork_chop  # drawn only where a rule swaps
    assert extras == 0 or keys & {"more_boar", "time_trot", "pig_pass", "swine_align"}
    if rules in ("fa18", "sp22", "sp16", "porkchop", "sp21", "contest"):  # these games show each kind
        assert (swaps > 0) == (rules in ("fa18", "sp16", "porkchop"))
        assert (extras > 0) == (rules in ("sp21", "contest"))


@pytest.mark.parametrize("name", ["fa18-0", "porkchop-0", "contest-0"])
def test_each_mark_is_drawn_where_its_turn_is(name: str) -> None:
    c = chart(load(GOLDEN_DIR / f"{name}.json"), even_chances)
    frame = Frame(c)
    plain = picture(render(unmarked(c)))
    marked = [m for m in c.turns[:-1] if m.swap or m.extra]
    assert marked
    for m in marked:
        kept = (t if t.turn == m.turn else u for t, u in zip(c.turns, unmarked(c).turns, strict=True))
        alone = dataclasses.replace(c, turns=tuple(kept))
        drawn = changed(picture(render(alone)), plain)
        assert drawn is not None, f"turn {m.turn} is not marked"
        seats = (0, 1) if m.swap else (m.seat,)
        ys = [frame.y(m.scores[s]) for s in seats]
        left, top, right, bottom = drawn
        assert frame.x(m.turn) - 12 <= left and right <= frame.x(m.turn) + 12
        assert min(ys) - 12 <= top and bottom <= max(ys) + 12
        if m.swap:  # the diamonds are white
            assert near(picture(render(alone)).getpixel((round(frame.x(m.turn)), round(ys[0]))), SWAP)


def test_the_winner_gets_a_gold_star_at_their_last_total() -> None:
    c = chart(games("fa18")[0], even_chances)
    assert c.winner is not None
    frame = Frame(c)
    x, y = frame.x(c.turns[-1].turn), frame.y(c.turns[-1].scores[c.winner])
    assert near(picture(render(c)).getpixel((round(x), round(y))), GOLD)
    assert ending(c).startswith(f"{c.names[c.winner]} won {c.scores[c.winner]} to ")


def test_the_replayed_turn_is_highlighted() -> None:
    c = chart(games("sp21")[0], even_chances)
    band = changed(picture(render(c, at=3)), picture(render(c)), by=20)  # a light veil
    assert band is not None
    left, _, right, _ = band
    assert left <= Frame(c).x(3) <= right and right - left <= 16


def test_forfeits_running_games_draws_and_unsolved_goals() -> None:
    events = games("sp16")[0]
    first_turn = next(i for i, e in enumerate(events) if isinstance(e, TurnTaken))
    running = events[: first_turn + 3]
    forfeited = [*running, GameForfeited(seat=replay(running).mover)]
    for log, said in ((running, "After 3 turns"), (forfeited, "forfeited")):
        c = chart(log, even_chances)
        picture(render(c))
        assert said in ending(c)
    unsolved = chart(events, lambda state: None)
    assert unsolved.start is None and all(m.chances is None for m in unsolved.turns)
    picture(render(unsolved))
    drawn = dataclasses.replace(unsolved, status=Status.DRAWN, winner=None)
    picture(render(drawn))
    assert ending(drawn) == f"A draw at {drawn.scores[0]} to {drawn.scores[1]}"


def test_names_are_drawn_in_letters_the_font_has() -> None:
    assert [drawable(n, "Player 1") for n in ("José", "Zoë · A", "😀 Ada 😀", "中文", "Ada")] == [
        "Jose",
        "Zoe · A",
        "Ada",
        "Player 1",
        "Ada",
    ]
    c = chart(games("fa18")[0], even_chances)
    picture(render(dataclasses.replace(c, names=("José 😀", "中文"))))


def test_the_animation_draws_the_game_turn_by_turn() -> None:
    c = chart(games("porkchop")[0], even_chances)
    drawn = animate(c)
    gif = Image.open(io.BytesIO(drawn))
    assert gif.format == "GIF" and gif.size == (WIDTH, HEIGHT) and frames(drawn) == len(c.turns) + 1
    assert gif.info["loop"] == 0  # it plays on
    assert c.winner is not None
    frame = Frame(c)
    star = (round(frame.x(c.turns[-1].turn)), round(frame.y(c.turns[-1].scores[c.winner])))
    gif.seek(len(c.turns) - 1)
    assert not near(gif.convert("RGB").getpixel(star), GOLD)  # the turn before the win: no star yet
    gif.seek(len(c.turns))
    assert near(gif.convert("RGB").getpixel(star), GOLD)


def test_a_long_game_moves_on_several_turns_a_frame() -> None:
    c = chart(games("sp21")[0], even_chances)
    assert len(c.turns) > 10
    assert frames(animate(c, most=10)) == 11


def test_the_reviews_mistakes_and_blunders_are_marked_on_the_chances(
    kernels: dict[str, Kernel], solutions: dict[str, Solution]
) -> None:
    log = play(solutions["fa18"], "fa18", lambda state: 0 if state.mover == 0 else solutions["fa18"].best_move(state))
    review = Reviewer(kernels["fa18"], solutions["fa18"]).review(log)
    marked = chart(log, solutions["fa18"].win_chances, review)
    slips = [m.verdict if m.verdict in ("mistake", "blunder") else None for m in review]
    assert [m.slip for m in marked.turns] == slips and any(slips)
    plain = chart(log, solutions["fa18"].win_chances)
    assert all(m.slip is None for m in plain.turns) and render(marked) != render(plain)


def test_a_swap_of_equal_totals_is_neither_told_drawn_nor_listed() -> None:
    """Told, drawn and tabled agree (``hog_core.effects.felt``): a swap that changes nothing is not in
    the commentary, not marked on the picture and not in the CSV's ``rules_fired``."""
    state, log = new_game("fa18")
    for outcomes in ((5, 5), (5, 5)):  # 10 v 0, then Bob reaches 10: |1 - 0| = |1 - 0|
        state = move(state, 2, *outcomes, log=log)
    assert state.last_turn is not None and any(isinstance(e, Swap) for e in state.last_turn.resolution.effects)
    assert "Swine Swap" not in fired(state)
    assert [mark.swap for mark in chart(log, lambda state: None).turns] == [False, False]
    assert not [line for _, _, lines in narrate(log) for line in lines if "Swine Swap" in line]
