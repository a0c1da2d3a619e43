"""The real discord.py client against the fake Discord: a house game from the slash command on."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.discord.client import GameBot
from bot.discord.layout import trimmed
from storage.events import NewEvent
from storage.games import GameViews
from storage.sqlite.database import SqliteDatabase
from storage.sqlite.store import SqliteEventStore
from tests.discord.boards import board_text, is_board, small_print, texts
from tests.discord.boards import buttons as board_buttons
from tests.discord.discord_world import (
    answer_to,
    board_of,
    bot_env,
    button,
    challenge_command,
    click,
    followup_to,
    press,
    subcommand,
    where,
)
from tests.discord.fake_discord import APP_ID, CHANNEL_ID, GUILD_ID, FakeDiscord


async def test_a_house_game_from_the_slash_command(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, _ = discord_world
    synced = await fake.wait_for(lambda s: s.method == "PUT" and s.path.endswith(f"/guilds/{GUILD_ID}/commands"))
    assert [c["name"] for c in synced.body] == ["hog", "cucumber", "hogbot"]

    command = await fake.interact(subcommand("house", [{"name": "difficulty", "type": 3, "value": "easy"}]))
    await answer_to(fake, command)  # deferred
    shown = await board_of(fake, command)
    assert is_board(shown.body) and small_print(shown.body) == "Ada to move."
    buttons = board_buttons(shown.body)
    assert len(buttons) == 12 and buttons[3]["label"] == "3" and buttons[-1]["label"] == "Hint"
    assert buttons[3]["custom_id"].startswith("hog:move:") and buttons[3]["custom_id"].endswith(":1:3")
    assert "**Ada** · ▶ to move\n# 0\n-# 50.0% to win (perfect play)" in texts(shown.body)  # what the number means
    assert "**The house**\n# 0\n-# 50.0% to win (perfect play)" in texts(shown.body)

    message = fake.messages[f"original:token{command}"]
    asked = await press(fake, "2002", "Bob", message, buttons[-1]["custom_id"])  # anyone may ask, privately
    assert asked["type"] == 4 and asked["data"]["flags"] == 64
    assert asked["data"]["content"].startswith("Best move for Ada: roll ")
    assert "With perfect play from here, Ada wins " in asked["data"]["content"]

    update = await press(fake, "1001", "Ada", fake.messages[f"original:token{command}"], buttons[3]["custom_id"])
    assert update["type"] == 7  # the board message itself is edited
    assert "Ada rolls 5, 5, 5 for 15." in board_text(update)
    assert "The house rolls 5, 5, 5, 5 for 20." in board_text(update)
    assert small_print(update) == "Ada to move."


async def test_strangers_and_stale_boards_get_a_private_word(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, bot = discord_world
    command = await fake.interact(subcommand("house"))
    three = button(await board_of(fake, command), "3")
    message = fake.messages[f"original:token{command}"]

    stranger = await press(fake, "2002", "Mallory", message, three)
    assert stranger["type"] == 4 and stranger["data"]["flags"] == 64  # ephemeral
    assert stranger["data"]["content"] == "You are not playing in this game."
    assert (await bot.platform.service("hog").load(three.split(":")[2])).version == 1  # nothing moved

    assert (await press(fake, "1001", "Ada", message, three))["type"] == 7  # Ada's move: the board updates
    stale = await fake.interact(click(three, message))  # the same old board, clicked again
    fresh = await answer_to(fake, stale)
    assert fresh.body["type"] == 7 and board_buttons(fresh.body)[3]["custom_id"].endswith(
        ":3:3"
    )  # the board is brought up to date: version 3, after Ada's move and the house's reply
    notice = await followup_to(fake, stale)
    assert notice.body["flags"] == 64 and notice.body["content"].startswith("This board was out of date")
    assert (await bot.platform.service("hog").load(three.split(":")[2])).version == 3  # and nothing moved


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                found.append(int(stat.parent.name))
    return found


async def gone(pid: int, timeout: float = 20) -> None:
    """Wait for a process that is not our child to exit: its pidfd becomes readable then."""
    try:
        pidfd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    exited: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def readable() -> None:
        if not exited.done():
            exited.set_result(None)

    asyncio.get_running_loop().add_reader(pidfd, readable)
    try:
        await asyncio.wait_for(exited, timeout)
    finally:
        asyncio.get_running_loop().remove_reader(pidfd)
        os.close(pidfd)


async def test_the_bot_process_killed_mid_game_plays_on_from_the_old_board(
    tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path
) -> None:
    """`python -m bot` with a token, exactly as in production, pointed at the fake by environment."""
    fake = fake_discord
    env = bot_env(fake.api_base, fake.gateway, tmp_path / "hog.sqlite3", solved_folder)
    root = Path(__file__).resolve().parents[2]

    async def start_bot() -> asyncio.subprocess.Process:
        fake.expect_login()
        process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=root, env=env)
        await fake.ready(timeout=60)
        return process

    first = await start_bot()
    try:
        command = await fake.interact(subcommand("house"))
        board = await board_of(fake, command)
        message = fake.messages[f"original:token{command}"]
        moved = (await fake.response(await fake.interact(click(button(board, "2"), message)))).body["data"]
        three = next(c["custom_id"] for c in board_buttons(moved) if c["label"] == "3")
        game_id = three.split(":")[2]
        replay = subcommand("replay", [{"name": "game", "type": 3, "value": game_id}])
        assert (await fake.response(await fake.interact(replay))).files  # drawn by the painter's process
        painters = [pid for pid in children(first.pid) if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]
        assert len(painters) == 1
        first.send_signal(signal.SIGKILL)
        assert await first.wait() == -signal.SIGKILL
        await gone(painters[0])  # it does not outlive the bot

        second = await start_bot()
        try:
            pressed = await fake.interact(click(three, fake.message(message["id"])))
            update = await fake.wait_for(lambda s: s.path == f"/interactions/{pressed}/token{pressed}/callback", 60)
            assert update.body["type"] == 7
            assert "Ada rolls" in board_text(update.body)
        finally:
            second.terminate()
            assert await second.wait() == 0  # SIGTERM closes the bot cleanly
    finally:
        if first.returncode is None:
            first.kill()
            await first.wait()


async def test_a_challenge_accepted_and_one_declined(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, _ = discord_world
    command = await fake.interact(challenge_command("2002", "Bob"))
    shown = await fake.wait_for(lambda s: s.method == "PATCH" and s.path.endswith(f"token{command}/messages/@original"))
    assert texts(shown.body)[0] == "<@2002>"
    assert small_print(shown.body) == "Waiting for Bob to accept."
    accept, _ = (c["custom_id"] for c in board_buttons(shown.body))
    message = fake.messages[f"original:token{command}"]

    ada_tries = await press(fake, "1001", "Ada", message, accept)
    assert ada_tries["data"]["flags"] == 64 and ada_tries["data"]["content"] == "Only Bob can answer this challenge."
    accepted = await press(fake, "2002", "Bob", message, accept)
    assert accepted["type"] == 7
    assert small_print(accepted) == "Ada to move."
    assert len(board_buttons(accepted)) == 12  # 0 to 10 dice, Hint

    again = await fake.interact(challenge_command("2002", "Bob"))
    refused = await answer_to(fake, again)
    assert refused.body["data"]["content"] == "You already have a game with Bob in this channel."

    other = await fake.interact(challenge_command("3003", "Cy"))
    shown = await fake.wait_for(lambda s: s.method == "PATCH" and s.path.endswith(f"token{other}/messages/@original"))
    declined = await press(
        fake,
        "3003",
        "Cy",
        fake.messages[f"original:token{other}"],
        board_buttons(shown.body)[1]["custom_id"],
    )
    assert small_print(declined) == "Cy declined."
    assert board_buttons(declined) == []


@pytest.mark.parametrize(
    ("who", "name", "is_bot", "words"),
    [("1001", "Ada", False, "You can't challenge yourself"), ("4004", "Robo", True, "Robo is a bot.")],
)
async def test_challenges_that_make_no_game(
    discord_world: tuple[FakeDiscord, GameBot], who: str, name: str, is_bot: bool, words: str
) -> None:
    fake, _ = discord_world
    command = await fake.interact(challenge_command(who, name, bot_user=is_bot))
    refused = await answer_to(fake, command)
    assert refused.body["data"]["flags"] == 64 and words in refused.body["data"]["content"]


async def test_a_challenge_to_someone_not_in_the_server_is_refused_in_words(
    discord_world: tuple[FakeDiscord, GameBot], caplog: pytest.LogCaptureFixture
) -> None:
    """Discord resolves a user who left the server without a member: answer in words, log nothing."""
    fake, bot = discord_world
    data = challenge_command("5005", "Gone")
    del data["data"]["resolved"]["members"]
    refused = await answer_to(fake, await fake.interact(data))
    assert refused.body["data"]["flags"] == 64
    assert refused.body["data"]["content"] == "Gone is not a member of this server, so they cannot play here."
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    assert await bot.road.live_games() == []


def test_the_spec_check_refuses_what_discord_would() -> None:
    from tests.discord.fake_discord import SPEC, SpecCheck

    spec = SpecCheck.load(SPEC)
    callback = "/interactions/1/token/callback"
    assert spec.errors("POST", callback, {"type": 4, "data": {"content": "hello"}}) == []
    assert spec.errors("POST", callback, {"type": 4, "data": {"content": "x" * 2001}})
    too_long_label = {"type": 1, "components": [{"type": 2, "style": 2, "label": "x" * 81, "custom_id": "a"}]}
    assert spec.errors("PATCH", "/webhooks/1/token/messages/@original", {"components": [too_long_label]})


def test_the_fake_refuses_a_components_v2_message_discord_would() -> None:
    """Components V2: the spec's container (a button must sit in a row; an accent is a number), and
    what the spec does not say but Discord refuses (words or embeds beside them, over 40 components or
    4,000 characters in all, a message that was V2 losing its flag)."""
    from tests.discord.fake_discord import SPEC, V2, FakeDiscord, SpecCheck

    spec, callback = SpecCheck.load(SPEC), "/interactions/1/token/callback"
    row = {"type": 1, "components": [{"type": 2, "style": 2, "label": "3", "custom_id": "a"}]}
    board = {"flags": V2, "components": [{"type": 17, "accent_color": 0x5865F2, "components": [row]}]}
    assert spec.errors("POST", callback, {"type": 7, "data": board}) == []
    loose = {"flags": V2, "components": [{"type": 17, "components": row["components"]}]}
    assert spec.errors("POST", callback, {"type": 7, "data": loose})
    named = {"flags": V2, "components": [{"type": 17, "accent_color": "blue", "components": [row]}]}
    assert spec.errors("POST", callback, {"type": 7, "data": named})

    fake, parts = FakeDiscord(spec=None), callback.strip("/").split("/")
    assert fake._flag_errors("POST", parts, {"type": 4, "data": board}) == []
    assert fake._flag_errors("POST", parts, {"type": 4, "data": {**board, "content": "hi"}})
    texts = [{"type": 10, "content": "x" * 100} for _ in range(41)]
    assert fake._flag_errors("POST", parts, {"type": 4, "data": {"flags": V2, "components": texts}}) == [
        "interactions/1/token/callback: 41 components (40 at most)",
        "interactions/1/token/callback: 4100 characters of text (4,000 at most)",
    ]
    fake.messages["m"] = {"id": "9", "flags": V2}
    assert fake._flag_errors("PATCH", ["channels", "1", "messages", "9"], {"flags": 0, "content": "hi"})


async def test_forfeit_and_help(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, _ = discord_world

    async def answer(data: dict[str, Any]) -> dict[str, Any]:
        asked = await fake.interact(data)
        sent = await answer_to(fake, asked)
        return dict(sent.body)

    nothing = await answer(subcommand("forfeit"))
    assert nothing["data"]["flags"] == 64 and nothing["data"]["content"] == "You have no game in this channel."

    started = await fake.interact(subcommand("house"))
    await fake.wait_for(lambda s: s.method == "PATCH" and s.path.endswith(f"token{started}/messages/@original"))
    resigned = await answer(subcommand("forfeit"))
    assert small_print(resigned) == "The house won: Ada forfeited."
    assert "Ada resigns: The house wins (0 to 0)." in board_text(resigned)
    board = fake.messages[f"original:token{started}"]
    edited = await fake.wait_for(lambda s: s.method == "PATCH" and s.path.endswith(f"/messages/{board['id']}"))
    assert board_buttons(edited.body) == []  # the old board's buttons are gone
    assert (await answer(subcommand("forfeit")))["data"]["content"] == "You have no game in this channel."

    helped = await answer(subcommand("help"))
    assert helped["data"]["flags"] == 64 and helped["data"]["embeds"][0]["title"] == "Hog: how to play"


def test_a_long_story_is_cut_to_what_discord_takes() -> None:
    from bot.games.hog.discord.embeds import DESCRIPTION_LIMIT, story_text

    lines = tuple(f"The house rolls 8, 8, 8, 8, 8, 8, 8, 8 for 64. (turn {n})" for n in range(200))
    told = story_text(lines)
    assert told is not None and len(told) <= DESCRIPTION_LIMIT
    assert told.startswith("…\n") and told.endswith("(turn 199)")
    assert story_text(lines[:3]) == "\n".join(lines[:3]) and story_text(()) is None
    assert trimmed(lines, 1000).startswith("…\n") and len(trimmed(lines, 1000)) <= 1000


BUTTON = {"type": 2, "style": 2, "label": "3"}


@pytest.mark.parametrize(
    ("forge", "channel", "words"),
    [
        (lambda game: "hog:move:gdeadbeef00:1:3", CHANNEL_ID, "There is no such game here."),
        (lambda game: f"hog:move:{game}:1:3", "900000000000000009", "That game is played in another channel."),
        (lambda game: f"hog:move:{game}:99:3", CHANNEL_ID, "That button is not from this game's board."),
        (lambda game: f"hog:move:{game}:1:11", CHANNEL_ID, "Choose between 0 and 10 dice, not 11."),
        (lambda game: f"hog:move:{game}:1:-1", CHANNEL_ID, "Choose between 0 and 10 dice, not -1."),
        (lambda game: f"hog:move:{game}:one:3", CHANNEL_ID, "That button is not one of mine."),
        (lambda game: f"hog:answer:{game}:maybe", CHANNEL_ID, "That button is not one of mine."),
        (lambda game: f"hog:answer:{game}:accept", CHANNEL_ID, "This challenge has already been answered."),
        (lambda game: f"hog:move:{game}:1:3:extra", CHANNEL_ID, "That button is not one of mine."),
        (lambda game: "poker:deal:1", CHANNEL_ID, "That button is not one of mine."),
        (lambda game: f"hog:replay:{game}:x:next", CHANNEL_ID, "That button is not one of mine."),
        (lambda game: f"hog:move:{game}:0:3", CHANNEL_ID, "That button is not from this game's board."),
        (lambda game: f"hog:move:{game}:0:3", "900000000000000009", "That game is played in another channel."),
        # buttons that page a message only its asker sees, pressed on the public board: it stays a board
        (lambda game: "hog:history:1001:0:older", CHANNEL_ID, "That button is not one of mine."),
        (lambda game: f"hog:replay:{game}:1:next", CHANNEL_ID, "That button is not one of mine."),
        (lambda game: f"hog:analyze:{game}:1:older", CHANNEL_ID, "That button is not one of mine."),
        (lambda game: "hog:leaders:0:down", CHANNEL_ID, "That button is not one of mine."),
    ],
)
async def test_forged_buttons_are_refused_in_words(
    discord_world: tuple[FakeDiscord, GameBot], forge: Callable[[str], str], channel: str, words: str
) -> None:
    fake, bot = discord_world
    command = await fake.interact(subcommand("house"))
    game_id = button(await board_of(fake, command), "3").split(":")[2]
    message = fake.messages[f"original:token{command}"]

    forged = forge(game_id)  # on a message that carries it, or discord.py never looks at it
    carrying = {**message, "components": [{"type": 1, "components": [{**BUTTON, "custom_id": forged}]}]}
    pressed = await fake.interact({**click(forged, carrying), **where(channel)})
    refused = await answer_to(fake, pressed)
    assert refused.body["type"] == 4 and refused.body["data"]["flags"] == 64
    assert refused.body["data"]["content"].startswith(words)
    assert (await bot.platform.service("hog").load(game_id)).version == 1  # nothing moved


async def test_a_button_never_acts_on_another_games_board(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, bot = discord_world
    first = await fake.interact(subcommand("house"))
    game_a = button(await board_of(fake, first), "3").split(":")[2]
    second = await fake.interact(subcommand("house", who="2002", person="Bob"))
    await board_of(fake, second)
    board_b = fake.messages[f"original:token{second}"]
    forged = f"hog:move:{game_a}:1:3"
    carrying = {**board_b, "components": [{"type": 1, "components": [{**BUTTON, "custom_id": forged}]}]}
    refused = await answer_to(fake, await fake.interact(click(forged, carrying)))
    assert refused.body["type"] == 4 and refused.body["data"]["flags"] == 64
    assert refused.body["data"]["content"] == "That button is not from this game's board."
    assert (await bot.platform.service("hog").load(game_a)).version == 1


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ([{"name": "goal", "type": 4, "value": 5}], "`goal` must be from 10 to 200, not 5."),  # as /hog house says
        ([{"name": "goal", "type": 4, "value": 0}], "`goal` must be from 10 to 200, not 0."),  # 0 is not "absent"
        ([{"name": "rules", "type": 3, "value": "fa99"}], "There is no rule set 'fa99'"),
        (
            [{"name": "difficulty", "type": 3, "value": "godlike"}],
            "There is no house level or fa18 contest entry 'godlike' here",
        ),
    ],
)
async def test_bad_options_are_refused_before_any_game(
    discord_world: tuple[FakeDiscord, GameBot], options: list[dict[str, Any]], words: str
) -> None:
    """Discord's own client keeps options in range; a forged interaction is refused all the same."""
    fake, bot = discord_world
    asked = await fake.interact(subcommand("house", options))
    refused = await answer_to(fake, asked)
    assert refused.body["type"] == 4 and refused.body["data"]["flags"] == 64
    assert words in refused.body["data"]["content"]
    assert await bot.platform.views.count() == 0


