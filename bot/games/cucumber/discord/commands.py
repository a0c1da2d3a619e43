"""``/cucumber``: open a table, leave a game, replay one; history, stats, leaderboard, verify, rules, help."""

from __future__ import annotations

import secrets
from typing import Any

import discord
from discord import app_commands

from bot.discord.admin import chosen_here
from bot.discord.export import add_export_command
from bot.discord.front import Move
from bot.discord.history import add_history_command
from bot.discord.leaderboard import add_leaderboard_command
from bot.discord.reach import EVERYWHERE
from bot.discord.sections import sections_embed
from bot.discord.tournaments import FORMAT_CHOICES, tournament_group
from bot.discord.verify import add_verify_command
from bot.games.cucumber.discord.desk import GAME, CucumberDesk
from bot.games.cucumber.discord.embeds import COLOUR
from bot.games.cucumber.moves import leave
from bot.games.cucumber.rules_help import RULES, worked_trick
from bot.games.cucumber.stats import player_stats, sections
from bot.platform.contract import Outcome, Refusal
from bot.platform.names import cleaned
from bot.platform.tournaments.rules import MOST_ROUNDS
from cucumber_core.errors import CucumberError
from cucumber_core.events import Event, Seat
from cucumber_core.game import MAX_PLAYERS, GameState, OpenLobby, decide


def new_game_id() -> str:
    return f"c{secrets.token_hex(5)}"


