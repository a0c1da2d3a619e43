"""Playing anywhere on Discord: the app installed by users on their own accounts, used in a group DM of
friends where the bot is no member and may not post (the fake answers 403 Missing Access to any
request to that channel). Every board is an interaction's answer, edited by the answers to the
presses on it, and otherwise through the token of the last one while it lasts; a turn's timeout is
stored either way and shown on the board when a token is fresh, or at the next press."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.discord.client import GameBot
from bot.platform.settings import Settings
from cucumber_core.views import public_view
from tests.discord.boards import accent, board_text, buttons, is_board, small_print, status
from tests.discord.cucumber_table import custom_id, playable, section, to_play
from tests.discord.discord_world import board_of, challenge_command, click, followup_to, running_bot, subcommand
from tests.discord.fake_discord import APP_ID, GROUP_DM_ID, FakeDiscord, Sent, user
from tests.discord.test_discord_tournaments import tournament_command
from tests.fake_clock import FakeClock
from tests.helpers import Seeded, within

ADA, BOB, EVE = ("1001", "Ada"), ("2002", "Bob"), ("3003", "Eve")
FRIENDS = (ADA, BOB)


def in_group_dm(payload: dict[str, Any], installer: str = ADA[0]) -> dict[str, Any]:
    """``payload`` as Discord sends it from a group DM of Ada and Bob, where Ada installed the app on
    her account (``context`` 2: a private channel; the integration owner a user, ``"1"``)."""
    who = payload["member"]["user"]
    moved = {k: v for k, v in payload.items() if k not in ("member", "guild_id", "guild_locale")}
    recipients = [user(*friend) for friend in FRIENDS]
    channel = {"id": GROUP_DM_ID, "type": 3, "recipients": recipients, "owner_id": ADA[0], "name": None, "icon": None}
    data = moved.get("data", {})
    if "resolved" in data:  # a group DM resolves users, never members
        data["resolved"] = {"users": data["resolved"]["users"]}
    return moved | {
        "user": who,
        "channel_id": GROUP_DM_ID,
        "channel": channel,
        "context": 2,
        "authorizing_integration_owners": {"1": installer},
        "app_permissions": "0",
    }


async def pressed(fake: FakeDiscord, person: tuple[str, str], message: dict[str, Any], custom_id: str) -> Sent:
    """``person`` presses a button of ``message`` in the group DM: the bot's answer."""
    return await fake.response(await fake.interact(in_group_dm(click(custom_id, message, *person))))


def edits_through(fake: FakeDiscord, interaction: str) -> int:
    """How many times the bot edited a message through ``interaction``'s token."""
    return len([s for s in fake.sent if s.path.endswith(f"token{interaction}/messages/@original")])


def edited_again(fake: FakeDiscord, interaction: str, before: int) -> Callable[[Sent], bool]:
    """Waits for an edit through ``interaction``'s token beyond the ``before`` there were."""
    return lambda _: edits_through(fake, interaction) > before


def no_channel_request(fake: FakeDiscord) -> bool:
    return not any(s.path.startswith("/channels/") for s in fake.sent)


async def test_the_commands_are_offered_everywhere_but_the_servers_own(
    discord_world: tuple[FakeDiscord, GameBot],
) -> None:
    fake, _ = discord_world
    synced = await fake.wait_for(lambda s: s.method == "PUT" and s.path.endswith("/commands"))
    by_name = {c["name"]: c for c in synced.body}
    for game in ("hog", "cucumber"):
        assert by_name[game]["integration_types"] == [0, 1]  # a server's install, and a user's
        assert by_name[game]["contexts"] == [0, 1, 2]  # a server, the bot's DM, any DM or group DM
    assert by_name["hogbot"]["integration_types"] == [0] and by_name["hogbot"]["contexts"] == [0]


async def opened(fake: FakeDiscord, payload: dict[str, Any]) -> dict[str, Any]:
    """The board a command in the group DM opened (its answer, edited from "thinking…")."""
    command = await fake.interact(in_group_dm(payload))
    await board_of(fake, command)
    return fake.messages[f"original:token{command}"]


def labelled(board: dict[str, Any], label: str) -> str:
    return str(next(b["custom_id"] for b in buttons(board) if b.get("label") == label))


