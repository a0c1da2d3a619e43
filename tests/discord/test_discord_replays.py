"""Replays and history through the fake Discord: every step as it was told live, each viewer on
their own board, history a page at a time, and the replay command offering your recent games."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from bot.discord.client import GameBot
from bot.platform.drawing import HEIGHT, WIDTH
from tests.discord.boards import buttons, small_print, texts
from tests.discord.discord_world import answer_to, board_of, button, click, followup_to, press, subcommand
from tests.discord.fake_discord import CHANNEL_ID, FakeDiscord, member, nested
from tests.helpers import frames


def lines_of(embed: dict[str, Any]) -> list[str]:
    return str(embed.get("description", "")).splitlines()


def told_on(board: dict[str, Any]) -> list[str]:
    """The lines a board tells of the last command (its dice drawn aside: their numbers are in the words)."""
    told = [t for t in texts(board)[3:] if not t.startswith(("⏱️", "-# ", "**Review**"))]
    return [line for t in told for line in t.splitlines() if not line.startswith("🎲")]


def gallery(message: dict[str, Any]) -> list[str]:
    """The pictures a board shows."""
    return [item["media"]["url"] for c in nested(message.get("components") or []) for item in c.get("items", [])]


def labels(body: dict[str, Any]) -> dict[str, bool]:
    """Each button's label and whether it can be pressed."""
    return {c["label"]: not c.get("disabled", False) for c in buttons(body)}


async def finished_game(fake: FakeDiscord) -> tuple[str, list[str]]:
    """A house game to 30 played to the end with 5 dice a turn; its id and every line told live."""
    options = [{"name": "goal", "type": 4, "value": 30}, {"name": "difficulty", "type": 3, "value": "easy"}]
    command = await fake.interact(subcommand("house", options))
    shown = await board_of(fake, command)
    told = told_on(shown.body)
    message_id = fake.messages[f"original:token{command}"]["id"]
    body = shown.body
    while "5" in labels(body):
        pressed = await fake.interact(click(button_of(body, "5"), fake.message(message_id)))
        body = (await answer_to(fake, pressed)).body["data"]
        told += told_on(body)
    assert not gallery(body) and labels(body) == {
        "Rematch": True,
        "Picture": True,
    }  # drawn when asked for
    await picture_pressed(fake, message_id, body)  # the last board shows the whole game
    return button(shown, "5").split(":")[2], told


async def picture_pressed(fake: FakeDiscord, message_id: str, body: dict[str, Any]) -> bytes:
    """*Picture* pressed on a finished board (by anyone: here Bob, a watcher): the board with its picture."""
    answer = await press(fake, "1002", "Bob", fake.message(message_id), button_of(body, "Picture"))
    assert answer["type"] == 7 and labels(answer["data"]) == {"Rematch": True}  # the board itself, Picture gone
    return attached_picture(fake, fake.message(message_id))


def attached_picture(fake: FakeDiscord, message: dict[str, Any]) -> bytes:
    """The picture a message shows: its one attachment, which its embed's image (a replay's) or its
    gallery (a board's) names."""
    (attachment,) = message["attachments"]
    shown = [message["embeds"][0]["image"]["url"]] if message.get("embeds") else gallery(message)
    assert shown == [f"attachment://{attachment['filename']}"]
    png = fake.uploads[attachment["id"]]
    image = Image.open(io.BytesIO(png))
    assert (image.format, image.size) == ("PNG", (WIDTH, HEIGHT))
    return png


def button_of(body: dict[str, Any], label: str) -> str:
    return str(next(c["custom_id"] for c in buttons(body) if c["label"] == label))


async def open_replay(fake: FakeDiscord, game_id: str, who: str = "1001", name: str = "Ada") -> tuple[str, Any]:
    asked = await fake.interact(subcommand("replay", [{"name": "game", "type": 3, "value": game_id}], who, name))
    sent = await answer_to(fake, asked)
    assert sent.body["type"] == 4 and sent.body["data"]["flags"] == 64  # only the viewer sees it
    return fake.messages[f"original:token{asked}"]["id"], sent.body["data"]


