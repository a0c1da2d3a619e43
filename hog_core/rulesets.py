"""Every semester's rule set: each is data (id, version, dice, Pork Chop) plus an ordered list of rules."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from hog_core import rules as r
from hog_core.errors import InvalidGame
from hog_core.turn import Rule, SidesRule, Turn


@dataclass(frozen=True)
class RuleSet:
    id: str
    version: int
    """Bumped whenever the rules' behaviour changes; a stored game pins the version it began with."""
    name: str
    rules: tuple[Rule, ...]
    dice_sides: SidesRule = r.six_sided
    pork_chop: bool = False
    max_dice: int = 10
    aliases: tuple[str, ...] = ()
    """Other semesters that played exactly these rules (a game stores ``id``)."""

    @property
    def semester(self) -> str:
        """Whose rules these are, in words: "Fall 2018", "Fall 2018 without Swine Swap"."""
        return self.name.split(":")[0]

    @property
    def history(self) -> r.FeralHogs | None:
        """The rule that remembers each player's previous turn (Feral Hogs), if any."""
        return next((rule for rule in self.rules if isinstance(rule, r.FeralHogs)), None)

    def resolve(self, turn: Turn, *, chop: bool = False) -> Turn:
        """Run the turn through this rule set's rules in order (or the Pork Chop when ``chop``)."""
        if chop:
            return r.pork_chop(turn)
        for rule in self.rules:
            turn = rule(turn)
        return turn


