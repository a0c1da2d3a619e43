"""Names are data, checked once at the edge: a name typed with a NUL, a terminal's escape code or a
right-to-left override is refused in words and stores nothing; look-alike names compare equal; and
text the database cannot hold never stops the read models, on PostgreSQL above all (a NUL there
once failed every write of the read models, and so every process's start)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.cli import main
from bot.platform.compose import platform
from bot.platform.contract import Refusal
from bot.platform.names import MAX_NAME, checked, cleaned, folded, unseen
from bot.platform.settings import Settings
from bot.web.app import make_app
from hog_core.events import Player
from hog_core.game import CreateGame, TakeTurn
from tests.helpers import refused
from tests.web.test_gui import free_port

EVERY_KIND = {
    "NUL": "a\x00b",
    "escape": "\x1b[31mred",
    "bidi override": "evil\u202etxt.exe",
    "zero width": "Ada\u200b",
    "bidi isolate": "Ada\u2067",
    "lone surrogate": "Ada\ud800",
}


@pytest.mark.parametrize("kind", EVERY_KIND)
def test_a_name_with_unseen_characters_is_refused_in_words(kind: str) -> None:
    with pytest.raises(Refusal, match=r"can't hold control or invisible characters \(U\+[0-9A-F]{4}"):
        checked(EVERY_KIND[kind])
    kept = cleaned(EVERY_KIND[kind])  # a Discord member's name, which we cannot refuse
    assert unseen(kept) == [] and kept and all(c in EVERY_KIND[kind] for c in kept)


def test_names_are_trimmed_bounded_and_compared_folded() -> None:
    assert checked("  Ada   Lovelace ") == "Ada Lovelace"
    with pytest.raises(Refusal, match=f"at most {MAX_NAME} characters long, not 40"):
        checked("x" * 40)
    with pytest.raises(Refusal, match="can't be empty"):
        checked("   ")
    assert folded("ｐｅｒｆｅｃｔ") == folded("PERFECT") == folded("Рerfect") == "perfect"
    assert folded("Team Рig") == folded("team pig") and folded("Ada") != folded("Bob")


def test_the_terminal_refuses_such_a_name_and_stores_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HOG_DB", str(tmp_path / "hog.sqlite3"))
    monkeypatch.setenv("HOG_CACHE", str(tmp_path / "solutions"))
    said = refused(["--name", "a\x00b", "--house", "easy"], capsys, "3\nquit\n")
    assert said == "Your name can't hold control or invisible characters (U+0000): type letters, digits and spaces."
    said = refused(["--vs", "\x1b[2J", "--name", "Ada"], capsys, "quit\n")
    assert said.startswith("Your friend's name can't hold control or invisible characters (U+001B)")
    said = refused(["cucumber", "--name", "x" * 33], capsys, "q\n")
    assert said == f"Your name can be at most {MAX_NAME} characters long, not 33."
    out = io.StringIO()
    assert main(["history"], io.StringIO(), out) == 0 and out.getvalue().startswith("No games yet")


async def test_the_gui_refuses_such_a_name_and_stores_nothing(tmp_path: Path) -> None:
    port = free_port()
    async with platform(Settings(db=tmp_path / "g.sqlite3", cache=tmp_path / "solutions")) as p:
        server = TestServer(make_app(p, gui_port=port), host="127.0.0.1", port=port)
        async with TestClient(server) as client:
            origin = {"Origin": f"http://127.0.0.1:{port}"}
            for name in ("a\x00b", "x" * 20_000):
                form = {"player": name, "house": "easy", "goal": "20"}
                answer = await client.post("/play/new/hog", data=form, headers=origin, allow_redirects=False)
                page = await answer.text()
                assert answer.status == 400 and "Your name can" in page and "\x00" not in page
            made = await client.post("/play/new/hog", data={"player": "Zoë Ω"}, headers=origin, allow_redirects=False)
            assert made.status == 303 and made.headers["Location"].endswith("?as=Zo%C3%AB+%CE%A9")
        assert await (await p.settled_views()).count() == 1


async def test_text_the_database_cannot_hold_never_stops_the_read_models(tmp_path: Path, postgres_url: str) -> None:
    """A game stored with a NUL in a name (as a front before this check did) is projected on
    PostgreSQL with U+FFFD in its place; the games after it, ``history`` and ``/`` all answer, and a
    process started afterwards starts."""
    settings = Settings(db=tmp_path / "unused.sqlite3", database_url=postgres_url, cache=tmp_path)
    odd = (Player("console:a\x00b", "a\x00b"), Player("house:easy", "The house", house="easy"))
    async with platform(settings) as p:
        hog = p.service("hog")
        await hog.create("codd1", CreateGame("codd1", odd, place="console"), "c1")
        await hog.execute("codd1", lambda state, chance: [TakeTurn("console:a\x00b", 2, (3, 4))], "c2")
        await hog.create("cfine", CreateGame("cfine", (odd[1], Player("console:Ada", "Ada")), place="c"), "c3")
        kinds = {kind: text for kind, text in EVERY_KIND.items() if kind not in ("NUL", "lone surrogate")}
        for n, text in enumerate(kinds.values()):  # every other class of character, stored as it came
            await hog.create(f"ck{n}", CreateGame(f"ck{n}", (Player(f"console:{n}", text), odd[1]), place="c"), f"k{n}")
        views = await p.settled_views()
        rows = {row.game_id: row for row in await views.history()}
        assert set(rows) == {"codd1", "cfine", *(f"ck{n}" for n in range(len(kinds)))}
        assert rows["codd1"].seats[0].name == "a\ufffdb"
        assert [rows[f"ck{n}"].seats[0].name for n in range(len(kinds))] == list(kinds.values())
        assert await p.projector.check() == []
        client = TestClient(TestServer(make_app(p)))
        await client.start_server()
        try:
            front = await client.get("/")
            assert front.status == 200 and "a\ufffdb" in await front.text()
        finally:
            await client.close()
    async with platform(settings) as again:  # another process, later
        assert len(await (await again.settled_views()).history(limit=100)) == 2 + len(kinds)
