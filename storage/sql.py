"""One way to talk to the read models' database, SQLite or PostgreSQL, so that every query is
written once.

Statements use ``?`` placeholders and the SQL both databases speak (``INSERT ... ON CONFLICT``,
``count(*) FILTER``, ``IN (?, ?)``...); each backend (``storage.sqlite``, ``storage.postgres``) runs
them its way, and keeps read models being rebuilt aside its way (``aside``, ``adopt``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

Rows = list[Any]
"""Rows that unpack and index as tuples (sqlite3's tuples, asyncpg's records)."""
Work = Sequence[tuple[str, Sequence[Sequence[object]]]]
"""Statements, each with the rows of parameters to run it with, in order."""


UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
"""Text no column can hold on both databases: NUL (PostgreSQL's ``text`` refuses it) and lone
surrogates (not UTF-8 at all)."""


def storable(params: Sequence[object]) -> Sequence[object]:
    """Parameters as a database can hold them: in each text, what ``UNSTORABLE`` matches is U+FFFD
    (the replacement character), so one odd name can never fail the write of a whole batch. Both
    backends pass every parameter through here; the check costs a regular expression's scan."""
    if not any(isinstance(p, str) and UNSTORABLE.search(p) for p in params):
        return params
    return tuple(UNSTORABLE.sub("\ufffd", p) if isinstance(p, str) else p for p in params)


def storable_work(work: Work) -> Work:
    """``storable`` for every row of every statement."""
    return [(sql, [storable(row) for row in rows]) for sql, rows in work]


class Moved(Exception):
    """A guarded transaction found the value it guards changed: another process got there first."""


@dataclass(frozen=True)
class Guard:
    """A transaction goes ahead only if ``sql`` (one value) still reads ``expected`` inside it."""

    sql: str
    params: tuple[object, ...]
    expected: object


class Database(Protocol):
    async def fetch(self, sql: str, *params: object) -> Rows:
        """The rows a query returns."""
        ...

    async def execute(self, sql: str, *params: object) -> None:
        """One statement, committed on its own."""
        ...

    async def transaction(self, work: Work, guard: Guard | None = None) -> None:
        """Every statement of ``work``, all or nothing. With a ``guard``, one such transaction at a time
        across every process, and ``Moved`` raised (nothing done) if the guard no longer holds."""
        ...

    async def aside(self) -> Database:
        """A database beside this one for read models being rebuilt (SQLite: a file next to it;
        PostgreSQL: a schema), migrated, and kept, with what it holds, until ``adopt``."""
        ...

    async def adopt(self, aside: Database, tables: Sequence[str], then: Work) -> None:
        """In one transaction: every row of ``tables`` replaced by the ``aside`` one's (closed first),
        then ``then``; the aside database is gone afterwards."""
        ...

    async def close(self) -> None: ...


def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2...`` (a ``?`` inside quotes is left alone)."""
    out, n, quoted = [], 0, False
    for char in sql:
        if char == "'":
            quoted = not quoted
        if char == "?" and not quoted:
            n += 1
            out.append(f"${n}")
        else:
            out.append(char)
    return "".join(out)