FA18 = RuleSet(
    "fa18",
    1,
    "Fall 2018: Pig Out, Free Bacon, Swine Swap",
    (r.pig_out, r.free_bacon, r.add_points, r.swine_swap),
)
SP22 = RuleSet(
    "sp22",
    1,
    "Spring 2022: Sow Sad, Hefty Hogs, Hog Pile",
    (r.sow_sad, r.hefty_hogs, r.add_points, r.hog_pile),
)
_SP16_RULES = (
    r.pig_out_to_zero,
    r.free_bacon_max_digit,
    r.hogtimus_prime,
    r.piggy_back,
    r.add_points,
    r.swine_swap_reversed,
)
SP16 = RuleSet(
    "sp16",
    1,
    "Spring 2016: Pig Out, Free Bacon, Hogtimus Prime, Hog Wild, Piggy Back, Swine Swap",
    _SP16_RULES,
    dice_sides=r.hog_wild,
)
PORKCHOP = RuleSet(
    "porkchop",
    1,
    "Pork Chop: Spring 2016 plus a once-per-player swap",
    _SP16_RULES,
    dice_sides=r.hog_wild,
    pork_chop=True,
)
SP21 = RuleSet(
    "sp21",
    1,
    "Spring 2021: Sow Sad, Piggy Points, More Boar",
    (r.sow_sad, r.piggy_points, r.add_points, r.more_boar),
)
CONTEST = RuleSet(
    "contest",
    1,
    "Contest: Spring 2021 plus Time Trot and eight-sided extra turns",
    (r.sow_sad, r.piggy_points, r.add_points, r.more_boar, r.time_trot),
    dice_sides=r.eight_sided_extra_turns,
)
SP14 = RuleSet(
    "sp14",
    1,
    "Spring 2014: Pig Out, Free Bacon, Hog Wild, Swine Swap",
    (r.pig_out, r.free_bacon_sp14, r.add_points, r.swine_swap_double),
    dice_sides=r.hog_wild,
)
SP15 = RuleSet(
    "sp15",
    1,
    "Spring 2015: Pig Out, Free Bacon, Hog Wild, Hogtimus Prime",
    (r.pig_out, r.free_bacon_sp14, r.add_points, r.hogtimus_prime_leader),
    dice_sides=r.hog_wild,
)
SU15 = RuleSet(
    "su15",
    1,
    "Summer 2015: Pig Out, Free Bacon, Hog Wild, Swine Swap",
    (r.pig_out, r.free_bacon_sp14, r.add_points, r.swine_swap_reversed),
    dice_sides=r.hog_wild,
)
FA17 = RuleSet(
    "fa17",
    1,
    "Fall 2017: Pig Out, Free Bacon, Swine Swap",
    (r.pig_out, r.free_bacon_sp14, r.add_points, r.swine_swap_multiple),
)
FA17_CONTEST = RuleSet(
    "fa17_contest",
    1,
    "Fall 2017 contest: Fall 2017 plus Time Trot (turn mod 8)",
    (r.pig_out, r.free_bacon_sp14, r.add_points, r.swine_swap_multiple, r.time_trot),
)
SP18 = RuleSet(
    "sp18",
    1,
    "Spring 2018: Pig Out, Free Bacon, Swine Swap",
    (r.pig_out, r.free_bacon_sp18, r.add_points, r.swine_swap_multiple),
)
SU18 = RuleSet(
    "su18",
    1,
    "Summer 2018: Pig Out, Free Bacon, Swine Swap",
    (r.pig_out, r.free_bacon_su18, r.add_points, r.swine_swap_su18),
)
FA18_CONTEST = RuleSet(
    "fa18_contest",
    1,
    "Fall 2018 contest: Fall 2018 plus Time Trot (turn mod 5)",
    (r.pig_out, r.free_bacon, r.add_points, r.swine_swap, r.time_trot_mod5),
)
SP19 = RuleSet(
    "sp19",
    1,
    "Spring 2019: Pig Out, Free Bacon, Swine Swap",
    (r.pig_out, r.free_bacon_sp19, r.add_points, r.swine_swap_sp19),
)
SU19 = RuleSet(
    "su19",
    1,
    "Summer 2019: Pig Out, Free Bacon, Swine Swap",
    (r.pig_out, r.free_bacon_su19, r.add_points, r.swine_swap_su19),
)
FA19 = RuleSet(
    "fa19",
    1,
    "Fall 2019: Pig Out, Free Bacon, Feral Hogs, Swine Swap",
    (r.pig_out, r.free_bacon_su19, r.add_points, r.feral_hogs_dice, r.swine_swap_fa19),
)
SP20 = RuleSet(
    "sp20",
    1,
    "Spring 2020: Pig Out, Free Bacon, Feral Hogs, Swine Swap",
    (r.pig_out, r.free_bacon_sp20, r.add_points, r.feral_hogs_points, r.swine_swap_sp20),
)
SU20 = RuleSet(
    "su20",
    1,
    "Summer 2020: Pig Out, Free Bacon, Feral Hogs, Swine Swap",
    (r.pig_out, r.free_bacon_su20, r.add_points, r.feral_hogs_points, r.swine_swap_su20),
)
FA20 = RuleSet(
    "fa20",
    1,
    "Fall 2020: Pig Out, Free Bacon, Pig Pass, Swine Align",
    (r.pig_out, r.free_bacon_fa20, r.add_points, r.pig_pass, r.swine_align),
)
FA21 = RuleSet(
    "fa21",
    1,
    "Fall 2021: Sow Sad, Picky Piggy, Hog Pile",
    (r.sow_sad, r.picky_piggy, r.add_points, r.hog_pile_double),
)
SU22 = RuleSet(
    "su22",
    1,
    "Summer 2022: Sow Sad, Oink Points, Pigs on Prime",
    (r.sow_sad, r.oink_points, r.add_points, r.pigs_on_prime),
)
FA22 = RuleSet(
    "fa22",
    1,
    "Fall 2022 and Spring 2023: Sow Sad, Pig Tail, Square Swine",
    (r.sow_sad, r.pig_tail, r.add_points, r.square_swine),
    aliases=("sp23",),
)
FA23 = RuleSet(
    "fa23",
    1,
    "Summer 2023 to Fall 2025: Sow Sad, Boar Brawl, Sus Fuss",
    (r.sow_sad, r.boar_brawl, r.add_points, r.sus_fuss),
    aliases=("su23", "sp24", "su24", "fa24", "sp25", "su25", "fa25"),
)

NAMED: dict[str, RuleSet] = {
    rs.id: rs
    for rs in (
        *(SP14, SP15, SU15, SP16, PORKCHOP, FA17, FA17_CONTEST, SP18, SU18, FA18, FA18_CONTEST, SP19, SU19),
        *(FA19, SP20, SU20, FA20, SP21, CONTEST, FA21, SP22, SU22, FA22, FA23),
    )
}
"""Every semester's rule set by id, oldest first (contest variants beside their semester)."""
ALIASES: dict[str, str] = {alias: rs.id for rs in NAMED.values() for alias in rs.aliases}
"""Semesters that played another's rules exactly: ``sp23`` is ``fa22``."""
DEFAULT_RULES = FA18.id

