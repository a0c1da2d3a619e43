"""A student's strategy file, run at the terminal in this very process (``contest submit hog.py``):
bounded so that what it does is reported in words, never taken as the command's own doing. It
may not exit the program (``sys.exit``), a call may take at most ``CALL_SECONDS`` and loading the
file ``LOAD_SECONDS`` (where the system has an interval timer: not on Windows), and what it prints
is counted, not shown. It is not a sandbox: the file runs with your rights, as ``python hog.py``
would (Discord takes tables only, never code).
"""

from __future__ import annotations

import contextlib
import io
import signal
import threading
from collections.abc import Callable, Iterator

CALL_SECONDS = 1.0
LOAD_SECONDS = 10.0
KEPT = 2_000
"""Characters of a strategy's printing kept (the rest counted only)."""


class StrategyFailed(BaseException):
    """The strategy exited the program, or ran past its time. A ``BaseException``, as ``SystemExit``
    is: a strategy's own ``except Exception`` cannot swallow it, nor the tabling take it for a
    failure of the strategy's logic."""


class Printed(io.TextIOBase):
    """Standard output while the strategy runs: counted, the first ``KEPT`` characters kept."""

    def __init__(self) -> None:
        self.count, self.kept = 0, io.StringIO()

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if self.count < KEPT:
            self.kept.write(text[: KEPT - self.count])
        self.count += len(text)
        return len(text)


def _timer_usable() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def _too_slow(signum: int, frame: object) -> None:
    raise StrategyFailed("took too long")


@contextlib.contextmanager
def limited(seconds: float, what: str) -> Iterator[None]:
    """``what`` must end within ``seconds`` (and may not exit): else ``StrategyFailed`` in words."""
    timed = _timer_usable()
    if timed:
        before = signal.signal(signal.SIGALRM, _too_slow)
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except StrategyFailed:
        raise StrategyFailed(f"{what} took longer than {seconds:g} s") from None
    except SystemExit as leaving:
        raise StrategyFailed(f"{what} tried to end the program (exit({leaving.code!r}))") from None
    finally:
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, before)


def each_call_limited(function: Callable[[int, int], object], name: str) -> Callable[[int, int], object]:
    """``function``, each call of which is ``limited`` to ``CALL_SECONDS``."""

    def call(score: int, opponent: int) -> object:
        with limited(CALL_SECONDS, f"{name}({score}, {opponent})"):
            return function(score, opponent)

    return call


@contextlib.contextmanager
def quiet() -> Iterator[Printed]:
    """Standard output and error caught while a strategy loads and runs."""
    printed = Printed()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
        yield printed


def told(printed: Printed, name: str) -> str | None:
    """One line about what the strategy printed, or ``None`` when it printed nothing."""
    if not printed.count:
        return None
    first = printed.kept.getvalue().strip().splitlines()[:1]
    shown = f", first: {first[0][:80]!r}" if first else ""
    return f"{name} printed {printed.count:,} characters while it was tabled (not shown{shown})."
