"""An import stores nothing it cannot prove, on SQLite and PostgreSQL: a file of hostile lines (each
a way a file can lie or harm) beside good ones; every hostile line refused for its reason, every good
one imported, the games already here unchanged. An imported game counts toward ratings and records
only when the operator trusts the file; a kill halfway leaves no game half stored."""

from __future__ import annotations

import asyncio
import base64
import copy
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.games.hog.module import turn
from bot.platform import export, importing
from bot.platform.compose import Platform, platform
from bot.platform.fairness import FAIR, verify
from bot.platform.settings import Settings
from hog_core.events import Player
from hog_core.game import CreateGame
from tests.platform.test_export import Opened, lines_of, opened, played

__all__ = ["opened"]  # the fixture, on both databases

ADA, BOB = Player("1", "Ada"), Player("2", "Bob")
Line = dict[str, Any]


def forged(line: Line, change: Callable[[Line], None]) -> bytes:
    game = copy.deepcopy(line)
    change(game)
    return json.dumps(game).encode()


def turn_of(game: Line, n: int = 0) -> Line:
    turns: list[Line] = [e for e in game["events"] if e["type"] == "hog.TurnTaken"]
    return turns[n]


def all_sixes(game: Line) -> None:
    event = turn_of(game)
    rolled = json.loads(event["data"])
    rolled["outcomes"] = [6] * len(rolled["outcomes"])
    event["data"] = json.dumps(rolled, separators=(",", ":"))


def renamed(game: Line, old: str, new: str) -> None:
    """``old`` made ``new`` everywhere in the line and its log: the game id, say, as a forger would."""
    text = json.dumps(game).replace(json.dumps(old)[1:-1], json.dumps(new)[1:-1])
    game.clear()
    game.update(json.loads(text))


def set_(key: str, value: object) -> Callable[[Line], None]:
    return lambda game: game.__setitem__(key, value)


def hostile(fair: Line, running: Line, cards: Line, stored: Line) -> list[tuple[str, bytes]]:
    """Each hostile line with the reason it must be refused for."""

    def appended(game: Line) -> None:  # forged moves after the end of a fair game already stored
        game.update(copy.deepcopy(stored))
        extra = copy.deepcopy(game["events"][-1])
        extra["version"] = len(game["events"]) + 1
        game["events"].append(extra)

    def mixed(game: Line) -> None:  # a Hog log ending in a Cucumber event
        extra = copy.deepcopy(cards["events"][0])
        extra["version"] = len(game["events"]) + 1
        game["events"].append(extra)

    def players_swapped(game: Line) -> None:
        game["players"][0]["name"] = "Mallory"

    def event_set(key: str, value: object, n: int = 0) -> Callable[[Line], None]:
        return lambda game: game["events"][n].__setitem__(key, value)

    def bidi(game: Line) -> None:
        renamed(game, "Ada", "Ad\u202ea")

    def long_name(game: Line) -> None:
        renamed(game, "Ada", "A" * 33)

    def control(game: Line) -> None:
        renamed(game, "Ada", "Ad\x1b[31ma")

    def gap(game: Line) -> None:
        game["events"][1]["version"] = 3

    def unknown(game: Line) -> None:
        game["events"][0]["type"] = "chess.GameCreated"

    def bad_base64(game: Line) -> None:
        event = game["events"][0]
        event.pop("data")
        event["data_base64"] = "***"

    def nul_command(game: Line) -> None:
        game["events"][0]["command_id"] = "c\x00x"

    def cucumber_claimed(game: Line) -> None:
        game["game"] = "cucumber"

    def seed_of_another(game: Line) -> None:
        game["seed"] = "00" * 32

    def seedless(game: Line) -> None:
        del game["seed"], game["sealed"]
        all_sixes(game)

    def empty_log(game: Line) -> None:
        game["events"] = []

    def running_with_log(game: Line) -> None:
        game.update(copy.deepcopy(running))

    ids = {
        '=HYPERLINK("http://x")': "names",
        "../../etc/passwd": "names",
        "g" * 5000: "names",
        "": "names",
        "@tournament:1:x": "names",
        "@hog-contest:x": "names",
        "g\u202efdp": "names",
    }

    def named(game_id: str) -> Callable[[Line], None]:
        return lambda game: renamed(game, fair["game_id"], game_id)

    lines = [(reason, forged(fair, named(game_id))) for game_id, reason in ids.items()]
    lines += [
        ("unproven", forged(fair, all_sixes)),
        ("unproven", forged(fair, seedless)),
        ("unproven", forged(fair, seed_of_another)),
        ("unproven", forged(fair, players_swapped)),
        ("unproven", forged(fair, set_("place", "discord:1:2"))),
        ("unproven", forged(fair, cucumber_claimed)),
        ("unproven", forged(fair, mixed)),
        ("unproven", forged(fair, appended)),
        ("running", forged(fair, running_with_log)),
        ("names", forged(fair, bidi)),
        ("names", forged(fair, long_name)),
        ("names", forged(fair, control)),
        ("names", forged(fair, nul_command)),
        ("names", forged(fair, event_set("command_id", "x" * 5000))),
        ("times", forged(fair, event_set("recorded_at", 1e18))),
        ("times", forged(fair, event_set("recorded_at", 0.0))),
        ("times", forged(fair, set_("started_at", -5.0))),
        ("unreadable", forged(fair, gap)),
        ("unreadable", forged(fair, unknown)),
        ("unreadable", forged(fair, bad_base64)),
        ("unreadable", forged(fair, empty_log)),
        ("unreadable", forged(fair, set_("format", "other-game/9"))),
        ("unreadable", b"not json at all\n"),
        ("unreadable", b"game_id,mover,dice,rolled,points,rules_fired,mover_before,opponent_before,more,more,more\n"),
    ]
    return lines


