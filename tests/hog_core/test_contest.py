"""Contest tables, checked the course's way, and ranking by wins."""

from __future__ import annotations

import json

import numpy as np
import pytest

from hog_core.contest import (
    MAX_BYTES,
    SIZE,
    BadTable,
    decode,
    encode,
    of_strategy,
    parse,
    rank,
    to_csv,
    to_json,
)
from hog_core.rulesets import CONTEST, PORKCHOP

FOURS = "\n".join(",".join(["4"] * SIZE) for _ in range(SIZE)).encode()


def csv_with(row: int, column: int, cell: str) -> bytes:
    rows = [["4"] * SIZE for _ in range(SIZE)]
    rows[row][column] = cell
    return "\n".join(",".join(r) for r in rows).encode()


def test_a_csv_and_a_json_table_read_the_same() -> None:
    table = np.random.default_rng(1).integers(0, 11, size=(SIZE, SIZE)).astype(np.int8)
    assert (parse(to_csv(table).encode(), CONTEST) == table).all()
    assert (parse(to_json(table).encode(), CONTEST) == table).all()
    assert (parse(b"\xef\xbb\xbf" + to_csv(table).encode(), CONTEST) == table).all()  # a BOM from Excel
    assert (decode(encode(table)) == table).all()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "The file is empty"),
        (b"  \n ", "The file is empty"),
        (b"\xff\xfe\x00", "not text"),
        (csv_with(42, 7, "11"), "row 42, column 7: 11 is not a number of dice (0-10)"),
        (csv_with(3, 99, "-1"), "row 3, column 99: -1 is not a number of dice (0-10)"),
        (csv_with(0, 0, "four"), "row 0, column 0: 'four' is not an integer"),
        (csv_with(5, 5, "4.5"), "row 5, column 5: '4.5' is not an integer"),
        (csv_with(5, 5, ""), "row 5, column 5: '' is not an integer"),
        (FOURS.rsplit(b"\n", 1)[0], "The table has 99 rows; it needs 100"),
        (FOURS + b"\n" + FOURS.split(b"\n")[0], "The table has 101 rows"),
        (FOURS.replace(b"4,4\n", b"4\n", 1), "Row 0 has 99 columns; it needs 100"),
        (b"[1, 2", "not valid JSON"),
        (b'{"table": []}', "A JSON table is a list of 100 lists"),
        (b"[[4, 4], 5]", "A JSON table is a list of 100 lists"),
        (json.dumps([[True] * SIZE] * SIZE).encode(), "row 0, column 0: True is not an integer"),
        (json.dumps([[4.0] * SIZE] * SIZE).encode(), "row 0, column 0: 4.0 is not an integer"),
        (b"4," * (MAX_BYTES // 2 + 1), "bytes; a table is at most 1,000,000"),
    ],
)
def test_every_bad_table_is_refused_with_its_first_fault(data: bytes, message: str) -> None:
    with pytest.raises(BadTable, match=None) as refused:
        parse(data, CONTEST)
    assert message in str(refused.value)


def test_pork_chop_is_a_move_only_where_the_rules_have_it() -> None:
    assert parse(csv_with(3, 4, "-1"), PORKCHOP)[3, 4] == -1
    with pytest.raises(BadTable, match=r"row 3, column 4: -2 is not a number of dice \(0-10, or -1 for Pork Chop\)"):
        parse(csv_with(3, 4, "-2"), PORKCHOP)


def test_a_strategy_becomes_its_table_called_twice() -> None:
    table = of_strategy(lambda score, opponent: (score + opponent) % 11, CONTEST)
    assert table[3, 4] == 7 and table.shape == (SIZE, SIZE)
    calls = iter(range(1_000_000))
    with pytest.raises(BadTable, match=r"final_strategy\(0, 0\) returned 4, then 5: .* deterministic"):
        of_strategy(lambda s, o: 4 if next(calls) < SIZE * SIZE else 5, CONTEST)
    with pytest.raises(BadTable, match=r"mine\(0, 0\) raised ZeroDivisionError: integer division"):
        of_strategy(lambda s, o: 1 // 0, CONTEST, "mine")
    with pytest.raises(BadTable, match=r"final_strategy\(0, 0\) returned '4', not an integer"):
        of_strategy(lambda s, o: "4", CONTEST)
    with pytest.raises(BadTable, match=r"final_strategy\(99, 98\) returned 12, not a number of dice"):
        of_strategy(lambda s, o: 12 if (s, o) == (99, 98) else 4, CONTEST)


def test_equal_wins_share_a_place_and_a_tie_is_a_loss_for_both() -> None:
    names = ["b", "a", "c", "d"]
    values = np.array(
        [
            [0.5, 0.6, 0.4, 0.5000005],  # b beats a; a tie with d is no win
            [0.4, 0.5, 0.7, 0.6],  # a beats c and d
            [0.6, 0.3, 0.5, 0.9],  # c beats b and d
            [0.4999995, 0.4, 0.1, 0.5],
        ]
    )
    standings = rank(names, values, references=("d",))
    assert [(s.name, s.wins, s.losses, s.place, s.reference) for s in standings] == [
        ("a", 2, 1, 1, False),
        ("c", 2, 1, 1, False),
        ("b", 1, 2, 3, False),
        ("d", 0, 3, 4, True),
    ]
