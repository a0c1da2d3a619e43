"""Cucumber keeps the contract every game keeps (``tests/platform/game_contract.py``), and its public
view never shows a card in anyone's hand or one not dealt."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from bot.games.cucumber.moves import play
from bot.platform.compose import Platform
from cucumber_core.events import Seat
from cucumber_core.game import GameState, OpenLobby, StartGame
from cucumber_core.views import PublicView
from tests.platform.game_contract import GameContract

ANN = Seat("1", "Ann")


class TestCucumberKeepsTheContract(GameContract):
    name = "cucumber"

    async def play(self, p: Platform) -> tuple[str, str]:
        service = p.service("cucumber")
        for game_id in ("done", "going"):
            opening = OpenLobby(game_id, ANN, 3, num_cards=3, target=11, place="c1")
            await service.create(game_id, opening, f"open-{game_id}")
            await service.execute(game_id, lambda s, c: [StartGame(ANN.id, fill="magic")], f"start-{game_id}")
        for game_id, moves in (("done", 500), ("going", 2)):
            state: GameState = await service.load(game_id)
            for move in range(moves):
                if state.is_over:
                    break
                seat = state.to_play
                assert seat is not None
                card = state.legal_cards(seat)[0]
                state = (await service.execute(game_id, play(ANN.id, card, state.moment), f"{game_id}{move}")).state
        return "done", "going"

    def leaks(self, view: object, state: GameState) -> Sequence[object]:
        """The cards in someone's hand that the view shows, and any field of it that could hold a hand
        or the deck (the view is a struct: its fields are all it can say)."""
        assert isinstance(view, PublicView)
        shown = {card for trick in view.tricks for _, card in trick.plays}
        held = {card for hand in state.hands for card in hand}
        fields = [name for name in msgspec.structs.asdict(view) if any(w in name for w in ("hand", "deck", "card"))]
        return sorted(shown & held) + [f for f in fields if f not in ("num_cards", "hand_number")]
