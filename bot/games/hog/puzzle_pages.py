"""Hog's puzzles on the web (and in the local GUI, which serves the same pages): ``/puzzles`` (the
puzzle of the day, a puzzle of each rule set, its themes), ``/puzzles/<id>`` (the position, a link
per legal move) and ``/puzzles/<id>?move=K`` (the verdict, why, every move's exact chance). Plain
links and HTML: no script, no sign-in (answers on the web are not kept; Discord's are rated)."""

from __future__ import annotations

import random
import time
from collections import Counter
from pathlib import Path

from aiohttp import web

from bot.games.hog.board import rules_name
from bot.games.hog.puzzle_book import GOAL, PuzzleBook, position, stored_games
from bot.games.hog.puzzling import of_theme
from bot.games.hog.solutions import SolutionCache
from bot.platform.exercises import day_of
from bot.web.render import PLATFORM, not_found, render, templates
from hog_core.game import PORK_CHOP
from hog_core.puzzles import Puzzle, facts_of, memory_words, move_words, why
from hog_core.rulesets import DEFAULT_RULES, RULE_SETS

BOOK = web.AppKey("hog-puzzle-book", PuzzleBook)
TEMPLATES = templates(Path(__file__).parent / "templates")


def facts_line(puzzle: Puzzle) -> str:
    extra = " · an extra turn" if puzzle.is_extra else ""
    chop = " · you may still Pork Chop" if puzzle.chop[0] else ""
    chop += memory_words(puzzle)
    return f"{rules_name(puzzle.rules)} rules · first to {puzzle.goal} · turn {puzzle.turn_number + 1}{extra}{chop}"


def add_puzzle_pages(app: web.Application, solutions: SolutionCache) -> None:
    """The puzzles' routes on the web front's ``app`` (whose platform is set)."""
    app[BOOK] = PuzzleBook(solutions, stored=stored_games(app[PLATFORM]))

    async def index(request: web.Request) -> web.Response:
        rules = request.query.get("rules", DEFAULT_RULES)
        if rules not in RULE_SETS:
            return not_found("such rule set")
        day = day_of(time.time())
        daily = await app[BOOK].daily("", day, DEFAULT_RULES)
        themes = Counter(p.theme for p in (await app[BOOK].pool(rules)).values())
        return render(
            "puzzles.html",
            environment=TEMPLATES,
            day=day,
            daily=daily,
            daily_facts=facts_line(daily),
            rules=rules,
            rule_sets=[(r, rules_name(r)) for r in RULE_SETS],
            themes=themes.most_common(),
        )

    async def another(request: web.Request) -> web.Response:
        rules, theme = request.query.get("rules", DEFAULT_RULES), request.query.get("theme") or None
        if rules not in RULE_SETS:
            return not_found("such rule set")
        found = of_theme(list((await app[BOOK].pool(rules)).values()), theme)
        if not found:
            return not_found("puzzle of that theme")
        raise web.HTTPSeeOther(f"/puzzles/{random.choice(found).id}")

    async def puzzle(request: web.Request) -> web.Response:
        facts = facts_of(request.match_info["puzzle_id"])
        found = await app[BOOK].by_id(request.match_info["puzzle_id"]) if facts and facts.goal == GOAL else None
        if found is None:  # the web's puzzles are to the course's goal: an address starts no other solve
            return not_found("such puzzle")
        asked = request.query.get("move")
        k = (
            PORK_CHOP
            if asked == "chop"
            else int(asked)
            if asked is not None and asked.isdigit() and len(asked) < 3
            else None
        )
        if asked is not None and k not in found.chances:
            return not_found("such move")
        best = found.chances[found.answer]
        chances = [
            (
                move_words(m),
                f"{v:.1%}",
                "" if m == found.answer else f"−{(best - v) * 100:.1f}",
                m == found.answer,
                m == k,
            )
            for m, v in sorted(found.chances.items(), key=lambda item: -item[1])
        ]
        return render(
            "puzzle.html",
            environment=TEMPLATES,
            puzzle=found,
            facts=facts_line(found),
            moves=[("chop" if m == PORK_CHOP else str(m), move_words(m)) for m in position(found.facts).legal_moves()],
            answered=k is not None,
            right=k == found.answer,
            chosen=move_words(k) if k is not None else "",
            best=move_words(found.answer),
            why=why(found),
            chances=chances,
        )

    app.router.add_get("/puzzles", index)
    app.router.add_get("/puzzles/next", another)
    app.router.add_get("/puzzles/{puzzle_id}", puzzle)
