"""Your games are yours: an export read back into an empty database gives every finished game event
for event, each verified against its seed; importing twice changes nothing; a line that does not
verify, or names another game under a stored id, changes nothing; a game still being played is
exported without its log or its seed. On SQLite and on PostgreSQL."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

import pytest

from bot.cli import main
from bot.games.hog.module import turn
from bot.games.hog.turns import HEADER
from bot.platform import export, importing
from bot.platform.compose import Platform, platform
from bot.platform.fairness import FAIR, verify
from bot.platform.settings import Settings
from hog_core.events import Player
from hog_core.game import CreateGame
from tests.postgres_server import create_database, drop_database

ADA = Player("1", "Ada")
HOUSE = Player("house", "The house", house="easy")
Opened = Callable[[str], AbstractAsyncContextManager[Platform]]


@pytest.fixture(params=["sqlite", "postgres"])
async def opened(request: pytest.FixtureRequest, tmp_path: Path, postgres_server: str) -> AsyncIterator[Opened]:
    """Opens a platform over a new, empty database of the given name, on each backend in turn."""
    urls: dict[str, str] = {}

    async def named(name: str) -> Settings:
        if request.param == "sqlite":
            return Settings(db=tmp_path / f"{name}.sqlite3", cache=tmp_path / "solutions")
        if name not in urls:
            urls[name] = await create_database(postgres_server)
        return Settings(database_url=urls[name], cache=tmp_path / "solutions")

    @asynccontextmanager
    async def opening(name: str) -> AsyncIterator[Platform]:
        async with platform(await named(name)) as p:
            yield p

    try:
        yield opening
    finally:
        for url in urls.values():
            await drop_database(postgres_server, url)


async def played(p: Platform, game_id: str, moves: int | None = None) -> None:
    """A sealed game of Hog against the easy house, played to its end (or ``moves`` moves in)."""
    service = p.service("hog")
    state = (await service.create(game_id, CreateGame(game_id, (ADA, HOUSE), goal=20), f"c-{game_id}")).state
    n = 0
    while not state.is_over and (moves is None or n < moves):
        state = (await service.execute(game_id, turn(ADA.id, 4), f"m-{game_id}-{n}")).state
        n += 1


async def lines_of(p: Platform, asked: export.Asked | None = None) -> list[bytes]:
    return [line async for line in export.exported(p, asked or export.Asked())]


async def test_an_export_imported_gives_every_finished_game_event_for_event(opened: Opened) -> None:
    async with opened("source") as source:
        for n in range(3):
            await played(source, f"g{n}")
        await played(source, "running", moves=0)  # created, nobody has moved: it is surely still on
        lines = await lines_of(source)
        logs = {g: await source.store.load(g) for g in ("g0", "g1", "g2")}
    games = {json.loads(line)["game_id"]: json.loads(line) for line in lines}
    assert sorted(games) == ["g0", "g1", "g2", "running"]
    assert "events" not in games["running"] and "seed" not in games["running"]  # its log and seed stay here
    assert games["running"]["sealed"] and all(games[g]["seed"] and games[g]["events"] for g in ("g0", "g1", "g2"))

    async with opened("target") as target:
        done = await importing.import_lines(target, lines)
        assert (done.stored, done.running, done.refused) == (["g0", "g1", "g2"], ["running"], [])
        for game_id, log in logs.items():
            copied = await target.store.load(game_id)
            assert [(e.version, e.type, e.schema, e.data, e.recorded_at, e.command_id) for e in copied] == [
                (e.version, e.type, e.schema, e.data, e.recorded_at, e.command_id) for e in log
            ]
            assert (await verify(target.service("hog"), target.kept, game_id)).status == FAIR
        row = await (await target.settled_views()).game("g0")
        assert row is not None and not row.live and [s.player_id for s in row.seats] == ["1", "house"]
        again = await importing.import_lines(target, lines)  # importing twice changes nothing
        assert (again.stored, again.already, again.refused) == ([], ["g0", "g1", "g2"], [])
        assert [len(await target.store.load(g)) for g in logs] == [len(log) for log in logs.values()]


async def test_a_line_that_does_not_verify_or_names_another_game_changes_nothing(opened: Opened) -> None:
    async with opened("source") as source:
        await played(source, "g0")
        (line,) = await lines_of(source, export.Asked(game_id="g0"))
    game = json.loads(line)
    turned = next(e for e in game["events"] if e["type"] == "hog.TurnTaken")
    rolled = json.loads(turned["data"])
    rolled["outcomes"] = [6 if d != 6 else 5 for d in rolled["outcomes"]]  # dice the seed never gave
    turned["data"] = json.dumps(rolled, separators=(",", ":"))
    forged = json.dumps(game).encode()
    async with opened("elsewhere") as elsewhere:  # another fair game played under the same id
        await played(elsewhere, "g0")
        (other,) = await lines_of(elsewhere, export.Asked(game_id="g0"))
    async with opened("target") as target:
        done = await importing.import_lines(target, [forged, b"not json\n"])
        assert done.stored == [] and len(done.refused) == 2, done
        assert done.refused[0].startswith("line 1: game g0 does not verify against its seed: NOT fair: event 2")
        assert done.refused[1].startswith("line 2: not a game as export writes it")
        assert await target.store.load("g0") == [] and await target.kept.seed("g0") is None
        assert (await importing.import_lines(target, [line])).stored == ["g0"]
        before = await target.store.load("g0")
        assert (await importing.import_lines(target, [other])).refused[0].startswith("line 1: a different game g0")
        assert await target.store.load("g0") == before
        game["seed"], game["game_id"] = "not hex", "g1"
        unreadable = await importing.import_lines(target, [json.dumps(game).encode()])
        assert unreadable.refused[0].startswith("line 1: game g1's seed or events are not as export writes them (")
        assert not unreadable.stored
        assert await target.store.load("g1") == []


def test_the_command_line_exports_a_players_games_and_imports_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HOG_CACHE", str(tmp_path / "solutions"))
    monkeypatch.setenv("HOG_DB", str(tmp_path / "here.sqlite3"))
    said = io.StringIO()
    assert (
        main(["hog", "--name", "Ada", "--house", "easy", "--goal", "20", "--new"], io.StringIO("5\n" * 30), said) == 0
    )
    file = tmp_path / "mine.ndjson"
    assert main(["export", "--name", "Ada", "-o", str(file)]) == 0
    (game,) = [json.loads(line) for line in file.read_text().splitlines()]
    assert game["format"] == "hogbot-game/1" and game["players"][0]["name"] == "Ada" and game["seed"]
    assert main(["export", "--name", "Nobody", "-o", str(tmp_path / "none.ndjson")]) == 0
    assert (tmp_path / "none.ndjson").read_text() == ""
    here, written = tmp_path / "here.sqlite3", tmp_path / "none.ndjson"
    told = f"Exported 0 games from {here} (HOG_DB names another file) to {written}."
    assert capsys.readouterr().err.splitlines()[-1] == told
    monkeypatch.setenv("HOG_DB", str(tmp_path / "there.sqlite3"))
    out = io.StringIO()
    assert main(["import", str(file)], None, out) == 0 and out.getvalue() == "Imported 1 game; 0 were here already.\n"
    out = io.StringIO()
    assert main(["verify", game["game_id"]], None, out) == 0 and out.getvalue().startswith("fair: ")
    assert (
        f"Imported from {file} on " in out.getvalue() and "(not trusted: it counts toward no rating" in out.getvalue()
    )
    assert main(["import", str(tmp_path / "missing.ndjson")]) == 2


def test_hogs_turns_export_as_a_table_a_notebook_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--format csv``: a row a turn of every finished Hog game, the exact review beside each; what
    docs/data.md's example reads (with the csv module here: the same columns pandas would see)."""
    monkeypatch.setenv("HOG_CACHE", str(tmp_path / "solutions"))
    monkeypatch.setenv("HOG_DB", str(tmp_path / "here.sqlite3"))
    keys = io.StringIO("0\n" * 40)  # rolling zero every turn: Free Bacon, until someone wins
    assert main(["hog", "--name", "Ada", "--house", "easy", "--goal", "20", "--new"], keys, io.StringIO()) == 0
    file = tmp_path / "turns.csv"
    assert main(["export", "--format", "csv", "-o", str(file)]) == 0
    rows = list(csv.DictReader(file.open()))
    assert list(rows[0]) == list(HEADER) and len(rows) >= 2
    ada = [r for r in rows if r["mover"] == "0"]
    assert all(r["dice"] == "0" and r["rolled"] == "" and "Free Bacon" in r["rules_fired"] for r in ada)
    for r in rows:  # each turn's totals follow from the one before, and the review is there for a goal of 20
        assert (
            r["verdict"] in {"best", "good", "inaccuracy", "mistake", "blunder"}
            and float(r["chance_best"]) >= float(r["chance_played"]) - 1e-9
        )
    last = rows[-1]
    assert last["game_id"] == rows[0]["game_id"] and max(int(last["mover_after"]), int(last["opponent_after"])) >= 20