async def test_a_hog_challenge_in_a_group_dm_is_played_to_the_end(
    discord_world: tuple[FakeDiscord, GameBot],
) -> None:
    fake, bot = discord_world
    challenge = challenge_command(*BOB)
    challenge["data"]["options"][0]["options"].append({"name": "goal", "type": 4, "value": 30})
    board = await opened(fake, challenge)
    assert is_board(board) and board_text(board).startswith("<@2002>")  # Bob is pinged
    assert status(board) == "Waiting for Bob to accept." and "⏱️ The challenge expires <t:" in board_text(board)
    game_id = buttons(board)[0]["custom_id"].split(":")[2]

    stranger = (await pressed(fake, EVE, board, f"hog:answer:{game_id}:accept")).body
    assert stranger["type"] == 4 and stranger["data"]["flags"] == 64  # only Bob answers, and Eve is told so
    accepted = (await pressed(fake, BOB, board, f"hog:answer:{game_id}:accept")).body
    assert accepted["type"] == 7 and status(accepted) == "Ada to move."
    moves = 0
    while "won" not in status(board := fake.message(board["id"])):
        mover = ADA if status(board).startswith("Ada") else BOB
        answer = (await pressed(fake, mover, board, labelled(board, "2"))).body
        assert answer["type"] == 7, answer  # each press edits the board it is on
        moves += 1
    assert moves >= 3 and (await bot.platform.service("hog").load(game_id)).is_over
    assert no_channel_request(fake)

    rematch = await fake.interact(in_group_dm(click(labelled(board, "Rematch"), board, *BOB)))
    again = (await board_of(fake, rematch)).body
    assert board_text(again).startswith(f"🔁 Rematch of game {game_id} · <@1001>")
    assert status(again) == "Waiting for Ada to accept." and no_channel_request(fake)


