"""Hog's puzzles in Discord: ``/hog puzzle`` (near your rating, rated), ``/hog daily`` (this server's
puzzle of the day, the same for everyone, and who solved it) and ``/hog train`` (your own costly
moves until you find the best) — each a board for the asker alone, a button per legal move."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import discord

from bot.discord.buttons import FORGED, Buttons, GameButton, number
from bot.discord.front import front_of
from bot.games.hog import puzzling
from bot.games.hog.limits import MAX_SOLVED_GOAL
from bot.games.hog.module import HogGame
from bot.games.hog.puzzle_book import PuzzleBook, book_of, position
from bot.platform.compose import Platform
from bot.platform.exercises import day_of
from hog_core.game import PORK_CHOP
from hog_core.puzzles import Puzzle, facts_of, move_words
from hog_core.rulesets import DEFAULT_RULES, RULE_SETS

SOLVERS_SHOWN = 15
"""How many of the day's solvers a daily puzzle's answer names."""


MODES = {"p": "puzzle", "d": "daily", "t": "train"}
"""A puzzle button's mode letter, and the mode its answer is kept in."""


class PuzzleButton(GameButton, template=r"hog:puzzle:(?P<puzzle>[^:]*):(?P<mode>[^:]*):(?P<k>[^:]*)"):
    """A move on a puzzle's board (for whoever was served it: the message is theirs alone). The
    custom_id carries the puzzle's id, which is its position (``hog_core.puzzles.facts_of``), and the
    mode: ``p`` a puzzle, ``d`` the daily one, ``t`` training; checked before it is judged, so a
    restart loses nothing and a forged one is refused."""

    def __init__(self, puzzle_id: str, mode: str, k: int) -> None:
        label = "Pork Chop" if k == PORK_CHOP else str(k)
        style = discord.ButtonStyle.danger if k == PORK_CHOP else discord.ButtonStyle.secondary
        super().__init__(f"hog:puzzle:{puzzle_id}:{mode}:{k}", label, style)
        self.puzzle_id, self.mode, self.k = puzzle_id, mode, k

    @classmethod
    def parse(cls, match: re.Match[str]) -> PuzzleButton:
        k = number(match["k"])
        return cls(match["puzzle"], match["mode"], -2 if k is None else k)

    def refusal(self) -> str | None:
        facts = facts_of(self.puzzle_id)
        fair = (
            facts is not None
            and facts.goal <= MAX_SOLVED_GOAL
            and self.mode in MODES
            and (self.k == PORK_CHOP or 0 <= self.k <= RULE_SETS[facts.rules].max_dice)
        )
        return None if fair else FORGED

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        await desk_of(interaction).judge(interaction, self.puzzle_id, MODES[self.mode], self.k)


def desk_of(interaction: discord.Interaction[Any]) -> PuzzleDesk:
    """The puzzle desk of Hog's front on the client a click came to."""
    desk: PuzzleDesk = front_of(interaction, HogGame.name).puzzles
    return desk


def place_of(interaction: discord.Interaction[Any]) -> str:
    """Where a daily puzzle is shared: the server; everyone's outside one."""
    return str(interaction.guild_id) if interaction.guild_id else ""


