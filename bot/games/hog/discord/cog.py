"""Hog's Discord front: the ``/hog`` commands and the board's buttons, over the platform's client.

Old custom_ids (``hog:move:<game>:<version>:<k>`` and the rest) are kept exactly: boards posted
before any upgrade keep working.
"""

from __future__ import annotations

import io
import re
import secrets
from typing import Any

import discord
from discord import app_commands

from bot.discord.client import GameBot
from bot.discord.front import FORGED, Shown
from bot.discord.history import add_history_command
from bot.discord.leaderboard import add_leaderboard_command
from bot.discord.verify import add_verify_command
from bot.games.hog.board import board, hint
from bot.games.hog.discord.embeds import embed, stats_embed
from bot.games.hog.discord.reach import GAME, front
from bot.games.hog.discord.replays import ReplayButton, replay_embed, replay_view
from bot.games.hog.limits import check
from bot.games.hog.module import HogGame, resign, turn
from bot.games.hog.painter import Painter
from bot.games.hog.replays import chances_around
from bot.games.hog.rules_help import explain
from bot.platform.contract import Outcome, Refusal
from hog_core.errors import HogError
from hog_core.events import Event, Player
from hog_core.game import (
    PORK_CHOP,
    AcceptChallenge,
    Command,
    CreateGame,
    DeclineChallenge,
    ExpireChallenge,
    GameState,
    Status,
)
from hog_core.game import replay as fold
from hog_core.rulesets import DEFAULT_RULES, RULE_SETS
from hog_core.strategies import DIFFICULTIES


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"hog:move:(?P<game>[^:]*):(?P<version>[^:]*):(?P<k>[^:]*)",
):
    """A move on a game's board at a version. The template takes any text, so that a forged
    custom_id reaches ``HogFront.move`` and is refused in words instead of failing silently."""

    def __init__(self, game_id: str, version: int | None, k: int | None) -> None:
        label = "Pork Chop" if k == PORK_CHOP else str(k)
        style = discord.ButtonStyle.danger if k == PORK_CHOP else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"hog:move:{game_id}:{version}:{k}"))
        self.game_id, self.version, self.k = game_id, version, k

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveButton:
        return cls(match["game"], _number(match["version"]), _number(match["k"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if self.version is None or self.k is None:
            await interaction.response.send_message(FORGED, ephemeral=True)
            return
        await front(interaction).move(interaction, self.game_id, self.version, self.k)


def _number(text: str) -> int | None:
    return int(text) if re.fullmatch(r"-?\d{1,9}", text) else None


class AnswerButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"hog:answer:(?P<game>[^:]*):(?P<answer>[^:]*)",
):
    def __init__(self, game_id: str, answer: str) -> None:
        style = discord.ButtonStyle.success if answer == "accept" else discord.ButtonStyle.secondary
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=answer.capitalize(), style=style, custom_id=f"hog:answer:{game_id}:{answer}"
        )
        super().__init__(button)
        self.game_id, self.answer = game_id, answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AnswerButton:
        return cls(match["game"], match["answer"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if self.answer not in ("accept", "decline"):
            await interaction.response.send_message(FORGED, ephemeral=True)
            return
        player = str(interaction.user.id)
        command = AcceptChallenge(player) if self.answer == "accept" else DeclineChallenge(player)
        await front(interaction).run_and_show(interaction, self.game_id, command)


class HintButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"hog:hint:(?P<game>[^:]*)"):
    """The best move for the player to move, told privately to whoever asks."""

    def __init__(self, game_id: str) -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label="Hint", emoji="💡", style=discord.ButtonStyle.primary, custom_id=f"hog:hint:{game_id}"
        )
        super().__init__(button)
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HintButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        hog = front(interaction)
        try:
            state = (await hog.service.current(self.game_id)).state  # told, so any damage shows
        except Refusal as error:  # a damaged game, or another game's id
            await interaction.response.send_message(error.message, ephemeral=True)
            return
        if state.version == 0 or state.place != str(interaction.channel_id):
            await interaction.response.send_message("There is no such game here.", ephemeral=True)
            return
        await interaction.response.send_message(hint(state, await hog.game.solution(state)), ephemeral=True)


def moves_view(state: GameState) -> discord.ui.View:
    """Accept / Decline while a challenge is open, a button per legal move while it is played."""
    view = discord.ui.View(timeout=None)
    if state.status is Status.CHALLENGED:
        view.add_item(AnswerButton(state.game_id, "accept"))
        view.add_item(AnswerButton(state.game_id, "decline"))
    elif not state.is_over:
        for k in state.legal_moves():
            view.add_item(MoveButton(state.game_id, state.version, k))
        view.add_item(HintButton(state.game_id))
    return view


class HogFront:
    buttons: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
        MoveButton,
        AnswerButton,
        HintButton,
        ReplayButton,
    )

    def __init__(self, client: GameBot, game: HogGame) -> None:
        self.client, self.game = client, game
        self.service = client.service(GAME)
        self.challenge_timeout, self.turn_timeout = game.challenge_timeout, game.turn_timeout
        self.painter = Painter()

    def close(self) -> None:
        self.painter.close()

    async def show(self, outcome: Outcome[GameState, Event]) -> Shown:
        """The board after ``outcome`` (without the picture: see ``finished``)."""
        state = outcome.state
        solution = await self.game.solution(state)
        chances = None if solution is None else solution.win_chances(state)
        return Shown(embed(board(state, outcome.story, chances)), moves_view(state))

    async def finished(self, outcome: Outcome[GameState, Event], shown: Shown) -> Shown:
        return await self.with_picture(shown, await self.service.events(outcome.state.game_id), outcome.state)

    async def with_picture(self, shown: Shown, events: list[Event], last: GameState, at: int | None = None) -> Shown:
        """``shown`` with the picture of the game (``events``, ending in ``last``) attached and shown
        in its embed, once a turn was played."""
        png = await self.painter.paint(events, await self.game.solution(last), at)
        if png is None:
            return shown
        names = " and ".join(p.name for p in last.players)
        picture = discord.File(io.BytesIO(png), f"hog-{last.game_id}.png", description=f"{names}'s totals turn by turn")
        pictured = shown.embed.copy()
        pictured.set_image(url=f"attachment://{picture.filename}")
        return Shown(pictured, shown.view, [picture])

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
        if (sealed := await self.client.seal_line(GAME, steps[-1][1])) is not None:
            shown.embed.set_footer(text=f"{shown.embed.footer.text} · {sealed}")
        return await self.with_picture(shown, events, steps[-1][1], at=after.turn_number)

    async def send_animation(self, interaction: discord.Interaction[Any], game_id: str) -> None:
        """The game drawn turn by turn, as a GIF for the asker alone: a second or two to draw, so it
        follows the answer."""
        events = await self.service.events(game_id)
        last = fold(events)
        gif = await self.painter.animate(events, await self.game.solution(last))
        if gif is None:
            await interaction.followup.send("Nothing to animate yet: nobody has moved.", ephemeral=True)
            return
        animation = discord.File(io.BytesIO(gif), f"hog-{last.game_id}.gif", description="The game, turn by turn")
        await interaction.followup.send(file=animation, ephemeral=True)

    async def move(self, interaction: discord.Interaction[Any], game_id: str, version: int, k: int) -> None:
        player, command_id, place = str(interaction.user.id), str(interaction.id), str(interaction.channel_id)
        await self.client.update_board(
            interaction,
            GAME,
            game_id,
            lambda: self.service.execute(game_id, turn(player, k), command_id, version, place),
        )

    async def run_and_show(self, interaction: discord.Interaction[Any], game_id: str, command: Command) -> None:
        place = str(interaction.channel_id)
        await self.client.update_board(
            interaction,
            GAME,
            game_id,
            lambda: self.service.execute(game_id, lambda state, chance: [command], str(interaction.id), place=place),
        )

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