_SWAPS = (
    r.swine_swap,
    r.swine_swap_reversed,
    r.swine_swap_double,
    r.swine_swap_multiple,
    r.swine_swap_su18,
    r.swine_swap_sp19,
    r.swine_swap_su19,
    r.swine_swap_fa19,
    r.swine_swap_sp20,
    r.swine_swap_su20,
)
TOGGLES: dict[str, tuple[str, tuple[object, ...]]] = {
    "swine_swap": ("Swine Swap", _SWAPS),
    "hefty_hogs": ("Hefty Hogs", (r.hefty_hogs,)),
    "hog_pile": ("Hog Pile", (r.hog_pile, r.hog_pile_double)),
    "hogtimus_prime": ("Hogtimus Prime", (r.hogtimus_prime, r.hogtimus_prime_leader)),
    "piggy_back": ("Piggy Back", (r.piggy_back,)),
    "feral_hogs": ("Feral Hogs", (r.feral_hogs_dice, r.feral_hogs_points)),
    "pigs_on_prime": ("Pigs on Prime", (r.pigs_on_prime,)),
    "square_swine": ("Square Swine", (r.square_swine,)),
    "sus_fuss": ("Sus Fuss", (r.sus_fuss,)),
    "more_boar": ("More Boar", (r.more_boar,)),
    "pig_pass": ("Pig Pass", (r.pig_pass,)),
    "swine_align": ("Swine Align", (r.swine_align,)),
    "time_trot": ("Time Trot", (r.time_trot, r.time_trot_mod5)),
    "hog_wild": ("Hog Wild", (r.hog_wild,)),
    "eight_sided": ("eight-sided extra turns", (r.eight_sided_extra_turns,)),
    "pork_chop": ("Pork Chop", ()),
}
"""The course's rules a game may be played without, or with, by key: their name, and the functions
that are them (a semester's own version of the rule first). How dice score (Pig Out, Sow Sad) and
adding the points stay: without them there is no Hog; so does what rolling no dice scores (Free
Bacon and the rest): without it a roll of no dice would score nothing yet could still swap the totals
or earn a turn, a game with no end to solve. Every rule set made of the rest is solved exactly."""
OFF = "~"
"""Joins a rule set's id and the rules a game turns off: ``fa18~swine_swap`` is Fall 2018 without Swine Swap."""
ON = "+"
"""Joins a rule set's id and the rules a game adds: ``fa23+time_trot`` is Summer 2023 with Time Trot."""

ORDER: tuple[object, ...] = (
    r.hogtimus_prime,
    r.piggy_back,
    r.add_points,
    r.feral_hogs_dice,
    r.feral_hogs_points,
    r.hog_pile,
    r.hog_pile_double,
    r.hogtimus_prime_leader,
    r.pigs_on_prime,
    r.square_swine,
    r.sus_fuss,
    *_SWAPS,
    r.more_boar,
    r.pig_pass,
    r.swine_align,
    r.time_trot,
    r.time_trot_mod5,
)
"""Where a rule added to a semester's goes, after how the turn scores: the points' changes, the add,
bonuses, swaps, then extra turns (every semester's own order agrees with it)."""


def _variants() -> dict[str, tuple[str, object]]:
    """Every rule that may be added, by key: a toggle's key is its first version (``swine_swap``:
    Fall 2018's), and ``KEY_ID`` the version of the semester ``ID`` that first played it."""
    found: dict[str, tuple[str, object]] = {}
    for key, (name, fns) in TOGGLES.items():
        for i, fn in enumerate(fns):
            if fn not in ORDER and fn not in (r.hog_wild, r.eight_sided_extra_turns):
                continue  # how the turn scores (Hefty Hogs) is the semester's own
            first = next(rs.id for rs in NAMED.values() if fn in (*rs.rules, rs.dice_sides))
            found[f"{key}_{first}" if i else key] = (name, fn)
    found["pork_chop"] = ("Pork Chop", None)
    return found


ADDABLE = _variants()


def toggles(base: RuleSet) -> list[tuple[str, str]]:
    """The rules of ``base`` a game may turn off: each one's key and name, in the rule set's order."""
    present = [*base.rules, base.dice_sides]
    found = [(key, name) for key, (name, fns) in TOGGLES.items() if any(f in present for f in fns)]
    return found + ([("pork_chop", "Pork Chop")] if base.pork_chop else [])


