"""Each semester's own autograder cases, run against our engine: the unlocked doctests of the course's
``tests/`` (``course_cases.json.gz``: the repository and commit they were read from, each case's path,
as the course shipped them to students) that call only the rules, ``play`` and the course's fuzz games
(``course_api`` provides them). Those that call a student's strategy, an experiment, the commentary or
the course's code checks were left out when the file was made: ``left_out`` counts them."""

from __future__ import annotations

import doctest
import gzip
import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import pytest

import tests
from tests.hog_core import course_api

CASES = json.loads(gzip.decompress((Path(__file__).parent / "course_cases.json.gz").read_bytes()))
CALLED = re.compile(r"([A-Za-z_][A-Za-z_0-9.]*)\(")
IMPORTED = re.compile(r"from (?:hog|dice) import ([\w, ]+)")
DEFINED = re.compile(r">>> def (\w+)\(|>>> ([\w, ]+?)\s*=(?!=)")
LANGUAGE = {"print", "range", "len", "sum", "list", "str", "int", "abs", "max", "min", "round", "set", "tuple"}


@contextmanager
def semester(name: str) -> Iterator[dict[str, object]]:
    """The modules a case of ``name`` imports (``hog``, ``tests.play_utils``), in place while it runs."""
    hog = course_api.hog_module(name)
    utils = ModuleType("tests.play_utils")
    utils.describe_game = course_api.describe_game  # type: ignore[attr-defined]
    dice = ModuleType("dice")
    dice.make_test_dice, dice.six_sided, dice.four_sided = hog.make_test_dice, hog.six_sided, hog.four_sided  # type: ignore[attr-defined]
    kept = {key: sys.modules.get(key) for key in ("hog", "hog_gui", "dice", "tests.play_utils")}
    sys.modules.update({"hog": hog, "hog_gui": ModuleType("hog_gui"), "dice": dice, "tests.play_utils": utils})
    tests.play_utils = utils  # type: ignore[attr-defined]
    try:
        yield {"hog": hog}
    finally:
        del tests.play_utils  # type: ignore[attr-defined]
        for key, module in kept.items():
            if module is None:
                sys.modules.pop(key, None)
            else:
                sys.modules[key] = module


def runnable(hog: ModuleType, setup: str, code: str) -> bool:
    """Whether every function the case calls is the rules' or ``play``'s (``course_api`` has it)."""
    text = "\n".join(line.split("#")[0] for line in f"{setup}\n{code}".splitlines())  # no comments
    names = {name.split(".")[-1] for name in CALLED.findall(text)}
    names |= {name.strip() for found in IMPORTED.findall(text) for name in found.split(",")}
    names -= {n.strip() for pair in DEFINED.findall(text) for n in ",".join(pair).split(",")}  # its own names
    names |= set(re.findall(r"\bhog\.(\w+)", text))  # what it reads of ``hog`` (another term's test: not here)
    known = set(vars(hog)) | {"describe_game"} | LANGUAGE
    return names <= known and "construct_check" not in setup + code and "hog_gui." not in code


def outcomes(name: str) -> tuple[int, list[str], int]:
    """``name``'s cases run: how many passed, the failures' reports, how many were left out."""
    passed, failed, left_out = 0, [], 0
    parser = doctest.DocTestParser()
    with semester(name) as imported:
        hog = imported["hog"]
        assert isinstance(hog, ModuleType)
        for case in CASES[name]["cases"]:
            if not runnable(hog, case["setup"], case["code"]):
                left_out += 1
                continue
            test = parser.get_doctest(f"{case['setup']}\n{case['code']}\n", {}, case["path"], case["path"], 0)
            report: list[str] = []
            runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
            runner.run(test, out=report.append)
            if runner.failures:
                failed.append("".join(report)[:1500])
            else:
                passed += 1
    return passed, failed, left_out


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_semesters_own_autograder_cases_pass(name: str) -> None:
    passed, failed, left_out = outcomes(name)
    assert not failed, f"{len(failed)} of {passed + len(failed)} failed:\n" + "\n".join(failed[:3])
    assert left_out == 0 and passed == len(CASES[name]["cases"]) >= 15  # every case kept is run


def test_the_cases_count() -> None:
    """2,164 cases of 13 semesters; the course's ``tests/`` of su18, sp19 and the contests are not public."""
    assert sum(len(found["cases"]) for found in CASES.values()) == 2164
