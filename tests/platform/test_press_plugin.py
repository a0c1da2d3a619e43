"""The proof that the contract is real: Press, the example game of ``examples/press`` (a plugin, not
part of hogbot), runs through the real platform (service, store, projector, timers, the console, the
command line and the Discord client against the fake Discord) with not a line of platform code
written for it; and installed in a fresh virtual environment, it is found by its entry point."""

from __future__ import annotations

import asyncio
import io
import os
import shutil
import site
import subprocess
import sys
import venv
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hogbot_press.game import Created, Press

from bot.cli import main
from bot.platform.compose import Platform, platform
from bot.platform.contract import Refusal, Seating, Summarizer, UnfitGame, WebPages, optional
from bot.platform.registry import Games, installed_modules
from bot.platform.settings import Settings
from tests.discord.boards import buttons, texts
from tests.discord.discord_world import board_of, button, press, running_bot, subcommand
from tests.discord.fake_discord import FakeDiscord
from tests.fake_clock import FakeClock
from tests.platform.game_contract import GameContract

MODULES = {**installed_modules("hogbot"), "press": "hogbot_press.game:PressGame"}


@pytest.fixture
async def world(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Platform]:
    async with platform(Settings(db=tmp_path / "press.sqlite3", cache=tmp_path), MODULES, clock=clock) as p:
        yield p


async def test_a_game_is_decided_stored_told_and_projected(world: Platform) -> None:
    service = world.service("press")
    await service.create("t1", Created("t1", "here", ("ada", "bot:Robo")), "c1")
    with pytest.raises(Refusal, match="Wait for your turn"):
        await service.execute("t1", lambda state, chance: [Press("bot:Robo")], "c2", 1)
    moves = [await service.execute("t1", lambda state, chance: [Press("ada")], f"m{i}") for i in range(3)]
    stored = await world.store.load("t1")
    assert [(s.type, s.command_id) for s in stored[:3]] == [("press.Created", "c1"), ("press.Pressed", "m0")] * 1 + [
        ("press.Pressed", "m0")  # the bot's press, in the same batch as the move that prompted it
    ]
    assert moves[-1].state.is_over and moves[-1].state.presses == (3, 2) and moves[-1].story[-1] == "Game over."
    row = await (await world.settled_views()).game("t1")
    assert row is not None and row.game == "press" and not row.live
    assert [(s.player_id, s.bot, s.score, s.result) for s in row.seats] == [
        ("ada", None, 3, "win"),
        ("bot:Robo", "bot", 2, "loss"),
    ]
    stats = await world.views.stats("ada", "press", by="none", best="presses")
    assert (stats.total.wins, stats.vs_bots["bot"].games, stats.best) == (1, 1, stats.best) and stats.best
    await world.projector.rebuild()
    assert await world.views.game("t1") == row


async def test_a_game_is_stored_under_its_own_id_only(world: Platform) -> None:
    with pytest.raises(ValueError, match="the events name game 't9', not the stream 't8'"):
        await world.service("press").create("t8", Created("t9", "here", ("ada", "bob")), "c1")
    assert await world.store.load("t8") == []


def test_the_console_and_the_command_line_play_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOG_DB", str(tmp_path / "press.sqlite3"))
    out = io.StringIO()
    status = main(["press", "--name", "Ada", "--new"], io.StringIO("jump\npress\npress\npress\n"), out, MODULES)
    said = out.getvalue()
    assert status == 0 and "'jump' is not 'press'." in said and "Ada, type press: " in said
    assert said.rstrip().endswith("presses 3-2 | Ada pressed. Game over.")
    out = io.StringIO()
    assert main(["history", "--name", "Ada"], None, out, MODULES) == 0
    (game_id, *_), *_ = (line.split() for line in out.getvalue().splitlines())
    assert game_id.startswith("p") and "Ada vs Robo · over 3-2" in out.getvalue()
    out = io.StringIO()
    assert main(["replay", game_id], None, out, MODULES) == 0  # replayed by the console of the game that wrote it
    assert out.getvalue().splitlines()[-1] == "6. presses 3-2 | Ada pressed. Game over."
    out = io.StringIO()
    assert main(["stats", "--game", "press", "--name", "Ada"], None, out, MODULES) == 0  # by the game's console
    assert out.getvalue() == "Ada: 1 of 1 won\n"
    out = io.StringIO()
    assert main(["verify", game_id], None, out, MODULES) == 2  # no seed: nothing in Press is left to chance
    assert out.getvalue() == "Nothing in Press is left to chance: there is nothing to check.\n"


