"""Solutions on disk: solved once, loaded after, re-solved when the file is damaged."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bot.games.hog.solutions import SolutionCache
from hog_core.rulesets import FA18, PORKCHOP
from hog_core.solver import Solution


def test_solved_once_then_loaded(tmp_path: Path, solutions: dict[str, Solution]) -> None:
    cache = SolutionCache(tmp_path / "cache")
    assert cache.load(FA18, 100) is None
    first = cache.get(FA18, 100)
    assert cache.path(FA18, 100).name == "fa18-v1-goal100.npz"
    loaded = cache.load(FA18, 100)
    assert loaded is not None
    assert np.array_equal(loaded.value, solutions["fa18"].value)
    assert np.array_equal(loaded.moves, first.moves)
    assert loaded.dims == solutions["fa18"].dims
    assert list((tmp_path / "cache").iterdir()) == [cache.path(FA18, 100)]  # no temporary files left


def test_layers_survive_the_round_trip(tmp_path: Path, solutions: dict[str, Solution]) -> None:
    cache = SolutionCache(tmp_path)
    cache.save(solutions["porkchop"], PORKCHOP, 100)
    loaded = cache.load(PORKCHOP, 100)
    assert loaded is not None and loaded.dims == solutions["porkchop"].dims


@pytest.mark.parametrize("damage", [b"", b"not a zip file", b"PK\x03\x04 broken"])
def test_a_damaged_file_is_solved_again(tmp_path: Path, damage: bytes) -> None:
    cache = SolutionCache(tmp_path)
    cache.path(FA18, 30).write_bytes(damage)
    assert cache.load(FA18, 30) is None
    solved = cache.get(FA18, 30)
    assert solved.value.shape == (1, 30, 30)
    assert cache.load(FA18, 30) is not None


def test_solutions_in_use_stay_in_memory(tmp_path: Path, solutions: dict[str, Solution]) -> None:
    cache = SolutionCache(tmp_path, in_memory=1)
    cache.save(solutions["fa18"], FA18, 100)
    first = cache.get(FA18, 100)
    cache.path(FA18, 100).unlink()  # from now on only memory can answer
    assert cache.get(FA18, 100) is first
    cache.get(PORKCHOP, 30)  # solved and stored; fa18 leaves memory (one at a time)
    assert cache.load(FA18, 100) is None and cache.get(FA18, 100) is not first
