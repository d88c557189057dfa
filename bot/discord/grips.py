"""The players' latest clicks in their DMs, kept for the life of their interaction tokens, so that their
control messages are redrawn and deleted without rate-limited calls.

A click on a control message gives the bot an interaction whose token, for 15 minutes, edits or deletes the
clicked message.  Discord does not count these requests against the bot's
global rate limit.  A *new* control message is never posted through a token: a message created through an
interaction carries it (``interaction_metadata``), which clients draw as a reply to the clicked message, and
that message is deleted right after (bot/discord/control_messages.py ``_post_control``, docs/discord.md).
While a player plays live the deliverer goes through the token of their latest click; once it is too old, or
after a restart (tokens are credentials worthless after 15 minutes: they live only in memory), it makes the
ordinary calls.  A request the token no longer allows falls back to the ordinary calls too.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Awaitable, Callable, TypeVar

import discord

log = logging.getLogger("judge.discord.grips")

T = TypeVar("T")

#: seconds a token is used: Discord allows 15 minutes; one is kept in hand for queues and clock drift
TOKEN_LIFE = 14 * 60


@dataclass
class Grip:
    """One click's interaction: what its token may still touch."""

    interaction: discord.Interaction
    clicked: int                                       # the message the click was on ("@original")
    since: float

    async def edit(self, message_id: int, **fields) -> bool:
        """Edit ``message_id`` through the token; False when the token cannot reach that message."""
        if message_id == self.clicked:
            await self.interaction.edit_original_response(**fields)
        else:
            return False
        return True

    async def delete(self, message_id: int) -> bool:
        if message_id == self.clicked:
            await self.interaction.delete_original_response()
        else:
            return False
        return True


class Grips:
    """The latest DM click of each player (by the store's user key)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self._by_user: dict[str, Grip] = {}

    def keep(self, user_key: str, interaction: discord.Interaction) -> None:
        """Remember a click on a message in the player's DMs (a click in a server channel would post there)."""
        if interaction.guild_id is None and interaction.message is not None:
            self._by_user[user_key] = Grip(interaction, interaction.message.id, self._clock())

    def fresh(self, user_key: str) -> Grip | None:
        grip = self._by_user.get(user_key)
        if grip is not None and self._clock() - grip.since > TOKEN_LIFE:
            del self._by_user[user_key]
            return None
        return grip

    async def use(self, user_key: str, call: Callable[[Grip], Awaitable[T]]) -> T | None:
        """``call`` with the player's living token; None when there is none or Discord refused it (the token is
        then forgotten: the caller makes the ordinary call instead).  A server error is raised: the outbox
        retries the delivery."""
        grip = self.fresh(user_key)
        if grip is None:
            return None
        try:
            return await call(grip)
        except discord.HTTPException as exc:
            if exc.status >= 500:
                raise
            self.drop(user_key, exc)
            return None

    def drop(self, user_key: str, reason: BaseException) -> None:
        """Forget a token Discord refused (expired, or its message gone): ordinary calls from now on."""
        if self._by_user.pop(user_key, None) is not None:
            log.info("a player's interaction token was refused (%s); using ordinary calls",
                     getattr(reason, "status", type(reason).__name__))
