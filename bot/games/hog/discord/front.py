"""Hog's Discord front: the board of a game as an embed with a button per legal move, its picture
once it is over, replays, and the moves a press asks for, over the client's ``Road``."""

from __future__ import annotations

import io
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord.buttons import Buttons, GameButton, look
from bot.discord.front import Move, Road, Shown, pictured, web_link
from bot.discord.layout import Board, Picture
from bot.games.hog.analysis import move_line, move_words, moves_by_step, player_line
from bot.games.hog.board import hint
from bot.games.hog.contest.arena import Contests
from bot.games.hog.contest.entries import Entries
from bot.games.hog.discord.buttons import (
    AnalyzeButton,
    AnswerButton,
    HintButton,
    MoveButton,
    RematchButton,
    ReplayButton,
)
from bot.games.hog.discord.commands import hog_commands, new_game_id
from bot.games.hog.discord.contest import StandingsButton
from bot.games.hog.discord.desk import GAME, HogDesk
from bot.games.hog.discord.dice import drawings
from bot.games.hog.discord.puzzles import PuzzleButton, PuzzleDesk
from bot.games.hog.discord.replays import replay_embed, replay_view
from bot.games.hog.discord.table import table
from bot.games.hog.limits import MAX_SOLVED_GOAL, check
from bot.games.hog.module import HogGame, turn
from bot.games.hog.picture import animate, chart_of, render
from bot.games.hog.replays import chances_around
from bot.platform.contract import Outcome, Refusal
from bot.platform.painter import drawn
from hog_core.errors import HogError
from hog_core.events import Event, GameCreated
from hog_core.game import Command, CreateGame, GameState, Status
from hog_core.game import replay as fold

MOVES = 12
"""Moves a page of a review shows."""


def moves_view(state: GameState) -> Buttons:
    """Accept / Decline while a challenge is open, a button per legal move while it is played."""
    view = Buttons()
    if state.status is Status.CHALLENGED:
        view.add_item(AnswerButton(state.game_id, "accept"))
        view.add_item(AnswerButton(state.game_id, "decline"))
    elif not state.is_over:  # every move: built as Discord writes them (the board of every click)
        moves = [look(*MoveButton.looks(state.game_id, state.version, k)) for k in state.legal_moves()]
        return Buttons([*moves, look(*HintButton.looks(state.game_id))])
    return view


