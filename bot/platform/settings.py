"""Settings from the environment. The Discord token is read here and never logged."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path


class SettingsError(ValueError):
    """An environment variable with a value the bot cannot use."""


def user_cache() -> Path:
    """The user's cache folder: ``XDG_CACHE_HOME`` when set (the XDG base directory rule, which the
    test suite uses to keep its solutions to itself), else ``~/.cache``."""
    chosen = os.environ.get("XDG_CACHE_HOME")
    return Path(chosen) if chosen and Path(chosen).is_absolute() else Path.home() / ".cache"


@dataclass(frozen=True)
class Settings:
    db: Path = Path("hogbot.sqlite3")
    """``HOG_DB``: the SQLite file holding every game (unless ``database_url`` is set)."""
    database_url: str | None = field(default=None, repr=False)
    """``HOG_DATABASE_URL``: a PostgreSQL database (``postgresql://...``, any libpq URL) holding every
    game instead, for several bot processes. Not logged whole: it may hold a password."""
    cache: Path = field(default_factory=lambda: user_cache() / "hogbot")
    """``HOG_CACHE``: where solved rule sets are kept (by default the user's cache folder's ``hogbot``)."""
    token: str | None = field(default=None, repr=False)
    """``DISCORD_TOKEN``: with it ``python -m bot`` runs the Discord bot. Never logged."""
    guild_id: int | None = None
    """``HOG_GUILD_ID``: sync the commands to this one server at once (for development)."""
    api_base: str | None = None
    """``HOG_DISCORD_API_BASE``: a stand-in Discord's REST base, for tests."""
    gateway_url: str | None = None
    """``HOG_DISCORD_GATEWAY_URL``: a stand-in Discord's gateway, for tests."""
    shard_count: int | None = None
    """``HOG_SHARD_COUNT``: how many shards the bot has in all (unset: as many as Discord recommends)."""
    shard_ids: tuple[int, ...] | None = None
    """``HOG_SHARD_IDS``: the shards this process runs, as ``0,1`` (unset: all of them)."""
    public_url: str | None = None
    """``HOG_PUBLIC_URL``: the address the web pages are reached at (``https://hog.example``), for the
    links the bot posts and the pictures of link previews."""
    web_port: int | None = None
    """``HOG_WEB_PORT``: the bot process also serves the web pages on this port."""
    web_host: str = "127.0.0.1"
    """``HOG_WEB_HOST``: the address they listen on (``0.0.0.0`` in a container)."""
    env: Mapping[str, str] = field(default_factory=dict, repr=False)
    """The environment these settings were read from: each game reads its own variables there
    (``seconds``), so that a game brings its settings without the platform naming them."""

    @property
    def where(self) -> str:
        """Where the games are kept, for messages: the SQLite file (whole: a relative ``HOG_DB`` depends
        on the folder the command runs in), or the database without its password."""
        if self.database_url is None:
            return os.path.abspath(self.db)
        return re.sub(r"://([^:/@]*):[^@]*@", r"://\1:***@", self.database_url)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        values = os.environ if env is None else env
        defaults = cls()

        guild = values.get("HOG_GUILD_ID")
        count = whole(values, "HOG_SHARD_COUNT", 0) if values.get("HOG_SHARD_COUNT") else None
        return cls(
            db=Path(values.get("HOG_DB") or defaults.db),
            database_url=database_url(values.get("HOG_DATABASE_URL")),
            cache=Path(values.get("HOG_CACHE") or defaults.cache),
            token=values.get("DISCORD_TOKEN") or None,
            guild_id=whole(values, "HOG_GUILD_ID", 0) if guild else None,
            api_base=values.get("HOG_DISCORD_API_BASE") or None,
            gateway_url=values.get("HOG_DISCORD_GATEWAY_URL") or None,
            shard_count=count,
            shard_ids=shard_ids(values.get("HOG_SHARD_IDS"), count),
            public_url=public_url(values.get("HOG_PUBLIC_URL")),
            web_port=whole(values, "HOG_WEB_PORT", 0) or None,
            web_host=values.get("HOG_WEB_HOST") or defaults.web_host,
            env=dict(values),
        )


def whole(env: Mapping[str, str], name: str, default: int) -> int:
    """The whole number, zero or more, in the environment variable ``name`` (``default`` when it is
    unset or empty); ``SettingsError`` naming the variable for anything else. Games read their
    own settings with it too (a turn's timeout, in seconds)."""
    raw = (env.get(name) or str(default)).strip()
    if raw.startswith("-") and raw[1:].isdigit():
        raise SettingsError(f"{name} must be zero or more, not {raw}.")
    if not raw.isdigit():
        raise SettingsError(f"{name} must be a whole number, not {raw!r}.")
    return int(raw)


def database_url(raw: str | None) -> str | None:
    """``HOG_DATABASE_URL`` checked: empty is unset; anything but a PostgreSQL URL is refused."""
    if not raw:
        return None
    if not raw.startswith(("postgresql://", "postgres://")):
        raise SettingsError(f"HOG_DATABASE_URL must be a postgresql:// URL, not {raw.split(':')[0]!r}.")
    return raw


def shard_ids(raw: str | None, count: int | None) -> tuple[int, ...] | None:
    """``HOG_SHARD_IDS`` checked against ``HOG_SHARD_COUNT``: distinct shard numbers below the count."""
    if not raw:
        return None
    if count is None or count < 1:
        raise SettingsError("HOG_SHARD_IDS needs HOG_SHARD_COUNT, the number of shards in all.")
    parts = [part.strip() for part in raw.split(",")]
    if not all(part.isdigit() for part in parts):
        raise SettingsError(f"HOG_SHARD_IDS must be shard numbers separated by commas, like 0,1, not {raw!r}.")
    ids = tuple(int(part) for part in parts)
    if len(set(ids)) != len(ids) or max(ids) >= count:
        raise SettingsError(f"HOG_SHARD_IDS must be different numbers from 0 to {count - 1}, not {raw!r}.")
    return ids


def public_url(raw: str | None) -> str | None:
    """``HOG_PUBLIC_URL`` checked: an http(s) address, kept without its trailing slash."""
    if not raw:
        return None
    if not raw.startswith(("http://", "https://")):
        raise SettingsError(f"HOG_PUBLIC_URL must be an http:// or https:// address, not {raw!r}.")
    return raw.rstrip("/")