def compose(base_id: str, on: tuple[str, ...] = (), off: frozenset[str] = frozenset()) -> RuleSet:
    """``base_id``'s rule set with the rules ``on`` added (``ADDABLE`` keys, in that order) and those
    ``off`` turned off (its ``toggles``), under an id that says so; its version is its base's.
    ``KeyError`` for a rule it does not have, ``ValueError`` in words for rules that cannot go together."""
    base = NAMED[base_id]
    if not on and not off:
        return base
    rules, sides, chop = list(base.rules), base.dice_sides, base.pork_chop
    added: list[str] = []
    for key in on:
        name, fn = ADDABLE[key]
        if _toggle_of(key) in dict(toggles(RuleSet("", 0, "", tuple(rules), sides, chop))):
            raise ValueError(f"{base.semester} already has {name}")
        if fn is None:
            chop = True
        elif fn in (r.hog_wild, r.eight_sided_extra_turns):
            if sides is not r.six_sided:
                raise ValueError("Hog Wild and eight-sided extra turns both choose the dice: one at a time")
            sides = fn
        else:
            rules.append(fn)  # type: ignore[arg-type]
        added.append(name)
    rules.sort(key=lambda rule: ORDER.index(rule) if rule in ORDER else -1)  # scoring first, as it was
    head = RuleSet("", 0, "", tuple(rules), sides, chop)
    allowed = dict(toggles(head))
    if not off <= allowed.keys():
        raise KeyError(f"{base_id} has no rule {', '.join(sorted(off - allowed.keys()))} to turn off")
    gone = {f for key in off for f in TOGGLES[key][1]}
    keys = sorted(off, key=list(allowed).index)
    words = [f"with {', '.join(added)}"] if added else []
    words += [f"without {', '.join(allowed[k] for k in keys)}"] if keys else []
    found = RuleSet(
        "".join([base_id, *(ON + key for key in on), *(OFF + key for key in keys)]),
        base.version,
        f"{base.semester} {' and '.join(words)}",
        tuple(rule for rule in rules if rule not in gone),
        dice_sides=r.six_sided if sides in gone else sides,
        pork_chop=chop and "pork_chop" not in off,
        max_dice=base.max_dice,
    )
    if (why := conflict(found)) is not None:
        raise ValueError(why)
    return found


EXTRA_TURNS = (r.more_boar, r.pig_pass, r.swine_align, r.time_trot, r.time_trot_mod5)


def conflict(rs: RuleSet) -> str | None:
    """Why ``rs``'s rules cannot go together, or ``None``: what the solver cannot tabulate exactly.
    Hefty Hogs' 0-point moves can repeat for ever, a loop solved only where nothing but the two totals
    changes hands; a rule that remembers the last turn (Feral Hogs) or reads a turn's points after the
    add (Spring 2015's Hogtimus Prime) is solved with no extra turn nor Pork Chop beside it."""
    extra = any(rule in EXTRA_TURNS for rule in rs.rules) or rs.dice_sides is r.eight_sided_extra_turns
    remembers = rs.history is not None or r.hogtimus_prime_leader in rs.rules
    swaps = any(rule in _SWAPS for rule in rs.rules)
    if r.hefty_hogs in rs.rules and (extra or rs.pork_chop or remembers or swaps):
        return (
            "Hefty Hogs' 0-point moves cannot be solved beside a swap, an extra turn, Pork Chop, Feral Hogs "
            "or Spring 2015's Hogtimus Prime"
        )
    if remembers and (extra or rs.pork_chop):
        what = "Feral Hogs" if rs.history is not None else "Spring 2015's Hogtimus Prime"
        return f"{what} cannot be played with extra turns or Pork Chop"
    return None


def _toggle_of(key: str) -> str:
    """The toggle an ``ADDABLE`` key is a version of (``swine_swap_sp14`` -> ``swine_swap``)."""
    return max((t for t in TOGGLES if key == t or key.startswith(t + "_")), key=len)


def without(base_id: str, off: frozenset[str]) -> RuleSet:
    """``base_id``'s rule set with the rules ``off`` turned off (each of its ``toggles``)."""
    return compose(base_id, (), off)


def _parse(rules_id: str) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """``base+on1+on2~off1`` -> ``(base, (on1, on2), (off1,))``."""
    head, *off = rules_id.split(OFF)
    base, *on = head.split(ON)
    return base, tuple(on), tuple(off)


