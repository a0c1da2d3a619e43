"""The course's Hog contest: final strategies as tables, checked the course's way, and ranked by wins.

A final strategy is ``final_strategy(score, opponent_score) -> dice``; the contest turns it into a
table of 100 rows (your score 0-99) by 100 columns (the opponent's score 0-99) and plays every pair
of tables exactly, to 100, with a coin flip for who starts: A's value against B is the mean of A's
chance to win over the two seat orders. A pair is a win for A only above ``WIN_ABOVE``; a tie is a
loss for both. Entries are ranked by wins, equal wins sharing a place.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from hog_core.rulesets import RuleSet

SIZE = 100
"""The contest's goal, and the table's rows and columns."""
MAX_BYTES = 1_000_000
"""A table file larger than this is refused before it is read."""
WIN_ABOVE = 0.500001
"""A pair is a win for A only when A's value is above this (the course's margin)."""
CELLS = "P0123456789T"
"""A stored table is 10,000 characters: ``CELLS[k + 1]`` for each cell (``P``: Pork Chop, ``T``: 10)."""

Table = npt.NDArray[np.int8]
"""``[score, opponent_score] -> dice``, 100 × 100."""


class BadTable(ValueError):
    """A table the contest cannot take; ``str(error)`` says why, naming the first bad cell."""


def lowest(rules: RuleSet) -> int:
    """The fewest dice a table may hold: -1 (Pork Chop) where the rules have it, else 0."""
    return -1 if rules.pork_chop else 0


def _dice_words(rules: RuleSet) -> str:
    return f"a number of dice (0-{rules.max_dice}{', or -1 for Pork Chop' if rules.pork_chop else ''})"


def _cell(value: object, row: int, column: int, rules: RuleSet) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadTable(f"row {row}, column {column}: {value!r} is not an integer")
    if not lowest(rules) <= value <= rules.max_dice:
        raise BadTable(f"row {row}, column {column}: {value} is not {_dice_words(rules)}")
    return value


def _rows_of_csv(text: str) -> list[list[object]]:
    rows: list[list[object]] = []
    for line in text.strip().splitlines():
        cells: list[object] = []
        for cell in line.split(","):
            cell = cell.strip()
            try:
                cells.append(int(cell))
            except ValueError:
                cells.append(cell)
        rows.append(cells)
    return rows


def parse(data: bytes, rules: RuleSet) -> Table:
    """A table from a file's bytes: CSV (100 lines of 100 comma-separated integers) or JSON (a list
    of 100 lists of 100 integers). Raises ``BadTable`` naming what is wrong, the first bad cell first."""
    if len(data) > MAX_BYTES:
        raise BadTable(f"The file is {len(data):,} bytes; a table is at most {MAX_BYTES:,}.")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BadTable("The file is not text: a table is CSV or JSON.") from None
    if not text.strip():
        raise BadTable("The file is empty: a table is 100 lines of 100 numbers (CSV) or a list of 100 lists (JSON).")
    rows: object
    if text.lstrip()[:1] in ("[", "{"):
        try:
            rows = json.loads(text)
        except json.JSONDecodeError as error:
            raise BadTable(f"The file is not valid JSON: {error.msg} (line {error.lineno}).") from None
        except (RecursionError, ValueError):  # lists nested thousands deep, or an integer of thousands of digits
            raise BadTable("The JSON is nested too deep or holds a number too long: a table is a list of "
                           f"{SIZE} lists of {SIZE} small integers.") from None  # fmt: skip
    else:
        rows = _rows_of_csv(text)
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise BadTable("A JSON table is a list of 100 lists of 100 integers.")
    if len(rows) != SIZE:
        raise BadTable(f"The table has {len(rows)} rows; it needs {SIZE} (your score 0-{SIZE - 1}).")
    table = np.empty((SIZE, SIZE), dtype=np.int8)
    for r, row in enumerate(rows):
        if len(row) != SIZE:
            raise BadTable(f"Row {r} has {len(row)} columns; it needs {SIZE} (the opponent's score 0-{SIZE - 1}).")
        for c, value in enumerate(row):
            table[r, c] = _cell(value, r, c, rules)
    return table


def of_strategy(strategy: Callable[[int, int], object], rules: RuleSet, name: str = "final_strategy") -> Table:
    """The table of ``strategy``, called on every pair of scores twice: it must give the same
    answer both times. Raises ``BadTable`` naming the first call that fails or disagrees."""
    table = np.empty((SIZE, SIZE), dtype=np.int8)
    for attempt in range(2):
        for score in range(SIZE):
            for opponent in range(SIZE):
                call = f"{name}({score}, {opponent})"
                try:
                    chosen = strategy(score, opponent)
                except Exception as error:
                    raise BadTable(f"{call} raised {type(error).__name__}: {error}") from error
                if isinstance(chosen, bool) or not isinstance(chosen, int):
                    raise BadTable(f"{call} returned {chosen!r}, not an integer")
                if not lowest(rules) <= chosen <= rules.max_dice:
                    raise BadTable(f"{call} returned {chosen}, not {_dice_words(rules)}")
                if attempt and table[score, opponent] != chosen:
                    raise BadTable(
                        f"{call} returned {table[score, opponent]}, then {chosen}: a final strategy must be "
                        "deterministic"
                    )
                table[score, opponent] = chosen
    return table


def to_csv(table: Table) -> str:
    """The course's table file: 100 lines of 100 comma-separated integers."""
    return "".join(",".join(str(int(k)) for k in row) + "\n" for row in table)