class PuzzleDesk:
    def __init__(self, platform: Platform, game: HogGame) -> None:
        self.platform, self.game = platform, game
        self.book: PuzzleBook = book_of(platform, game.solutions)

    async def serve(self, interaction: discord.Interaction[Any], rules: str, theme: str | None) -> None:
        """``/hog puzzle``: one the asker has not answered, near their rating."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await self.book.next(rules, theme, random.Random(interaction.id), str(interaction.user.id))
        if found is None:
            of = f" of {theme!r}" if theme else ""
            await interaction.followup.send(
                f"No {rules} puzzle{of} is left for you: try another theme.", ephemeral=True
            )
            return
        await self._pose(interaction, found, "p", "🧩 A Hog puzzle: the one clearly best move?")

    async def serve_daily(self, interaction: discord.Interaction[Any]) -> None:
        """``/hog daily``: this server's puzzle of the day (UTC), the same for every member."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        day = day_of(time.time())
        found = await self.book.daily(place_of(interaction), day, DEFAULT_RULES)
        answers = self.platform.views.answers
        mine = await answers.of("hog", str(interaction.user.id), found.id, "daily", day)
        if mine is not None:
            said = await self._of_the_day(interaction, found, day)
            verdict = "solved it" if mine.correct else f"answered {mine.move}"
            await interaction.followup.send(f"📅 You {verdict} today already.{said}", ephemeral=True)
            return
        await self._pose(interaction, found, "d", f"📅 The puzzle of the day ({day}): the one clearly best move?")

    async def serve_training(self, interaction: discord.Interaction[Any]) -> None:
        """``/hog train``: a position of the asker's own games where a move cost them five points or
        more, until they find the best move (a wrong press does not give it away)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        pick = random.Random(interaction.id)
        found = await puzzling.one_of_your_mistakes(self.platform, self.game, str(interaction.user.id), pick)
        if found is None:
            nothing = "No move of yours cost five points of chance in a finished game here: nothing to train on yet."
            await interaction.followup.send(nothing, ephemeral=True)
            return
        title = f"🎯 From your game {found.source}: you played {move_words(found.natural)}. The best?"
        await self._pose(interaction, found, "t", title)

    async def _pose(self, interaction: discord.Interaction[Any], found: Puzzle, mode: str, title: str) -> None:
        """``found`` for the asker alone, a button per legal move (``mode``: ``p``, ``d`` or ``t``)."""
        view = Buttons()
        for k in position(found.facts).legal_moves():
            view.add_item(PuzzleButton(found.id, mode, k))
        board = discord.Embed(title=title, description=puzzling.shown(found))
        # no id on a rated puzzle: its page on the web (``/puzzles/<id>``) tells every move's chance
        board.set_footer(text="Rated · every move's exact chance comes with your answer.")
        await interaction.followup.send(embed=board, view=view, ephemeral=True)

    async def judge(self, interaction: discord.Interaction[Any], puzzle_id: str, mode: str, k: int) -> None:
        """A move pressed on a puzzle: right or not, every move's chance and why, the rating moved, on the
        puzzle's message; in training a wrong move says what it wins and the buttons stay."""
        found = await self.book.by_id(puzzle_id)
        if found is None or k not in found.chances:
            await interaction.response.send_message(FORGED, ephemeral=True)
            return
        right, words = puzzling.answered(found, k)
        if mode == "train" and not right:
            tried = f"Not the best: {move_words(k)} wins {found.chances[k]:.1%}. Try again."
            again = discord.Embed(title="🎯 Try again", description=f"{puzzling.shown(found)}\n\n{tried}")
            await interaction.response.edit_message(embed=again)
            return
        now, who = time.time(), interaction.user
        day, place = day_of(now), place_of(interaction)
        if mode == "daily" and (await self.book.daily(place, day, found.rules)).id != found.id:
            mode = "puzzle"  # yesterday's daily, answered today: a puzzle like any other
        marked = await self.book.answer(
            found, str(who.id), who.display_name, k, mode, now, *((day, place) if mode == "daily" else ())
        )
        said = f"{puzzling.shown(found)}\n\n{words}{puzzling.rating_words(marked, found.rules)}"
        if mode == "daily":
            said += await self._of_the_day(interaction, found, day)
        title = {"train": "🎯 Found it!", "daily": "📅 Solved!" if right else "📅 Not quite"}.get(
            mode, "🧩 Solved!" if right else "🧩 Not quite"
        )
        verdict = discord.Embed(title=title, description=said[:4096])
        verdict.set_footer(text={"train": "/hog train for another of yours", "daily": "/hog daily: a new one tomorrow"}
                           .get(mode, "/hog puzzle for another"))  # fmt: skip
        await interaction.response.edit_message(embed=verdict, view=None)  # kept in milliseconds: no deferral

    async def _of_the_day(self, interaction: discord.Interaction[Any], found: Puzzle, day: str) -> str:
        """Who answered the day's puzzle here, right first."""
        solved = await self.platform.views.answers.of_the_day("hog", place_of(interaction), day, found.id)
        if not solved:
            return ""
        right = [s.name for s in solved if s.correct]
        names = ", ".join(discord.utils.escape_markdown(n) for n in right[:SOLVERS_SHOWN])
        more = f" and {len(right) - SOLVERS_SHOWN} more" if len(right) > SOLVERS_SHOWN else ""
        return f"\n\nToday here: {len(right)} of {len(solved)} solved it{': ' + names + more if right else ''}."