async def fair_line(p: Platform, game_id: str, moves: int | None = None) -> Line:
    await played(p, game_id, moves)
    (line,) = await lines_of(p, export.Asked(game_id=game_id))
    game: Line = json.loads(line)
    if moves is not None:  # a running game's log and seed, as a forger holding the database would write them
        game["events"] = [export.event_of(e) for e in await p.store.load(game_id)]
        game["events"] = [json.loads(export.ENCODER.encode(e)) for e in game["events"]]
        seed = await p.kept.seed(game_id)
        assert seed is not None
        game["seed"] = seed.hex()
    return game


async def test_a_file_of_hostile_lines_stores_only_the_good_games(opened: Opened) -> None:
    async with opened("source") as source:
        fair = await fair_line(source, "gfair")
        good = [await fair_line(source, f"good{n}") for n in range(3)]
        running = await fair_line(source, "grunning", moves=0)
        stored = await fair_line(source, "gstored")
        cards = {
            "events": [{"version": 1, "type": "cucumber.GameCreated", "schema": 1, "recorded_at": 1.7e9, "data": "{}"}]
        }
    bad = hostile(fair, running, cards, stored)
    assert len(bad) >= 30
    async with opened("target") as target:
        assert (await importing.import_lines(target, [json.dumps(stored).encode()])).stored == ["gstored"]
        views = await target.settled_views()  # the log read: every event placed (PostgreSQL places on reading)
        before = await target.store.load("gstored")
        history = await views.history(limit=50)
        file = [line for _, line in bad] + [json.dumps(g).encode() for g in (*good, stored)]
        done = await importing.import_lines(target, file)

        assert done.stored == ["good0", "good1", "good2"] and done.already == ["gstored"], done.text()
        assert len(done.refused) == len(bad), done.text()
        assert [said.split(":")[0] for said in done.refused] == [f"line {n}" for n in range(1, len(bad) + 1)]
        expected = {r: sum(1 for reason, _ in bad if reason == r) for r, _ in bad}
        assert dict(done.reasons) == expected, done.text()
        text = done.text()
        assert text.startswith(f"Imported 3 games; 1 was here already; {len(bad)} lines refused (")
        assert "is a CSV export" in text and "does not verify against its seed: NOT fair: event 2" in text

        assert await target.store.load("gstored") == before  # nothing appended to the stored game
        assert (await verify(target.service("hog"), target.kept, "gstored")).status == FAIR
        for name in ("good0", "good1", "good2"):
            assert (await verify(target.service("hog"), target.kept, name)).status == FAIR
        views = await target.settled_views()
        assert await views.damaged() == []
        assert [g.game_id for g in await views.history(limit=50) if g.game_id.startswith("gstored")] == [
            g.game_id for g in history
        ]
        streams = {e.stream_id for e in await target.store.read_all(limit=10_000)}
        assert streams == {"gstored", "good0", "good1", "good2"}  # no hostile id, no half game, no record stream
        for reason, line in bad:  # each refused for its own reason
            alone = await importing.import_lines(target, [line])
            assert dict(alone.reasons) == {reason: 1}, (reason, alone.text())


