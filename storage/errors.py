"""What a database that cannot be used raises, whichever database it is."""

from __future__ import annotations

import sqlite3

import asyncpg

DATABASE_ERRORS: tuple[type[Exception], ...] = (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError)
OPENING_ERRORS: tuple[type[Exception], ...] = (*DATABASE_ERRORS, OSError)
"""And what opening one raises when there is no server at its address."""
ROW_ERRORS: tuple[type[Exception], ...] = (
    sqlite3.DataError,
    sqlite3.IntegrityError,
    sqlite3.InterfaceError,  # a parameter of a type it cannot bind
    asyncpg.DataError,  # a value out of its column's range or encoding
    asyncpg.IntegrityConstraintViolationError,
    OverflowError,  # an integer too large for SQLite's
    UnicodeError,
    TypeError,
    ValueError,
)
"""What a database raises for a row it refuses (not for being away): the row is at fault, not the database."""
