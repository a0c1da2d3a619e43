"""What every game module must do, stated once (as ``tests/storage/store_contract.py`` states the
event store's guarantees): a game's test subclasses ``GameContract``, says which module it is, plays
a finished and a running game through the real platform, and says what its hidden items are.

Checked on those logs, as stored: the module passes the load check; every event survives its codec
byte for byte; ``narrate`` tells the states ``evolve`` folds, and ``tell`` in pieces what ``narrate``
tells whole; ``summary`` reads every prefix of a log
and the whole log as the read models hold it, and a log summed up in pieces (``summing``) reads the
same; ``redraw`` gives back every recorded draw from the revealed seed (``verify`` says fair); and no
public view of the running game shows a hidden item.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from bot.platform.codec import from_records
from bot.platform.compose import Platform, platform
from bot.platform.contract import check
from bot.platform.fairness import FAIR, UNCHECKED, verify
from bot.platform.registry import AnyGame
from bot.platform.settings import Settings


@dataclass(frozen=True)
class Played:
    platform: Platform
    game: AnyGame
    finished: str
    running: str

    async def log(self, game_id: str) -> list[Any]:
        return from_records(self.game, await self.platform.store.load(game_id))


class GameContract:
    name: ClassVar[str]
    """The module's name."""
    modules: ClassVar[Mapping[str, str] | None] = None
    """Where the platform finds it (``None``: the installed games)."""

    async def play(self, p: Platform) -> tuple[str, str]:
        """Play one game to its end and another part of the way, through ``p``'s service; their ids."""
        raise NotImplementedError

    def leaks(self, view: object, state: Any) -> Sequence[object]:
        """The items hidden in ``state`` (a card in a hand, an undealt card) that ``view`` shows."""
        return ()

    @pytest.fixture
    async def played(self, tmp_path: Path) -> AsyncIterator[Played]:
        settings = Settings(db=tmp_path / "games.sqlite3", cache=tmp_path / "solutions")
        async with platform(settings, self.modules) as p:
            finished, running = await self.play(p)
            yield Played(p, p.games[self.name], finished, running)

    async def test_the_module_passes_the_load_check(self, played: Played) -> None:
        check(played.game, self.name)

    async def test_every_event_survives_its_codec(self, played: Played) -> None:
        for game_id in (played.finished, played.running):
            stored = await played.platform.store.load(game_id)
            events = from_records(played.game, stored)
            again = [played.game.encode(event) for event in events]
            assert again == [(s.type.partition(".")[2], s.schema, s.data) for s in stored]

    async def test_narrate_tells_the_states_evolve_folds(self, played: Played) -> None:
        for game_id in (played.finished, played.running):
            events = await played.log(game_id)
            state = played.game.initial()
            told = list(played.game.narrate(events))
            assert [event for event, _, _ in told] == events
            for (_, after, lines), event in zip(told, events, strict=True):
                state = played.game.evolve(state, event)
                assert after == state and all(isinstance(line, str) for line in lines)

    async def test_a_log_told_in_pieces_is_told_as_narrate_tells_it_whole(self, played: Played) -> None:
        """What the service keeps of a move it stored (told after the story so far) is what telling
        the log again gives (a retried click, a board's edit after a restart)."""
        tell = getattr(played.game, "tell", None)
        if tell is None:
            pytest.skip("the module tells whole logs only (no contract.Storyteller)")
        for game_id in (played.finished, played.running):
            events = await played.log(game_id)
            whole = list(played.game.narrate(events))
            for cut in range(len(events) + 1):
                story, first = tell(None, events[:cut])
                _, rest = tell(story, events[cut:])
                assert [*first, *rest] == whole
            current = await played.platform.service(self.name).current(game_id)
            assert current.told == tuple(whole[-len(current.told) :]) and current.state == whole[-1][1]

    async def test_summary_reads_every_prefix_and_the_whole_log_as_stored(self, played: Played) -> None:
        views = await played.platform.settled_views()
        for game_id in (played.finished, played.running):
            events = await played.log(game_id)
            for n in range(1, len(events) + 1):
                summary = played.game.summary(events[:n])
                assert (summary.game_id, summary.game, summary.version) == (game_id, self.name, n)
            row = await views.game(game_id)
            whole = played.game.summary(events)
            assert row is not None and (row.status, row.live, row.scores) == (
                whole.status,
                whole.live,
                tuple(s.score for s in whole.seats),
            )
        assert not (await views.game(played.finished) or whole).live
        assert (await views.game(played.running) or whole).live

    async def test_a_log_summed_up_in_pieces_has_the_whole_logs_summary(self, played: Played) -> None:
        summing = getattr(played.game, "summing", None)
        if summing is None:
            pytest.skip("the module sums up whole logs only (no contract.Summarizer)")
        for game_id in (played.finished, played.running):
            events = await played.log(game_id)
            for cut in range(len(events) + 1):  # every split in two: after the first `cut` events
                tally, first = summing(None, events[:cut])
                _, whole = summing(tally, events[cut:])
                assert whole == played.game.summary(events)
                if cut:
                    assert first == played.game.summary(events[:cut])

    async def test_redraw_gives_back_every_draw_from_the_seed(self, played: Played) -> None:
        service, kept = played.platform.service(self.name), played.platform.kept
        verdict = await verify(service, kept, played.finished)
        assert verdict.status == (FAIR if played.game.draws else UNCHECKED), verdict.text

    async def test_no_public_view_of_a_running_game_shows_a_hidden_item(self, played: Played) -> None:
        state = played.game.initial()
        for event in await played.log(played.running):
            state = played.game.evolve(state, event)
            assert not state.is_over
            assert list(self.leaks(played.game.public(state), state)) == []

    async def test_the_platform_gives_a_games_public_view_as_it_stands(self, played: Played) -> None:
        state = played.game.initial()
        for event in await played.log(played.running):
            state = played.game.evolve(state, event)
        view = await played.platform.boards.view(played.running)
        assert view is not None and (view.game, view.game_id, view.version) == (
            self.name,
            played.running,
            state.version,
        )
        assert view.public == played.game.public(state) and list(self.leaks(view.public, state)) == []
        assert await played.platform.boards.view("no-such-game") is None
