"""A tournament night through the fake Discord: ``/hog tournament new``, players joining on its board,
the organiser starting it, each round's games posted in the channel with their players pinged and
played on their own boards, a player who leaves (the others get a bye), a no-show who loses by the
game's own timer, the board edited through to the final standings and their picture; a restart in
the middle of a round; people who may not start or drop refused in words."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bot.discord.client import GameBot
from bot.platform.tournaments.state import Round, Tournament
from tests.discord.boards import is_board, texts
from tests.discord.discord_world import answer_to, followup_to, press, running_bot, subcommand, where
from tests.discord.fake_discord import FakeDiscord, member
from tests.fake_clock import FakeClock

PLAYERS = [(f"20{i}", f"Player{i}") for i in range(6)]


def current(t: Tournament) -> Round:
    """The round being played (there is one: the test started the tournament)."""
    assert t.current is not None
    return t.current


def tournament_command(
    game: str,
    name: str,
    options: list[dict[str, Any]] | None = None,
    who: str = "200",
    person: str = "Player0",
    manager: bool = True,
) -> dict[str, Any]:
    """``/<game> tournament <name>`` as Discord sends it (``manager``: the member may manage the server)."""
    asker = member(who, person)
    if not manager:
        asker["permissions"] = "0"
    inner = [{"name": name, "type": 1, "options": options or []}]
    data = {"id": "1", "name": game, "type": 1, "options": [{"name": "tournament", "type": 2, "options": inner}]}
    return {"type": 2, **where(), "member": asker, "data": data}


def drop_command(player: str, **asker: Any) -> dict[str, Any]:
    """``/hog tournament drop player:<member>``, the member resolved as Discord sends it."""
    asked = tournament_command("hog", "drop", [{"name": "player", "type": 6, "value": player}], **asker)
    them = member(player, NAMES[player])
    asked["data"]["resolved"] = {
        "users": {player: them["user"]},
        "members": {player: {k: v for k, v in them.items() if k != "user"}},
    }
    return asked


def option(name: str, value: Any, kind: int = 4) -> dict[str, Any]:
    return {"name": name, "type": 3 if isinstance(value, str) else kind, "value": value}


async def board_edit(fake: FakeDiscord, message: str, after: int, has: str) -> dict[str, Any]:
    """The first edit of the tournament's board message after the ``after``-th request that says ``has``."""
    sent = await fake.wait_for(
        lambda s: s.method == "PATCH" and s.path.endswith(f"/messages/{message}") and fake.sent.index(s) >= after
        and has in str(s.body),
        timeout=60,  # a round's end settles the table, rates it and draws it: once 20 s beside two burners
    )  # fmt: skip
    return dict(sent.body)


async def opened(fake: FakeDiscord, bot: GameBot, game: str, options: list[dict[str, Any]]) -> tuple[str, str]:
    """Open a tournament as Player0; its stream and its board's message id."""
    after = len(fake.sent)
    asked = await fake.interact(tournament_command(game, "new", options))
    assert (await answer_to(fake, asked)).body["type"] == 5  # deferred: the board follows
    sent = await fake.wait_for(
        lambda s: s.method == "PATCH" and "/channels/" in s.path and "Sign-up open" in str(s.body)
        and fake.sent.index(s) >= after
    )  # fmt: skip
    message = sent.path.rsplit("/", 1)[1]
    here = await bot.platform.tournaments.book.of_server(where()["guild_id"])
    t = next(t for t in here if t.board is not None and t.board[1] == message)
    return t.stream_id, message


async def join_all(fake: FakeDiscord, bot: GameBot, stream: str, message: str, players: list[tuple[str, str]]) -> None:
    t = await bot.platform.tournaments.book.load(stream)
    for who, name in players:
        after = len(fake.sent)
        await press(fake, who, name, fake.message(message), f"tournament:{t.tournament_id}:join")
        await board_edit(fake, message, after, name)
    t = await bot.platform.tournaments.book.load(stream)
    assert len(t.players) == 1 + len(players)


