"""What every web page shares: the platform it reads, and the templates, which escape every name
and text (Jinja2's autoescape)."""

from __future__ import annotations

from pathlib import Path

import jinja2
from aiohttp import web

from bot.platform.compose import Platform

HERE = Path(__file__).parent
PLATFORM = web.AppKey("platform", Platform)
TEMPLATES = jinja2.Environment(
    loader=jinja2.FileSystemLoader(HERE / "templates"),
    autoescape=jinja2.select_autoescape(default=True),
    undefined=jinja2.StrictUndefined,
)


def render(template: str, status: int = 200, **values: object) -> web.Response:
    html = TEMPLATES.get_template(template).render(**values)
    return web.Response(text=html, status=status, content_type="text/html")


def not_found(what: str) -> web.Response:
    return render("missing.html", status=404, what=what)
