"""What a database that cannot be used raises, whichever database it is."""

from __future__ import annotations

import sqlite3

import asyncpg

DATABASE_ERRORS: tuple[type[Exception], ...] = (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError)
OPENING_ERRORS: tuple[type[Exception], ...] = (*DATABASE_ERRORS, OSError)
"""And what opening one raises when there is no server at its address."""
