"""Exporting every game (issue 44): a store of N finished games played by the rules (as
``bench/scale.py`` builds them: 65% Hog, 35% Cucumber), read back (the read models projected), then
``python -m bot export -o FILE`` run as a user runs it, in a process of its own: its wall time, its peak
memory (the process's VmHWM, not ``ru_maxrss``, which Linux keeps across ``exec`` from the parent that
built the store: an export streams, so this should not grow with N) and the file's size.

    python bench/export.py [--sizes 10000 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scale import build  # noqa: E402
from bot.platform.compose import platform  # noqa: E402
from bot.platform.settings import Settings  # noqa: E402


def export_once(db: Path, out: Path) -> tuple[float, float]:
    """``python -m bot export -o out`` over ``db``: seconds, and peak MiB of the process."""
    code = (
        "import atexit, runpy, sys\n"
        "def peak():\n"
        "    hwm = next(line for line in open('/proc/self/status') if line.startswith('VmHWM:'))\n"
        "    print('peak', hwm.split()[1], file=sys.stderr)\n"
        "atexit.register(peak)\n"
        "sys.argv = ['bot', 'export', '-o', sys.argv[1]]\n"
        "runpy.run_module('bot', run_name='__main__')\n"
    )
    env = {**os.environ, "HOG_DB": str(db), "HOG_CACHE": str(db.parent)}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, str(out)], env=env, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - started
    peak = next(int(line.split()[1]) for line in done.stderr.splitlines() if line.startswith("peak "))
    return wall, peak / 1024


async def projected(db: Path) -> None:
    """The read models caught up with the log (an export reads them to find the games)."""
    async with platform(Settings(db=db, cache=db.parent)):
        pass


def main(sizes: list[int]) -> None:
    print(f"{'games':>8} {'export, s':>10} {'peak, MiB':>10} {'file, MB':>9} {'games/s':>8}")
    for size in sizes:
        with tempfile.TemporaryDirectory() as scratch:
            db, out = Path(scratch) / "games.sqlite3", Path(scratch) / "games.ndjson"
            asyncio.run(projected(db))  # the schema made
            build(db, size)
            asyncio.run(projected(db))
            wall, peak = export_once(db, out)
            lines = sum(1 for _ in out.open("rb"))
            assert lines == size, (lines, size)
            print(f"{size:>8} {wall:>10.1f} {peak:>10.0f} {out.stat().st_size / 1e6:>9.0f} {size / wall:>8.0f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    main(parser.parse_args().sizes)
