"""Settings from the environment. The Discord token is read here and never logged."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    db: Path = Path("hogbot.sqlite3")
    """``HOG_DB``: the SQLite file holding every game."""
    cache: Path = field(default_factory=lambda: Path.home() / ".cache" / "hogbot")
    """``HOG_CACHE``: where solved rule sets are kept."""

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        values = os.environ if env is None else env
        defaults = cls()
        return cls(
            db=Path(values.get("HOG_DB") or defaults.db),
            cache=Path(values.get("HOG_CACHE") or defaults.cache),
        )
