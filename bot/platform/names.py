"""Names are data, checked once where they come in: a player's name typed at the terminal or in the
GUI, a friend's, a contest team's. One rule for every front: no control or invisible formatting
characters (a NUL, a terminal's escape codes, a right-to-left override that turns a name around in
a listing), at most ``MAX_NAME`` characters, and compared in their folded form (``folded``), so that
``ｐｅｒｆｅｃｔ`` (full width) and ``Рerfect`` (a Cyrillic Р) are ``perfect``.

A name that a person typed is refused in words (``checked``); one that comes from Discord, which
we cannot send back, is cleaned (``cleaned``): Discord's own rules already keep most of it out.
"""

from __future__ import annotations

import unicodedata

from bot.platform.contract import Refusal

MAX_NAME = 32
"""As Discord's display names."""

UNSEEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control, format (bidi overrides, zero widths), surrogate, private and unassigned characters, and
line and paragraph separators: none belongs in a name."""

LOOKALIKES = str.maketrans(
    "аеорсухіјѕԁԛԝһӏвкмнтαβεικνορτυχ",
    "aeopcyxijsdqwhlbkmhtabeiknoptux",
)
"""Cyrillic and Greek letters drawn like Latin ones (after case folding), for ``folded``."""


def unseen(text: str) -> list[str]:
    """The characters of ``text`` a name may not hold, as ``U+202E``."""
    return [f"U+{ord(c):04X}" for c in text if unicodedata.category(c) in UNSEEN]


def checked(text: str, what: str = "A name") -> str:
    """``text`` as a name (spaces trimmed and runs of them made one, NFC), or a ``Refusal`` saying
    why it cannot be one."""
    name = unicodedata.normalize("NFC", " ".join(text.split()))
    if not name:
        raise Refusal(f"{what} can't be empty.")
    if bad := unseen(name):
        shown = ", ".join(dict.fromkeys(bad))
        raise Refusal(f"{what} can't hold control or invisible characters ({shown}): type letters, digits and spaces.")
    if len(name) > MAX_NAME:
        raise Refusal(f"{what} can be at most {MAX_NAME} characters long, not {len(name)}.")
    return name


def cleaned(text: str, fallback: str = "Player") -> str:
    """A name we did not choose and cannot refuse (a Discord member's): what ``checked`` forbids taken
    out, cut to ``MAX_NAME``; ``fallback`` when nothing is left."""
    kept = "".join(c for c in " ".join(text.split()) if unicodedata.category(c) not in UNSEEN)
    return unicodedata.normalize("NFC", kept)[:MAX_NAME].strip() or fallback


def folded(name: str) -> str:
    """The form names are compared in: compatibility-normalised (NFKC), case-folded, look-alike
    Cyrillic and Greek letters read as the Latin ones, spaces made one."""
    text = unicodedata.normalize("NFKC", name).casefold().translate(LOOKALIKES)
    return " ".join(text.split())
