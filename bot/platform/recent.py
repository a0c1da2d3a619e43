"""The latest results of a costly computation, kept in memory by key, the least recently used first out."""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Recent(Generic[K, V]):
    """At most ``most`` values by key; reading one keeps it longer."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._kept: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._kept.get(key)
        if value is not None:
            self._kept.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> V:
        self._kept[key] = value
        self._kept.move_to_end(key)
        while len(self._kept) > self.most:
            self._kept.popitem(last=False)
        return value

    def drop(self, key: K) -> None:
        self._kept.pop(key, None)
