"""The container files, read as Docker and Compose would (no Docker engine runs here): what goes into
the build, who the bot runs as, one build for every process, and no restart loop without a token."""

from __future__ import annotations

import fnmatch
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def ignored(path: str) -> bool:
    """Whether ``.dockerignore`` keeps ``path`` out of the build context (its patterns, simplified:
    no ``!`` exceptions are used)."""
    patterns = [
        line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines() if line.strip()[:1] not in ("", "#")
    ]
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]  # a folder left out leaves out its files

    def matches(pattern: str) -> bool:
        if pattern.startswith("**/"):  # at any depth
            return any(fnmatch.fnmatch(part, pattern[3:]) for part in parts)
        return any(fnmatch.fnmatch(prefix, pattern) for prefix in prefixes)  # from the context's root

    return any(matches(pattern) for pattern in patterns)


def test_the_build_context_holds_what_the_image_copies_and_nothing_heavy() -> None:
    copied = re.findall(r"^COPY (.+?) \S+$", (ROOT / "Dockerfile").read_text(), re.MULTILINE)
    sources = [source for line in copied for source in line.split()]
    assert sources and not [source for source in sources if ignored(source)]
    for heavy in (
        ".venv/lib/python3.11/site-packages/numpy/core.py",
        "hogbot.sqlite3",
        "hogbot.sqlite3-wal",
        ".git/HEAD",
    ):
        assert ignored(heavy), heavy
    assert ignored("bot/__pycache__/cli.cpython-311.pyc")


def test_the_bot_runs_as_a_user_of_its_own() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    users = re.findall(r"^USER (\S+)$", dockerfile, re.MULTILINE)
    assert users and users[-1] not in ("root", "0")
    assert dockerfile.index("chown") < dockerfile.index("VOLUME /data"), "the volume starts out the bot's"
    # numba cannot cache in the installed package, which the bot's user may not write: it caches in the volume
    assert re.search(r"^ENV .*NUMBA_CACHE_DIR=/data/", dockerfile, re.MULTILINE)


def test_compose_builds_the_image_once_and_needs_no_token_to_come_down() -> None:
    compose = (ROOT / "docker-compose.yml").read_text()
    assert len(re.findall(r"^\s+build:", compose, re.MULTILINE)) == 1
    assert ":?" not in compose, "docker compose down must work without DISCORD_TOKEN"
    policies = re.findall(r"restart: (\S+)", compose)
    assert policies and all(re.fullmatch(r"on-failure:\d+", policy) for policy in policies), "no restart forever"


def test_every_file_a_package_reads_is_installed_with_it() -> None:
    """``pip install .`` (the image's) takes a package's ``.py`` files only, unless ``package-data``
    names the rest: every template, stylesheet and picture in the packages is named there (the games'
    boards, emblems and pages were left out once, and their pages failed in the image)."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    packages = ("bot", "hog_core", "cucumber_core", "storage")
    files = [
        path.relative_to(ROOT)
        for package in packages
        for path in (ROOT / package).rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts
    ]
    assert files, "the packages hold data files"

    def named(path: Path) -> bool:
        for package, patterns in data.items():
            folder = Path(*package.split("."))
            if path.is_relative_to(folder) and any(
                fnmatch.fnmatch(str(path.relative_to(folder)), pattern) for pattern in patterns
            ):
                return True
        return False

    assert [str(path) for path in files if not named(path)] == []
