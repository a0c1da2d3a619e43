"""``python -m bot verify``: a finished game's every die and card recomputed from its revealed seed; one
changed outcome in the stored log is found and named; a running game's seed stays secret."""

from __future__ import annotations

import asyncio
import io
import json
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.games.cucumber.moves import play
from bot.games.hog.module import turn
from bot.platform.chance import commitment
from bot.platform.compose import platform
from bot.platform.settings import Settings
from cucumber_core.events import Seat
from cucumber_core.game import CreateGame as CreateTable
from hog_core.events import Player
from hog_core.game import CreateGame

HOUSE = (Player("1", "Ada"), Player("house:easy", "The house", house="easy"))


async def hog_game(db: Path, finish: bool = True) -> None:
    async with platform(Settings(db=db, cache=db.parent)) as p:
        service = p.service("hog")
        goal = 30 if finish else 100  # a running game: one turn each can never reach 100
        state = (await service.create("h1", CreateGame("h1", HOUSE, goal=goal), "c0")).state
        for n in range(200 if finish else 1):
            if state.is_over:
                break
            state = (await service.execute("h1", turn("1", 5), f"t{n}")).state


async def cucumber_game(db: Path) -> None:
    async with platform(Settings(db=db, cache=db.parent)) as p:
        service = p.service("cucumber")
        seats = (Seat("1", "Ann"), Seat("bot:strong:1", "Strong bot", "strong"), Seat("bot:magic:1", "Magic", "magic"))
        state = (await service.create("k1", CreateTable("k1", seats, 3, 11, cut=True), "c0")).state
        for n in range(500):
            if state.is_over:
                break
            assert state.to_play == 0
            state = (await service.execute("k1", play("1", state.legal_cards(0)[0], state.moment), f"p{n}")).state


def verify(db: Path, monkeypatch: pytest.MonkeyPatch, game_id: str) -> tuple[int, str]:
    monkeypatch.setenv("HOG_DB", str(db))
    out = io.StringIO()
    status = main(["verify", game_id], None, out)
    return status, out.getvalue()


def tamper(db: Path, type_name: str, field: str) -> int:
    """Reorder two different outcomes of the first ``type_name`` event that has them, behind the bot's
    back (two dice, or two cut cards: the same multiset, so the game still ends as it did); returns
    the event's version."""
    with sqlite3.connect(db) as conn:
        for position, version, data in conn.execute(
            "SELECT position, version, data FROM events WHERE type = ? ORDER BY position", (type_name,)
        ).fetchall():
            event = json.loads(data)
            values = event[field]
            if len(set(values)) > 1:
                j = next(i for i, v in enumerate(values) if v != values[0])
                values[0], values[j] = values[j], values[0]
                conn.execute("UPDATE events SET data = ? WHERE position = ?", (json.dumps(event).encode(), position))
                return int(version)
    raise AssertionError(f"no {type_name} with two different outcomes")


def test_a_finished_hog_game_verifies_and_a_changed_die_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "bot.sqlite3"
    asyncio.run(hog_game(db))
    status, said = verify(db, monkeypatch, "h1")
    assert status == 0 and said.startswith("fair: all ") and " dice of game h1 match the sealed seed." in said
    seed = bytes.fromhex(said.split("seed   ")[1].split()[0])
    assert f"sealed {commitment(seed)}" in said
    changed = tamper(db, "hog.TurnTaken", "outcomes")
    status, said = verify(db, monkeypatch, "h1")
    assert status == 1 and said.startswith(f"NOT fair: event {changed} (TurnTaken)"), said


def test_a_running_game_keeps_its_seed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "bot.sqlite3"
    asyncio.run(hog_game(db, finish=False))
    status, said = verify(db, monkeypatch, "h1")
    assert status == 2 and said == "Game h1 is still being played: its seed is revealed when it ends.\n"
    with sqlite3.connect(db) as conn:
        (seed,) = conn.execute("SELECT seed FROM seals WHERE game_id = 'h1'").fetchone()
    assert seed.hex() not in said
    status, said = verify(db, monkeypatch, "nope")
    assert status == 2 and said.startswith("There is no game 'nope'")


def test_a_cucumber_game_verifies_and_a_changed_cut_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "bot.sqlite3"
    asyncio.run(cucumber_game(db))
    status, said = verify(db, monkeypatch, "k1")
    assert status == 0 and " cards of game k1 match the sealed seed." in said
    changed = tamper(db, "cucumber.DealerCut", "cards")  # the cut, its cards given to other seats
    status, said = verify(db, monkeypatch, "k1")
    assert status == 1 and said.startswith(f"NOT fair: event {changed} (DealerCut)"), said


def test_a_game_from_before_sealed_dice_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "old.sqlite3"
    db.write_bytes((Path(__file__).parents[1] / "games" / "hog" / "data" / "before-platform.sqlite3").read_bytes())
    with sqlite3.connect(db) as conn:
        (finished,) = conn.execute("SELECT stream_id FROM events ORDER BY position LIMIT 1").fetchone()
    status, said = verify(db, monkeypatch, finished)
    assert status == 2 and "was played before sealed dice" in said
