"""Each Discord server's own settings, set by its admins (members who may manage the server): the
season length, which games are played there, whether bots may sit in rated games, and each game's
own (Hog: the default rule set and goal, the turn and challenge timeouts). Stored as events of the
stream ``@settings:<server>``, so a change is kept with who made it and when, and one server's
settings never touch another's. A setting never set is its default (a game's timeouts: the
operator's environment variables)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import msgspec

from bot.platform.contract import Refusal, ServerOptions, Setting, optional
from bot.platform.registry import RECORD, Games
from storage.events import EventStore, NewEvent, WrongExpectedVersion

PREFIX = f"{RECORD}settings:"
TYPE = "settings.changed"
SEASONS = ("month", "week", "none")
DAY = 86_400


class Changed(msgspec.Struct, frozen=True):
    key: str
    value: str
    by: str
    by_name: str


def choice(*allowed: str) -> Callable[[str], str]:
    def read(value: str) -> str:
        value = value.strip().lower()
        if value not in allowed:
            raise Refusal(f"{value[:20]!r} is not one of {', '.join(allowed)}.")
        return value

    return read


def whole_number(lowest: int, highest: int) -> Callable[[str], str]:
    def read(value: str) -> str:
        value = value.strip()
        if not value.isdigit() or not lowest <= int(value) <= highest:
            raise Refusal(f"{value[:20]!r} is not a whole number from {lowest} to {highest}.")
        return str(int(value))

    return read


YES_NO = choice("yes", "no")


def platform_settings(games: Games) -> list[Setting]:
    """The settings every server has, whatever its games."""
    found = [
        Setting("season", "how long a season of ratings lasts: month, week or none", "month", choice(*SEASONS)),
        Setting("bots-rated", "whether games with a bot at the table are rated (yes or no)", "no", YES_NO),
    ]
    for game in games.values():
        found.append(Setting(f"{game.name}-enabled", f"whether {game.title} is played here (yes or no)", "yes", YES_NO))
        if (options := optional(game, ServerOptions)) is not None:
            found += options.server_settings
    return found


@dataclass(frozen=True)
class Chosen:
    """A server's settings as its log stands: each key's value, and every change in order with when it was made."""

    values: Mapping[str, str]
    changes: Sequence[tuple[float, Changed]] = ()
    version: int = 0

    def __getitem__(self, key: str) -> str:
        return self.values[key]


class ServerSettings:
    """Every server's settings, read from the log (what was read kept, so each read loads only what is new)."""

    def __init__(self, store: EventStore, games: Games) -> None:
        self.store = store
        self.known = {s.key: s for s in platform_settings(games)}
        self._kept: dict[str, Chosen] = {}

    def defaults(self) -> dict[str, str]:
        return {key: s.default for key, s in self.known.items()}

    async def of(self, server: str | None) -> Chosen:
        """The server's settings (the defaults outside a server)."""
        if server is None:
            return Chosen(self.defaults())
        kept = self._kept.get(server)
        new = await self.store.load(f"{PREFIX}{server}", after_version=kept.version if kept else 0)
        if kept is not None and not new:
            return kept
        values = dict(kept.values) if kept else self.defaults()
        changes = list(kept.changes) if kept else []
        for stored in new:
            changed = msgspec.json.decode(stored.data, type=Changed)
            if changed.key in self.known:  # a setting of a game no longer installed is kept, not shown
                values[changed.key] = changed.value
            changes.append((stored.recorded_at, changed))
        found = Chosen(values, tuple(changes), new[-1].version if new else 0)
        self._kept[server] = found
        return found

    async def set(
        self, server: str, key: str, value: str, by: str, by_name: str, manages: bool, command_id: str | None = None
    ) -> str:
        """Set ``key`` to ``value`` in ``server`` (for a member who ``manages`` it); the value as stored."""
        if not manages:
            raise Refusal("Only members who may manage this server can change its settings.")
        setting = self.known.get(key.strip().lower())
        if setting is None:
            raise Refusal(f"There is no setting {key[:30]!r}: choose one of {', '.join(self.known)}.")
        stored = setting.read(value)
        while True:
            now = await self.of(server)
            event = Changed(setting.key, stored, by, by_name)
            try:
                await self.store.append(
                    f"{PREFIX}{server}", [NewEvent(TYPE, 1, msgspec.json.encode(event))], now.version, command_id
                )
            except WrongExpectedVersion:
                continue
            return stored