async def test_a_replay_tells_every_step_as_it_was_told_live(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, bot = discord_world
    game_id, told = await finished_game(fake)
    message_id, body = await open_replay(fake, game_id)
    count = len(await bot.platform.service("hog").events(game_id))
    assert body["embeds"][0]["footer"]["text"].startswith(f"Step 1 of {count}")
    assert labels(body) == {"⏮": False, "◀": False, "▶": True, "⏭": True}

    replayed, totals = lines_of(body["embeds"][0]), []
    for step in range(2, count + 1):
        body = (await press(fake, "1001", "Ada", fake.message(message_id), button_of(body, "▶")))["data"]
        (shown,) = body["embeds"]
        assert shown["footer"]["text"].startswith(f"Step {step} of {count}")
        replayed += lines_of(shown)
        totals.append(tuple(f["value"].split("**")[1] for f in shown["fields"][:2]))
    assert replayed == told  # the same words, regenerated from the log
    state = await bot.platform.service("hog").load(game_id)
    assert totals[-1] == tuple(map(str, state.scores))
    assert labels(body) == {"⏮": True, "◀": True, "▶": False, "⏭": False}
    assert any(f["name"] == "Win chances before this turn" for f in body["embeds"][0]["fields"])

    first = (await press(fake, "1001", "Ada", fake.message(message_id), button_of(body, "⏮")))["data"]
    assert first["embeds"][0]["footer"]["text"].startswith(f"Step 1 of {count}")


async def test_two_viewers_step_on_their_own(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, _ = discord_world
    game_id, _ = await finished_game(fake)
    ada_message, ada = await open_replay(fake, game_id)
    bob_message, bob = await open_replay(fake, game_id, "2002", "Bob")

    last = await press(fake, "2002", "Bob", fake.message(bob_message), button_of(bob, "⏭"))
    assert "Step 1 of" not in last["data"]["embeds"][0]["footer"]["text"]
    assert fake.message(ada_message)["embeds"][0]["footer"]["text"].startswith("Step 1 of")  # Ada's is untouched
    second = await press(fake, "1001", "Ada", fake.message(ada_message), button_of(ada, "▶"))
    assert second["data"]["embeds"][0]["footer"]["text"].startswith("Step 2 of")


async def test_no_such_game(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, _ = discord_world
    asked = await fake.interact(subcommand("replay", [{"name": "game", "type": 3, "value": "gnothing"}]))
    sent = await answer_to(fake, asked)
    assert sent.body["data"]["flags"] == 64 and sent.body["data"]["content"] == "There is no game 'gnothing' to replay."


async def test_history_pages_and_the_replay_offers_recent_games(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, _ = discord_world
    for _ in range(12):
        command = await fake.interact(subcommand("house"))
        await board_of(fake, command)
        await answer_to(fake, await fake.interact(subcommand("forfeit")))

    asked = await fake.interact(subcommand("history"))
    page = (await answer_to(fake, asked)).body["data"]
    assert page["flags"] == 64 and page["embeds"][0]["title"] == "Ada's games"
    rows = lines_of(page["embeds"][0])
    assert len(rows) == 10 and all("vs The house (perfect) · Fall 2018 to 100 · lost 0–0" in row for row in rows)
    assert labels(page) == {"◀ Newer": False, "Older ▶": True}
    older = await press(fake, "1001", "Ada", fake.messages[f"original:token{asked}"], button_of(page, "Older ▶"))
    assert len(lines_of(older["data"]["embeds"][0])) == 2
    assert labels(older["data"]) == {"◀ Newer": True, "Older ▶": False}

    newest = rows[0].split("`")[1]

    async def offered(typed: str) -> list[dict[str, str]]:
        focused = [{"name": "game", "type": 3, "value": typed, "focused": True}]
        asked = await fake.interact({**subcommand("replay", focused), "type": 4})  # autocomplete
        sent = (await answer_to(fake, asked)).body
        assert sent["type"] == 8
        return list(sent["data"]["choices"])

    everything = await offered("")
    assert len(everything) == 12 and everything[0]["value"] == newest  # the most recent first
    assert everything[0]["name"].endswith("vs The house (perfect) · Fall 2018 to 100 · lost 0–0")
    assert [c["value"] for c in await offered(newest[:7])] == [newest]
    assert await offered("nobody by that name") == []


async def test_stats_count_what_was_played(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, _ = discord_world
    await finished_game(fake)  # won 50 to 20, turns of 25
    await board_of(fake, await fake.interact(subcommand("house")))
    await answer_to(fake, await fake.interact(subcommand("forfeit")))  # lost
    game_id, _ = await finished_game(fake)
    await finished_game(fake)

    asked = await fake.interact(subcommand("stats"))
    shown = (await answer_to(fake, asked)).body["data"]
    assert shown["flags"] == 64
    (embed,) = shown["embeds"]
    fields = {f["name"]: f["value"].splitlines() for f in embed["fields"]}
    assert embed["title"] == "Ada's Hog stats"
    assert fields["Overall"][:2] == ["4 played, 3 won, 1 lost (75%)", "Longest winning streak: 2 (now: 2)"]
    assert fields["Overall"][2] == "Rating: none yet (finish a game against another person)"  # the house: unrated
    assert fields["Overall"][3].startswith("Biggest single turn: 25 points, in game g")
    assert fields["By rule set"] == ["Fall 2018: 4 played, 3 won, 1 lost (75%)"]
    assert fields["Against the house"] == [
        "easy: 3 played, 3 won, 0 lost (100%)",
        "perfect: 1 played, 0 won, 1 lost (0%)",
    ]
    assert game_id != fields["Overall"][3].split()[-1]  # the first game it happened in
    assert fields["Play, by the exact review"][0].startswith("Average accuracy: ")  # the forfeit: no move to review
    assert fields["Play, by the exact review"][0].endswith("% over 3 games")


async def test_stats_of_a_member_without_games(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, _ = discord_world
    bob = member("2002", "Bob")
    command = subcommand("stats", [{"name": "member", "type": 6, "value": "2002"}])
    command["data"]["resolved"] = {
        "users": {"2002": bob["user"]},
        "members": {"2002": {k: v for k, v in bob.items() if k != "user"}},
    }
    (embed,) = (await answer_to(fake, await fake.interact(command))).body["data"]["embeds"]
    assert embed["title"] == "Bob's Hog stats"
    assert embed["fields"] == [
        {"name": "No games yet", "value": "Play one with /hog house, or /hog challenge someone.", "inline": False}
    ]


async def resigned_after_a_turn_each(fake: FakeDiscord) -> tuple[str, str]:
    """A game against the easy house that Ada resigns after a turn each: its id and its board's id,
    once the board was edited."""
    easy = [{"name": "goal", "type": 4, "value": 30}, {"name": "difficulty", "type": 3, "value": "easy"}]
    command = await fake.interact(subcommand("house", easy))
    live = await board_of(fake, command)
    board_id = fake.messages[f"original:token{command}"]["id"]
    assert not gallery(live.body) and not fake.message(board_id)["attachments"]  # not while playing
    await press(fake, "1001", "Ada", fake.message(board_id), button(live, "5"))
    await answer_to(fake, await fake.interact(subcommand("forfeit")))
    edits = f"/channels/{CHANNEL_ID}/messages/{board_id}"
    ended = await fake.wait_for(lambda s: s.method == "PATCH" and s.path == edits and "Picture" in labels(s.body))
    assert not ended.files  # drawn only when someone asks
    return button(live, "5").split(":")[2], board_id


async def test_the_last_board_and_each_replay_step_show_the_picture(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, _ = discord_world
    game_id, board_id = await resigned_after_a_turn_each(fake)
    ended = fake.message(board_id)
    drawn = await picture_pressed(fake, board_id, ended)  # the old board, edited
    assert await picture_pressed(fake, board_id, ended) == drawn  # pressed again on an older copy: the same

    finished, _ = await finished_game(fake)
    assert finished != game_id
    message_id, body = await open_replay(fake, finished)
    first = attached_picture(fake, fake.message(message_id))
    body = (await press(fake, "1001", "Ada", fake.message(message_id), button_of(body, "⏭")))["data"]
    last = attached_picture(fake, fake.message(message_id))
    assert len(fake.message(message_id)["attachments"]) == 1 and last != first  # the step moved on the picture


async def test_a_board_where_files_are_not_allowed_still_shows_the_end(
    discord_world: tuple[FakeDiscord, GameBot],
) -> None:
    fake, _ = discord_world
    fake.can_attach = False  # the server did not grant Attach Files
    _, board_id = await resigned_after_a_turn_each(fake)
    board = fake.message(board_id)
    assert labels(board) == {"Rematch": True, "Picture": True} and not board["attachments"] and not gallery(board)
    assert small_print(board) == "The house won: Ada forfeited."


async def test_a_replay_can_send_the_game_animated(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, bot = discord_world
    game_id, _ = await finished_game(fake)
    options = [{"name": "game", "type": 3, "value": game_id}, {"name": "animate", "type": 5, "value": True}]
    asked = await fake.interact(subcommand("replay", options))
    assert (await answer_to(fake, asked)).files  # the replay board first, with its picture
    sent = await followup_to(fake, asked)
    assert sent.body["flags"] == 64 and list(sent.files) == [f"hog-{game_id}.gif"]
    turns = len(await bot.platform.service("hog").events(game_id)) - 1  # every event after GameCreated is a turn
    assert frames(sent.files[f"hog-{game_id}.gif"]) == turns + 1  # the empty board, then a frame a turn


async def test_the_exact_review_shows_on_the_board_in_the_replay_and_in_analyze(
    discord_world: tuple[FakeDiscord, GameBot],
) -> None:
    fake, bot = discord_world
    game_id, _ = await finished_game(fake)  # Ada rolls five dice a turn against the easy house
    placed = await bot.platform.boards.where(game_id)
    assert placed is not None
    board = fake.message(placed[1])
    (review,) = [t for t in texts(board) if t.startswith("**Review** (exact: /hog analyze)")]
    _, ada, house = review.splitlines()
    assert ada.startswith("Ada ") and house.startswith("The house ") and "% accuracy" in ada

    message_id, body = await open_replay(fake, game_id)
    for _ in range(2):  # past the game's creation, to its first turns: a turn's step marks its move
        pressed = await fake.interact(click(button_of(body, "▶"), fake.message(message_id)))
        body = (await answer_to(fake, pressed)).body["data"]
    (marked,) = [f["value"] for f in body["embeds"][0]["fields"] if f["name"] == "This move"]
    assert marked.startswith("best move") or " dice, best " in marked

    asked = await fake.interact(subcommand("analyze", [{"name": "game", "type": 3, "value": game_id}]))
    sent = (await answer_to(fake, asked)).body
    assert sent["type"] == 4 and sent["data"]["flags"] == 64  # for the asker alone
    shown = sent["data"]["embeds"][0]
    moves = len([e for e in await bot.platform.service("hog").events(game_id) if type(e).__name__ == "TurnTaken"])
    assert shown["title"].startswith("Review · Fall 2018") and [f["name"] for f in shown["fields"]] == [
        "Ada",
        "The house",
    ]
    assert all("% accuracy" in f["value"] for f in shown["fields"])
    assert lines_of(shown)[0].startswith("1. Ada at 0–0: ") and shown["footer"]["text"].startswith(
        f"Moves 1–{min(moves, 12)} of {moves}"
    )
