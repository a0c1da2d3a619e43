"""Emoji on a page drawn as small inline SVG pictures: the games' lines say "🏆 Ada wins", but a
machine with no emoji font draws an empty box, and the pages load nothing from elsewhere. Each known
emoji has its picture, named for a screen reader; any other pictograph is said in words.

``pictured`` rewrites a rendered page's body: only the text between tags, never a tag, an attribute,
or the text of a ``title``, ``script``, ``style``, ``option`` or ``textarea`` (which cannot hold markup).
Card suits (♠ ♥ ♦ ♣) are letters every text font has, and stay as they are.
"""

from __future__ import annotations

import re
import unicodedata

_SHAPES = {
    "🏆": (
        "trophy",
        '<path d="M4 1h8v4a4 4 0 0 1-8 0z" fill="#f0b232"/><path d="M4 2H1.5v1.5A2.5 2.5 0 0 0 4 6M12 2h2.5'
        'v1.5A2.5 2.5 0 0 1 12 6" fill="none" stroke="#f0b232" stroke-width="1.2"/>'
        '<path d="M7 9h2v3H7zM4.5 12h7v3h-7z" fill="#c78a16"/>',
    ),
    "🥒": (
        "cucumber",
        '<rect x="1" y="5" width="14" height="6" rx="3" transform="rotate(-30 8 8)" fill="#57a639"/>'
        '<circle cx="6" cy="9" r=".8" fill="#bfe6a8"/><circle cx="9" cy="7" r=".8" fill="#bfe6a8"/>'
        '<circle cx="11" cy="5.5" r=".8" fill="#bfe6a8"/>',
    ),
    "🏁": (
        "chequered flag",
        '<path d="M2.5 1v14" stroke="#b5bac1" stroke-width="1.4"/><path d="M3 2h11v7H3z" fill="#f2f3f5"/>'
        '<path d="M3 2h2.75v2.33H3zM8.5 2h2.75v2.33H8.5zM5.75 4.33H8.5v2.34H5.75zM11.25 4.33H14v2.34h-2.75z'
        'M3 6.67h2.75V9H3zM8.5 6.67h2.75V9H8.5z" fill="#1e1f22"/>',
    ),
    "🤝": (
        "draw",
        '<circle cx="8" cy="8" r="7" fill="#949ba4"/><path d="M4 6.5h8M4 9.5h8" stroke="#1e1f22" stroke-width="1.6"/>',
    ),
    "✅": (
        "won",
        '<circle cx="8" cy="8" r="7" fill="#3ba55d"/>'
        '<path d="M4.5 8.3l2.3 2.3 4.7-5" fill="none" stroke="#fff" stroke-width="1.8"/>',
    ),
    "❌": ("lost", '<path d="M3 3l10 10M13 3L3 13" stroke="#ed4245" stroke-width="2.6" stroke-linecap="round"/>'),
    "⛔": ("void", '<circle cx="8" cy="8" r="7" fill="#ed4245"/><path d="M4 7h8v2H4z" fill="#fff"/>'),
    "🔒": (
        "sealed",
        '<path d="M5 7V5a3 3 0 0 1 6 0v2" fill="none" stroke="#b5bac1" stroke-width="1.6"/>'
        '<rect x="3" y="7" width="10" height="8" rx="1.5" fill="#f0b232"/>',
    ),
    "🔓": (
        "unsealed",
        '<path d="M5 7V5a3 3 0 0 1 6 0" fill="none" stroke="#b5bac1" stroke-width="1.6"/>'
        '<rect x="3" y="7" width="10" height="8" rx="1.5" fill="#3ba55d"/>',
    ),
}

EMOJI = re.compile("[\U0001f000-\U0001faff\u2700-\u27bf\u26d4\u2705\u274c]\ufe0f?")
"""A pictograph (the astral emoji blocks, the dingbats and the few emoji among the BMP's symbols),
with its presentation selector; not the card suits of U+2660.."""

_BODY = re.compile(r"<body\b[^>]*>", re.I)
_SKIPPED = re.compile(r"<(title|script|style|option|textarea)\b.*?</\1\s*>|<[^>]*>", re.S | re.I)


def icon(emoji: str) -> str:
    """The markup for one emoji: its picture, or its name in words."""
    bare = emoji.rstrip("\ufe0f")
    if bare in _SHAPES:
        name, shape = _SHAPES[bare]
        return f'<svg class="icon" role="img" aria-label="{name}" viewBox="0 0 16 16">{shape}</svg>'
    name = unicodedata.name(bare[:1], "symbol").lower()
    return f'<span class="icon-word">[{name}]</span>'


def _in_text(text: str) -> str:
    return EMOJI.sub(lambda m: icon(m.group()), text)


def pictured(html: str) -> str:
    """``html`` with every emoji in its body's text drawn (see the module's docstring)."""
    opening = _BODY.search(html)
    start = opening.end() if opening else 0
    body = html[start:]
    out, at = [html[:start]], 0
    for tag in _SKIPPED.finditer(body):
        out += [_in_text(body[at : tag.start()]), tag.group()]
        at = tag.end()
    out.append(_in_text(body[at:]))
    return "".join(out)