def canonical(text: str) -> str:
    """The id of the rule set a player asked for, in any case, order and alias (``SP23 ~ square_swine``
    is ``fa22~square_swine``), for a player to ask by: ``InvalidGame``, in words, for a rule set unknown,
    a rule it cannot turn off or add, or rules that cannot go together."""
    base, on, off = _parse("".join(text.lower().split()))
    base = ALIASES.get(base, base)
    if base not in NAMED:
        raise InvalidGame(f"There is no rule set {base!r}: choose one of {', '.join(NAMED)} (or {', '.join(ALIASES)}).")
    unknown = [key for key in on if key not in ADDABLE]
    if unknown:
        raise InvalidGame(
            f"There is no rule {unknown[0]!r} to add: the rules are {', '.join(k for k in ADDABLE if k in TOGGLES)} "
            f"(a semester's own version: swine_swap_sp14 and the like)."
        )
    if len(set(on)) != len(on) or len(set(off)) != len(off):
        raise InvalidGame("Name each rule once.")
    on = tuple(sorted(on, key=list(ADDABLE).index))
    try:
        found = compose(base, on, frozenset(off))
    except KeyError:
        offered = ", ".join(key for key, _ in toggles(compose(base, on))) or "none"
        raise InvalidGame(f"{NAMED[base].semester} cannot play without {', '.join(sorted(off))}: its "
                          f"rules that may be turned off are {offered}.") from None  # fmt: skip
    except ValueError as why:
        raise InvalidGame(f"These rules cannot go together: {why}.") from None
    return found.id


def turned_off(base_id: str, off: Iterable[str]) -> str:
    """The id of ``base_id`` (or a composed id) with the rules ``off`` turned off too."""
    return canonical(OFF.join([base_id, *sorted(off)]))


class RuleSets(Mapping[str, RuleSet]):
    """Every semester's rule set by id (what is listed and offered), found by an alias too; a rule set
    of one's own (``fa18~swine_swap``, ``fa23+time_trot``) is found by its id, made once. ``in`` asks
    only of the semesters and their aliases: an id from outside is never work."""

    def __init__(self, named: dict[str, RuleSet]) -> None:
        self._named = named

    def __getitem__(self, rules_id: str) -> RuleSet:
        if rules_id in self._named:
            return self._named[rules_id]
        if rules_id in ALIASES:
            return self._named[ALIASES[rules_id]]
        return _own(rules_id)

    def __contains__(self, rules_id: object) -> bool:
        return rules_id in self._named or rules_id in ALIASES

    def __iter__(self) -> Iterator[str]:
        return iter(self._named)

    def __len__(self) -> int:
        return len(self._named)


@functools.lru_cache(maxsize=256)
def _own(rules_id: str) -> RuleSet:
    base, on, off = _parse(rules_id)
    if base not in NAMED or not (on or off) or not set(on) <= ADDABLE.keys():
        raise KeyError(rules_id)
    try:
        found = compose(base, on, frozenset(off))
    except ValueError:
        raise KeyError(rules_id) from None
    if found.id != rules_id:  # each rule once, in the rule set's order: one id a set
        raise KeyError(rules_id)
    return found


RULE_SETS = RuleSets(NAMED)


def rule_set(rules_id: str, version: int | None = None) -> RuleSet:
    """The rule set ``rules_id`` at ``version`` (the current one when omitted): a semester's, or one of
    them with rules added or turned off.

    Raises ``KeyError`` for an unknown id or a version this code cannot play.
    """
    found = RULE_SETS[rules_id]
    if version is not None and version != found.version:
        raise KeyError(f"{rules_id} v{version}")
    return found


_TERMS = {"sp": "Spring", "su": "Summer", "fa": "Fall"}


def _term(semester_id: str) -> str:
    """``sp24`` -> "Spring 2024"."""
    return f"{_TERMS[semester_id[:2]]} 20{semester_id[2:4]}"


def offered(typed: str, limit: int = 25) -> list[tuple[str, str]]:
    """The rule sets a player typing ``typed`` may mean, newest first, as ``(id, label)``: every word
    typed found in an id, an alias, a semester ("spring 2024") or a rule's name; a rule set of one's
    own typed whole (``fa23+time_trot``) first."""
    words = typed.casefold().split()
    found: list[tuple[str, str]] = []
    if ON in typed or OFF in typed:
        try:
            own = RULE_SETS[canonical(typed)]
            found.append((own.id, f"{own.name} ({own.id})"))
        except InvalidGame:
            pass
    for rs in reversed(NAMED.values()):
        also = f", also {', '.join(rs.aliases)}" if rs.aliases else ""
        seen = " ".join([rs.id, *rs.aliases, rs.name, *(_term(a) for a in rs.aliases)]).casefold()
        if all(word in seen for word in words):
            found.append((rs.id, f"{rs.name} ({rs.id}{also})"))
    return found[:limit]