def cucumber_commands(front: CucumberDesk) -> app_commands.Group:
    group = app_commands.Group(name="cucumber", description="Play Cucumber, the card game from CS 88", **EVERYWHERE)
    client = front.client

    @group.command(name="new", description="Open a table in this channel: others join, bots fill empty seats")
    @app_commands.describe(
        players="seats at the table (2 to 6)",
        target="the score that loses (21)",
        cards="cards a hand (7)",
        cucumbers="the first time you reach the target costs a cucumber; the second loses",
    )
    async def new(
        interaction: discord.Interaction[Any],
        players: app_commands.Range[int, 2, MAX_PLAYERS] = 4,
        target: app_commands.Range[int, 5, 200] = 21,
        cards: app_commands.Range[int, 1, 10] = 7,
        cucumbers: bool = False,
    ) -> None:
        me, place = str(interaction.user.id), str(interaction.channel_id)
        host = Seat(me, cleaned(interaction.user.display_name))
        game_id = new_game_id()
        chosen = await chosen_here(client, interaction)
        timeouts = (int(chosen["cucumber-turn-timeout"]), int(chosen["cucumber-lobby-timeout"]))
        opening = OpenLobby(game_id, host, players, cards, target, cucumbers, *timeouts, place)
        try:
            decide(GameState(), opening)  # a table that cannot be is refused before anything is posted
        except CucumberError as error:
            await interaction.response.send_message(error.message, ephemeral=True)
            return
        if await front.seated_elsewhere(me, place):
            await interaction.response.send_message(
                "You are at a table in this channel already: finish it, or `/cucumber leave` it first.",
                ephemeral=True,
            )
            return
        await client.open_game(interaction, GAME, game_id, opening)

    @group.command(name="leave", description="Leave your table here; in a game, a bot plays your seat")
    async def leave_(interaction: discord.Interaction[Any]) -> None:
        me = str(interaction.user.id)
        live = await client.live_games(str(interaction.channel_id), GAME)
        mine = [row for row in live if me in {s.player_id for s in row.seats}]
        if not mine:
            await interaction.response.send_message("You are at no table in this channel.", ephemeral=True)
            return

        async def answer(outcome: Outcome[GameState, Event]) -> None:
            await interaction.response.send_message(outcome.story[-1] if outcome.story else "You left.", ephemeral=True)

        await client.act(interaction, Move(GAME, mine[-1].game_id, leave(me)), answer)

    @group.command(name="replay", description="Watch a game again, trick by trick (only you see it)")
    @app_commands.describe(game="the game's id (your recent games are offered)")
    async def replay(interaction: discord.Interaction[Any], game: str) -> None:
        await front.replay_step(interaction, game.strip(), 0, fresh=True)

    @replay.autocomplete("game")
    async def recent(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        me = str(interaction.user.id)
        rows = await (await client.settled_views()).history(me, limit=25, game=GAME)
        lines = [(row.game_id, f"{row.game_id} · {front.game.history_line(row, me)}") for row in rows]
        return [
            app_commands.Choice(name=line[:100], value=game_id)
            for game_id, line in lines
            if current.strip().lower() in line.lower()
        ]

    tournament = tournament_group(group, client, GAME)

    @tournament.command(name="new", description="Open a tournament in this channel: players join on its board")
    @app_commands.describe(
        format="Swiss, round robin (a league) or knockout: tables of 3 to 6",
        rounds="rounds to play (0: as many as the field needs)",
        target="the score that loses each game (21)",
        cards="cards a hand (7)",
        signup="minutes before it starts by itself (0: when its organiser presses Start)",
    )
    @app_commands.choices(format=FORMAT_CHOICES)
    async def new_tournament(
        interaction: discord.Interaction[Any],
        format: str,
        rounds: app_commands.Range[int, 0, MOST_ROUNDS] = 0,
        target: app_commands.Range[int, 5, 200] = 21,
        cards: app_commands.Range[int, 1, 10] = 7,
        signup: app_commands.Range[int, 0, 1440] = 15,
    ) -> None:
        chosen = await chosen_here(client, interaction)
        options = {"target": str(target), "cards": str(cards), "turn-timeout": chosen["cucumber-turn-timeout"]}
        await client.tournaments.open(interaction, GAME, format, rounds, signup, options)

    add_history_command(group, client.platform, GAME)
    add_verify_command(group, client, GAME)
    add_export_command(group, client, GAME)
    add_leaderboard_command(group, client, GAME)

    @group.command(
        name="analyze", description="A finished game's review, estimated by the strong bot (only you see it)"
    )
    @app_commands.describe(game="the game's id (your recent games are offered)")
    async def analyze(interaction: discord.Interaction[Any], game: str) -> None:
        try:
            shown = await front.analysis(game.strip())
        except Refusal as error:
            shown = error.message
        if isinstance(shown, str):
            await interaction.response.send_message(shown, ephemeral=True)
        else:
            await interaction.response.send_message(embed=shown, ephemeral=True)

    analyze.autocomplete("game")(recent)

    @group.command(name="stats", description="Games, losses, cucumbers and the worst card you were stuck with")
    @app_commands.describe(member="whose stats (yours if left out)")
    async def stats(interaction: discord.Interaction[Any], member: discord.Member | None = None) -> None:
        who = member or interaction.user
        record, totals = await player_stats(await client.settled_views(), str(who.id))
        footer = "Finished games only. Lost: reached the target; won: the lowest score of the rest."
        embed = sections_embed(
            f"{who.display_name}'s Cucumber stats", sections(record, totals, "Open a table with /cucumber new."), footer
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @group.command(name="rules", description="The rules, with a trick played through")
    async def rules(interaction: discord.Interaction[Any]) -> None:
        embed = discord.Embed(title="🥒 Cucumber: the rules", description=RULES, colour=COLOUR)
        embed.add_field(name="A trick, worked through", value="\n".join(worked_trick()), inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @group.command(name="help", description="How to play Cucumber here")
    async def help_(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(embed=HELP, ephemeral=True)

    return group


HELP = discord.Embed(
    title="🥒 Cucumber: how to play here",
    colour=COLOUR,
    description=(
        "`/cucumber new` opens a table in this channel (2 to 6 seats). Others press **Join**; the host "
        "adds bots with the **+ bot** buttons and presses **Start** (or **Start with bots** to fill every "
        "empty seat with the strong bot).\n\n"
        "The board shows the trick, the earlier tricks, scores and whose turn it is. Press **Show my hand**: "
        "your cards appear where only you see them, the ones you may play in green. Play one by pressing it.\n\n"
        "Each turn has a time limit; when it runs out a bot plays for you, and after three in a row it keeps "
        "your seat until you press **I'm back**. `/cucumber leave` hands your seat to a bot.\n\n"
        "`/cucumber rules` explains the game with an example; `/cucumber replay`, `/cucumber history` and "
        "`/cucumber stats` look back, and `/cucumber leaderboard` ranks this server's players (games "
        "between people only)."
    ),
)