def new_game_id() -> str:
    return f"g{secrets.token_hex(5)}"


RULE_CHOICES = [app_commands.Choice(name=rs.name[:100], value=rs.id) for rs in RULE_SETS.values()]
LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in DIFFICULTIES]


def hog_commands(bot: HogFront) -> app_commands.Group:
    hog = app_commands.Group(name="hog", description="Play Hog, the dice game from CS 61A")

    @hog.command(name="house", description="Play a game against the house")
    @app_commands.describe(
        rules="the rule set", goal="points to win (10 to 200)", difficulty="how well the house plays"
    )
    @app_commands.choices(rules=RULE_CHOICES, difficulty=LEVEL_CHOICES)
    async def house(
        interaction: discord.Interaction[Any],
        rules: str = DEFAULT_RULES,
        goal: app_commands.Range[int, 10, 200] = 100,
        difficulty: str = "perfect",
    ) -> None:
        player = Player(str(interaction.user.id), interaction.user.display_name)
        rival = Player(f"house:{difficulty}", "The house", house=difficulty)
        place = str(interaction.channel_id)
        create = CreateGame(
            new_game_id(), (player, rival), rules=rules, goal=goal, place=place, turn_timeout=bot.turn_timeout
        )
        await bot.open_game(interaction, create)

    @hog.command(name="challenge", description="Challenge someone in this channel to a game")
    @app_commands.describe(opponent="who to play", rules="the rule set", goal="points to win (10 to 1000)")
    @app_commands.choices(rules=RULE_CHOICES)
    async def challenge(
        interaction: discord.Interaction[Any],
        opponent: discord.User,
        rules: str = DEFAULT_RULES,
        goal: app_commands.Range[int, 10, 1000] = 100,
    ) -> None:
        me = interaction.user
        refusal = None
        if interaction.guild_id is None:
            refusal = "Challenges are played in a server's channel; here, try `/hog house`."
        elif not isinstance(opponent, discord.Member):  # Discord resolved no member: not in this server
            refusal = f"{opponent.display_name} is not a member of this server, so they cannot play here."
        elif opponent.id == me.id:
            refusal = "You can't challenge yourself: try `/hog house`."
        elif opponent.bot:
            refusal = f"{opponent.display_name} is a bot. Play the house with `/hog house`."
        else:
            pair = {str(me.id), str(opponent.id)}
            live = await bot.client.live_games(str(interaction.channel_id), GAME)
            if any({s.player_id for s in row.seats} == pair for row in live):
                refusal = f"You already have a game with {opponent.display_name} in this channel."
        if refusal is not None:
            await interaction.response.send_message(refusal, ephemeral=True)
            return
        players = (Player(str(me.id), me.display_name), Player(str(opponent.id), opponent.display_name))
        create = CreateGame(
            new_game_id(),
            players,
            rules=rules,
            goal=goal,
            challenge=True,
            place=str(interaction.channel_id),
            challenge_timeout=bot.challenge_timeout,
            turn_timeout=bot.turn_timeout,
        )
        await bot.open_game(interaction, create, mention=opponent.mention)

    @hog.command(name="forfeit", description="Resign your game in this channel")
    async def forfeit(interaction: discord.Interaction[Any]) -> None:
        me = str(interaction.user.id)
        live = await bot.client.live_games(str(interaction.channel_id), GAME)
        mine = [row for row in live if me in {s.player_id for s in row.seats}]
        if not mine:
            await interaction.response.send_message("You have no game in this channel.", ephemeral=True)
            return
        game = mine[-1]
        try:
            if game.status == "challenged":  # not started: the challenger withdraws, the challenged declines
                withdraw: Command = ExpireChallenge() if game.seats[0].player_id == me else DeclineChallenge(me)
                outcome = await bot.service.execute(game.game_id, lambda state, chance: [withdraw], str(interaction.id))
            else:
                outcome = await bot.service.execute(game.game_id, resign(me), str(interaction.id))
        except Refusal as error:
            await interaction.response.send_message(error.message, ephemeral=True)
            return
        shown = await bot.show(outcome)
        await interaction.response.send_message(embed=shown.embed)
        await bot.client.edit_board(outcome)  # the old board loses its buttons and shows the picture

    @hog.command(name="rules", description="A rule set explained, with examples")
    @app_commands.describe(rules="the rule set (the default one if left out)")
    @app_commands.choices(rules=RULE_CHOICES)
    async def rules_(interaction: discord.Interaction[Any], rules: str = DEFAULT_RULES) -> None:
        if rules not in RULE_SETS:
            await interaction.response.send_message(f"There is no rule set {rules!r}.", ephemeral=True)
            return
        title, text = explain(rules)
        await interaction.response.send_message(embed=discord.Embed(title=title, description=text), ephemeral=True)

    @hog.command(name="replay", description="Watch a game again, turn by turn (only you see it)")
    @app_commands.describe(
        game="the game's id (your recent games are offered)",
        step="start at this step",
        animate="also send the game drawn turn by turn, as an animated GIF",
    )
    async def replay(
        interaction: discord.Interaction[Any],
        game: str,
        step: app_commands.Range[int, 1, 100_000] = 1,
        animate: bool = False,
    ) -> None:
        try:
            shown = await bot.replay(game.strip(), step - 1)
        except Refusal as error:
            await interaction.response.send_message(error.message, ephemeral=True)
            return
        if shown is None:
            await interaction.response.send_message(f"There is no game {game!r} to replay.", ephemeral=True)
            return
        await interaction.response.send_message(embed=shown.embed, view=shown.view, files=shown.files, ephemeral=True)
        if animate:
            await bot.send_animation(interaction, game.strip())

    @replay.autocomplete("game")
    async def recent_games(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        me = str(interaction.user.id)
        rows = await bot.client.views.history(me, limit=25, game=GAME)
        typed = current.strip().lower()
        return [
            app_commands.Choice(name=f"{row.game_id} · {bot.game.history_line(row, me)}"[:100], value=row.game_id)
            for row in rows
            if typed in f"{row.game_id} {bot.game.history_line(row, me)}".lower()
        ]

    add_history_command(hog, bot.client.platform, GAME)
    add_verify_command(hog, bot.client, GAME)
    add_leaderboard_command(hog, bot.client, GAME)

    @hog.command(name="stats", description="Games, wins, streaks, rating and the biggest turn, yours or a member's")
    @app_commands.describe(member="whose stats (yours if left out)")
    async def stats(interaction: discord.Interaction[Any], member: discord.Member | None = None) -> None:
        who = member or interaction.user
        found = await (await bot.client.settled_views()).stats(str(who.id), GAME, by="rules", best="turn")
        await interaction.response.send_message(embed=stats_embed(found, who.display_name), ephemeral=True)

    @hog.command(name="help", description="How to play Hog here")
    async def help_(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(embed=HELP, ephemeral=True)

    return hog


HELP = discord.Embed(
    title="Hog: how to play",
    description=(
        "Two players take turns. On your turn choose how many dice to roll (0 to 10): your turn scores "
        "their sum, but a 1 ruins it, and rolling none scores by a special rule. First to the goal wins.\n\n"
        "`/hog challenge @someone` challenges a friend; `/hog house` plays the house (easy, medium or "
        "perfect). Press a number on the board to roll that many dice, or 💡 Hint for the best move. "
        "`/hog rules` explains each rule set "
        "with examples; `/hog forfeit` resigns. `/hog history` lists your games and `/hog replay` watches "
        "one again, turn by turn; `/hog stats` shows your record and rating, `/hog leaderboard` this "
        "server's best. Every board's dice are sealed: `/hog verify` checks a finished game."
    ),
)
