"""Small builders and readers shared by the tests."""

from __future__ import annotations

import asyncio
import io
import os
import random
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from _pytest.capture import CaptureFixture
from PIL import Image, ImageSequence

from bot.cli import main
from bot.games.hog.module import HogGame
from bot.platform.codec import from_records, to_record
from bot.platform.settings import Settings
from hog_core.events import Event, Player
from hog_core.game import CreateGame, GameState, TakeTurn, decide, evolve
from hog_core.rulesets import RULE_SETS
from hog_core.turn import Turn
from storage.events import EventStore, NewEvent, StoredEvent

ALICE = Player("a", "Alice")
BOB = Player("b", "Bob")


def one_turn(rules: str, cur: int, opp: int, k: int, outcomes: tuple[int, ...] = (), **facts: int | bool) -> Turn:
    """Resolve one turn of ``rules`` from the mover's side."""
    turn = Turn(cur=cur, opp=opp, k=k, outcomes=outcomes, **facts)  # type: ignore[arg-type]
    return RULE_SETS[rules].resolve(turn)


def new_game(rules: str = "fa18", goal: int = 100, **options: object) -> tuple[GameState, list[Event]]:
    command = CreateGame("g1", (ALICE, BOB), rules=rules, goal=goal, **options)  # type: ignore[arg-type]
    events = decide(GameState(), command)
    state = GameState()
    for e in events:
        state = evolve(state, e)
    return state, events


def move(state: GameState, k: int, *outcomes: int, log: list[Event] | None = None) -> GameState:
    """The mover plays ``k`` with ``outcomes``; the events are appended to ``log`` when given."""
    events = decide(state, TakeTurn(state.players[state.mover].id, k, outcomes))
    if log is not None:
        log.extend(events)
    for e in events:
        state = evolve(state, e)
    return state


def frames(animation: bytes | Path) -> int:
    """How many frames an animated image has."""
    with Image.open(io.BytesIO(animation) if isinstance(animation, bytes) else animation) as image:
        return sum(1 for _ in ImageSequence.Iterator(image))


HOG = HogGame(Settings())
"""The Hog game module, for reading and writing its store records in tests (a decided game's review,
its costly moves for the trainer, solves its rule set into the run's own cache: ``tests/conftest.py``)."""


def hog_events(stored: Sequence[StoredEvent]) -> list[Event]:
    """A Hog stream's events as the platform decodes them."""
    return from_records(HOG, stored)


def hog_record(event: Event) -> NewEvent:
    """A Hog event as the platform stores it (``hog.TurnTaken``)."""
    return to_record(HOG, event)


class Fives:
    """The platform's random source, fixed: every die shows 5 (a four-sided die 4), a deck keeps its
    order. Games are the same every run."""

    def roll(self, count: int, sides: int) -> tuple[int, ...]:
        return (min(5, sides),) * count

    def shuffled(self, items: Sequence[int]) -> tuple[int, ...]:
        return tuple(items)


FIVES = Fives()


class Seeded:
    """The platform's random source, seeded: different decks each deal, the same ones each run."""

    def __init__(self, seed: int = 1) -> None:
        self.random = random.Random(seed)

    def roll(self, count: int, sides: int) -> tuple[int, ...]:
        return tuple(self.random.randint(1, sides) for _ in range(count))

    def shuffled(self, items: Sequence[int]) -> tuple[int, ...]:
        deck = list(items)
        self.random.shuffle(deck)
        return tuple(deck)


def refused(argv: Sequence[str], capsys: CaptureFixture[str], keys: str = "") -> str:
    """The one line ``python -m bot`` prints to refuse a well-formed request it cannot do (exit
    status 2): no usage, no traceback."""
    capsys.readouterr()
    assert main(list(argv), io.StringIO(keys), io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "usage:" not in err and "Traceback" not in err, err
    assert err.startswith("python -m bot: "), err
    return err.removeprefix("python -m bot: ").rstrip("\n")


def interrupted_at(prompt: bytes, argv: Sequence[str], env: dict[str, str]) -> tuple[int, str, str]:
    """``python -m bot ARGV`` sent SIGINT (Ctrl-C) once it shows ``prompt``, its keyboard a pipe left
    open (so nothing but the signal can end it): its exit status, what it said, and its stderr."""
    bot = subprocess.Popen(
        [sys.executable, "-u", "-m", "bot", *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # a shell's background job ignores it
    )
    assert bot.stdout is not None
    seen = b""
    while prompt not in seen:  # the prompt is the event to wait for
        chunk = os.read(bot.stdout.fileno(), 4096)
        assert chunk, seen
        seen += chunk
    bot.send_signal(signal.SIGINT)
    out, err = bot.communicate(timeout=20)
    return bot.returncode, (seen + out).decode(), err.decode()


class Terminal(io.StringIO):
    """Standard error as a person's terminal: a progress bar is drawn only there."""

    def isatty(self) -> bool:
        return True


def loads_counted(store: EventStore) -> list[int]:
    """Have ``store`` note the version after which each ``load`` reads (a process's reads, to count)."""
    loads: list[int] = []
    load = store.load

    async def counted(stream_id: str, after_version: int = 0) -> Any:
        loads.append(after_version)
        return await load(stream_id, after_version)

    store.load = counted  # type: ignore[method-assign]
    return loads


T = TypeVar("T")


async def within(waiting: Awaitable[T], seconds: float = 60) -> T:
    """What ``waiting`` gives, or a failure after ``seconds``: no test waits on a queue or a fake for ever."""
    return await asyncio.wait_for(waiting, seconds)


async def until(holds: Callable[[], object], seconds: float = 60, every: float = 0.02) -> None:
    """Wait until ``holds()`` is true (a state no event announces: read again every ``every`` seconds),
    or fail after ``seconds``."""

    async def polled() -> None:
        while not holds():
            await asyncio.sleep(every)

    await within(polled(), seconds)
