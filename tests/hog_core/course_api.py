"""Each semester's ``hog.py``, as its autograder calls it, made of ``hog_core``: the course's own test
cases (``course_cases.json``) run against these modules, so they test our engine, not a copy of the
course's. A function the cases call that is not here (a student's strategy, an experiment, the
commentary) leaves its case out, counted.

``describe_game`` plays the fuzz games of the course's ``tests/play_utils.py`` by their published
protocol: three seeds drawn from the test number, random strategies and dice seeded from them, each
turn traced as the course prints it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

from msgspec.structs import replace

from hog_core.digits import factor_count, is_prime, is_square, next_prime, next_square
from hog_core.effects import ExtraTurn, Swap
from hog_core.events import Player, TurnTaken
from hog_core.game import CreateGame, GameState, decide, evolve
from hog_core.rulesets import RULE_SETS
from hog_core.turn import Turn

Dice = Callable[[], int]
Strategy = Callable[[int, int], int]

UPDATES = {"simple_update": "~", "square_update": "", "sus_update": ""}
"""Fall 2022 on: ``play`` takes the turn's update; the plain one plays the semester without its
after-turn rule (Square Swine, Sus Fuss)."""
ZERO_DICE = {
    "free_bacon": ("fa17", "sp18", "su19", "fa19", "sp20", "su20", "fa20"),
    "picky_piggy": ("fa21",),
    "oink_points": ("su22",),
    "tail_points": ("fa22",),
    "boar_brawl": ("fa23",),
}
PLAYER_FIRST = ("su22", "fa23")
"""Semesters whose zero-dice rule and ``take_turn`` take the mover's own score before the opponent's."""


def make_test_dice(*outcomes: int) -> Dice:
    assert outcomes, "test dice need outcomes"
    index = -1

    def dice() -> int:
        nonlocal index
        index = (index + 1) % len(outcomes)
        return outcomes[index]

    return dice


def played(
    rules: str, strategies: tuple[Strategy, Strategy], scores: tuple[int, int], goal: int,
    dice_of: Callable[[int], Dice], trace: list[dict[str, Any]] | None = None,
    heard: Callable[[int, int], None] | None = None,
) -> tuple[int, int]:  # fmt: skip
    """A game of ``rules`` from ``scores`` through the engine; ``dice_of(sides)`` is what rolls."""
    created = decide(GameState(), CreateGame("course", (Player("0", "P0"), Player("1", "P1")), rules=rules, goal=goal))
    state = replace(evolve(GameState(), created[0]), scores=scores)
    if max(scores) >= goal:
        return scores
    while not state.is_over:
        m = state.mover
        k = strategies[m](state.scores[m], state.scores[1 - m])
        need = state.dice_for(k)
        roll = dice_of(need.sides)
        outcomes = tuple(roll() for _ in range(need.count))
        if trace is not None:
            trace.append({"start": state.scores, "who": m, "k": k, "rolled": list(outcomes)})
        # the turn as the engine stores it; not ``decide``d, since the course's tests roll dice of 7
        state = evolve(state, TurnTaken(seat=m, k=k, outcomes=outcomes, sides=need.sides))
        if heard is not None:
            heard(*state.scores)
    return state.scores


def hog_module(semester: str) -> ModuleType:
    """``hog`` as the cases of ``semester`` import it."""
    hog = ModuleType("hog")
    ns: dict[str, Any] = vars(hog)  # what a case patches (``ns["roll_dice"] = ...``) is what is called
    rs = RULE_SETS[semester]
    ns["GOAL_SCORE"] = ns["GOAL"] = 100
    ns["six_sided"] = lambda: random.randint(1, 6)
    ns["four_sided"] = lambda: random.randint(1, 4)
    ns["make_test_dice"] = make_test_dice
    ns["always_roll"] = lambda n: lambda score, opponent_score: n
    ns["is_prime"] = is_prime
    ns["other"] = ns["next_player"] = lambda who: 1 - who
    ns["silence"] = lambda *scores, **leader: ns["silence"]

    def roll_dice(num_rolls: int, dice: Dice | None = None) -> int:
        roll = ns["six_sided"] if dice is None else dice
        return rs.resolve(Turn(cur=0, opp=0, k=num_rolls, outcomes=tuple(roll() for _ in range(num_rolls)))).points

    def zero_dice(player_score: int, opponent_score: int) -> int:
        return rs.resolve(Turn(cur=player_score, opp=opponent_score, k=0, outcomes=())).points

    def turn_points(num_rolls: int, player_score: int, opponent_score: int, dice: Dice | None) -> int:
        return zero_dice(player_score, opponent_score) if num_rolls == 0 else ns["roll_dice"](num_rolls, dice)

    ns["roll_dice"] = roll_dice
    if semester in PLAYER_FIRST:
        ns["take_turn"] = lambda num_rolls, player_score, opponent_score, dice=None, goal=100: turn_points(
            num_rolls, player_score, opponent_score, dice
        )
    else:
        ns["take_turn"] = lambda num_rolls, opponent_score, dice=None, goal=100: turn_points(
            num_rolls, 0, opponent_score, dice
        )
    for name, semesters in ZERO_DICE.items():
        if semester in semesters:
            if semester in PLAYER_FIRST:
                ns[name] = zero_dice
            else:
                ns[name] = lambda score: zero_dice(0, score)

    after_add = [
        r for r in rs.rules if getattr(r, "__name__", "").startswith(("swine_swap", "pig_pass", "swine_align"))
    ]

    def is_swap(a: int, b: int) -> bool:
        done = Turn(cur=a, opp=b, k=0, outcomes=())
        for rule in after_add:
            done = rule(done)
        return any(isinstance(e, Swap) for e in done.effects)

    def extra(rule_name: str) -> Callable[[int, int], bool]:
        def again(player_score: int, opponent_score: int) -> bool:
            done = Turn(cur=player_score, opp=opponent_score, k=0, outcomes=())
            for rule in after_add:
                done = rule(done)
            return any(isinstance(e, ExtraTurn) and e.rule in rule_name for e in done.effects)

        return again

    ns["is_swap"] = is_swap
    if semester == "fa20":
        ns["pig_pass"], ns["swine_align"] = extra("Pig Pass"), extra("Swine Align")
        ns["extra_turn"] = extra("Pig Pass Swine Align")
    if semester == "fa21":
        ns["hog_pile"] = lambda player_score, opponent_score: player_score if player_score == opponent_score else 0
    if semester == "su22":
        ns["pigs_on_prime"] = lambda player_score, opponent_score: (
            next_prime(player_score) - player_score if is_prime(player_score) or player_score == 1 else 0
        )
    if semester == "fa22":
        ns["perfect_square"], ns["next_perfect_square"] = is_square, next_square
    if semester == "fa23":
        ns["num_factors"] = factor_count
        ns["sus_points"] = lambda score: next_prime(score) if factor_count(score) in (3, 4) else score

    def update_of(name: str, boost: Callable[[int], int]) -> Callable[..., int]:
        def update(num_rolls: int, player_score: int, opponent_score: int, dice: Dice | None = None) -> int:
            return boost(player_score + turn_points(num_rolls, player_score, opponent_score, dice))

        update.__name__ = name
        return update

    if semester in ("fa22", "fa23"):
        ns["simple_update"] = update_of("simple_update", lambda score: score)
        boost = (lambda s: next_square(s) if is_square(s) else s) if semester == "fa22" else ns["sus_points"]
        boosted = "square_update" if semester == "fa22" else "sus_update"
        ns[boosted] = update_of(boosted, boost)

    def rules_for(update: Callable[..., int] | None, feral_hogs: bool) -> str:
        if update is not None:
            off = UPDATES[update.__name__]  # KeyError: an update of the case's own, not run here
            return f"{semester}~{'square_swine' if semester == 'fa22' else 'sus_fuss'}" if off else semester
        return semester if feral_hogs or rs.history is None else f"{semester}~feral_hogs"

    def play(strategy0: Strategy, strategy1: Strategy, *args: Any, **options: Any) -> tuple[int, int]:
        update = None
        if semester in ("fa22", "fa23"):
            update, args = (args[0], args[1:]) if args else (options.pop("update"), args)
        named = dict(zip(("score0", "score1", "dice", "goal", "say"), args, strict=False)) | options
        dice: Dice = named.get("dice") or ns["six_sided"]
        wild = semester in ("sp14", "sp15", "su15")

        def dice_of(sides: int) -> Dice:
            chosen: Dice = (ns["four_sided"] if sides == 4 else ns["six_sided"]) if wild else dice
            return chosen

        rules = rules_for(update, named.get("feral_hogs", True))
        scores = (named.get("score0", 0), named.get("score1", 0))
        goal, trace = named.get("goal", 100), named.get("trace")
        return played(rules, (strategy0, strategy1), scores, goal, dice_of, trace, commentary(named.get("say")))

    def commentary(say: Any) -> Callable[[int, int], None] | None:
        """The semester's ``say`` called after every turn: ``say(s0, s1) -> next say`` until Summer
        2022, which asks ``say(s0, s1, leader) -> (leader, message)`` and prints the message."""
        if say is None:
            return None
        kept: list[Any] = [say, None]

        def heard(score0: int, score1: int) -> None:
            if semester == "su22":
                kept[1], message = kept[0](score0, score1, kept[1])
                if message:
                    print(message)
            else:
                kept[0] = kept[0](score0, score1)

        return heard

    ns["play"] = play
    return hog


def describe_game(hog: ModuleType, *args: Any, **options: Any) -> list[str]:
    """The course's fuzz game ``test_number``, turn by turn, in the course's words."""
    if args and isinstance(args[0], ModuleType):  # Spring 2020 to Fall 2020 pass the GUI's module too
        args = args[1:]
    named = dict(zip(("test_number", "score0", "score1", "goal", "update"), args, strict=False)) | options
    named.pop("hog_gui", None)
    seeds = _seeded(named.pop("test_number"), lambda: [random.randrange(2**32) for _ in range(3)])
    strategies = (_random_strategy(seeds[0]), _random_strategy(seeds[1]))
    trace: list[dict[str, Any]] = []
    extra = {k: named[k] for k in ("update", "feral_hogs") if k in named}
    if "update" in extra:
        final = hog.play(*strategies, extra.pop("update"), named["score0"], named["score1"], dice=_dice(seeds[2]),
                         goal=named["goal"], trace=trace, **extra)  # fmt: skip
    else:
        final = hog.play(*strategies, named["score0"], named["score1"], dice=_dice(seeds[2]), goal=named["goal"],
                         trace=trace, **extra)  # fmt: skip
    ends = [turn["start"] for turn in trace[1:]] + [final]
    told = [
        f"Start scores = ({t['start'][0]}, {t['start'][1]}).\nPlayer {t['who']} rolls {t['k']} dice and gets "
        f"outcomes {t['rolled']}.\nEnd scores = ({end[0]}, {end[1]})"
        for t, end in zip(trace, ends, strict=True)
    ]
    return [*told, "Game Over"]


def _seeded(seed: int, draw: Callable[[], Any]) -> Any:
    """``draw()`` from the global generator seeded with ``seed``, its state put back after."""
    kept = random.getstate()
    random.seed(seed)
    try:
        return draw()
    finally:
        random.setstate(kept)


def _random_strategy(seed: int) -> Strategy:
    def strategy(score: int, opponent_score: int) -> int:
        mixed = (
            score * 314159265358979 + opponent_score * 27182818284590452353602874713527 + seed * 161803398874989484820
        )
        return int(_seeded(mixed % 2**32, lambda: random.randrange(0, 11)))

    return strategy


def _dice(seed: int) -> Dice:
    def dice() -> int:
        nonlocal seed
        seed, value = _seeded(seed, lambda: (random.randrange(0, 2**32), random.randrange(1, 7)))
        return int(value)

    return dice
