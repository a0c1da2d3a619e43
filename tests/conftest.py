"""Shared, expensive fixtures: each rule set's kernel and perfect strategy, built once per run."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator

import pytest

from hog_core.kernel import Kernel
from hog_core.rulesets import RULE_SETS
from hog_core.solver import Solution, sweep

pytest_plugins = ["tests.discord.discord_world", "tests.postgres_server", "tests.web.browser", "tests.web.site"]


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``--numprocesses=auto``: three workers a core (``--maxprocesses`` caps them). A test spends much
    of its time waiting on a server, a subprocess or the fake Discord, and a machine busy with other
    programs shares its cores among processes: with two CPU burners beside it, on two cores, the suite
    took 13-14 minutes with a worker a core and under 10 with three (``README.md``)."""
    return 3 * (os.cpu_count() or 1)


@pytest.fixture(scope="session")
def kernels() -> dict[str, Kernel]:
    return {rules: Kernel(rs, 100) for rules, rs in RULE_SETS.items()}


@pytest.fixture(scope="session")
def solutions(kernels: dict[str, Kernel]) -> dict[str, Solution]:
    solved = {}
    for rules, kernel in kernels.items():
        result = sweep(kernel)
        rs = kernel.rules
        solved[rules] = Solution(rules, rs.version, 100, kernel.dims, result.value_a, result.moves_a)
    return solved


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
