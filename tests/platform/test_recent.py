"""``Recent``: the latest values by key, the least recently used dropped first."""

from __future__ import annotations

from bot.platform.recent import Recent


def test_the_least_recently_used_goes_first() -> None:
    kept: Recent[str, list[int]] = Recent(2)
    kept.put("a", [1])
    kept.put("b", [])
    assert kept.get("a") == [1]  # read: now the most recent
    kept.put("c", [3])
    assert kept.get("b") is None and kept.get("a") == [1] and kept.get("c") == [3]
    assert kept.put("c", [4]) == [4] and kept.get("c") == [4]
