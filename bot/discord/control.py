"""A player's control message, built from the record: the text (bot/discord/panels.py) and the grouped
choices (bot/discord/components.py).  Drawn by bot/discord/control_messages.py for the deliverer, which keeps
the message in the player's DMs up to date, and for the Play cog, which redraws it in answer to a click (an
interaction answer is not a rate-limited API call)."""
from __future__ import annotations

from typing import Mapping, Sequence

import discord

from bot.discord import panels
from bot.discord.components import PassWindowsButton, control_view
from bot.discord.host import Host
from bot.discord.recap import Recap
from bot.engine.board_text import shorten
from bot.i18n import has, t
from bot.referee import standing
from bot.referee.timecontrol import shown
from bot.storage.clocks import SeatClock
from bot.storage.store import Panel, SeatRow, TableRow


def jump_link(table: TableRow, message_id: str | None) -> str | None:
    if not table.guild_id or not (table.thread_id or table.channel_id):
        return None
    channel = table.thread_id or table.channel_id
    return f"https://discord.com/channels/{table.guild_id}/{channel}" + (f"/{message_id}" if message_id else "")


def group_label(game_name: str, group: str, locale: str) -> str | None:
    for key in (f"{game_name}.group.{group}", f"discord.group.{group}"):
        if has(key):
            return t(key, locale)
    return None


def distinct(labels: Sequence[str]) -> list[str]:
    """Labels a player can tell apart: choices that read alike (Gwent's Decoy on either of two identical units
    of a row) are numbered in their order, "… · 1", "… · 2", so no menu offers the same entry twice."""
    counts: dict[str, int] = {}
    for label in labels:
        counts[label] = counts.get(label, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        if counts[label] > 1:
            seen[label] = seen.get(label, 0) + 1
            label = f"{shorten(label, 72)} · {seen[label]}"  # the number survives a button's clipping
        out.append(label)
    return out


def render_control(host: Host, table: TableRow, seats: Sequence[SeatRow], state: dict, seat: int, locale: str,
                   *, live: Panel | None, clocks: Mapping[int, SeatClock], news: Sequence[str] = (),
                   note: str | None = None, recap: Recap | None = None) -> tuple[str, discord.ui.View | None]:
    """The control message of ``seat`` at ``state`` (the latest state of the table), from what its caller read:
    the table's ``live`` message (its link) and a timed table's seat ``clocks``; ``recap``: the news it opens
    with when it is posted anew to ping the player (bot/discord/recap.py).  Drawn for the Play cog and the
    deliverer alike by bot/discord/control_messages.py ``draw``."""
    game = host.games[table.game]
    view = game.view(state, seat)
    if table.time_control is not None or table.paused_total or table.paused_at is not None:
        view = shown(table, view, clocks)  # deadlines as the player's clock shows (as with_deadlines does)
    pending = next((p for p in view.get("to_act") or [] if p["seat"] == seat), None)
    waiting = sorted({p["seat"] for p in view.get("to_act") or []} - {seat})
    playing = state.get("outcome") is None and table.status == "active"
    choices = game.choices(state, seat) if playing else []
    url = jump_link(table, live.message_id if live else None)
    text = panels.control_text(game, table, seats, seat, view, news, locale,
                               link=t("discord.control.link", locale, url=url) if url else None, asked=pending,
                               waiting_for=waiting, note=note, anytime=bool(choices) and pending is None,
                               recap=recap)
    components = None
    if playing:
        names = [s.name for s in seats]
        described = distinct([game.describe_action(state, seat, a, locale, names) for a in choices])
        entries = [(i, described[i], game.choice_group(state, seat, a), game.confirm(state, seat, a))
                   for i, a in enumerate(choices)]
        labels = {g: label for g in {e[2] for e in entries} if (label := group_label(game.name, g, locale))}
        labels["more"] = t("discord.group.more", locale)
        components = control_view(table.id, state["version"], seat, entries, labels, locale)
        if components is not None and pending is not None and standing.turn_of(game, state) is not None \
                and standing.pass_of(game, state, seat) is not None:
            # offered in every window to every seat it asks, whatever the seat holds (docs/discord.md)
            try:
                components.add_item(PassWindowsButton(table.id, state["version"], seat,
                                                      label=t("discord.button.pass_windows", locale)))
            except ValueError:  # a message's five rows are full (a paged list): the window's own pass stays
                pass
    return text, components
