"""The course's bots (CUCUMBER.md §3) and a uniform random one.

Each bot is a *picker*: from a hand's values in hand order and the trick's highest value so far (0
when leading), the index of the card to play. The engine's bots, the course's strategy functions
and the vectorized simulator's policies (tested equal) all use these.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from cucumber_core import rules, strong
from cucumber_core.cards import Card, first_max, first_min, value
from cucumber_core.views import SeatView

Picker = Callable[[Sequence[int], int], int]
Bot = Callable[[SeatView, np.random.Generator], Card]
"""An automatic player: its seat's view and a random source from the caller, to a legal card."""


def play_first(values: Sequence[int], high: int) -> int:
    """The first card in hand order that reaches ``high``, else the first lowest (it leads ``hand[0]``)."""
    for i, v in enumerate(values):
        if v >= high:
            return i
    return first_min(values)


def fimp(values: Sequence[int], high: int) -> int:
    """Problem 16: the lowest-valued legal card, first in hand order on ties."""
    legal = rules.legal(values, high)
    return legal[first_min([values[i] for i in legal])]


def magic(values: Sequence[int], high: int) -> int:
    """Problem 17, ``lead_second_highest_follow_low``: lead the second card in value order (the first
    highest removed, then the first highest of the rest); follow as fimp."""
    if high or len(values) == 1:
        return fimp(values, high)
    top = first_max(values)
    rest = [i for i in range(len(values)) if i != top]
    return rest[first_max([values[i] for i in rest])]


def random_pick(values: Sequence[int], high: int, rng: np.random.Generator) -> int:
    """A uniform choice among the legal cards: a baseline, not a course bot."""
    legal = rules.legal(values, high)
    return legal[int(rng.integers(len(legal)))]


PICKERS: dict[str, Picker] = {"play_first": play_first, "fimp": fimp, "magic": magic}


def from_picker(pick: Picker) -> Bot:
    def bot(view: SeatView, rng: np.random.Generator) -> Card:
        return view.hand[pick([value(c) for c in view.hand], view.public.high)]

    return bot


def random_bot(view: SeatView, rng: np.random.Generator) -> Card:
    return view.hand[random_pick([value(c) for c in view.hand], view.public.high, rng)]


BOTS: dict[str, Bot] = {
    "strong": strong.choose,
    "magic": from_picker(magic),
    "play_first": from_picker(play_first),
    "fimp": from_picker(fimp),
    "random": random_bot,
}
"""Every bot by name, strongest first."""
