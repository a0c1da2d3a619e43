"""Cucumber's messages: the public board (a table, or a game in play), a player's private hand, and a
replay step. The board is drawn from ``PublicView`` alone; a hand from its owner's seat alone; a
replay shows hands only once the game is over."""

from __future__ import annotations

import discord

from bot.discord.buttons import Buttons, look
from bot.discord.layout import Board
from bot.discord.stepping import NAVIGATION, target
from bot.games.cucumber.analysis import ESTIMATE
from bot.games.cucumber.board import current_trick, earlier_tricks, seat_lines, story
from bot.games.cucumber.discord.buttons import (
    BackButton,
    CardButton,
    HandButton,
    LobbyButton,
    RematchButton,
    ReplayButton,
)
from bot.games.cucumber.hands import hand_of, in_value_order
from bot.games.cucumber.replays import Step
from cucumber_core.bots import BOTS
from cucumber_core.cards import listing
from cucumber_core.game import GameState, Phase
from cucumber_core.views import public_view

COLOUR = discord.Colour.dark_green()


def title(state: GameState) -> str:
    cucumbers = " · two 🥒 lose" if state.cucumber_rule else ""
    return f"🥒 Cucumber · reach {state.target} and lose{cucumbers}"


SEATS = (0x5865F2, 0xEB459E, 0xFEE75C, 0x57F287, 0xED4245, 0x9B59B6)
"""Each seat's colour: the board's accent while it is their turn (said in words too)."""


def board_table(state: GameState, lines: tuple[str, ...], deadline: float | None) -> Board:
    """The public board: the table before the game, then the tricks, seats and whose turn it is."""
    view = public_view(state)
    accent = SEATS[view.to_play % len(SEATS)] if view.to_play is not None else COLOUR.value
    shown = Board(accent=accent).text(f"### {title(state)}").text(story(lines))
    if state.phase is Phase.LOBBY:
        closes = f" The table closes <t:{int(deadline)}:R>." if deadline else ""
        shown.rule().text(f"**At the table** ({len(state.seats)} of {state.max_players})\n{seat_lines(view)}")
        shown.text(f"Join to sit down. {state.seats[0].name} starts the game (bots in empty seats if asked).{closes}")
        return shown.note(f"{state.num_cards} cards a hand · game {state.game_id}")
    trick = current_trick(view)
    if trick is not None:
        shown.rule().text(f"**{trick[0]}**\n{trick[1]}")
    if earlier := earlier_tricks(view):
        shown.text(f"**Hand {state.hand_number}: earlier tricks**\n{earlier[-1024:]}")
    shown.rule().text(f"**Scores**\n{seat_lines(view)}")
    if view.to_play is not None:
        due = f" · a bot plays for them <t:{int(deadline)}:R>" if deadline else ""
        shown.text(f"⏱️ **{view.seats[view.to_play].name}** to play{due}")
    return shown.note(
        f"game {state.game_id} · hand {state.hand_number}" if not state.is_over else f"game {state.game_id}"
    )


def board_view(state: GameState) -> Buttons:
    view = Buttons()
    game_id = state.game_id
    if state.phase is Phase.LOBBY:
        for action in ("join", "leave", "start", "fill"):
            view.add_item(LobbyButton(game_id, action))
        for bot in BOTS:
            view.add_item(LobbyButton(game_id, f"bot-{bot}"))
    elif state.is_over:
        if state.closed is None:
            view.add_item(RematchButton(game_id))
            view.add_item(ReplayButton(game_id, 0, "open"))
    else:
        view.add_item(HandButton(game_id))
        if any(bot is not None and seat.bot is None for bot, seat in zip(state.bots, state.seats, strict=True)):
            view.add_item(BackButton(game_id))
    return view


def hand_message(state: GameState, seat: int, note: str | None = None) -> Board:
    """``seat``'s hand for its owner alone: a button per card in value order, only legal ones enabled."""
    hand = hand_of(state, seat)
    trick = current_trick(public_view(state))
    text = [note] if note else []
    if trick is not None:
        text.append(f"{trick[0]}: {trick[1]}")
    text.append(hand.why)
    shown = Board(accent=SEATS[seat % len(SEATS)]).text(f"### Your hand · game {state.game_id}").text("\n".join(text))
    owner = state.seats[seat].id
    cards = [
        look(*CardButton.looks(state.game_id, state.moment, card, owner, legal), disabled=not legal)
        for card, legal in ((card, card in hand.legal) for card in hand.cards)
    ]  # the message of every card played: built as Discord writes it
    shown.buttons = Buttons([*cards, look(*HandButton.looks(state.game_id, owner))])
    return shown


def replay_message(state: GameState, steps: list[Step], step: int) -> tuple[discord.Embed, discord.ui.View]:
    """Step ``step`` of the replay: its story, the scores after it, and (once the game is over) every hand
    as the step began."""
    now = steps[step]
    shown = discord.Embed(title=f"Replay · {title(state)}", description=story(now.lines) or None, colour=COLOUR)
    hands = now.before.hands or now.after.hands  # the first step: as dealt
    if state.is_over and hands:
        held = [
            f"**{seat.name}**: {listing(in_value_order(cards)) if cards else '—'}"
            for seat, cards in zip(state.seats, hands, strict=True)
        ]
        shown.add_field(name="Hands as this step began", value="\n".join(held)[:1024], inline=False)
    elif not state.is_over:
        shown.add_field(name="Hands", value="Hidden until the game is over.", inline=False)
    if now.after.scores:
        scores = " · ".join(f"{s.name} {score}" for s, score in zip(now.after.seats, now.after.scores, strict=True))
        shown.add_field(name="Scores", value=scores, inline=False)
    shown.set_footer(text=f"Step {step + 1} of {len(steps)} · game {state.game_id}")
    view = Buttons()
    for which, _ in NAVIGATION:
        to = target(which, step, len(steps))
        view.add_item(ReplayButton(state.game_id, to, which, disabled=to == step))
    return shown, view


def review_embed(game_id: str, lines: list[str]) -> discord.Embed:
    """The estimated review of a finished game: whole lines, as many as an embed holds."""
    kept: list[str] = []
    for line in lines:
        if len("\n".join([*kept, line, "…"])) > 4096:
            kept.append("…")
            break
        kept.append(line)
    shown = discord.Embed(title=f"Cucumber · {game_id} · review", description="\n".join(kept), colour=COLOUR)
    return shown.set_footer(text=f"An estimate: {ESTIMATE}.")
