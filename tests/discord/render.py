"""A message's Components V2 payload drawn as Discord draws it, near enough, in HTML: to look at a
board as a player sees it (in a test's browser, and for the README's picture, ``bench/discord_board.py``).

The container with its accent down the left edge; text displays in Discord's Markdown (``###`` and
``#`` headings, ``-#`` small print, ``**bold**``), the bot's emojis as their pictures, mentions as
names, ``<t:…:R>`` as Discord says it ("in 10 minutes"); separators; galleries; rows of buttons in
their styles. Everything from the payload is escaped first."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from typing import Any

STYLE = """
body { margin: 0; padding: 16px; background: #313338; color: #dbdee1; font: 16px/1.375 "gg sans", "Noto Sans",
  "Helvetica Neue", Helvetica, Arial, sans-serif; }
.container { max-width: 640px; background: #2b2d31; border-left: 4px solid #4e5058; border-radius: 8px;
  padding: 16px; box-sizing: border-box; }
.text { margin: 8px 0; overflow-wrap: anywhere; }
h1, h3 { margin: 4px 0; } h1 { font-size: 30px; } h3 { font-size: 20px; }
.small { font-size: 12px; color: #949ba4; }
hr { border: 0; border-top: 1px solid #3f4147; margin: 12px 0; }
.emoji { width: 22px; height: 22px; vertical-align: -5px; }
.mention { background: #3c4270; color: #c9cdfb; border-radius: 3px; padding: 0 2px; }
.time { background: #3f4147; border-radius: 3px; padding: 0 2px; }
.row { display: flex; flex-wrap: wrap; gap: 8px; margin: 8px 0; }
.button { min-width: 52px; height: 32px; padding: 2px 14px; border: 0; border-radius: 3px; color: #fff;
  font: 500 14px sans-serif; }
.s1 { background: #5865f2; } .s2, .s5 { background: #4e5058; } .s3 { background: #248046; }
.s4 { background: #da373c; } .disabled { opacity: .5; }
.gallery img { max-width: 100%; border-radius: 8px; }
"""


def page(components: list[dict[str, Any]], emojis: Mapping[str, str], names: Mapping[str, str], now: float) -> str:
    """A whole page showing the message: ``emojis`` maps an emoji's id to its picture (a data URI),
    ``names`` a user's id to their name, ``now`` the time ``<t:…:R>`` counts from."""
    body = "".join(_component(c, emojis, names, now) for c in components)
    return f'<!doctype html><html lang="en"><meta charset="utf-8"><style>{STYLE}</style><body>{body}</body></html>'


def _component(c: dict[str, Any], emojis: Mapping[str, str], names: Mapping[str, str], now: float) -> str:
    match c["type"]:
        case 17:
            accent = f' style="border-left-color: #{c["accent_color"]:06x}"' if "accent_color" in c else ""
            inner = "".join(_component(child, emojis, names, now) for child in c["components"])
            return f'<div class="container"{accent}>{inner}</div>'
        case 10:
            return f'<div class="text">{markdown(c["content"], emojis, names, now)}</div>'
        case 14:
            return "<hr>"
        case 12:
            pictures = "".join(
                f'<img src="{html.escape(i["media"]["url"])}" alt="{html.escape(i.get("description", ""))}">'
                for i in c["items"]
            )
            return f'<div class="gallery">{pictures}</div>'
        case 1:
            return f'<div class="row">{"".join(_button(b) for b in c["components"])}</div>'
    return ""


def _button(b: dict[str, Any]) -> str:
    emoji = html.escape(b["emoji"]["name"]) + " " if b.get("emoji") else ""
    link = " ↗" if b["style"] == 5 else ""
    disabled = " disabled" if b.get("disabled") else ""
    return f'<button class="button s{b["style"]}{disabled}">{emoji}{html.escape(b.get("label", ""))}{link}</button>'


def markdown(text: str, emojis: Mapping[str, str], names: Mapping[str, str], now: float) -> str:
    """A text display's Markdown, line by line, as Discord shows it."""
    lines = []
    for line in html.escape(text, quote=False).splitlines():
        line = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", line)
        line = re.sub(r"&lt;:(\w+):(\d+)&gt;", lambda m: _emoji(m, emojis), line)
        line = re.sub(
            r"&lt;@(\d+)&gt;", lambda m: f'<span class="mention">@{html.escape(names.get(m[1], m[1]))}</span>', line
        )
        line = re.sub(r"&lt;t:(\d+):R&gt;", lambda m: f'<span class="time">{relative(int(m[1]) - now)}</span>', line)
        if line.startswith("### "):
            lines.append(f"<h3>{line[4:]}</h3>")
        elif line.startswith("# "):
            lines.append(f"<h1>{line[2:]}</h1>")
        elif line.startswith("-# "):
            lines.append(f'<div class="small">{line[3:]}</div>')
        else:
            lines.append(f"<div>{line}</div>")
    return "".join(lines)


def _emoji(match: re.Match[str], emojis: Mapping[str, str]) -> str:
    picture = emojis.get(match[2])
    if picture is None:
        return f":{match[1]}:"
    return f'<img class="emoji" src="{html.escape(picture)}" alt=":{match[1]}:">'


def relative(seconds: float) -> str:
    """As Discord says a ``<t:…:R>`` timestamp: "in 10 minutes", "2 minutes ago"."""
    amount, unit = abs(seconds), "second"
    for size, name in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if amount >= size:
            amount, unit = amount / size, name
            break
    n = round(amount)
    words = f"{n} {unit}{'s' if n != 1 else ''}"
    return f"in {words}" if seconds >= 0 else f"{words} ago"
