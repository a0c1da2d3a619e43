"""A lock per key (a game's board, a tournament's), made when first asked for and gone when nobody
holds or waits for it: a process serving a million games keeps a lock only for those being edited."""

from __future__ import annotations

import asyncio
import weakref


class KeyedLocks:
    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def __call__(self, key: str) -> asyncio.Lock:
        """The lock of ``key``: the same one for as long as anyone holds or awaits it."""
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock
