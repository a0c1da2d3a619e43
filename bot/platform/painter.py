"""Draws every picture (a game's, a contest's, a tournament's) in a worker process: the one way a
picture is drawn off the event loop.

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
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any, TypeVar

T = TypeVar("T")


class Painter:
    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    async def draw(self, draw: Callable[..., T], *args: Any) -> T:
        """``draw(*args)`` in the worker: ``draw`` a module's function (or a ``partial`` of one) and
        ``args`` small (a chart, not a game's log), since both are pickled."""
        if self._pool is None:  # started on first use: most runs of the bot's tests never draw
            self._pool = ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"), initializer=_end_with, initargs=(os.getpid(),)
            )
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, partial(draw, *args))
        except BrokenProcessPool:  # the worker died (out of memory, killed): the next picture starts another
            self._pool = None
            raise

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


PAINTER = Painter()
"""This process's painter: every picture of every game and front is drawn by it (``drawn``)."""


async def drawn(draw: Callable[..., T], *args: Any) -> T:
    """``draw(*args)`` off the event loop, in this process's painter."""
    return await PAINTER.draw(draw, *args)


def _end_with(parent: int) -> None:
    """In the worker: exit once ``parent`` is gone. (The worker holds both ends of its own task
    queue, so a killed parent would otherwise leave it waiting forever.)"""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="painter-watch", daemon=True).start()
