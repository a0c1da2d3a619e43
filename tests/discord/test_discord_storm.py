"""A SIGKILL storm: 30 house games played at once through the real bot process, with double clicks
and forfeits, the process killed at random moments and restarted. At the end every acknowledged
move is in the log once, no game is stuck or invisible, and every board shows its game as the log
tells it (``Road.board`` of the stored state)."""

from __future__ import annotations

import asyncio
import contextlib
import random
from pathlib import Path
from typing import Any

from bot.games.hog.board import board as board_of_state
from hog_core.game import GameState, replay
from storage.events import StoredEvent
from storage.sqlite.store import SqliteEventStore
from tests.discord.boards import buttons as board_buttons
from tests.discord.boards import is_board, status, texts
from tests.discord.discord_world import BotProcess, board_of, button, click, subcommand
from tests.discord.fake_discord import FakeDiscord
from tests.helpers import hog_events

GAMES, ROUNDS, KILLS = 30, 8, 4


def version_of(message: dict[str, Any]) -> int | None:
    """The game version a board message's move buttons act on (``None`` without move buttons)."""
    ids = [c["custom_id"] for c in board_buttons(message) if "custom_id" in c]
    moves = [i for i in ids if i.startswith("hog:move:")]
    return int(moves[0].split(":")[3]) if moves else None


async def test_a_sigkill_storm_loses_nothing(
    bot_process: BotProcess, fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake, rng = fake_discord, random.Random(13)
    await bot_process.start()
    players = [(str(3000 + i), f"P{i}") for i in range(GAMES)]
    commands = [await fake.interact(subcommand("house", who=who, person=name)) for who, name in players]
    boards = [await board_of(fake, c) for c in commands]
    games = {
        button(b, "3").split(":")[2]: (players[i], fake.messages[f"original:token{c}"]["id"])
        for i, (c, b) in enumerate(zip(commands, boards, strict=True))
    }

    acknowledged: dict[str, tuple[str, int | None]] = {}  # answered: its game, the version the answer showed
    doubles: list[tuple[str, str]] = []
    # the last round always ends in a kill: after it no click repairs a board, the restart must
    kill_rounds = {*rng.sample(range(ROUNDS - 1), KILLS - 1), ROUNDS - 1}
    for round_ in range(ROUNDS):
        sent: dict[str, str] = {}  # interaction -> game
        # in a kill round Discord sits on every answer: the bot stores each move, then waits to answer
        held = fake.hold(lambda method, path: path.endswith("/callback")) if round_ in kill_rounds else None
        for game_id, ((who, name), message_id) in games.items():
            message = fake.message(message_id)
            if version_of(message) is None:
                continue  # over
            if rng.random() < 0.04:
                sent[await fake.interact(subcommand("forfeit", who=who, person=name))] = game_id
                continue
            label = str(rng.randint(1, 6))
            rows = message["components"]
            custom_id = next(c["custom_id"] for c in board_buttons({"components": rows}) if c["label"] == label)
            first = await fake.interact(click(custom_id, message, who, name))
            sent[first] = game_id
            if rng.random() < 0.25:  # a double click: the same button again at once
                second = await fake.interact(click(custom_id, message, who, name))
                sent[second] = game_id
                doubles.append((first, second))
        if held is not None:  # half the round stored and waiting on Discord, the rest in flight: kill
            for _ in range(len(sent) // 2):
                await asyncio.wait_for(held.arrivals.get(), 60)
            await bot_process.kill()
            held.released.set()  # what it sat on dies with the process
            fake.holds.remove(held)
            await bot_process.start()
        else:
            for interaction in sent:
                await fake.response(interaction, 60)
        for interaction, game_id in sent.items():
            answered = fake.answered(interaction)
            if answered is not None and is_board(answered.body):  # a board: a move or a forfeit
                acknowledged[interaction] = (game_id, version_of(answered.body["data"]))

    store = await SqliteEventStore.open(tmp_path / "hog.sqlite3")
    try:
        logs = {game_id: await store.load(game_id) for game_id in games}
    finally:
        await store.close()
    states = {game_id: replay(hog_events(log)) for game_id, log in logs.items()}

    # every acknowledged move is in the log (the bot answers only after storing), each command once,
    # and of two clicks at once at most one moved
    batches = command_batches(logs)
    assert all(len(places) == 1 for places in batches.values()), "a command stored twice"
    assert not [pair for pair in doubles if pair[0] in batches and pair[1] in batches]
    for game_id, shown in acknowledged.values():
        state = states[game_id]
        assert state.is_over if shown is None else state.version >= shown
    assert len(acknowledged) > GAMES

    # no game stuck or invisible, every board equal to its log (the restart's reconcile included)
    def boards_match(_: object = None) -> bool:
        return all(shows(fake.message(message_id), states[game_id]) for game_id, (_, message_id) in games.items())

    with contextlib.suppress(TimeoutError):  # the restart's reconcile edits boards on the side
        await fake.wait_for(boards_match, 60)
    wrong = {
        game_id: (texts(fake.message(message_id)), version_of(fake.message(message_id)), states[game_id].version)
        for game_id, (_, message_id) in games.items()
        if not shows(fake.message(message_id), states[game_id])
    }
    assert not wrong, wrong
    assert sum(state.is_over for state in states.values()) >= 1
    assert all(state.version > 1 for state in states.values()), "every game was played"


def shows(message: dict[str, Any], state: GameState) -> bool:
    if not is_board(message):
        return False  # invisible
    expected = board_of_state(state)
    if status(message) != expected.status:
        return False
    return version_of(message) == (None if state.is_over else state.version)


def command_batches(logs: dict[str, list[StoredEvent]]) -> dict[str, set[tuple[str, int]]]:
    """Each command id, with where its batches start: one place means stored once."""
    batches: dict[str, set[tuple[str, int]]] = {}
    for game_id, log in logs.items():
        previous = None
        for event in log:
            if event.command_id is not None and event.command_id != previous:
                batches.setdefault(event.command_id, set()).add((game_id, event.version))
            previous = event.command_id
    return batches
