"""``/hog``: play the house or a friend, forfeit, the rules, replays, history, stats, the leaderboard,
verify and help."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.discord.admin import chosen_here
from bot.discord.export import add_export_command
from bot.discord.front import Move
from bot.discord.history import add_history_command
from bot.discord.leaderboard import add_leaderboard_command
from bot.discord.reach import EVERYWHERE, in_this_chat
from bot.discord.tournaments import FORMAT_CHOICES, tournament_group
from bot.discord.verify import add_verify_command
from bot.games.hog.contest.entries import EVERYONE, Contest
from bot.games.hog.discord.contest import add_contest_commands, contest_of
from bot.games.hog.discord.desk import GAME, HogDesk
from bot.games.hog.discord.embeds import stats_embed
from bot.games.hog.module import resign
from bot.games.hog.rules_help import explain
from bot.games.hog.stats import player_stats
from bot.platform.contract import Commands, Outcome, Refusal
from bot.platform.names import cleaned
from bot.platform.tournaments.rules import MOST_ROUNDS
from hog_core.contest import SIZE, encode
from hog_core.errors import HogError
from hog_core.events import Event, Player
from hog_core.game import Command, CreateGame, DeclineChallenge, ExpireChallenge, GameState
from hog_core.rulesets import DEFAULT_RULES, RULE_SETS, RuleSet, canonical, offered, toggles, turned_off
from hog_core.strategies import DIFFICULTIES, ENTRY


def new_game_id() -> str:
    return f"g{secrets.token_hex(5)}"


WITHOUT = "rules of the set to turn off, by name (swine_swap, or more: swine_swap,hog_wild)"


def rules_named(typed: str | None) -> list[str]:
    """The rules a player typed to turn off: names split at commas, in order, each once."""
    return list(dict.fromkeys(part.strip().lower() for part in (typed or "").split(",") if part.strip()))


RULE_CHOICES = [app_commands.Choice(name=rs.name[:100], value=rs.id) for rs in RULE_SETS.values()]
RULES_WORDS = "a semester's rules (fa23, Spring 2024, Boar Brawl…) or your own: fa23+time_trot, sp21~more_boar"


async def rule_sets_typed(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """Every semester's rule set, more than Discord's 25 choices: those the words typed name."""
    return [app_commands.Choice(name=label[:100], value=rules) for rules, label in offered(current)]


def chosen_rule_set(interaction: discord.Interaction[Any]) -> RuleSet | None:
    """The rule set the command's ``rules`` names so far (a semester, an alias or one's own), if any."""
    typed = getattr(interaction.namespace, "rules", None) or DEFAULT_RULES
    try:
        return RULE_SETS[canonical(typed)]
    except HogError:
        return None


async def entry_player(
    bot: HogDesk, interaction: discord.Interaction[Any], wanted: str, rules: str, goal: int
) -> tuple[str, Player]:
    """The contest entry ``wanted`` names (``entry:<scope>:<team>`` as offered, or a team's name) as
    the house's seat, its table pinned in the game; ``Refusal`` when there is none here."""
    scope, team = EVERYONE, wanted.strip()
    if wanted.startswith(f"{ENTRY}:"):
        scope, _, team = wanted.removeprefix(f"{ENTRY}:").partition(":")
    here = contest_of(interaction, rules, False)
    places = [Contest(rules, scope)] if scope in (here.scope, EVERYONE) else []
    if not wanted.startswith(f"{ENTRY}:"):
        places = list(dict.fromkeys([here, Contest(rules, EVERYONE)]))
    for contest in places:
        entries = await bot.contests.entries.of(contest)
        entry = next((e for t, e in entries.items() if t.casefold() == team.casefold()), None)
        if entry is not None:
            if goal != SIZE:
                raise Refusal(f"A contest entry plays to {SIZE}, the goal its table is for.")
            return rules, Player(f"{ENTRY}:{entry.team}", entry.team, house=ENTRY, table=encode(entry.table))
    raise Refusal(
        f"There is no house level or {rules} contest entry {wanted[:40]!r} here: choose easy, medium, perfect "
        "or an entry offered (entries are per rule set: choose the rule set first)."
    )


@dataclass(frozen=True)
class Here:
    """What a server's admins chose for its Hog games (``/hogbot settings``), used where a command leaves it out."""

    rules: str
    goal: int
    turn_timeout: int
    challenge_timeout: int

    @classmethod
    async def of(cls, bot: HogDesk, interaction: discord.Interaction[Any]) -> Here:
        chosen = await chosen_here(bot.client, interaction)
        return cls(
            chosen["hog-rules"],
            int(chosen["hog-goal"]),
            int(chosen["hog-turn-timeout"]),
            int(chosen["hog-challenge-timeout"]),
        )


def hog_commands(bot: HogDesk) -> app_commands.Group:
    hog = app_commands.Group(name="hog", description="Play Hog, the dice game from CS 61A", **EVERYWHERE)

    @hog.command(name="house", description="Play a game against the house, or against a contest entry")
    @app_commands.describe(
        rules=RULES_WORDS,
        goal="points to win (10 to 200)",
        difficulty="how well the house plays: easy, medium, perfect, or a contest entry's name",
        without=WITHOUT,
    )
    async def house(
        interaction: discord.Interaction[Any],
        rules: str | None = None,
        goal: app_commands.Range[int, 10, 200] | None = None,
        difficulty: str = "perfect",
        without: str | None = None,
    ) -> None:
        here = await Here.of(bot, interaction)
        goal = here.goal if goal is None else goal
        player = Player(str(interaction.user.id), cleaned(interaction.user.display_name))
        try:
            rules = turned_off(here.rules if rules is None else rules, rules_named(without))
        except HogError as error:
            await interaction.response.send_message(error.message, ephemeral=True)
            return
        if (level := difficulty.strip().lower()) in DIFFICULTIES:  # typed, not chosen: "Perfect" is perfect
            rival = Player(f"house:{level}", "The house", house=level)
        elif without:
            await interaction.response.send_message(
                "A contest entry plays its table to the contest's rules, every one: leave `without` out.",
                ephemeral=True,
            )
            return
        else:
            try:
                rules, rival = await entry_player(bot, interaction, difficulty, rules, goal)
            except Refusal as error:
                await interaction.response.send_message(error.message, ephemeral=True)
                return
        place = str(interaction.channel_id)
        create = CreateGame(
            new_game_id(), (player, rival), rules=rules, goal=goal, place=place, turn_timeout=here.turn_timeout
        )
        await bot.open_game(interaction, create)

    @hog.command(name="puzzle", description="A Hog puzzle from the solved game, for you alone")
    @app_commands.describe(rules="the rule set", theme="only puzzles of this theme (bacon, swap, lead …)")
    @app_commands.choices(rules=RULE_CHOICES)
    async def puzzle(interaction: discord.Interaction[Any], rules: str | None = None, theme: str | None = None) -> None:
        chosen = DEFAULT_RULES if rules is None else rules
        await bot.puzzles.serve(interaction, chosen, theme.strip()[:40] if theme else None)

    @hog.command(name="daily", description="This server's Hog puzzle of the day: the same for everyone; who solved it")
    async def daily(interaction: discord.Interaction[Any]) -> None:
        await bot.puzzles.serve_daily(interaction)

    @hog.command(name="train", description="A position of your own games where a move cost you: find the best")
    async def train(interaction: discord.Interaction[Any]) -> None:
        await bot.puzzles.serve_training(interaction)

    @house.autocomplete("difficulty")
    async def levels_and_entries(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        typed = current.strip().casefold()
        offered = [app_commands.Choice(name=level, value=level) for level in DIFFICULTIES if typed in level]
        rules = getattr(interaction.namespace, "rules", None) or DEFAULT_RULES
        for wanted in dict.fromkeys([contest_of(interaction, rules, False), Contest(rules, EVERYONE)]):
            for team in await bot.contests.entries.of(wanted):
                if typed in team.casefold():
                    where = "everyone's" if wanted.scope == EVERYONE else "this server's"
                    value = f"{ENTRY}:{wanted.scope}:{team}"
                    offered.append(app_commands.Choice(name=f"{team} · {where} contest, {rules} rules", value=value))
        return offered[:25]

    @hog.command(name="challenge", description="Challenge someone in this channel to a game")
    @app_commands.describe(
        opponent="who to play", rules=RULES_WORDS, goal="points to win (10 to 1000)", without=WITHOUT
    )
    async def challenge(
        interaction: discord.Interaction[Any],
        opponent: discord.User,
        rules: str | None = None,
        goal: app_commands.Range[int, 10, 1000] | None = None,
        without: str | None = None,
    ) -> None:
        here = await Here.of(bot, interaction)
        goal = here.goal if goal is None else goal
        me = interaction.user
        try:
            rules_id = turned_off(here.rules if rules is None else rules, rules_named(without))
        except HogError as error:
            await interaction.response.send_message(error.message, ephemeral=True)
            return
        refusal = None
        if interaction.guild_id is None and not in_this_chat(interaction, opponent):
            refusal = (
                f"{opponent.display_name} is not in this chat. Challenge someone where you both are: a server, "
                "or a DM or group DM with them (add hogbot to your account for those); or try `/hog house`."
            )
        elif interaction.guild_id is not None and not isinstance(opponent, discord.Member):  # not in this server
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
        players = (
            Player(str(me.id), cleaned(me.display_name)),
            Player(str(opponent.id), cleaned(opponent.display_name)),
        )
        create = CreateGame(
            new_game_id(),
            players,
            rules=rules_id,
            goal=goal,
            challenge=True,
            place=str(interaction.channel_id),
            challenge_timeout=here.challenge_timeout,
            turn_timeout=here.turn_timeout,
        )
        await bot.open_game(interaction, create, mention=opponent.mention)

    async def rules_to_turn_off(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        """The chosen rule set's rules that may be turned off, after those typed already (``a, b``)."""
        base = chosen_rule_set(interaction)
        done, _, typing = current.rpartition(",")
        chosen = rules_named(done)
        found = []
        for key, name in toggles(base) if base is not None else ():
            if key not in chosen and typing.strip().casefold() in f"{key} {name}".casefold():
                value = ",".join([*chosen, key])
                found.append(app_commands.Choice(name=f"{', '.join([*chosen, key])} ({name})"[:100], value=value))
        return found[:25]

    house.autocomplete("without")(rules_to_turn_off)
    challenge.autocomplete("without")(rules_to_turn_off)
    house.autocomplete("rules")(rule_sets_typed)
    challenge.autocomplete("rules")(rule_sets_typed)

    tournament = tournament_group(hog, bot.client, GAME)

    @tournament.command(name="new", description="Open a tournament in this channel: players join on its board")
    @app_commands.describe(
        format="Swiss, round robin or knockout",
        rounds="rounds to play (Swiss; 0: as many as the field needs)",
        rules="every game's rules: a semester (fa23, Spring 2024…) or your own (fa23+time_trot)",
        goal="points to win each game (10 to 200)",
        signup="minutes before it starts by itself (0: when its organiser presses Start)",
    )
    @app_commands.choices(format=FORMAT_CHOICES)
    async def new_tournament(
        interaction: discord.Interaction[Any],
        format: str,
        rounds: app_commands.Range[int, 0, MOST_ROUNDS] = 0,
        rules: str | None = None,
        goal: app_commands.Range[int, 10, 200] | None = None,
        signup: app_commands.Range[int, 0, 1440] = 15,
    ) -> None:
        here = await Here.of(bot, interaction)
        try:
            rules_id = canonical(here.rules if rules is None else rules)
        except HogError as error:
            await interaction.response.send_message(error.message, ephemeral=True)
            return
        goal = here.goal if goal is None else goal
        options = {"rules": rules_id, "goal": str(goal), "turn-timeout": str(here.turn_timeout)}
        await bot.client.tournaments.open(interaction, GAME, format, rounds, signup, options)

    new_tournament.autocomplete("rules")(rule_sets_typed)

    @hog.command(name="forfeit", description="Resign your game in this channel")
    async def forfeit(interaction: discord.Interaction[Any]) -> None:
        me = str(interaction.user.id)
        live = await bot.client.live_games(str(interaction.channel_id), GAME)
        mine = [row for row in live if me in {s.player_id for s in row.seats}]
        if not mine:
            await interaction.response.send_message("You have no game in this channel.", ephemeral=True)
            return
        game = mine[-1]
        if game.status == "challenged":  # not started: the challenger withdraws, the challenged declines
            withdraw: Command = ExpireChallenge() if game.seats[0].player_id == me else DeclineChallenge(me)
            commands: Commands[GameState, Command] = lambda state, chance: [withdraw]  # noqa: E731
        else:
            commands = resign(me)

        async def answer(outcome: Outcome[GameState, Event]) -> None:  # the old board then loses its buttons
            await interaction.response.send_message(view=(await bot.show(outcome)).view())

        await bot.client.act(interaction, Move(GAME, game.game_id, commands), answer)

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
        rows = await (await bot.client.settled_views()).history(me, limit=25, game=GAME)
        typed = current.strip().lower()
        return [
            app_commands.Choice(name=f"{row.game_id} · {bot.game.history_line(row, me)}"[:100], value=row.game_id)
            for row in rows
            if typed in f"{row.game_id} {bot.game.history_line(row, me)}".lower()
        ]

    @hog.command(name="analyze", description="A game's exact review: each move's chances, accuracy (only you see it)")
    @app_commands.describe(game="the game's id (your recent games are offered)")
    async def analyze(interaction: discord.Interaction[Any], game: str) -> None:
        try:
            shown = await bot.analysis(game.strip(), 0)
        except Refusal as error:
            await interaction.response.send_message(error.message, ephemeral=True)
            return
        if shown is None:
            await interaction.response.send_message(f"There is no Hog game {game!r} to review.", ephemeral=True)
            return
        await interaction.response.send_message(embed=shown.embed, view=shown.view, ephemeral=True)

    analyze.autocomplete("game")(recent_games)

    add_contest_commands(hog, bot)
    add_history_command(hog, bot.client.platform, GAME)
    add_verify_command(hog, bot.client, GAME)
    add_export_command(hog, bot.client, GAME)
    add_leaderboard_command(hog, bot.client, GAME)

    @hog.command(name="stats", description="Games, wins, streaks, rating and the biggest turn, yours or a member's")
    @app_commands.describe(member="whose stats (yours if left out)")
    async def stats(interaction: discord.Interaction[Any], member: discord.Member | None = None) -> None:
        who = member or interaction.user
        found = await player_stats(await bot.client.settled_views(), str(who.id))
        await interaction.response.send_message(embed=stats_embed(*found, who.display_name), ephemeral=True)

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
        "server's best. Every board's dice are sealed: `/hog verify` checks a finished game. `/hog contest submit` "
        "enters your final strategy's table in the course's contest, ranked exactly against everyone's."
    ),
)
