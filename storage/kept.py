"""What the log does not hold, so that a rebuild of the read models keeps it: each game's secret seed
(drawn when it is created, revealed when it is over) and where each game's board message is, with
the version it shows, and where each imported game came from. On the read models' database, apart
from what they derive."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from storage.sql import Database

SHOWN = "UPDATE boards SET shown_version = ? WHERE game_id = ? AND shown_version < ?"


@dataclass(frozen=True, slots=True)
class Provenance:
    """An imported game's origin: the file, when, and whether the operator trusts it."""

    source: str
    at: float
    trusted: bool


class Kept:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def place_board(
        self, game_id: str, channel_id: str, message_id: str, shown_version: int = 0, answered: bool = False
    ) -> None:
        """Remember the message that shows ``game_id``'s board (before the game is stored, so that
        a crash cannot lose it), the version it shows, and whether it lives in interactions alone
        (``answered``: the bot may not post in its channel). Not derived from the log (the log knows
        nothing of Discord), so a rebuild keeps it."""
        await self._db.execute(
            "INSERT INTO boards (game_id, channel_id, message_id, shown_version, answered) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET channel_id = excluded.channel_id, message_id = excluded.message_id, "
            "shown_version = excluded.shown_version, settled = 0, answered = excluded.answered",
            game_id,
            channel_id,
            message_id,
            shown_version,
            int(answered),
        )

    async def board_shown(self, game_id: str, version: int) -> None:
        """The board message of ``game_id`` now shows ``version`` (never recorded backwards)."""
        await self.boards_shown({game_id: version})

    async def boards_shown(self, shown: Mapping[str, int]) -> None:
        """``board_shown`` of several boards, in one transaction."""
        # in one order in every process: two batches that share boards never wait on each other in a circle
        rows = [(version, game_id, version) for game_id, version in sorted(shown.items())]
        await self._db.transaction([(SHOWN, rows)])

    async def seal(self, game_id: str, seed: bytes) -> bytes:
        """Keep ``seed`` as ``game_id``'s, unless it has one already; returns the game's seed. Not
        derived from the log, and never shown by a query of the read models."""
        await self._db.execute("INSERT INTO seals (game_id, seed) VALUES (?, ?) ON CONFLICT DO NOTHING", game_id, seed)
        found = await self.seed(game_id)
        assert found is not None
        return found

    async def seed(self, game_id: str) -> bytes | None:
        """``game_id``'s secret seed, ``None`` for a game stored before seeds were drawn."""
        rows = await self._db.fetch("SELECT seed FROM seals WHERE game_id = ?", game_id)
        return next((bytes(seed) for (seed,) in rows), None)

    async def mark_imported(self, game_id: str, source: str, at: float, trusted: bool) -> None:
        """Note ``game_id`` as imported from ``source`` at ``at`` (before its log is stored, so that the
        projector never counts an untrusted game); an import already noted is trusted if ``trusted``."""
        await self._db.execute(
            "INSERT INTO imported (game_id, source, imported_at, trusted) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET "
            "trusted = CASE WHEN excluded.trusted = 1 THEN 1 ELSE imported.trusted END",
            game_id,
            source,
            at,
            int(trusted),
        )

    async def unmark_imported(self, game_id: str) -> None:
        """Forget an import whose log could not be stored after all."""
        await self._db.execute("DELETE FROM imported WHERE game_id = ?", game_id)

    async def provenance(self, game_id: str) -> Provenance | None:
        """Where ``game_id`` was imported from, ``None`` for a game played here."""
        rows = await self._db.fetch("SELECT source, imported_at, trusted FROM imported WHERE game_id = ?", game_id)
        return next((Provenance(str(s), float(at), bool(t)) for s, at, t in rows), None)

    async def untrusted(self, game_ids: Sequence[str]) -> set[str]:
        """Those of ``game_ids`` imported without the operator's trust: they count toward no rating,
        record or season."""
        if not game_ids:
            return set()
        marks = ",".join("?" * len(game_ids))
        query = f"SELECT game_id FROM imported WHERE trusted = 0 AND game_id IN ({marks})"
        rows = await self._db.fetch(query, *game_ids)
        return {str(g) for (g,) in rows}

    async def boards_behind(self) -> list[tuple[str, int]]:
        """``(game_id, shown_version)`` of every unsettled board that shows less than its game's log,
        as the read models know it (a board placed for a game that was never stored is listed too).
        Read by the index of unsettled boards: live games' and the newly finished, not all history."""
        rows = await self._db.fetch(
            "SELECT b.game_id, b.shown_version FROM boards b LEFT JOIN games g ON g.game_id = b.game_id "
            "WHERE b.settled = 0 AND (g.version IS NULL OR b.shown_version < g.version) ORDER BY b.game_id"
        )
        return [(str(g), int(v)) for g, v in rows]

    async def settle_boards(self) -> None:
        """Settle the boards that show their finished game's last version: no event comes after a
        game's end, so they can never fall behind, and ``boards_behind`` never reads them again."""
        await self._db.execute(
            "UPDATE boards SET settled = 1 WHERE settled = 0 AND EXISTS (SELECT 1 FROM games g "
            "WHERE g.game_id = boards.game_id AND g.live = 0 AND g.version <= boards.shown_version)"
        )

    async def shown_version(self, game_id: str) -> int | None:
        """The version ``game_id``'s board message shows, if it has one."""
        rows = await self._db.fetch("SELECT shown_version FROM boards WHERE game_id = ?", game_id)
        return int(rows[0][0]) if rows else None

    async def forget_board(self, game_id: str) -> None:
        """A board placed for a game that was never stored (a crash before its first append)."""
        await self._db.execute("DELETE FROM boards WHERE game_id = ?", game_id)

    async def answered_board(self, game_id: str) -> bool:
        """Whether ``game_id``'s board lives in interactions alone (``place_board``)."""
        rows = await self._db.fetch("SELECT answered FROM boards WHERE game_id = ?", game_id)
        return bool(rows and rows[0][0])

    async def board_message(self, game_id: str) -> tuple[str, str] | None:
        """The ``(channel_id, message_id)`` of ``game_id``'s board, if one was posted."""
        rows = await self._db.fetch("SELECT channel_id, message_id FROM boards WHERE game_id = ?", game_id)
        return next(((str(c), str(m)) for c, m in rows), None)
