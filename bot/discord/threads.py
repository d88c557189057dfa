"""Where a table lives on Discord: a thread started from its message in a text channel, or a post of a Forum
channel (whose starter message is the table's message).

The thread's id is the starter message's id either way; what differs is where that message sits: in the text
channel, or inside the forum post itself (``starter``).  A forum post carries tags: the bot creates none
(that needs Manage Channels) but applies those of the forum whose names match what the table is (its game,
"open" or "finished", a tournament's round), in any of our languages, at most five (Discord's limit);
moderated tags need Manage Threads and are left alone.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Literal, Sequence

import discord

from bot.discord.render import clip
from bot.engine import Game
from bot.i18n import LOCALES, t
from bot.render.text import game_title

if TYPE_CHECKING:  # only a protocol: host.py imports the referee, which this module has no need of
    from bot.discord.host import Channels

THREAD_NAME = 100
MAX_TAGS = 5
ARCHIVE_MINUTES: Literal[60, 1440, 4320, 10080] = 1440
TABLE_CHANNELS = (discord.TextChannel, discord.ForumChannel)


def tag_names(game: Game, status: str, round: int | None = None) -> list[str]:
    """The tag names a table's post may carry, in every language: its game, its state, its round."""
    names = [game.name, *(game_title(game, loc) for loc in LOCALES),
             *(t(f"discord.tag.{status}", loc) for loc in LOCALES)]
    if round is not None:
        names += [t("discord.tag.round", loc, round=round) for loc in LOCALES]
    return names


def matching_tags(forum: discord.ForumChannel, names: Iterable[str]) -> list[discord.ForumTag]:
    wanted = {n.casefold() for n in names}
    return [tag for tag in forum.available_tags if tag.name.casefold() in wanted and not tag.moderated][:MAX_TAGS]


async def open_thread(parent: discord.TextChannel | discord.ForumChannel, *, name: str, content: str,
                      view: discord.ui.View | None = None, tags: Sequence[str] = ()) -> discord.Thread:
    """The table's message and its thread (a forum post in a Forum channel).  Raises discord.HTTPException
    when Discord refuses; a message left without its thread is deleted first."""
    name = clip(name, THREAD_NAME)
    if isinstance(parent, discord.ForumChannel):
        applied = matching_tags(parent, tags)
        made = await (parent.create_thread(name=name, content=content, applied_tags=applied,
                                           auto_archive_duration=ARCHIVE_MINUTES, view=view) if view is not None
                      else parent.create_thread(name=name, content=content, applied_tags=applied,
                                                auto_archive_duration=ARCHIVE_MINUTES))
        return made.thread
    message = await (parent.send(content, view=view) if view is not None else parent.send(content))
    try:
        return await message.create_thread(name=name, auto_archive_duration=ARCHIVE_MINUTES)
    except discord.HTTPException:
        try:
            await message.delete()
        except discord.HTTPException:
            pass
        raise


def starter(client: Channels, channel_id: int | str, thread_id: int | str) -> discord.PartialMessage:
    """The message a table's thread was started from, to edit: in the channel, or in the forum post."""
    in_forum = isinstance(client.get_channel(int(channel_id)), discord.ForumChannel)
    return client.get_partial_messageable(int(thread_id if in_forum else channel_id)).get_partial_message(int(thread_id))


def finished_tags(thread: discord.Thread, game: Game) -> list[discord.ForumTag] | None:
    """The tags a finished table's forum post should carry ("open" swapped for "finished", the rest kept),
    or None when it is no forum post or carries them already."""
    forum = thread.parent
    if not isinstance(forum, discord.ForumChannel):
        return None
    opened = {t("discord.tag.open", loc).casefold() for loc in LOCALES}
    kept = [tag.name for tag in thread.applied_tags if tag.name.casefold() not in opened]
    tags = matching_tags(forum, [*kept, *tag_names(game, "finished")])
    return None if {tag.id for tag in tags} == {tag.id for tag in thread.applied_tags} else tags
