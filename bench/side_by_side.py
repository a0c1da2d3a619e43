"""One benchmark run in two checkouts at once, alternating, so that a noisy machine weighs on both
alike: each line of its output with every number replaced by its median over the rounds, this
checkout's beside the other's.

    git worktree add /tmp/before <commit>
    python bench/side_by_side.py --rounds 3 /tmp/before bench/store.py
    python bench/side_by_side.py --rounds 3 /tmp/before bench/discord_load.py --think 0 0

(everything after the benchmark's name is its own arguments)
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from collections.abc import Iterator
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def run(tree: Path, script: str, args: list[str]) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}  # the checkout's packages, not the installed ones
    done = subprocess.run(
        [sys.executable, str(tree / script), *args], cwd=tree, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.splitlines()


def medians(runs: list[list[str]]) -> list[str]:
    """Each line of the first run, its numbers replaced by the median of that number over all runs."""
    lines = []
    for i, line in enumerate(runs[0]):
        values = [[float(n.replace(",", "")) for n in NUMBER.findall(r[i])] for r in runs if i < len(r)]
        middle = iter([shown(statistics.median(column)) for column in zip(*values, strict=False)])
        lines.append(NUMBER.sub(partial(next_of, middle), line))
    return lines


def next_of(values: Iterator[str], _: re.Match[str]) -> str:
    return next(values, "?")


def shown(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("other", type=Path, help="the other checkout (a git worktree of the commit to compare)")
    parser.add_argument("script", help="the benchmark, relative to a checkout (it must exist in both)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the benchmark's own arguments")
    options = parser.parse_args()
    trees = {"this checkout": HERE, str(options.other): options.other.resolve()}
    outputs: dict[str, list[list[str]]] = {name: [] for name in trees}
    for _ in range(options.rounds):
        for name, tree in trees.items():
            outputs[name].append(run(tree, options.script, options.args))
    for name in trees:
        print(f"== {name} (median of {options.rounds} runs)")
        print("\n".join(medians(outputs[name])))


if __name__ == "__main__":
    main()