async def test_an_imported_game_counts_toward_ratings_and_records_only_when_trusted(opened: Opened) -> None:
    async with opened("source") as source:
        state = (await source.service("hog").create("gpeople", CreateGame("gpeople", (ADA, BOB), goal=20), "c-p")).state
        n = 0
        while not state.is_over:
            mover = (ADA, BOB)[state.mover]
            state = (await source.service("hog").execute("gpeople", turn(mover.id, 5), f"m-{n}")).state
            n += 1
        lines = await lines_of(source, export.Asked(game_id="gpeople"))
    async with opened("target") as target:
        done = await importing.import_lines(target, lines, "friends.ndjson", now=2e9)
        assert done.stored == ["gpeople"]
        provenance = await target.kept.provenance("gpeople")
        assert provenance is not None and (provenance.source, provenance.trusted) == ("friends.ndjson", False)
        views = await target.settled_views()
        assert [g.game_id for g in await views.history(ADA.id)] == ["gpeople"]  # in Ada's own history
        assert (await views.stats(ADA.id, "hog", "rules", "biggest")).total.games == 0  # but not her record
        assert await views.ratings.of("hog", [ADA.id, BOB.id]) == {}  # nor anyone's rating
        trusted = await importing.import_lines(target, lines, "friends.ndjson", trust=True)
        assert trusted.already == trusted.trusted == ["gpeople"] and "now trusted" in trusted.text()
        provenance = await target.kept.provenance("gpeople")
        assert provenance is not None and provenance.trusted
        await target.projector.rebuild()  # the operator's trust counts from a rebuild on
        views = await target.settled_views()
        assert (await views.stats(ADA.id, "hog", "rules", "biggest")).total.games == 1
        assert set(await views.ratings.of("hog", [ADA.id, BOB.id])) == {ADA.id, BOB.id}
        assert await target.kept.provenance("gnothere") is None


def test_a_killed_import_leaves_no_game_half_stored(tmp_path: Path) -> None:
    """``kill -9`` in the middle of a long import: every game is stored whole or not at all, and the
    same import run again stores the rest."""
    source = tmp_path / "source.sqlite3"
    env = {**os.environ, "HOG_DB": str(source), "HOG_CACHE": str(tmp_path / "solutions")}
    file = tmp_path / "games.ndjson"

    async def make() -> None:
        async with platform(Settings(db=source, cache=tmp_path / "solutions")) as p:
            for n in range(60):
                await played(p, f"k{n}")
            file.write_bytes(b"".join(await lines_of(p)))

    asyncio.run(make())
    target = tmp_path / "target.sqlite3"
    env["HOG_DB"] = str(target)
    command = [sys.executable, "-m", "bot", "import", str(file)]
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and child.poll() is None:  # until a few games are in
            if target.exists() and _games_in(target) >= 5:
                break
            time.sleep(0.02)
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(timeout=30)
    stored = {e["game_id"]: e for e in map(json.loads, file.read_bytes().splitlines())}
    with sqlite3.connect(target) as db:
        rows = db.execute("SELECT stream_id, count(*) FROM events GROUP BY stream_id").fetchall()
    assert all(count == len(stored[game]["events"]) for game, count in rows), rows  # whole, or not there
    assert 5 <= len(rows) < 60, len(rows)  # killed halfway
    out = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "were here already" in out.stdout and "refused" not in out.stdout
    with sqlite3.connect(target) as db:
        ((streams,),) = db.execute("SELECT count(DISTINCT stream_id) FROM events").fetchall()
    assert streams == 60


def _games_in(path: Path) -> int:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1) as db:
            return int(db.execute("SELECT count(DISTINCT stream_id) FROM events").fetchone()[0])
    except sqlite3.Error:  # not created yet, or being migrated
        return 0


def test_the_command_line_says_what_it_refused_and_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOG_DB", str(tmp_path / "here.sqlite3"))
    monkeypatch.setenv("HOG_CACHE", str(tmp_path / "solutions"))
    file = tmp_path / "bad.ndjson"
    file.write_bytes(b"not json\n" + base64.b64encode(b"x") + b"\n")
    out = io.StringIO()
    assert main(["import", str(file)], None, out) == 1
    assert out.getvalue().startswith("Imported 0 games; 0 were here already; 2 lines refused (2 not a game")
