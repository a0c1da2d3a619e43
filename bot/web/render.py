"""What every web page shares: the platform it reads, and the templates, which escape every name
and text (Jinja2's autoescape)."""

from __future__ import annotations

from pathlib import Path

import jinja2
from aiohttp import web

from bot.platform.compose import Platform
from bot.web.icons import pictured

HERE = Path(__file__).parent
PLATFORM = web.AppKey("platform", Platform)
LINKS = web.AppKey("links", list[tuple[str, str]])
"""The pages games add (``contract.WebPages``): the front page's and the GUI's links to them."""


def templates(*folders: Path) -> jinja2.Environment:
    """Templates from ``folders`` (the first that has a name wins), the web front's own last, so a
    game's pages can extend ``base.html``; every name and text escaped."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader([*folders, HERE / "templates"]),
        autoescape=jinja2.select_autoescape(default=True),
        undefined=jinja2.StrictUndefined,
    )


TEMPLATES = templates()


def html_page(template: str, environment: jinja2.Environment = TEMPLATES, **values: object) -> str:
    """A page's HTML, its emoji drawn (``icons.pictured``)."""
    return pictured(environment.get_template(template).render(**values))


def render(
    template: str, status: int = 200, environment: jinja2.Environment = TEMPLATES, **values: object
) -> web.Response:
    return web.Response(text=html_page(template, environment, **values), status=status, content_type="text/html")


def number(text: str | None, low: int, high: int) -> int | None:
    """``text`` as a whole number from ``low`` to ``high`` written in ASCII digits (``²`` and ``٣``
    are digits to ``str.isdigit`` but no number to ``int``), else ``None``: a bounded parse."""
    if text is None or not text.isascii() or not text.isdigit() or len(text) > len(str(high)):
        return None
    value = int(text)
    return value if low <= value <= high else None


def identifier(text: str | None) -> str | None:
    """A Discord id from a query (``?server=``): ASCII digits, at most 20 of them, else ``None``."""
    return text if number(text, 0, 10**20 - 1) is not None else None


def not_found(what: str) -> web.Response:
    return render("missing.html", status=404, what=what)


def set_aside(game_id: str, reason: str) -> web.Response:
    """A game quarantined (its log, or its row, cannot be read): said in words, 410, never a bare 500."""
    words = (
        f"Game {game_id} is set aside: {reason}. Its events are kept as they were stored; "
        "every other game is played and shown as usual."
    )
    return render("trouble.html", status=410, heading="This game is set aside", words=words)


def trouble() -> web.Response:
    """Our failure, in words (the log says what it was): no traceback is ever shown."""
    words = "Something went wrong on our side while making this page; the games are safe. Try again in a moment."
    return render("trouble.html", status=500, heading="Something went wrong", words=words)