class HogFront:
    buttons: tuple[type[GameButton], ...] = (
        MoveButton,
        AnswerButton,
        PuzzleButton,
        RematchButton,
        HintButton,
        ReplayButton,
        AnalyzeButton,
        StandingsButton,
    )
    emojis = drawings()

    def __init__(self, client: Road, game: HogGame) -> None:
        self.client, self.game = client, game
        self.service = client.service(GAME)
        self.challenge_timeout, self.turn_timeout = game.challenge_timeout, game.turn_timeout
        self.contests = Contests(Entries(client.platform.store), game.solutions)
        self.puzzles = PuzzleDesk(client.platform, game)

    def close(self) -> None:
        pass

    async def show(self, outcome: Outcome[GameState, Event]) -> Board:
        """The board after ``outcome`` (without the picture: see ``finished``)."""
        state = outcome.state
        solution = await self.game.solution(state)
        chances = None if solution is None else solution.win_chances(state)
        due = self.client.deadline(state.game_id, "timeout", "expire")
        shown = table(state, outcome.told, chances, due, self.client.emoji)
        shown.buttons = moves_view(state)
        return shown

    async def finished(self, outcome: Outcome[GameState, Event], shown: Board) -> Board:
        """The board of a game that is over, with each player's accuracy and worst move, and *Rematch*
        (for a game that was played: not one declined, expired or called off)."""
        if outcome.state.turn_number > 0:
            shown.buttons.add_item(RematchButton(outcome.state.game_id))
        moves = await self.game.review(await self.service.events(outcome.state.game_id))
        if moves:
            names = [p.name for p in outcome.state.players]
            lines = [player_line(names[seat], [m for m in moves if m.mover == seat]) for seat in (0, 1)]
            shown.rule().text("**Review** (exact: /hog analyze)\n" + "\n".join(lines)[:1024])
        return shown

    def has_picture(self, state: GameState) -> bool:
        return state.turn_number > 0

    async def picture(self, outcome: Outcome[GameState, Event]) -> Picture | None:
        return await self.drawing(await self.service.events(outcome.state.game_id), outcome.state)

    async def drawing(self, events: list[Event], last: GameState, at: int | None = None) -> Picture | None:
        """The picture of the game ``events`` tell (ending in ``last``), at turn ``at``; ``None``
        before a turn was played."""
        c = chart_of(events, await self.game.solution(last), await self.game.review(events) or ())
        if c is None:  # before a turn was played
            return None
        png = await drawn(partial(render, at=at), c)
        names = " and ".join(p.name for p in last.players)
        return Picture(png, f"hog-{last.game_id}.png", f"{names}'s totals turn by turn")

    async def replay(self, game_id: str, step: int) -> Shown | None:
        """Step ``step`` of ``game_id``'s replay (clamped to the game), or ``None`` for no such game."""
        events = await self.service.events(game_id)
        steps = list(self.game.narrate(events))
        if not steps:
            return None
        step = max(0, min(step, len(steps) - 1))
        after = steps[step][1]
        chances = chances_around(steps, step, await self.game.solution(after))
        shown = Shown(replay_embed(steps, step, chances), replay_view(game_id, step, len(steps)))
        moves = await self.game.review(events)
        if moves and (move := moves_by_step(events, moves)[step]) is not None:  # the move of this step, marked
            shown.embed.add_field(name="This move", value=move_words(move), inline=False)
        web_link(shown.view, self.client.platform.settings.public_url, game_id, step + 1)
        if (sealed := await self.client.seal_line(GAME, steps[-1][1])) is not None:
            shown.embed.set_footer(text=f"{shown.embed.footer.text} · {sealed}")
        drawn = await self.drawing(events, steps[-1][1], at=after.turn_number)
        return shown if drawn is None else pictured(shown, drawn)

    async def analysis(self, game_id: str, page: int) -> Shown | None:
        """A page of ``game_id``'s exact review (each player's accuracy, then ``MOVES`` moves a page),
        or ``None`` for no such Hog game; ``Refusal`` for a goal past what is solved."""
        events = await self.service.events(game_id)
        if not events:
            return None
        moves = await self.game.review(events)
        if moves is None:
            raise Refusal(f"This game is played past what is solved (goals up to {MAX_SOLVED_GOAL}): no exact review.")
        last = fold(events)
        names = [p.name for p in last.players]
        pages = max(1, -(-len(moves) // MOVES))
        page = max(0, min(page, pages - 1))
        shown = discord.Embed(title=f"Review · {last.rules.name} · first to {last.goal}")
        shown.description = "\n".join(move_line(m, names) for m in moves[page * MOVES : (page + 1) * MOVES]) or None
        for seat in (0, 1):
            shown.add_field(name=names[seat], value=player_line("", [m for m in moves if m.mover == seat]).strip())
        shown.set_footer(
            text=f"Moves {page * MOVES + 1}–{min(len(moves), (page + 1) * MOVES)} of {len(moves)} · "
            "exact: every chance assumes perfect play from both sides afterwards"
        )
        view = Buttons()
        view.add_item(AnalyzeButton(game_id, max(0, page - 1), "newer", disabled=page == 0))
        view.add_item(AnalyzeButton(game_id, page + 1, "older", disabled=page + 1 >= pages))
        return Shown(shown, view)

    async def send_animation(self, interaction: discord.Interaction[Any], game_id: str) -> None:
        """The game drawn turn by turn, as a GIF for the asker alone: a second or two to draw, so it
        follows the answer."""
        events = await self.service.events(game_id)
        last = fold(events)
        c = chart_of(events, await self.game.solution(last))
        gif = None if c is None else await drawn(animate, c)
        if gif is None:
            await interaction.followup.send("Nothing to animate yet: nobody has moved.", ephemeral=True)
            return
        animation = discord.File(io.BytesIO(gif), f"hog-{last.game_id}.gif", description="The game, turn by turn")
        await interaction.followup.send(file=animation, ephemeral=True)

    async def hint(self, game_id: str, place: str) -> str:
        """The best move in ``game_id`` as a player in ``place`` may ask for it (``Refusal`` for a damaged game)."""
        state = (await self.service.current(game_id)).state  # told, so any damage shows
        if state.version == 0 or state.place != place:
            return "There is no such game here."
        return hint(state, await self.game.solution(state))

    async def move(self, interaction: discord.Interaction[Any], game_id: str, version: int, k: int) -> None:
        """``k`` dice (or Pork Chop) on the board at ``version``."""
        await self.client.press(interaction, Move(GAME, game_id, turn(str(interaction.user.id), k), version))

    async def answer(self, interaction: discord.Interaction[Any], game_id: str, command: Command) -> None:
        """*Accept* or *Decline* on a challenge's board."""
        await self.client.press(interaction, Move(GAME, game_id, lambda state, chance: [command]))

    def private(self, outcome: Outcome[GameState, Event], viewer: str, note: str) -> str:
        return note  # every press of Hog's is on its board: nothing is anyone's alone

    async def rematch(self, interaction: discord.Interaction[Any], game_id: str) -> None:
        """*Rematch* pressed by one of a finished game's players: a new game of the same players, rules
        and goal in the same channel, the other player moving first; against the house it starts at
        once, against a person it is a challenge they accept. Its board names the game before it."""
        events = await self.service.events(game_id)
        state = fold(events) if events else None
        me = str(interaction.user.id)
        if state is None or not state.is_over or me not in (p.id for p in state.players):
            await interaction.response.send_message("Only this game's players can ask for a rematch.", ephemeral=True)
            return
        created = events[0]
        assert isinstance(created, GameCreated)
        seat = next(i for i, p in enumerate(state.players) if p.id == me)
        players = (state.players[seat], state.players[1 - seat])  # the one asking challenges
        person = players[1].house is None
        first = 1 if created.first == seat else 0  # whoever did not start last time
        create = CreateGame(
            new_game_id(), players, rules=state.rules.id, goal=state.goal, first=first, challenge=person,
            place=str(interaction.channel_id), challenge_timeout=created.challenge_timeout,
            turn_timeout=created.turn_timeout,
        )  # fmt: skip
        mention = f"🔁 Rematch of game {game_id}" + (f" · <@{players[1].id}>" if person else "")
        await self.open_game(interaction, create, mention)

    async def open_game(
        self, interaction: discord.Interaction[Any], create: CreateGame, mention: str | None = None
    ) -> None:
        try:
            check(create)
        except HogError as error:
            await interaction.response.send_message(error.message, ephemeral=True)
            return
        await self.client.open_game(interaction, GAME, create.game_id, create, mention)

    def commands(self) -> app_commands.Group:
        return hog_commands(self)


if TYPE_CHECKING:
    _: type[HogDesk] = HogFront  # the front is what its buttons and commands ask of it
