"""Just enough of ``datascience.Table`` for the course's deck and board, printed as datascience 0.5
prints a table, so the course's doctests and students' strategies run without ``datascience``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

MAX_STR_ROWS = 10
"""datascience shows at most this many rows when a table is printed."""
MIN_WIDTH = 4


class Table:
    """Columns of equal length under unique labels."""

    def __init__(self, labels: Sequence[str] = ()) -> None:
        self._columns: dict[str, list[Any]] = {label: [] for label in labels}

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(self._columns)

    @property
    def num_columns(self) -> int:
        return len(self._columns)

    @property
    def num_rows(self) -> int:
        return len(next(iter(self._columns.values()), []))

    def column(self, label: str | int) -> list[Any]:
        """A copy of one column, by label or index."""
        key = self.labels[label] if isinstance(label, int) else label
        return list(self._columns[key])

    __getitem__ = column

    def row(self, index: int) -> tuple[Any, ...]:
        return tuple(col[index] for col in self._columns.values())

    @property
    def rows(self) -> Iterator[tuple[Any, ...]]:
        return (self.row(i) for i in range(self.num_rows))

    def with_column(self, label: str, values: Iterable[Any]) -> Table:
        """A new table with this column added (or replaced)."""
        table = Table()
        table._columns = {k: list(v) for k, v in self._columns.items()}
        table._columns[label] = list(values)
        return table

    def append(self, row: Sequence[Any]) -> Table:
        """Add a row in place; returns the table, as datascience does."""
        if len(row) != self.num_columns:
            raise ValueError(f"a row of this table has {self.num_columns} cells, not {len(row)}")
        for col, cell in zip(self._columns.values(), row, strict=True):
            col.append(cell)
        return self

    def set_cell(self, label: str, row: int, cell: Any) -> None:
        self._columns[label][row] = cell

    def as_text(self, max_rows: int = 0, sep: str = " | ") -> str:
        """Each column left-justified to its widest cell or label (at least 4), lines right-stripped."""
        shown = self.num_rows if not max_rows or max_rows > self.num_rows else max_rows
        widths = [
            max([len(label), MIN_WIDTH, *(len(str(cell)) for cell in col[:shown])])
            for label, col in self._columns.items()
        ]
        lines = [sep.join(label.ljust(w) for label, w in zip(self._columns, widths, strict=True))]
        lines += [
            sep.join(str(cell).ljust(w) for cell, w in zip(self.row(i), widths, strict=True)) for i in range(shown)
        ]
        if shown < self.num_rows:
            lines.append(f"... ({self.num_rows - shown} rows omitted)")
        return "\n".join(line.rstrip() for line in lines)

    def __repr__(self) -> str:
        return self.as_text(MAX_STR_ROWS)

    __str__ = __repr__
