"""No test can hang the suite: pytest-timeout stops a test past the suite's limit as a failure."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_test_has_a_time_limit() -> None:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert 0 < int(options["timeout"]) <= 600


def test_a_test_that_sleeps_for_ever_is_stopped_with_a_failure(tmp_path: Path) -> None:
    (tmp_path / "test_forever.py").write_text("import time\n\ndef test_forever():\n    time.sleep(10**6)\n")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "timeout=2", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert run.returncode == 1, run.stdout
    assert "Timeout (>2.0s)" in run.stdout and "1 failed" in run.stdout