async def test_the_rules_explained(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, _ = discord_world
    for rules, title, example in [
        (None, "Fall 2018", "Swine Swap! Ada had 104 and Bob 48: they trade totals."),
        ("porkchop", "Pork Chop", "Pork Chop! Ada trades 30 for Bob's 70."),
        ("contest", "Contest", "Time Trot! Ada matched the turn number and goes again on eight-sided dice."),
    ]:
        options = [] if rules is None else [{"name": "rules", "type": 3, "value": rules}]
        asked = await fake.interact(subcommand("rules", options))
        sent = await answer_to(fake, asked)
        (shown,) = sent.body["data"]["embeds"]
        assert sent.body["data"]["flags"] == 64 and shown["title"].startswith(title)
        assert example in shown["description"]


def _bot_env(tmp_path: Path, api_base: str, gateway: str, token: str) -> dict[str, str]:
    return bot_env(api_base, gateway, tmp_path / "hog.sqlite3", tmp_path / "solutions", token)


SECRET = "MTIzNDU2Nzg5.secret-token-never-shown"


async def _run_to_exit(env: dict[str, str]) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    out, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode()


async def test_a_refused_token_is_one_line_and_exit_1(tmp_path: Path, fake_discord: FakeDiscord) -> None:
    fake_discord.token = "the-right-token"
    status, said = await _run_to_exit(_bot_env(tmp_path, fake_discord.api_base, fake_discord.gateway, SECRET))
    assert status == 1 and "Traceback" not in said and SECRET not in said
    errors = [line for line in said.splitlines() if "ERROR" in line]
    assert len(errors) == 1 and "Discord refused the token in DISCORD_TOKEN" in errors[0]


async def test_no_network_is_one_line_and_exit_1(tmp_path: Path) -> None:
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    base = f"http://127.0.0.1:{port}/api/v10"
    status, said = await _run_to_exit(_bot_env(tmp_path, base, f"ws://127.0.0.1:{port}/gateway/", SECRET))
    assert status == 1 and "Traceback" not in said and SECRET not in said
    errors = [line for line in said.splitlines() if "ERROR" in line]
    assert len(errors) == 1 and f"cannot reach Discord at {base}" in errors[0]


async def test_the_operator_hears_login_sync_and_shutdown(
    tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path
) -> None:
    fake = fake_discord
    env = _bot_env(tmp_path, fake.api_base, fake.gateway, SECRET)
    fake.token = SECRET
    fake.expect_login()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    assert process.stdout is not None
    lines: list[str] = []
    try:
        while not any("logged in as" in line for line in lines):  # the log line is the event to wait for
            line = (await asyncio.wait_for(process.stdout.readline(), 60)).decode()
            assert line, "".join(lines)
            lines.append(line)
    finally:
        process.terminate()
        rest, _ = await asyncio.wait_for(process.communicate(), 60)
    said = "".join(lines) + rest.decode()
    assert process.returncode == 0 and SECRET not in said and "Traceback" not in said
    assert "PyNaCl" not in said and "davey" not in said, "the bot uses no voice: no warning about it"
    assert "\x1b[" not in said, "no colour codes in a log that goes to a pipe"
    assert (
        f"logged in as hogbot (id {APP_ID}) in 1 servers; invite it with https://discord.com/oauth2/authorize?" in said
    )
    assert "permissions=117760" in said and "scope=bot+applications.commands" in said
    assert (
        "players add it to their own accounts (to play in DMs and group DMs) with https://discord.com/oauth2/" in said
    )
    assert "scope=applications.commands&integration_type=1" in said
    assert f"synced the slash commands (hog, cucumber, hogbot) to server {GUILD_ID}" in said
    assert f"closed: every game is kept in {tmp_path / 'hog.sqlite3'}" in said


async def test_a_failing_start_up_exits_instead_of_hanging(tmp_path: Path, fake_discord: FakeDiscord) -> None:
    """The read models cannot be written (a broken table): one line, exit 1, every connection closed
    (an open one used to keep the process alive forever)."""
    env = _bot_env(tmp_path, fake_discord.api_base, fake_discord.gateway, SECRET)
    store = await SqliteEventStore.open(tmp_path / "hog.sqlite3")
    await store.append("g1", [NewEvent("GameCreated", 2, b"{}")], 0)
    await store.close()
    views = GameViews(await SqliteDatabase.open(tmp_path / "hog.sqlite3"))
    await views.close()
    with contextlib.closing(sqlite3.connect(tmp_path / "hog.sqlite3")) as raw:
        raw.execute("DROP TABLE damaged")
        raw.commit()
    status, said = await _run_to_exit(env)
    assert status == 1 and "Traceback" not in said
    errors = [line for line in said.splitlines() if "ERROR" in line]
    assert any("cannot use the database" in line and "no such table: damaged" in line for line in errors), said


@pytest.mark.skipif(sys.platform == "win32", reason="uvloop is not on Windows")
def test_the_bot_runs_on_uvloops_event_loop(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from bot.discord import process
    from bot.platform.settings import Settings

    loops: list[str] = []

    async def run(settings: Settings) -> int:
        loops.append(type(asyncio.get_running_loop()).__module__)
        return 0

    monkeypatch.setattr(process, "run", run)
    assert process.run_bot(Settings(db=tmp_path / "games.sqlite3", token="t")) == 0
    assert loops[0].startswith("uvloop")


async def test_a_finished_game_offers_a_rematch_the_other_player_first(
    discord_world: tuple[FakeDiscord, GameBot],
) -> None:
    """*Rematch* on the finished board: only the game's players may press it; pressed, a new board in
    the channel, the same rules and goal, the house moving first this time, naming the game before it."""
    fake, bot = discord_world
    options = [{"name": "goal", "type": 4, "value": 10}, {"name": "difficulty", "type": 3, "value": "easy"}]
    command = await fake.interact(subcommand("house", options))
    shown = await board_of(fake, command)
    two = next(c for c in board_buttons(shown.body) if c.get("label") == "2")
    won = await press(fake, "1001", "Ada", fake.messages[f"original:token{command}"], two["custom_id"])  # 5 + 5
    assert "Ada won." in small_print(won)
    rematch = next(c for c in board_buttons(won) if c.get("label") == "Rematch")
    old_id = rematch["custom_id"].split(":")[2]
    finished = {**fake.messages[f"original:token{command}"], "components": won["data"]["components"]}
    stranger = await press(fake, "2002", "Bob", finished, rematch["custom_id"])
    assert stranger["data"]["content"] == "Only this game's players can ask for a rematch."
    pressed = await fake.interact(click(rematch["custom_id"], finished))
    again = await board_of(fake, pressed)
    assert texts(again.body)[0] == f"🔁 Rematch of game {old_id}"
    views = await bot.platform.settled_views()
    (new,) = [row for row in await views.history(game="hog") if row.game_id != old_id]
    assert new.place == (await views.game(old_id)).place  # type: ignore[union-attr]
    events = await bot.platform.service("hog").events(new.game_id)
    assert events[0].first == 1 and events[0].goal == 10 and events[0].rules == "fa18"
    assert [p.id for p in events[0].players] == ["1001", "house:easy"]