async def test_an_overlong_line_is_refused_unread_and_the_next_line_still_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with platform(Settings(db=tmp_path / "source.sqlite3", cache=tmp_path)) as source:
        await played(source, "g0")
        (line,) = await lines_of(source)
    monkeypatch.setattr(importing, "MAX_LINE", 2 * len(line))
    file = tmp_path / "export.ndjson"
    file.write_bytes(b"x" * (5 * len(line)) + b"\n" + line)
    async with platform(Settings(db=tmp_path / "target.sqlite3", cache=tmp_path)) as target:
        with file.open("rb") as lines:
            done = await importing.import_lines(target, importing.lines_of(lines))
    assert done.stored == ["g0"] and done.refused == [
        f"line 1: longer than {2 * len(line):,} bytes: not a game as export writes it"
    ]


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_no_cell_of_the_table_is_a_formula_in_a_spreadsheet(start: str) -> None:
    """OWASP's advice for CSV: a text cell starting as a formula does is made text; numbers stay numbers."""
    assert export.spreadsheet_safe(f'{start}HYPERLINK("http://evil")') == f'\'{start}HYPERLINK("http://evil")'
    assert export.spreadsheet_safe(-3) == -3 and export.spreadsheet_safe("g1a2") == "g1a2"


async def test_a_game_id_stored_as_a_formula_is_exported_as_text(tmp_path: Path) -> None:
    async with platform(Settings(db=tmp_path / "here.sqlite3", cache=tmp_path)) as p:
        await played(p, '=HYPERLINK("http://evil")')
        rows = [row async for row in export.turns_exported(p, export.Asked())]
    assert len(rows) > 2 and all(row[0] == '\'=HYPERLINK("http://evil")' for row in rows[1:])