async def move(fake: FakeDiscord, bot: GameBot, game_id: str, who: str, name: str, dice: int = 2) -> None:
    """``who`` rolls ``dice`` on the game's board (every die a five in these tests: 10 points a turn)."""
    placed = await bot.platform.boards.where(game_id)
    assert placed is not None
    state = await bot.platform.service("hog").load(game_id)
    await press(fake, who, name, fake.message(placed[1]), f"hog:move:{game_id}:{state.version}:{dice}")


NAMES = dict(PLAYERS)


async def test_a_swiss_night_of_six_with_a_leaver_a_bye_and_a_no_show(
    discord_world: tuple[FakeDiscord, GameBot], clock: FakeClock
) -> None:
    fake, bot = discord_world
    director = bot.platform.tournaments
    settings = [option("format", "swiss"), option("rounds", 3), option("goal", 10), option("signup", 0)]
    stream, message = await opened(fake, bot, "hog", settings)
    await join_all(fake, bot, stream, message, PLAYERS[1:])
    tid = (await director.book.load(stream)).tournament_id

    asked = await fake.interact(tournament_command("hog", "start", who="201", person="Player1", manager=False))
    refused = await followup_to(fake, asked)
    assert refused.body["content"] == "Only the organiser, or a member who may manage the server, can start it."
    assert not (await director.book.load(stream)).started

    after = len(fake.sent)
    await press(fake, "200", "Player0", fake.message(message), f"tournament:{tid}:start")
    board = await board_edit(fake, message, after, "Round 1")
    assert board["embeds"][0]["title"] == f"🏆 Hog tournament {tid} · Swiss"
    t = await director.book.load(stream)
    assert len(current(t).games) == 3
    for table, game_id in zip(current(t).tables, current(t).games, strict=True):
        placed = await bot.platform.boards.where(game_id)
        assert placed is not None
        posted = fake.message(placed[1])
        assert all(f"<@{p}>" in texts(posted)[0] for p in table) and is_board(posted), posted
        await move(fake, bot, game_id, table[0], NAMES[table[0]])  # 10 points: the first mover wins
    await director.settled()
    t = await director.book.load(stream)
    assert len(t.rounds) == 2 and sorted(s.points for s in t.standings()) == [0, 0, 0, 1, 1, 1]

    # round 2: one plays, one leaves mid-game (their game resigned), one never moves
    (a, a_game), (b, b_game), (_, c_game) = zip(current(t).tables, current(t).games, strict=True)
    await move(fake, bot, a_game, a[0], NAMES[a[0]])
    after = len(fake.sent)
    await press(fake, b[1], NAMES[b[1]], fake.message(message), f"tournament:{tid}:leave")
    await board_edit(fake, message, after, "· left")
    assert (await bot.platform.service("hog").load(b_game)).is_over
    after = len(fake.sent)
    await clock.advance(601)  # c[0] never moves: the turn timer forfeits the game
    await board_edit(fake, message, after, "Round 3")
    t = await director.book.load(stream)
    assert t.rounds[1].results[c_game] == ("loss", "win")
    assert len(current(t).byes) == 1 and b[1] not in str(current(t).tables)
    met = [frozenset(table) for r in t.rounds for table in r.tables]
    assert len(met) == len(set(met)), "no rematch"

    after = len(fake.sent)
    for table, game_id in zip(current(t).tables, current(t).games, strict=True):
        await move(fake, bot, game_id, table[0], NAMES[table[0]])
    await director.settled()
    final = await board_edit(fake, message, after, "Finished")
    t = await director.book.load(stream)
    assert t.status == "finished"
    winner = t.standings()[0]
    assert f"Winner: {winner.name}" in final["embeds"][0]["description"]
    assert final["embeds"][0]["image"]["url"] == "attachment://standings.png"
    assert not final.get("components"), "a finished tournament's board has no buttons"
    assert [s.points for s in t.standings()] == sorted((s.points for s in t.standings()), reverse=True)


