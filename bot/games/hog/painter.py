"""Draws the pictures of games in a worker process.

Drawing holds the GIL for tens of milliseconds at a time; in a thread, a burst of games ending
together held up every other player's click (the load test's p99 went from 25 to 200 ms). In a
process of its own it costs the event loop only the pickling of a small ``Chart``. The worker is
spawned, not forked: the bot's process runs threads (the database connections) that a fork would
copy mid-step. The worker ends itself when the bot's process is gone, even killed without a word.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial

from bot.games.hog.picture import Chart, animate, chart_of, render
from hog_core.events import Event
from hog_core.review import MoveReview
from hog_core.solver import Solution


class Painter:
    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    async def paint(
        self,
        events: Sequence[Event],
        solution: Solution | None,
        at: int | None = None,
        review: Sequence[MoveReview] = (),
    ) -> bytes | None:
        """The PNG of a game (``None`` before its first turn), its slips marked from ``review``. The
        chart is made here, where the solution is: only the small chart goes to the worker."""
        c = chart_of(events, solution, review)
        return None if c is None else await self._run(partial(render, at=at), c)

    async def animate(self, events: Sequence[Event], solution: Solution | None) -> bytes | None:
        """The GIF of a game drawn turn by turn (``None`` before its first turn); a second or two."""
        c = chart_of(events, solution)
        return None if c is None else await self._run(animate, c)

    async def _run(self, draw: Callable[[Chart], bytes], c: Chart) -> bytes:
        if self._pool is None:  # started on first use: most runs of the bot's tests never draw
            self._pool = ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"), initializer=_end_with, initargs=(os.getpid(),)
            )
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, draw, c)
        except BrokenProcessPool:  # the worker died (out of memory, killed): the next picture starts another
            self._pool = None
            raise

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _end_with(parent: int) -> None:
    """In the worker: exit once ``parent`` is gone. (The worker holds both ends of its own task
    queue, so a killed parent would otherwise leave it waiting forever.)"""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="painter-watch", daemon=True).start()
