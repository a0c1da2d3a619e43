"""Which Hog games the bot offers: goals it can play, and the goals it has solved for the perfect
house and the win chances."""

from __future__ import annotations

from hog_core.contest import SIZE, decode, lowest
from hog_core.errors import InvalidGame
from hog_core.events import Player
from hog_core.game import CreateGame
from hog_core.rulesets import RULE_SETS
from hog_core.strategies import DIFFICULTIES, ENTRY

MAX_SOLVED_GOAL = 200
"""The largest goal the perfect house and the win chances are solved for: the solution's size grows
with the square of the goal (contest to 200 solves in seconds; to 1000 it would take minutes)."""

GOALS = range(10, 1001)
"""The goals a game may be played to, from every front end."""


def check(command: CreateGame) -> None:
    """Refuse, before any work, a game no front end offers: raises ``InvalidGame``."""
    try:
        RULE_SETS[command.rules]  # one of the six, or one of them with rules turned off
    except KeyError:
        raise InvalidGame(f"There is no rule set {command.rules!r}; choose one of {', '.join(RULE_SETS)}.") from None
    if command.goal not in GOALS:
        raise InvalidGame(f"The goal must be between {GOALS[0]} and {GOALS[-1]}, not {command.goal}.")
    for player in command.players:
        if player.house == ENTRY:
            check_entry(command, player)
        elif player.house is not None and player.house not in DIFFICULTIES:
            raise InvalidGame(f"The house plays {', '.join(DIFFICULTIES)}; there is no {player.house!r}.")
    if command.goal > MAX_SOLVED_GOAL and any(p.house in ("medium", "perfect") for p in command.players):
        raise InvalidGame(
            f"The medium and perfect house play to goals up to {MAX_SOLVED_GOAL}; for a longer game choose easy."
        )


def check_entry(command: CreateGame, player: Player) -> None:
    """A contest entry plays its table: to the contest's goal, in a rule set its moves are legal in."""
    if command.goal != SIZE:
        raise InvalidGame(f"A contest entry plays to {SIZE}, the goal its table is for, not {command.goal}.")
    if not isinstance(player.table, str):
        raise InvalidGame("A contest entry's seat needs its table.")
    try:
        table = decode(player.table)
        if table.shape != (SIZE, SIZE):
            raise ValueError(f"shape {table.shape}")
    except ValueError as error:
        raise InvalidGame(f"The entry's table cannot be read: {error}") from error
    rules = RULE_SETS[command.rules]
    if int(table.min()) < lowest(rules) or int(table.max()) > rules.max_dice:
        raise InvalidGame(f"{player.name}'s table holds moves that {rules.name.split(':')[0]} does not allow.")
