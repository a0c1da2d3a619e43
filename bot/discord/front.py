"""What a game gives the Discord client, and what it is given.

A game's Discord front (built by the factory its module names in ``discord_front``) brings its
slash-command group, its buttons and its board as a message. It is given a ``Road``: the road every
press takes (``bot.discord.road``: run a ``Move`` and answer the click, open a game, the read
models), never the client itself, so that no front reaches into how boards are kept
(``bot.platform.boards``) or how Discord is spoken to. A button finds its front with ``front_of``.
"""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import app_commands

from bot.discord.buttons import GameButton
from bot.discord.layout import Board, Picture
from bot.platform.contract import Commands, GameRow, Outcome

if TYPE_CHECKING:
    from bot.discord.tournaments import Desk
    from bot.platform.compose import Platform
    from bot.platform.service import GameService
    from storage.games import GameViews


@dataclass(frozen=True)
class Shown:
    """A message's embed and buttons, and the files it carries (a replay's step and its picture, a
    review's page: a game's board is a ``Board``)."""

    embed: discord.Embed
    view: discord.ui.View
    files: list[discord.File] = field(default_factory=list)


@dataclass(frozen=True)
class Move:
    """What a press asks of a game: ``commands`` run on ``game_id`` (at the board's ``version`` when
    it says one: a click on an older board is stale). ``private``: the clicked message is the
    presser's own (their hand), answered with what the front draws for them (``DiscordFront.private``,
    with ``note`` said), the board edited beside it; otherwise the clicked message is the board."""

    game: str
    game_id: str
    commands: Commands[Any, Any]
    version: int | None = None
    private: bool = False
    note: str = ""


def pictured(shown: Shown, picture: Picture) -> Shown:
    """``shown`` with ``picture`` attached and shown in its embed."""
    file = discord.File(io.BytesIO(picture.png), picture.filename, description=picture.description)
    embed = shown.embed.copy()
    embed.set_image(url=f"attachment://{picture.filename}")
    return Shown(embed, shown.view, [file])


class Road(Protocol):
    """What a game's front may ask of the Discord side (``bot.discord.road.Road``): run a press's
    move, open a game, edit a board, the read models."""

    @property
    def platform(self) -> Platform: ...

    @property
    def views(self) -> GameViews: ...

    def service(self, game: str) -> GameService[Any, Any, Any]: ...

    async def press(self, interaction: discord.Interaction[Any], move: Move) -> None:
        """Run a press's move and answer the click (the board, or the presser's hand), or tell the
        presser privately why not."""
        ...

    async def act(
        self,
        interaction: discord.Interaction[Any],
        move: Move,
        answer: Callable[[Outcome[Any, Any]], Awaitable[None]],
    ) -> None:
        """Run a slash command's move (no board clicked: a forfeit, leaving a table) as a press is run,
        refused in words the same way; ``answer`` answers the command with the outcome, then the
        game's board is edited to match."""
        ...

    async def open_game(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        game_id: str,
        create: object,
        mention: str | None = None,
        then: Commands[Any, Any] | None = None,
    ) -> None:
        """Create the game and post its board as the command's answer; ``then``: commands run on it
        once its board is up, the board edited to show them (refused: left as it is)."""
        ...

    async def edit_board(self, outcome: Outcome[Any, Any]) -> bool:
        """Show the game as it stands on its board, wherever it is (after a command with no click)."""
        ...

    async def show_picture(self, interaction: discord.Interaction[Any], game: str, game_id: str) -> None:
        """Draw the game's picture and show it on its board, the message pressed."""
        ...

    async def live_games(self, place: str | None = None, game: str | None = None) -> list[GameRow]: ...

    async def settled_views(self) -> GameViews: ...

    async def seal_line(self, game: str, state: Any) -> str | None:
        """What a board says of the game's seed (sealed while it is played, revealed once it is over)."""
        ...

    def deadline(self, game_id: str, *kinds: str) -> float | None:
        """When the game's first pending deadline of these ``kinds`` comes (a live countdown's end)."""
        ...

    async def locate(self, channel_id: str, server_id: str) -> None:
        """Remember the server a channel is in (for its leaderboard)."""
        ...

    def showed(self, game_id: str, interaction: discord.Interaction[Any]) -> None:
        """``interaction`` was answered on ``game_id``'s board (where the bot may not post, its token
        edits the board for 15 minutes: ``bot.discord.reach``)."""
        ...

    def emoji(self, name: str, fallback: str) -> str:
        """The bot's own emoji ``name`` as a message writes it, or ``fallback`` (``bot.discord.emojis``)."""
        ...

    @property
    def tournaments(self) -> Desk:
        """Every game's tournaments in Discord (``bot.discord.tournaments``)."""
        ...


class DiscordFront(Protocol):
    buttons: tuple[type[GameButton], ...]
    """Its persistent buttons: custom_ids carry everything, so they work after a restart."""
    emojis: Mapping[str, Callable[[], bytes]]
    """The emojis its boards show, by name, and how to draw each (uploaded once: ``bot.discord.emojis``)."""

    def commands(self) -> app_commands.Group: ...

    async def show(self, outcome: Outcome[Any, Any]) -> Board:
        """The public board after ``outcome``: what everyone in the channel may see."""
        ...

    async def finished(self, outcome: Outcome[Any, Any], shown: Board) -> Board:
        """The board of a game that is over, with what it adds in words (a review); ``shown`` if nothing.
        Its picture is not drawn here: the board offers it (``has_picture``), drawn when asked for."""
        ...

    def private(self, outcome: Outcome[Any, Any], viewer: str, note: str) -> Board | str:
        """What ``viewer`` alone sees of the game after ``outcome`` on their own message (a hand), with
        ``note`` said; words when there is nothing of theirs to show (their game is over). A game whose
        presses are all on its board returns words."""
        ...

    def has_picture(self, state: Any) -> bool:
        """Whether the game, over, has a picture: its finished board then offers a *Picture* button."""
        ...

    async def picture(self, outcome: Outcome[Any, Any]) -> Picture | None:
        """The picture of a game that is over (drawn when someone first presses *Picture*), or ``None``."""
        ...

    def close(self) -> None: ...


def web_link(view: discord.ui.View, public_url: str | None, game_id: str, step: int | None = None) -> None:
    """Add *Watch on the web* (a link to the game's page, at ``step`` when given) to ``view``, when the
    bot's web pages have a public address (``HOG_PUBLIC_URL``)."""
    if public_url is None:
        return
    at = f"?step={step}" if step is not None else ""
    view.add_item(discord.ui.Button(label="Watch on the web", emoji="🌐", url=f"{public_url}/games/{game_id}{at}"))


class Connected(Protocol):
    """The client a click comes to: each game's front, and the road they are given."""

    @property
    def fronts(self) -> Mapping[str, DiscordFront]: ...

    @property
    def road(self) -> Road: ...


def front_of(interaction: discord.Interaction[Any], game: str) -> Any:
    """The front of ``game`` on the client a button's click came to (a button is rebuilt from its
    custom_id alone: this is how it finds what to do)."""
    client: Connected = interaction.client
    return client.fronts[game]


def road_of(interaction: discord.Interaction[Any]) -> Road:
    """The road (``Road``) of the client a click came to."""
    client: Connected = interaction.client
    return client.road