async def test_it_plays_in_discord(
    tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path, clock: FakeClock
) -> None:
    fake = fake_discord
    async with running_bot(fake, tmp_path / "press.sqlite3", solved_folder, clock, MODULES) as bot:
        command = await fake.interact(subcommand("start", group="press"))
        shown = await board_of(fake, command)
        message = first = fake.messages[f"original:token{command}"]
        assert texts(shown.body)[0] == "### Press 0-0"
        first_press = pressing = button(shown, "Press")
        for _ in range(3):
            answered = await press(fake, "1001", "Ada", message, pressing)
            assert answered["type"] == 7  # the board, edited in place
            rows = answered["data"]["components"]
            message = {**message, "components": rows}  # as the client shows it
            pressing = next((c["custom_id"] for c in buttons(answered)), "")
        assert texts(answered)[0] == "### Press 3-2" and buttons(answered) == []
        stale = await press(fake, "2002", "Bob", first, first_press)  # someone else, on an old board
        assert stale["type"] == 7 and texts(stale)[0] == "### Press 3-2"  # the game as it stands
        assert len(await bot.platform.service("press").events(f"t{command}")) == 6


async def test_readers_waiting_together_share_one_catch_up(world: Platform, monkeypatch: pytest.MonkeyPatch) -> None:
    """A crowd of readers that must see their own writes (a busy channel's commands) costs one or two
    catch-ups of the read models, not one each, and each sees what was appended before it asked."""
    service = world.service("press")
    for n in range(20):
        await service.create(f"t{n}", Created(f"t{n}", "here", ("ada", "bob")), f"c{n}")
    passes = 0
    real = world.projector._catch_up

    async def counted(batch: int) -> int:
        nonlocal passes
        passes += 1
        return await real(batch)

    monkeypatch.setattr(world.projector, "_catch_up", counted)
    reached = await asyncio.gather(*(world.projector.settle() for _ in range(50)))
    assert passes <= 2 and set(reached) == {max(reached)}
    assert len(await world.views.live_games("here", "press")) == 20