async def test_a_challenge_to_someone_not_in_the_chat_is_refused(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, _ = discord_world
    refused = (await fake.response(await fake.interact(in_group_dm(challenge_command(*EVE))))).body
    assert refused["data"]["flags"] == 64 and refused["data"]["content"].startswith("Eve is not in this chat.")


def in_bot_dm(payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` as Discord sends it from the bot's own DM with its sender (``context`` 1), where
    Discord may send the channel without recipients."""
    who = payload["member"]["user"]
    moved = {k: v for k, v in payload.items() if k not in ("member", "guild_id", "guild_locale")}
    channel = {"id": "900000000000000777", "type": 1}
    return moved | {"user": who, "channel_id": channel["id"], "channel": channel, "context": 1, "app_permissions": "0"}


async def test_a_challenge_in_the_bots_own_dm_is_refused(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    """Nobody but the asker is ever in the bot's DM: a challenge there could never be seen by its opponent."""
    fake, bot = discord_world
    refused = (await fake.response(await fake.interact(in_bot_dm(challenge_command(*EVE))))).body
    assert refused["data"]["flags"] == 64 and refused["data"]["content"].startswith("Eve is not in this chat.")
    assert await (await bot.platform.settled_views()).count() == 0


async def test_what_belongs_to_a_server_is_refused_elsewhere_in_words(
    discord_world: tuple[FakeDiscord, GameBot],
) -> None:
    """A tournament posts its games in the channel: not in a group DM, nor in a server that did not add
    the bot (the app used there as installed by a user); seasons and the hall of fame are a server's."""
    fake, _ = discord_world
    new = [{"name": "format", "type": 3, "value": "swiss"}]
    opened = tournament_command("hog", "new", new, *ADA)
    said = (await fake.response(await fake.interact(in_group_dm(opened)))).body["data"]
    assert said["flags"] == 64 and said["content"] == "Tournaments are played in a server's channel."
    elsewhere = opened | {"authorizing_integration_owners": {"1": ADA[0]}}  # a server, the app Ada's own
    said = (await fake.response(await fake.interact(elsewhere))).body["data"]
    assert said["content"].startswith("A tournament posts its games' boards in the channel: it needs the bot added")
    fame = (await fake.response(await fake.interact(in_group_dm(subcommand("hall-of-fame", [], *ADA))))).body
    assert fame["data"]["content"] == "The hall of fame belongs to a server: ask in one."
    season = in_group_dm(subcommand("leaderboard", [{"name": "season", "type": 4, "value": 1}], *ADA))
    said = (await fake.response(await fake.interact(season))).body["data"]
    assert said["content"] == "Seasons belong to a server: ask in one."
    assert no_channel_request(fake)


async def test_the_board_draws_the_dice_as_the_bots_own_emojis(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, _ = discord_world
    assert {"die_1", "die_6", "die8_1", "die8_8"} <= set(fake.emojis)  # uploaded at start
    uploads = [s for s in fake.sent if s.method == "POST" and s.path.endswith("/emojis")]
    assert len(uploads) == 14 and all(s.body["image"].startswith("data:image/png;base64,") for s in uploads)
    board = await opened(fake, subcommand("house", [], *ADA))
    moved = (await pressed(fake, ADA, board, labelled(board, "3"))).body
    five = f"<:die_5:{fake.emojis['die_5']['id']}>"
    assert f"🎲 {five} {five} {five}\nAda rolls 5, 5, 5 for 15." in board_text(moved)
    assert accent(moved) == 0x5865F2 and "Ada · ▶ to move" in board_text(moved).replace("**", "")
    assert small_print(moved).startswith("Ada to move.")


async def test_a_restart_uploads_no_emoji_again(
    tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path, clock: FakeClock
) -> None:
    fake = fake_discord
    for _ in range(2):
        async with running_bot(fake, tmp_path / "bot.sqlite3", solved_folder, clock):
            pass
    assert len([s for s in fake.sent if s.method == "POST" and s.path.endswith("/emojis")]) == 14
    assert len([s for s in fake.sent if s.method == "GET" and s.path.endswith("/emojis")]) == 2


async def test_a_timeout_shows_on_the_board_while_its_token_lasts(
    discord_world: tuple[FakeDiscord, GameBot], clock: FakeClock
) -> None:
    fake, _ = discord_world
    fake.clock = clock.now
    command = await fake.interact(in_group_dm(subcommand("house", [], *ADA)))
    board = (await board_of(fake, command)).body
    assert "⏱️ Ada's turn ends <t:" in board_text(board)  # a live countdown
    await clock.advance(481)
    warned = await fake.wait_for(lambda s: s.method == "POST" and s.path == f"/webhooks/{APP_ID}/token{command}")
    assert warned.body["content"] == "<@1001>, it's your move: 2 minutes left before you forfeit."
    await clock.advance(120)
    edited = await fake.wait_for(
        lambda s: s.method == "PATCH" and s.path.endswith(f"token{command}/messages/@original") and s is not None
        and "forfeited" in str(s.body)
    )  # fmt: skip
    assert status(edited.body) == "The house won: Ada forfeited." and no_channel_request(fake)


async def forfeited_unseen(
    fake: FakeDiscord, bot: GameBot, clock: FakeClock, board: dict[str, Any], seconds: float
) -> None:
    """Ada, against the house on ``board``, lets ``seconds`` pass: she forfeits in the log with nothing
    sent (no token to send it by), and her next press on the board shows the game as it is."""
    game_id = buttons(board)[0]["custom_id"].split(":")[2]
    sent = len(fake.sent)
    async with bot.platform.boards.subscribe(game_id) as heard:
        await clock.advance(seconds)
        forfeited = await within(heard.get())  # the timer's forfeit, stored
    state = await bot.platform.service("hog").load(game_id)
    assert state.is_over and state.version == forfeited.version and fake.sent[sent:] == []
    late = (await pressed(fake, ADA, board, labelled(board, "3"))).body
    assert late["type"] == 7 and status(late) == "The house won: Ada forfeited."
    assert no_channel_request(fake)


async def test_a_timeout_past_the_token_is_shown_at_the_next_press(
    tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path, clock: FakeClock
) -> None:
    fake = fake_discord
    fake.clock = clock.now
    slow = Settings(env={"HOG_TURN_TIMEOUT": "1800"})
    async with running_bot(fake, tmp_path / "bot.sqlite3", solved_folder, clock, settings=slow) as bot:
        await forfeited_unseen(fake, bot, clock, await opened(fake, subcommand("house", [], *ADA)), 1801)


async def test_a_restarted_bot_knows_a_board_lives_in_interactions(
    tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path, clock: FakeClock
) -> None:
    """Where a board lives is kept with it: after a restart the bot, holding no token, sends nothing
    for a game's timers (never a request to a channel it may not post in), and the next press shows
    the game as it is."""
    fake, db = fake_discord, tmp_path / "bot.sqlite3"
    fake.clock = clock.now
    async with running_bot(fake, db, solved_folder, clock):
        board = await opened(fake, subcommand("house", [], *ADA))
    async with running_bot(fake, db, solved_folder, clock) as bot:
        await forfeited_unseen(fake, bot, clock, board, 700)  # the reminder, then the forfeit


async def test_a_cucumber_table_in_a_group_dm_is_played_to_the_end(
    tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path, clock: FakeClock
) -> None:
    fake = fake_discord
    fake.clock = clock.now
    untimed = Settings(env={"HOG_CARD_TIMEOUT": "0"})  # time passes below with nobody played for
    async with running_bot(
        fake, tmp_path / "bot.sqlite3", solved_folder, clock, chance=Seeded(3), settings=untimed
    ) as bot:
        options = [{"name": n, "type": 4, "value": v} for n, v in (("players", 3), ("cards", 4), ("target", 15))]
        board = await opened(fake, subcommand("new", options, *ADA, group="cucumber"))
        game_id = custom_id(board, "Join").split(":")[2]
        assert (await pressed(fake, BOB, board, custom_id(board, "Join"))).body["type"] == 7
        await pressed(fake, ADA, board, custom_id(fake.message(board["id"]), "+ strong bot"))
        started = (await pressed(fake, ADA, board, custom_id(fake.message(board["id"]), "Start"))).body
        assert started["type"] == 7 and is_board(started)
        service, cards = bot.platform.service("cucumber"), 0
        while not (state := await service.load(game_id)).is_over:
            view = public_view(state)
            assert view.to_play is not None
            person = ADA if state.seats[view.to_play].id == ADA[0] else BOB
            board = fake.message(board["id"])
            await clock.advance(600)  # ten minutes a card: each press of Show my hand keeps the board's token fresh
            shown = await fake.interact(in_group_dm(click(custom_id(board, "Show my hand"), board, *person)))
            assert (await fake.response(shown)).body["type"] == 6  # the board as it is, and then:
            followed = await followup_to(fake, shown)
            assert followed.body["flags"] & 64  # the hand, for them alone
            hand = fake.message(followed.reply["id"])  # (a bot moves at once, never waits for this)
            edits = edits_through(fake, shown)
            assert (await pressed(fake, person, hand, playable(hand)[0])).body["type"] == 7
            await fake.wait_for(edited_again(fake, shown, edits))
            # the board, edited beside the card through the token of the press that showed the hand
            cards += 1
        assert cards >= 8 and (await service.load(game_id)).loser is not None
        ended = await fake.wait_for(lambda s: s.path.endswith("/messages/@original") and "🏁" in str(s.body))
        assert to_play(fake.message(board["id"])) is None  # the board, edited through a token, shows the end
        assert is_board(ended.body) and no_channel_request(fake)

        finished = fake.message(board["id"])
        rematch = await fake.interact(in_group_dm(click(custom_id(finished, "Rematch"), finished, *BOB)))
        again = (await board_of(fake, rematch)).body
        assert board_text(again).startswith(f"🔁 Rematch of game {game_id} <@1001>")  # Ada is asked to join
        table = await fake.wait_for(
            lambda s: s.path.endswith(f"token{rematch}/messages/@original") and "Strong bot" in str(s.body)
        )
        assert "**Bob** — 0 pts" in board_text(table.body) and "Strong bot" in board_text(table.body)
        assert "Ada" not in str(section(table.body, "At the table")) and no_channel_request(fake)


async def test_every_deadline_fires_once_across_many_restarts(
    tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path
) -> None:
    """A bot restarted again and again, the clock moved at once each time (before its timers' task
    has slept a step: a busy machine's order), forfeits each game once: a deadline is a moment the
    timers sleep until, so a late sleeper still wakes for it. (A clock a round: a stored event's time
    is the store's, which a test's clock must not run ahead of before the game is made.)"""
    fake, db = fake_discord, tmp_path / "bot.sqlite3"
    for _ in range(4):
        clock = FakeClock()
        fake.clock = clock.now
        async with running_bot(fake, db, solved_folder, clock):
            board = await opened(fake, subcommand("house", [], *ADA))
        async with running_bot(fake, db, solved_folder, clock) as bot:
            game_id = buttons(board)[0]["custom_id"].split(":")[2]
            async with bot.platform.boards.subscribe(game_id) as heard:
                await clock.advance(700)  # past the 600 s from the game's last event, in the log's wall time
                await within(heard.get())
            stored = await bot.platform.store.load(game_id)
            assert [e.type for e in stored].count("hog.GameForfeited") == 1
