"""A contest's entries: each an event of the contest's stream, the latest of each entrant counting.

A contest is a rule set and a scope (``everyone``, or a Discord server's id); its stream is
``@hog-contest:<rules>:<scope>`` (``@``: a record, not a game; ``bot.platform.registry``). An entry
names its entrant (a Discord user, or a team at the terminal), its team and its table. A new entry of
the same entrant replaces the old one in the standings; every entry stays in the log.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import ClassVar

import msgspec

from bot.platform.contract import Refusal
from bot.platform.names import folded
from bot.platform.registry import RECORD
from hog_core.contest import BadTable, Table, decode, encode
from hog_core.rulesets import RULE_SETS
from storage.events import EventStore, NewEvent, WrongExpectedVersion

log = logging.getLogger(__name__)

EVERYONE = "everyone"
"""The scope of the contest every entry from anywhere joins."""
NAME_LENGTH = 32
NAME = re.compile(r"[\w][\w .'()&+-]{0,31}")
"""A team's name: letters, digits and a few marks, up to 32 characters, starting with a letter or digit."""


class Entered(msgspec.Struct, frozen=True):
    VERSION: ClassVar[int] = 1
    TYPE: ClassVar[str] = "hog.contest.entered"
    rules_version: int
    entrant_id: str
    """Who entered: a Discord user's id, or ``console:<team>`` at the terminal."""
    entrant_name: str
    team: str
    table: str
    """``hog_core.contest.encode``: 100 rows of 100 characters."""


@dataclass(frozen=True, slots=True)
class Contest:
    rules: str
    scope: str = EVERYONE

    @property
    def stream_id(self) -> str:
        return f"{RECORD}hog-contest:{self.rules}:{self.scope}"

    @property
    def title(self) -> str:
        where = "everyone's" if self.scope == EVERYONE else "this server's"
        return f"Hog contest, {RULE_SETS[self.rules].name.split(':')[0]} rules ({where})"


@dataclass(frozen=True, slots=True)
class Entry:
    team: str
    entrant_id: str
    entrant_name: str
    table: Table
    version: int
    """The position of its event in the contest's stream."""


def check_name(team: str, taken: dict[str, str], entrant_id: str, reserved: tuple[str, ...]) -> str:
    """``team`` trimmed, or a ``Refusal`` saying why it cannot be used: ``taken`` maps the names in
    use (folded) to their entrants."""
    team = " ".join(team.split())
    if not NAME.fullmatch(team):
        raise Refusal(
            f"{team[:40]!r} can't be a team's name: up to {NAME_LENGTH} letters, digits, spaces and . ' ( ) & + - _, "
            "starting with a letter or digit."
        )
    if folded(team) in {folded(r) for r in reserved}:
        raise Refusal(f"{team!r} is the name of a reference entry: choose another.")
    owner = taken.get(folded(team))
    if owner is not None and owner != entrant_id:
        raise Refusal(f"Another entrant's team is called {team!r} in this contest: choose another name.")
    return team


class Entries:
    """The entries of every contest, read from the log (each contest's latest read kept by version)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._read: dict[str, tuple[int, dict[str, Entry]]] = {}
        self._set_aside: dict[str, dict[int, str]] = {}

    async def of(self, contest: Contest) -> dict[str, Entry]:
        """The contest's current entries by team, in the order they were last submitted. A stored
        entry that cannot be read is set aside with its reason (``set_aside``): the others stand."""
        version, entries = self._read.get(contest.stream_id, (0, {}))
        new = await self.store.load(contest.stream_id, after_version=version)
        if new:
            entries = dict(entries)
            for stored in new:
                try:
                    entry = msgspec.json.decode(stored.data, type=Entered)
                    table = decode(entry.table)
                except (msgspec.DecodeError, BadTable) as error:
                    log.error("entry %d of %s is set aside: %s", stored.version, contest.stream_id, error)
                    why = f"{type(error).__name__}: {error}"
                    self._set_aside.setdefault(contest.stream_id, {})[stored.version] = why
                    continue
                for team, old in list(entries.items()):
                    if old.entrant_id == entry.entrant_id:
                        del entries[team]
                entries[entry.team] = Entry(entry.team, entry.entrant_id, entry.entrant_name, table, stored.version)
            self._read[contest.stream_id] = (new[-1].version, entries)
        return entries

    def set_aside(self, contest: Contest) -> dict[int, str]:
        """The contest's stored entries that cannot be read (by their place in its log), and why."""
        return dict(self._set_aside.get(contest.stream_id, {}))

    async def submit(
        self,
        contest: Contest,
        entrant_id: str,
        entrant_name: str,
        team: str,
        table: Table,
        reserved: tuple[str, ...] = (),
        command_id: str | None = None,
    ) -> tuple[Entry, Entry | None]:
        """Enter ``table`` as ``team``: the new entry, and the one of this entrant it replaces. A
        name that is not allowed or another entrant's is refused; a race with another entry is retried."""
        while True:
            entries = await self.of(contest)
            taken = {folded(e.team): e.entrant_id for e in entries.values()}
            team = check_name(team, taken, entrant_id, reserved)
            old = next((e for e in entries.values() if e.entrant_id == entrant_id), None)
            version = self._read.get(contest.stream_id, (0, {}))[0]
            event = Entered(RULE_SETS[contest.rules].version, entrant_id, entrant_name, team, encode(table))
            try:
                await self.store.append(
                    contest.stream_id,
                    [NewEvent(Entered.TYPE, Entered.VERSION, msgspec.json.encode(event))],
                    version,
                    command_id,
                )
            except WrongExpectedVersion:
                continue
            entries = await self.of(contest)
            return entries[team], old