def to_json(table: Table) -> str:
    """The table as JSON: a list of 100 lists of 100 integers, a row a line."""
    return "[\n" + ",\n".join("[" + ",".join(str(int(k)) for k in row) + "]" for row in table) + "\n]\n"


def encode(table: Table) -> str:
    """A table as stored in an event: 100 rows of 100 characters, joined by ``/``."""
    return "/".join("".join(CELLS[int(k) + 1] for k in row) for row in table)


def decode(text: str) -> Table:
    """A table as ``encode`` stored it; ``BadTable`` for text it cannot have written."""
    rows = text.split("/")
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows) or not set(text) <= set(CELLS) | {"/"}:
        raise BadTable(f"A stored table is {SIZE} rows of {SIZE} cells from {CELLS!r}: this one is not.")
    return np.array([[CELLS.index(ch) - 1 for ch in row] for row in rows], dtype=np.int8)


@dataclass(frozen=True, slots=True)
class Standing:
    """An entry's place: wins and losses against every other entry, references included."""

    name: str
    wins: int
    losses: int
    place: int
    reference: bool
    """A reference entry (the perfect strategy, the course's baselines): ranked beside the others,
    hors concours."""
    vs_perfect: float
    """Its value against the perfect strategy."""
    exploitability: float
    """The best response's value against it."""


def rank(
    names: Sequence[str],
    values: npt.NDArray[np.float64],
    references: Sequence[str] = (),
    vs_perfect: Mapping[str, float] | None = None,
    exploitability: Mapping[str, float] | None = None,
) -> list[Standing]:
    """Every entry ranked by wins, where ``values[i, j]`` is entry i's value against entry j (so
    ``values[j, i] == 1 - values[i, j]``); equal wins share a place, and are listed by name."""
    n = len(names)
    beaten = values > WIN_ABOVE
    np.fill_diagonal(beaten, False)
    wins = beaten.sum(axis=1)
    order = sorted(range(n), key=lambda i: (-int(wins[i]), names[i].casefold(), names[i]))
    standings = []
    for i in order:
        place = 1 + int((wins > wins[i]).sum())
        standings.append(
            Standing(
                names[i],
                int(wins[i]),
                n - 1 - int(wins[i]),
                place,
                names[i] in references,
                (vs_perfect or {}).get(names[i], float("nan")),
                (exploitability or {}).get(names[i], float("nan")),
            )
        )
    return standings
