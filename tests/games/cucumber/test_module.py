"""Cucumber on the platform: a table to the last card through the real service, store, read models and
timers, with bots answering in the same batch and a stand-in for a player whose time runs out."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.games.cucumber.moves import StaleHand, leave, play
from bot.platform.compose import Platform, platform
from bot.platform.contract import Commands, Outcome, Refusal, Reminder
from bot.platform.service import GameService
from bot.platform.settings import Settings
from cucumber_core import strong
from cucumber_core.events import CardPlayed, GameCreated, HandDealt, LobbyOpened, Seat, SeatTakenOver
from cucumber_core.game import Command, GameState, JoinLobby, OpenLobby, Phase, ReturnToSeat, StartGame, bot_seat
from cucumber_core.views import SeatView, seat_view
from tests.fake_clock import FakeClock
from tests.helpers import Seeded, within
from tests.platform.listening import listening

ANN, BOB = Seat("1", "Ann"), Seat("2", "Bob")
Cucumber = GameService[GameState, Any, Any]


@pytest.fixture
async def world(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Platform]:
    async with platform(Settings(db=tmp_path / "c.sqlite3", cache=tmp_path), chance=Seeded(7), clock=clock) as p:
        yield p


async def table(service: Cucumber, *guests: Seat, **options: Any) -> Outcome[GameState, Any]:
    await service.create("t1", OpenLobby("t1", ANN, 4, num_cards=3, target=11, place="c1", **options), "open")
    for i, guest in enumerate(guests):
        await service.execute("t1", joining(guest), f"join{i}")
    return await service.execute("t1", lambda s, c: [StartGame(ANN.id, fill="magic")], "start")


def joining(guest: Seat) -> Commands[GameState, Command]:
    return lambda state, chance: [JoinLobby(guest)]


async def play_out(service: Cucumber, state: GameState) -> GameState:
    """Each person plays their first legal card until the game ends."""
    for move in range(500):
        if state.is_over:
            return state
        seat = state.to_play
        assert seat is not None and state.bots[seat] is None
        player, card = state.seats[seat].id, state.legal_cards(seat)[0]
        state = (await service.execute("t1", play(player, card, state.moment), f"m{move}")).state
    raise AssertionError("the game did not end")


async def test_a_table_is_dealt_and_played_to_the_end_with_bots_answering_in_the_batch(world: Platform) -> None:
    service: Cucumber = world.service("cucumber")
    started = await table(service, BOB)
    assert [s.name for s in started.state.seats] == ["Ann", "Bob", "Magic bot", "Magic bot 2"]
    assert started.state.phase is Phase.PLAY  # cut and dealt in the start's batch, bots played up to a person
    assert "Cut for dealer:" in " ".join(started.story)
    final = await play_out(service, started.state)
    assert final.loser is not None and max(final.scores) >= 11
    stored = await world.store.load("t1")
    assert stored[0].type == "cucumber.LobbyOpened" and [s.version for s in stored] == list(range(1, len(stored) + 1))
    bot_cards = [s for s in stored if s.type == "cucumber.CardPlayed" and (s.command_id or "").startswith("m")]
    assert bot_cards, "bots' cards are stored with the move that prompted them"
    assert (await service.load("t1")) == final  # the log folds to the same game
    row = await (await world.settled_views()).game("t1")
    assert row is not None and row.status == "finished" and not row.live
    assert [s.result for s in row.seats].count("loss") == 1 and row.seats[final.loser].result == "loss"
    assert row.fields == {"players": "4", "target": "11", "cards": "3", "cucumbers": "off"}


async def test_a_hand_shown_before_the_table_moved_on_is_stale(world: Platform) -> None:
    service: Cucumber = world.service("cucumber")
    state = (await table(service, BOB)).state
    seat = state.to_play
    assert seat is not None
    player, card = state.seats[seat].id, state.legal_cards(seat)[0]
    with pytest.raises(StaleHand):
        await service.execute("t1", play(player, card, "1.9.9"), "late")
    assert (await service.load("t1")).version == state.version  # nothing stored
    assert seat in (0, 1)  # Ann or Bob: the bots have played up to a person
    other = state.seats[1 - seat].id
    with pytest.raises(Refusal, match=r"turn, not yours\."):
        await service.execute("t1", play(other, card, state.moment), "wrong")


async def test_a_person_who_leaves_is_played_for_and_can_come_back(world: Platform) -> None:
    service: Cucumber = world.service("cucumber")
    await table(service, BOB)
    left = await service.execute("t1", leave(BOB.id), "leave")
    assert "Bob left the table: the strong bot plays their seat." in left.story
    state = left.state
    assert state.bots[1] == "strong" and (state.to_play != 1 or state.is_over)
    back = await service.execute("t1", lambda s, c: [ReturnToSeat(BOB.id)], "back")
    assert back.state.bots[1] is None


async def test_an_idle_player_is_reminded_played_for_and_after_three_turns_marked_away(
    world: Platform, clock: FakeClock
) -> None:
    service: Cucumber = world.service("cucumber")
    async with listening(world.timers) as heard:
        await service.create("t1", OpenLobby("t1", ANN, 3, num_cards=5, target=40, turn_timeout=60), "open")
        state = (await service.execute("t1", lambda s, c: [StartGame(ANN.id, fill="fimp")], "start")).state
        assert [d.kind for d in world.timers.pending("t1")] == ["warn", "turn"]
        for missed in (1, 2, 3):
            await clock.advance(45)
            assert await within(heard.reminders.get()) == Reminder(
                "1", "it's your turn: 15 seconds before a bot plays for you."
            )
            await clock.advance(15)
            state = (await within(heard.fired.get())).state
            assert state.bots[0] == (None if missed < 3 else "strong")
            assert state.is_over or state.timeouts[0] == missed or missed == 3
        assert world.timers.pending("t1") == []  # nobody to wait for: the bots played it to the end
        assert state.is_over
        stored = await service.events("t1")
        assert len([e for e in stored if isinstance(e, CardPlayed) and e.auto]) == 3
        assert [e.reason for e in stored if isinstance(e, SeatTakenOver)] == ["away"]


async def test_a_table_nobody_starts_closes(world: Platform, clock: FakeClock) -> None:
    async with listening(world.timers) as heard:
        await world.service("cucumber").create("t1", OpenLobby("t1", ANN, 3, lobby_timeout=300), "open")
        await clock.advance(301)
        outcome = await within(heard.fired.get())
        assert outcome.state.closed == "expired"
        assert outcome.story == ("Nobody started the game in time: the table closed.",)
        row = await (await world.settled_views()).game("t1")
        assert row is not None and row.status == "expired" and not row.live


def test_bot_seats_are_named_apart() -> None:
    assert bot_seat("magic", [ANN, bot_seat("magic", [ANN])]).name == "Magic bot 2"
    assert {GameCreated, HandDealt, LobbyOpened}


async def test_the_strong_bot_searches_aside_at_a_big_table_and_plays_the_same_card(
    world: Platform, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a table of six the strong bot's searches run in a thread (the event loop answers other games
    meanwhile); at a table of four on the loop; either way the card is the one its seeded search picks."""
    import threading

    from bot.games.cucumber import module

    where: list[tuple[int, bool]] = []  # each search's table size, and whether it ran on the event loop
    searched = module.bot_card

    def watched(state: GameState, seat: int, bot: str, view: SeatView | None = None) -> Any:
        if strong.searches(seat_view(state, seat)):
            where.append((len(state.seats), threading.current_thread() is threading.main_thread()))
        return searched(state, seat, bot, view)

    monkeypatch.setattr(module, "bot_card", watched)
    service: Cucumber = world.service("cucumber")
    for players, game_id in ((6, "big"), (4, "small")):
        await service.create(game_id, OpenLobby(game_id, ANN, players, num_cards=5, place="c1"), f"open-{game_id}")
        started = await service.execute(game_id, lambda s, c: [StartGame(ANN.id, fill="strong")], f"start-{game_id}")
        await play_out_game(service, game_id, started.state)
    assert {(n, on_loop) for n, on_loop in where} == {(6, False), (4, True)}
    for game_id in ("big", "small"):  # the stored cards are the seeded search's, wherever it ran
        state = service.game.initial()
        for event in await service.events(game_id):
            if isinstance(event, CardPlayed) and state.bots[state.to_play or 0] == "strong":
                seat = state.to_play
                assert seat is not None and event.card == searched(state, seat, "strong")
            state = service.game.evolve(state, event)