async def test_a_row_the_database_refuses_sets_its_game_aside_and_no_other(
    world: Platform, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game whose summary the database cannot hold (a score past any integer column) is set aside
    with the reason, as a game whose log cannot be read is; the read models go on with the rest,
    on a catch-up and on a rebuild."""
    module = world.games["press"]
    whole = module.summary

    def summed(events: Any) -> Any:
        summary = whole(events)
        if summary.game_id != "huge":
            return summary
        return replace(summary, seats=tuple(replace(s, score=2**80) for s in summary.seats))

    monkeypatch.setattr(module, "summary", summed)
    service = world.service("press")
    for game_id in ("fine1", "huge", "fine2"):
        await service.create(game_id, Created(game_id, "here", ("ada", "bob")), f"c-{game_id}")
    views = await world.settled_views()
    assert {row.game_id for row in await views.history()} == {"fine1", "fine2"}
    ((game_id, reason),) = await views.damaged()
    assert game_id == "huge" and reason.startswith("its read model cannot be stored: OverflowError")
    assert await views.checkpoint() == await world.store.version("fine2") + 2  # every event folded
    await world.projector.rebuild()
    assert [g for g, _ in await world.views.damaged()] == ["huge"] and await world.views.count() == 2


ROOT = Path(__file__).resolve().parents[2]


def test_installed_in_a_fresh_environment_it_is_found_played_and_replayed(tmp_path: Path) -> None:
    """``pip install ./examples/press`` beside hogbot, then ``python -m bot games`` lists it and
    ``python -m bot press`` plays it to the end, with no file of hogbot changed and nothing told to it
    but the entry point. The new environment sees what the interpreter running the suite sees (the
    system's Python, or the venv the README makes, hogbot installed in either), as a ``.pth`` file that
    adds those folders as site folders, so their own ``.pth`` files (an editable install's) count too."""
    where = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(where)
    python = str(where / "bin" / "python")
    ours = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    seen = [*site.getsitepackages(), *([site.getusersitepackages()] if site.ENABLE_USER_SITE else [])]
    lines = "".join(f"import site; site.addsitedir({folder!r})\n" for folder in seen)
    Path(ours, "the-suites-packages.pth").write_text(lines)
    env = {**os.environ, "HOG_DB": str(tmp_path / "games.sqlite3"), "PYTHONPATH": ""}

    def run(*argv: str, keys: str = "") -> str:
        done = subprocess.run(
            [python, *argv], input=keys, capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    listed = run("-m", "bot", "games")
    assert "press" not in listed  # not yet installed
    example = shutil.copytree(ROOT / "examples" / "press", tmp_path / "press")  # its build leaves no trace here
    pip = [sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps", str(example)]
    subprocess.run(pip, check=True, capture_output=True, timeout=300)
    listed = run("-m", "bot", "games")
    assert any(line.startswith("press ") and "hogbot-press 0.1.0" in line for line in listed.splitlines()), listed
    played = run("-m", "bot", "press", "--name", "Ada", keys="press\npress\npress\n")
    assert played.rstrip().endswith("presses 3-2 | Ada pressed. Game over.")
    history = run("-m", "bot", "history")
    game_id = history.split()[0]
    assert "Ada vs Robo · over 3-2" in history
    assert run("-m", "bot", "replay", game_id).splitlines()[-1] == "6. presses 3-2 | Ada pressed. Game over."


class TestPressKeepsTheContract(GameContract):
    name, modules = "press", MODULES

    async def play(self, p: Platform) -> tuple[str, str]:
        service = p.service("press")
        for game_id in ("done", "going"):
            await service.create(game_id, Created(game_id, "here", ("ada", "bot:Robo")), f"new-{game_id}")
        for n in range(3):
            await service.execute("done", lambda state, chance: [Press("ada")], f"m{n}")
        await service.execute("going", lambda state, chance: [Press("ada")], "g0")
        return "done", "going"


def test_an_optional_part_is_brought_whole_or_not_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tournaments' seating, a server's settings, web pages, a storyteller, a summarizer: a module
    brings each whole or not at all (``contract.OPTIONAL``); half of one is named at load, and a part
    brought whole is found by the platform (``contract.optional``)."""
    (tmp_path / "seatedhalf.py").write_text(
        "from hogbot_press.game import PressGame\n\n"
        "class SeatedHalf(PressGame):\n"
        "    table_sizes = (2, 2)  # but no tournament_game, no withdraw\n\n"
        "class Seated(SeatedHalf):\n"
        "    def tournament_game(self, game_id, place, players, options): ...\n"
        "    def withdraw(self, state, player): return []\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(UnfitGame, match=r"lacks 'tournament_game' \(Seating\), 'withdraw' \(Seating\)"):
        Games.load(Settings(), {"press": "seatedhalf:SeatedHalf"})
    seated = Games.load(Settings(), {"press": "seatedhalf:Seated"})["press"]
    plain = Games.load(Settings(), {"press": "hogbot_press.game:PressGame"})["press"]
    assert optional(seated, Seating) is not None and optional(plain, Seating) is None
    assert optional(plain, WebPages) is None and optional(plain, Summarizer) is None


def test_a_module_that_lacks_a_member_is_named_when_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    half = """
from hogbot_press.game import PressGame

class HalfGame:  # Press, but for its story
    def __init__(self, settings):
        self.whole = PressGame(settings)

    def __getattr__(self, name):
        if name == "narrate":
            raise AttributeError(name)
        return getattr(self.whole, name)
"""
    (tmp_path / "halfgame.py").write_text(half)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["games"], io.StringIO(), io.StringIO(), {"press": "halfgame:HalfGame"}) == 1
    said = capsys.readouterr().err
    assert said == "python -m bot: the game module halfgame:HalfGame lacks 'narrate' (Presentation)\n"
    assert main(["games"], io.StringIO(), io.StringIO(), {"press": "hogbot_press.nowhere:PressGame"}) == 1
    said = capsys.readouterr().err
    assert said == (
        "python -m bot: cannot load the game module hogbot_press.nowhere:PressGame: "
        "ModuleNotFoundError: No module named 'hogbot_press.nowhere'\n"
    )