async def start(fake: FakeDiscord, bot: GameBot, stream: str, message: str, number: int = 1) -> Tournament:
    """The organiser presses *Start*; the tournament once round 1 is posted."""
    t = await bot.platform.tournaments.book.load(stream)
    after = len(fake.sent)
    await press(fake, "200", "Player0", fake.message(message), f"tournament:{t.tournament_id}:start")
    await board_edit(fake, message, after, f"Round {number}")
    return await bot.platform.tournaments.book.load(stream)


async def first_movers_win(fake: FakeDiscord, bot: GameBot, t: Tournament) -> Tournament:
    """Every game of the round won by its first mover (two dice of five: 10 points, the goal)."""
    for table, game_id in zip(current(t).tables, current(t).games, strict=True):
        await move(fake, bot, game_id, table[0], NAMES[table[0]])
    await bot.platform.tournaments.settled()
    return await bot.platform.tournaments.book.load(t.stream_id)


async def test_a_knockout_of_five(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, bot = discord_world
    settings = [option("format", "knockout"), option("goal", 10), option("signup", 0)]
    stream, message = await opened(fake, bot, "hog", settings)
    await join_all(fake, bot, stream, message, PLAYERS[1:5])
    t = await start(fake, bot, stream, message)
    assert len(current(t).games) == 1 and len(current(t).byes) == 3, "seeds 1-3 wait for round 2"
    rounds = 1
    while t.status == "running":
        t = await first_movers_win(fake, bot, t)
        rounds += t.status == "running"
    assert rounds == 3 and len(t.rounds) == 3
    champion = t.standings()[0]
    assert champion.reached == 3 and champion.wins == len([r for r in t.rounds if champion.player in str(r.tables)])
    board = fake.message(message)
    assert f"Winner: {champion.name}" in board["embeds"][0]["description"]

    # the tournament's games were rated: the season's leaderboard has its players; its winner is famous
    season = await fake.interact(subcommand("leaderboard", [{"name": "season", "type": 4, "value": 0}]))
    shown = (await followup_to(fake, season)).body["embeds"][0]
    month = datetime.now(UTC).strftime("%B %Y")
    assert shown["title"] == f"🏆 Hog leaderboard · Season 1 ({month})"
    assert champion.name in shown["description"] and shown["description"].startswith("**1.**")
    missing = await fake.interact(subcommand("leaderboard", [{"name": "season", "type": 4, "value": 9}]))
    assert (await followup_to(fake, missing)).body["embeds"][0][
        "description"
    ] == "There is no season 9: seasons 1 to 1 so far."
    fame = await fake.interact(subcommand("hall-of-fame"))
    said = (await followup_to(fake, fame)).body["embeds"][0]["description"]
    assert said == f"🏆 Tournament `{t.tournament_id}` (knockout): {champion.name}"


async def test_a_cucumber_league_of_seven_at_tables_of_three_and_four(
    discord_world: tuple[FakeDiscord, GameBot],
) -> None:
    fake, bot = discord_world
    settings = [option("format", "round-robin"), option("target", 5), option("cards", 2), option("signup", 0)]
    stream, message = await opened(fake, bot, "cucumber", settings)
    seven = [*PLAYERS, ("206", "Player6")]
    NAMES.update(seven)
    await join_all(fake, bot, stream, message, seven[1:])
    t = await start(fake, bot, stream, message)
    while t.status == "running":
        assert sorted(map(len, current(t).tables)) == [3, 4]
        for table, game_id in zip(current(t).tables, current(t).games, strict=True):
            assert await bot.platform.boards.where(game_id), "each table's game is posted"
            for who in table:  # everyone hands their seat to a stand-in: the bots play the game out
                left = await fake.interact(
                    {**tournament_command("cucumber", "x", who=who, person=NAMES[who]),
                     "data": {"id": "1", "name": "cucumber", "type": 1, "options": [{"name": "leave", "type": 1}]}}
                )  # fmt: skip
                await answer_to(fake, left)
        await bot.platform.tournaments.settled()
        t = await bot.platform.tournaments.book.load(stream)
    assert t.status == "finished" and len(t.rounds) == 3
    assert sum(s.games for s in t.standings()) == 7 * 3


async def test_a_restart_in_the_middle_of_a_round(
    tmp_path: Any, fake_discord: FakeDiscord, solved_folder: Any, clock: FakeClock
) -> None:
    fake, db = fake_discord, tmp_path / "hog.sqlite3"
    async with running_bot(fake, db, solved_folder, clock) as bot:
        settings = [option("format", "swiss"), option("rounds", 2), option("goal", 10), option("signup", 0)]
        stream, message = await opened(fake, bot, "hog", settings)
        await join_all(fake, bot, stream, message, PLAYERS[1:4])
        t = await start(fake, bot, stream, message)
        (first, game), *rest = zip(current(t).tables, current(t).games, strict=True)
        await move(fake, bot, game, first[0], NAMES[first[0]])
        await bot.platform.tournaments.settled()
    async with running_bot(fake, db, solved_folder, clock) as bot:
        t = await bot.platform.tournaments.book.load(stream)
        assert len(t.rounds) == 1 and set(current(t).results) == {game}
        after = len(fake.sent)
        for table, other in rest:
            await move(fake, bot, other, table[0], NAMES[table[0]])
        await board_edit(fake, message, after, "Round 2")
        t = await bot.platform.tournaments.book.load(stream)
        t = await first_movers_win(fake, bot, t)
        assert t.status == "finished"


async def test_sign_up_ends_by_the_clock_and_organisers_drop_and_cancel(
    discord_world: tuple[FakeDiscord, GameBot], clock: FakeClock
) -> None:
    fake, bot = discord_world
    director = bot.platform.tournaments
    _, lonely_board = await opened(fake, bot, "hog", [option("format", "knockout"), option("signup", 1)])
    assert "Starts <t:" in fake.message(lonely_board)["embeds"][0]["description"]
    after = len(fake.sent)
    await clock.advance(90)  # nobody joined: called off when sign-up ends (by the log's wall time: a margin)
    board = await board_edit(fake, lonely_board, after, "Cancelled")
    assert board["embeds"][0]["description"].startswith("Cancelled: only 1 player when sign-up ended.")
    assert not board.get("components")

    stream, message = await opened(fake, bot, "hog", [option("format", "swiss"), option("signup", 2)])
    await join_all(fake, bot, stream, message, PLAYERS[1:4])
    t = await director.book.load(stream)
    elsewhere = {**fake.message(message), "id": lonely_board}  # this tournament's button on another message
    forged = await press(fake, "201", "Player1", elsewhere, f"tournament:{t.tournament_id}:join")
    assert forged["data"]["content"] == "That button is not one of mine.", "a button only acts on its own board"
    dropped = await fake.interact(drop_command("203", who="201", person="Player1", manager=False))
    said = (await followup_to(fake, dropped)).body["content"]
    assert said == "Only the organiser, or a member who may manage the server, can drop a player."
    after = len(fake.sent)
    await clock.advance(150)  # sign-up ends (a margin past its 120 s): four players, it starts by itself
    await board_edit(fake, message, after, "Round 1")
    t = await director.book.load(stream)
    assert t.started and len(current(t).games) == 2

    organiser_drops = await fake.interact(drop_command("203"))
    assert (await followup_to(fake, organiser_drops)).body["content"].startswith("Player3 is out of Hog tournament")
    t = await director.book.load(stream)
    assert "203" in t.gone
    cancelled = await fake.interact(tournament_command("hog", "cancel"))
    assert (await followup_to(fake, cancelled)).body["content"].endswith("is cancelled.")
    final = fake.message(message)
    assert final["embeds"][0]["description"].startswith("Cancelled by its organiser.") and not final["components"]
    later = await fake.interact(tournament_command("hog", "start"))
    assert "There is no tournament signing up or running here" in (await answer_to(fake, later)).body["data"]["content"]