async def play_out_game(service: Cucumber, game_id: str, state: GameState) -> None:
    for move in range(500):
        if state.is_over:
            return
        seat = state.to_play
        assert seat is not None
        player, card = state.seats[seat].id, state.legal_cards(seat)[0]
        state = (await service.execute(game_id, play(player, card, state.moment), f"{game_id}{move}")).state
    raise AssertionError("the game did not end")


async def test_a_bot_with_one_legal_card_plays_it_without_a_random_source(
    world: Platform, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A forced card needs no decision: the seeded source is made only where a bot has a choice."""
    from bot.games.cucumber import module
    from bot.games.cucumber.hands import seeded as made

    sources: list[str] = []

    def counted(key: str) -> Any:
        sources.append(key)
        return made(key)

    monkeypatch.setattr(module, "seeded", counted)
    service: Cucumber = world.service("cucumber")
    await service.create("r1", OpenLobby("r1", ANN, 3, num_cards=5, place="c1"), "open-r1")
    started = await service.execute("r1", lambda s, c: [StartGame(ANN.id, fill="random")], "start-r1")
    await play_out_game(service, "r1", started.state)
    state, choices = service.game.initial(), set()
    for event in await service.events("r1"):
        seat = state.to_play or 0
        if isinstance(event, CardPlayed) and state.bots[seat] is not None and len(state.legal_cards(seat)) > 1:
            choices.add(f"r1:{state.version}")
        state = service.game.evolve(state, event)
    assert choices and set(sources) == choices


async def test_a_move_of_hundreds_of_events_is_told_again_from_the_log_not_kept(world: Platform) -> None:
    """A table handed to bots plays the rest of the game in one move: the service keeps the game, not
    a state and lines for each of its hundreds of events, and tells the move again when asked."""
    from bot.platform.service import TOLD_KEPT

    service: Cucumber = world.service("cucumber")
    await service.create("h1", OpenLobby("h1", ANN, 6, num_cards=7, place="c1"), "open-h1")
    started = await service.execute("h1", lambda s, c: [StartGame(ANN.id, fill="magic")], "start-h1")
    assert started.state.seat_of(ANN.id) == started.state.to_play  # the bots played up to Ann
    kept = service._kept("h1")
    assert kept is not None and kept.last is not None and kept.last.told == started.told
    handed = await service.execute("h1", leave(ANN.id), "leave-h1")
    assert handed.state.is_over and len(handed.told) > TOLD_KEPT
    kept = service._kept("h1")
    assert kept is not None and kept.last is None and kept.state == handed.state
    assert (await service.current("h1")).told == handed.told
