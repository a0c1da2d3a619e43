"""Shared, expensive fixtures: each rule set's kernel and perfect strategy, built once per run."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import threading
from collections.abc import Iterator

import pytest

from hog_core.kernel import Kernel
from hog_core.rulesets import RULE_SETS
from hog_core.solver import Solution, sweep

RUN_CACHE = tempfile.mkdtemp(prefix="hogbot-tests-cache-")
os.environ["XDG_CACHE_HOME"] = RUN_CACHE  # every Settings() of the run, and the bots it starts, solve here:
atexit.register(shutil.rmtree, RUN_CACHE, ignore_errors=True)  # never into the home of whoever runs it

pytest_plugins = ["tests.discord.discord_world", "tests.postgres_server", "tests.web.browser", "tests.web.site"]


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``--numprocesses=auto``: three workers a core (``--maxprocesses`` caps them). A test spends much
    of its time waiting on a server, a subprocess or the fake Discord, and a machine busy with other
    programs shares its cores among processes: with two CPU burners beside it, on two cores, the suite
    took 13-14 minutes with a worker a core and 9.5-14.5 with three on a slow day, 5.8-6.2 on a
    quicker one, three runs in a row (``README.md``)."""
    return 3 * (os.cpu_count() or 1)


LONGEST = {
    "tests/hog_core/test_pairs.py": 57,
    "tests/games/hog/test_contest_cli.py": 43,
    "tests/discord/test_discord_storm.py": 39,
    "tests/discord/test_discord.py": 39,
    "tests/discord/test_discord_games.py": 35,
    "tests/web/test_in_a_browser.py": 33,
    "tests/test_quality.py": 31,
    "tests/hog_core/test_semesters.py": 29,
    "tests/web/test_contest_pages.py": 27,
    "tests/discord/test_discord_contest.py": 25,
    "tests/platform/test_press_plugin.py": 24,
    "tests/discord/test_discord_anywhere.py": 24,
    "tests/discord/test_discord_crashes.py": 23,
    "tests/hog_core/test_properties.py": 22,
    "tests/discord/test_discord_tournaments.py": 22,
    "tests/discord/test_discord_cucumber.py": 21,
    "tests/cucumber_core/test_properties.py": 21,
    "tests/discord/test_discord_processes.py": 20,
}
"""The files that take longest (seconds of a fresh clone's run, ``--durations=0``), run first: the
workers share the files out in the order they are collected, and a long file begun last kept one
worker busy for a minute after the others had finished. A file not named runs in its turn."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: -LONGEST.get(item.nodeid.split("::")[0], 0))  # stable: in-file order kept


@pytest.fixture(scope="session")
def kernels() -> dict[str, Kernel]:
    return {rules: Kernel(rs, 100) for rules, rs in RULE_SETS.items()}


class Solved(dict[str, Solution]):
    """Each rule set's perfect strategy to 100, solved when a test first asks for it, then kept: a
    worker solves the rule sets its tests use, not all 24 (about 12 s each worker, six workers)."""

    def __init__(self, kernels: dict[str, Kernel]) -> None:
        super().__init__()
        self.kernels, self.lock = kernels, threading.Lock()

    def __missing__(self, rules: str) -> Solution:
        kernel = self.kernels[rules]  # KeyError for a rule set that is none
        with self.lock:  # a test's threads may ask at once: one solves
            if rules not in self:
                result = sweep(kernel)
                rs = kernel.rules
                self[rules] = Solution(rules, rs.version, 100, kernel.dims, result.value_a, result.moves_a)
            return dict.__getitem__(self, rules)


@pytest.fixture(scope="session")
def solutions(kernels: dict[str, Kernel]) -> dict[str, Solution]:
    return Solved(kernels)


def _database_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if "_connection_worker_thread" in t.name}


@pytest.fixture(autouse=True)
def no_leaked_connections() -> Iterator[None]:
    """A database connection left open keeps its thread, and the test run, alive: fail the test
    that leaks one instead of hanging at exit."""
    before = _database_threads()
    yield
    leaked = {t for t in _database_threads() - before if t.is_alive()}
    for t in leaked:
        t.join(timeout=1)  # a connection closing as the test ends finishes within moments
    assert not {t for t in leaked if t.is_alive()}, "a test left a database connection open"
