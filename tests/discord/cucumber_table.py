"""Playing Cucumber through the fake Discord as people do: open a table, join, press Show my hand, press
a card; and a watch over every request the bot sends, for a card of a hand that nobody may see yet."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from bot.games.cucumber.module import CucumberGame
from bot.platform.codec import from_records
from cucumber_core.cards import SHORT_NUMS, SUIT_SYMBOLS, Card
from cucumber_core.events import CardPlayed, DealerCut, HandDealt
from cucumber_core.game import replay
from storage.events import EventStore
from tests.discord.boards import buttons, texts
from tests.discord.discord_world import press, subcommand
from tests.discord.fake_discord import FakeDiscord, Sent

CARD_TEXT = re.compile(r"(10|[2-9JQKA])([♣♦♥♠])")
CARD_ID = re.compile(r"cucumber:card:[^:\"]*:[^:\"]*:(\d+)")
EPHEMERAL = 64
CUCUMBER = CucumberGame()


def components(message: dict[str, Any]) -> list[dict[str, Any]]:
    """A message's buttons."""
    return buttons(message)


def custom_id(message: dict[str, Any], label: str) -> str:
    return str(next(c["custom_id"] for c in components(message) if c.get("label") == label))


def playable(message: dict[str, Any]) -> list[str]:
    """The enabled card buttons of a hand message."""
    return [
        c["custom_id"]
        for c in components(message)
        if c["custom_id"].startswith("cucumber:card:") and not c.get("disabled")
    ]


def section(message: dict[str, Any], name: str) -> str | None:
    """The words under a board's bold heading ``name`` (``Scores``, ``Trick 2 of 5``)."""
    found = next((t for t in texts(message) if t.startswith(f"**{name}**")), None)
    return None if found is None else found.split("\n", 1)[-1]


def to_play(message: dict[str, Any]) -> str | None:
    """The name of whoever is to play, from the board's line that says so."""
    turn = next((t for t in texts(message) if t.startswith("⏱️ **")), None)
    return None if turn is None else turn.split("**")[1]


async def open_table(
    fake: FakeDiscord, who: str, name: str, options: list[dict[str, Any]]
) -> tuple[str, dict[str, Any]]:
    """``/cucumber new`` by ``who``: the game's id and its board message."""
    command = await fake.interact(subcommand("new", options, who, name, group="cucumber"))
    await fake.wait_for(lambda s: s.method == "PATCH" and s.path.endswith(f"token{command}/messages/@original"))
    board = fake.messages[f"original:token{command}"]
    return custom_id(board, "Join").split(":")[2], board


async def open_hand(
    fake: FakeDiscord, who: str, name: str, board: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """``who`` presses Show my hand: the answer and their hand message."""
    answer = await press(fake, who, name, board, custom_id(board, "Show my hand"))
    interaction = next(i for i, u in reversed(fake.users.items()) if u == who)
    return answer, fake.messages.get(f"original:token{interaction}", {})


@dataclass
class LeakWatch:
    """Awaited with every request as the fake receives it: the cards it names (as text or in a card
    button) are checked against the hands held at that instant, read from the bot's own log. A card
    held by someone is a leak unless it was shown face up already (the cut, or a card played in the
    last few hands: decks are reshuffled each hand, so a card may be held again), or the message is
    visible to its holder alone."""

    fake: FakeDiscord
    store: EventStore
    """The bot's event store, opened by the test: it outlives a restart of the bot."""
    games: set[str] = field(default_factory=set)
    leaks: list[str] = field(default_factory=list)
    checked: int = 0
    own_cards_shown: int = 0
    """Private messages that named a card of their viewer's own hand (the watch sees hands at all)."""

    async def __call__(self, sent: Sent) -> None:
        if sent.body is None:
            return
        text = json.dumps(sent.body, ensure_ascii=False)
        named = {_card(m) for m in CARD_TEXT.finditer(text)} | {int(m[1]) for m in CARD_ID.finditer(text)}
        viewer = self.viewer(sent)
        for game_id in self.games:
            events = from_records(CUCUMBER, await self.store.load(game_id))
            state, shown = replay(events), face_up(events)
            for seat, hand in zip(state.seats, state.hands, strict=False):
                secret = (set(hand) - shown) & named
                if secret and seat.id == viewer:
                    self.own_cards_shown += 1
                elif secret:
                    self.leaks.append(
                        f"{sent.method} {sent.path} shows {sorted(secret)} of {seat.name} to {viewer or 'all'}"
                    )
        self.checked += 1

    def viewer(self, sent: Sent) -> str | None:
        """Who alone sees what ``sent`` puts up, or ``None`` when the channel does."""
        parts = sent.path.strip("/").split("/")
        if parts[0] == "interactions":
            interaction, kind = parts[1], sent.body.get("type")
            flags = (sent.body.get("data") or {}).get("flags", 0)
            if kind == 7:
                flags = self.fake.message(self.fake._clicked[interaction]).get("flags", 0)
            return self.fake.users[interaction] if flags & EPHEMERAL else None
        if parts[0] == "webhooks":
            interaction = parts[2].removeprefix("token")
            flags = sent.body.get("flags", 0)
            if parts[-1] == "@original":
                clicked = self.fake._clicked.get(interaction)
                original = self.fake.message(clicked) if clicked else self.fake.messages.get(f"original:{parts[2]}", {})
                flags = original.get("flags", 0)
            return self.fake.users.get(interaction) if flags & EPHEMERAL else None
        return None


def _card(match: re.Match[str]) -> Card:
    return SUIT_SYMBOLS.index(match[2]) * 13 + SHORT_NUMS.index(match[1])


def face_up(events: list[Any]) -> set[Card]:
    """Cards everyone has seen: the cut, and those played in the current hand and the two before
    (the board shows this hand and the last, and a board edit in flight may show the table one
    press behind the log, which a fast player's next card may already have moved to a new hand)."""
    shown: set[Card] = set()
    hands: list[set[Card]] = [set()]
    for event in events:
        if isinstance(event, DealerCut):
            shown |= set(event.cards)
        elif isinstance(event, HandDealt):
            hands.append(set())
        elif isinstance(event, CardPlayed):
            hands[-1].add(event.card)
    return shown.union(*hands[-3:])
