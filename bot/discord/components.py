"""Buttons and select menus that survive a restart.

Every component is a ``DynamicItem``: its custom_id carries what it is about (``j:<kind>:<table>[:<version>
...]``, at most 100 characters), so after a restart discord.py rebuilds it from the id alone and the click
reaches the right handler.  Components only parse their id; the work happens in the cogs (``Lobby`` and
``Play``), reached by name so that this module stays free of game logic.  A click that carries an old
table version is refused there as stale.

Numbers in an id have at most 18 digits (below 2**63, SQLite's integers).  A click whose id matches no
template, or that is not on the message it claims to come from (a crafted interaction), reaches no handler
in discord.py; ``handled`` tells the bot so, and it refuses the click instead of leaving it unanswered.
"""
from __future__ import annotations

import logging
import math
import re
from collections.abc import Sequence
from typing import Any, Self

import discord
from discord import ui
from discord.ext import commands

from bot.discord.citations import WhyButton, WhySelect
from bot.discord.interactions import say
from bot.discord.render import clip
from bot.i18n import t
from bot.storage.db import Busy

log = logging.getLogger("judge.discord.components")

BUTTON_LABEL = 80
OPTION_LABEL = 100
#: up to this many choices are shown as buttons (two rows); more go into a select menu, a page at a time
MAX_BUTTONS = 10
PAGE_SIZE = 25
#: one number in a custom_id: at most 18 digits, so it is always a valid SQLite integer
_N = r"(\d{1,18})"


async def _route(interaction: discord.Interaction, cog_name: str, handler: str, *args: Any) -> None:
    """Hand a click to its cog; a missing cog or a bug still gets the player an answer, never a spinner."""
    client = interaction.client  # the bot's cogs, when it is one (always, outside a bare discord.Client)
    cog = client.get_cog(cog_name) if isinstance(client, commands.Bot) else None
    try:
        if cog is None:
            text = t("discord.unavailable", str(interaction.locale))
        else:
            await getattr(cog, handler)(interaction, *args)
            return
    except Busy as exc:  # another process held the database past the busy timeout: nothing was recorded
        log.warning("%s.%s on %s waited for the database past the busy timeout", cog_name, handler, args)
        text = exc.message(str(interaction.locale))
    except Exception:
        log.exception("%s.%s failed on %s", cog_name, handler, args)
        text = t("discord.internal", str(interaction.locale))
    try:
        await say(interaction, text)
    except discord.HTTPException:
        pass


def _numbers(match: re.Match[str]) -> list[int]:
    return [int(v) for v in match.groups()]


class _TableButton(ui.DynamicItem[ui.Button[Any]], template=r"(?!)"):
    """A button whose custom_id is ``j:<kind>`` followed by numbers.  Its subclasses name the kind, the
    template and the cog handler that does the work.  Its own template matches nothing (discord.py requires
    one); it is never registered, only its subclasses are."""

    kind: str
    cog: str
    handler: str

    def __init__(self, *numbers: int, label: str = "·", style: discord.ButtonStyle = discord.ButtonStyle.secondary):
        self.numbers = list(numbers)
        custom_id = ":".join(["j", self.kind, *map(str, numbers)])
        super().__init__(ui.Button(label=clip(label, BUTTON_LABEL), style=style, custom_id=custom_id))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
                             ) -> Self:
        return cls(*_numbers(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, self.cog, self.handler, *self.numbers)


# ------------------------------------------------------------------------------------------------ lobby
class JoinButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:join:{_N}"):
    kind, cog, handler = "join", "Lobby", "on_join"


class LeaveButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:leave:{_N}"):
    kind, cog, handler = "leave", "Lobby", "on_leave"


class AddBotButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:bot:{_N}"):
    kind, cog, handler = "bot", "Lobby", "on_add_bot"


class StartButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:start:{_N}"):
    kind, cog, handler = "start", "Lobby", "on_start"


# ------------------------------------------------------------------------------------------------ play
class ActButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:act:{_N}:{_N}"):
    """"My move" under the live message: the clicking player's control message, privately."""

    kind, cog, handler = "act", "Play", "on_act"


class HandButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:hand:{_N}"):
    """Shows the clicking player their own view (hand, role...) ephemerally; the fallback for closed DMs."""

    kind, cog, handler = "hand", "Play", "on_hand"


class ChoiceButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:do:{_N}:{_N}:{_N}:{_N}"):
    """One legal action: table, version, seat, index into the engine's (deterministic) legal list."""

    kind, cog, handler = "do", "Play", "on_choice"


class PageButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:page:{_N}:{_N}:{_N}:{_N}"):
    """Turns the page of a flat list of choices (a decision too large for menus): table, version, seat, page."""

    kind, cog, handler = "page", "Play", "on_page"


class ChoiceSelect(ui.DynamicItem[ui.Select], template=f"j:pick:{_N}:{_N}:{_N}:{_N}"):
    """One menu of legal actions (table, version, seat, menu number or page); the value is the index."""

    def __init__(self, table_id: int, version: int, seat: int, page: int,
                 options: Sequence[discord.SelectOption] = (), placeholder: str | None = None):
        self.numbers = [table_id, version, seat, page]
        super().__init__(ui.Select(custom_id=f"j:pick:{table_id}:{version}:{seat}:{page}",
                                   options=list(options) or [discord.SelectOption(label="·", value="0")],
                                   placeholder=placeholder))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
                             ) -> Self:
        table_id, version, seat, page = _numbers(match)
        return cls(table_id, version, seat, page)

    async def callback(self, interaction: discord.Interaction) -> None:
        table_id, version, seat, _ = self.numbers
        try:
            index = int(self.item.values[0])
        except (IndexError, ValueError):
            index = -1
        await _route(interaction, "Play", "on_choice", table_id, version, seat, index)


class ConfirmButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:ok:{_N}:{_N}:{_N}:{_N}"):
    """Confirms an action that cannot be taken back: table, version, seat, index."""

    kind, cog, handler = "ok", "Play", "on_confirm"


class BackButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:back:{_N}:{_N}:{_N}"):
    """Leaves a confirmation unconfirmed: back to the choices (table, version, seat)."""

    kind, cog, handler = "back", "Play", "on_back"


class PassWindowsButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:passall:{_N}:{_N}:{_N}"):
    """Pass this window and every other window of the turn (table, version, seat): bot/referee/standing.py."""

    kind, cog, handler = "passall", "Play", "on_pass_windows"


class FullBoardButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:full:{_N}"):
    """The complete public board (long lists in full), privately to whoever asks."""

    kind, cog, handler = "full", "Play", "on_full"


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (
    JoinButton, LeaveButton, AddBotButton, StartButton, ActButton, HandButton, ChoiceButton, PageButton,
    ChoiceSelect, ConfirmButton, BackButton, FullBoardButton, PassWindowsButton)


def handled(interaction: discord.Interaction) -> bool:
    """Whether discord.py will hand this component interaction to one of ``DYNAMIC_ITEMS``: its custom_id
    matches a template and the message it came from carries that component (discord.py's own conditions
    for calling a dynamic item, ui/view.py ``schedule_dynamic_item_call``)."""
    data: dict[str, Any] = dict(interaction.data or {})  # one of discord.py's TypedDicts, read as plain JSON
    custom_id, kind = data.get("custom_id"), data.get("component_type")
    if not isinstance(custom_id, str) or interaction.message is None:
        return False
    if not any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in DYNAMIC_ITEMS):
        return False
    return any(getattr(child, "custom_id", None) == custom_id and child.type.value == kind
               for row in interaction.message.components for child in getattr(row, "children", [row]))


# ------------------------------------------------------------------------------------------------ views
def _view(*items: ui.Item) -> ui.View:
    view = ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def lobby_view(table_id: int, locale: str) -> ui.View:
    return _view(JoinButton(table_id, label=t("discord.button.join", locale), style=discord.ButtonStyle.primary),
                 LeaveButton(table_id, label=t("discord.button.leave", locale)),
                 AddBotButton(table_id, label=t("discord.button.add_bot", locale)),
                 StartButton(table_id, label=t("discord.button.start", locale), style=discord.ButtonStyle.success),
                 OptionsButton(table_id, label=t("lobby.button.options", locale)))


def live_view(table_id: int, version: int, locale: str, *, playing: bool) -> ui.View:
    """Under the live table message: "My move" (the choices privately, for whoever has no control message in
    their DMs), "My hand", and the full board.  Nothing about any hand is in their labels."""
    items: list[ui.Item] = []
    if playing:
        items.append(ActButton(table_id, version, label=t("discord.button.my_move", locale),
                               style=discord.ButtonStyle.primary))
        items.append(HandButton(table_id, label=t("discord.button.hand", locale)))
    items.append(FullBoardButton(table_id, label=t("discord.button.full_board", locale)))
    return _view(*items)


ROWS = 5          # action rows of a message
PER_ROW = 5       # buttons in a row
SMALL_GROUP = 2   # a group of at most this many choices is shown as buttons, a larger one as a menu


def control_view(table_id: int, version: int, seat: int, choices: Sequence[tuple[int, str, str, bool]],
                 group_labels: dict[str, str], locale: str) -> ui.View | None:
    """The choices of one seat, grouped so that no ordinary decision needs paging: up to five choices are five
    buttons; beyond that small groups are buttons
    (danger-styled when the action is final and will be confirmed), larger ones as one menu each.  When
    that needs more than the five rows of a message, the buttons fold into an "other actions" menu, then
    the smallest menus merge.  ``choices``: (index in the legal list, label, group, final)."""
    if not choices:
        return None
    groups: dict[str, list[tuple[int, str, str, bool]]] = {}
    for choice in choices:
        groups.setdefault(choice[2], []).append(choice)
    if len(choices) <= PER_ROW:  # a few choices: one button each, whatever their groups
        buttons, menus = list(choices), []
    else:
        buttons = [c for g in groups.values() if len(g) <= SMALL_GROUP for c in g]
        menus = [(name, g[i:i + PAGE_SIZE]) for name, g in groups.items() if len(g) > SMALL_GROUP
                 for i in range(0, len(g), PAGE_SIZE)]
    if math.ceil(len(buttons) / PER_ROW) + len(menus) > ROWS and buttons:
        menus.insert(0, ("more", buttons))
        buttons = []
    while len(menus) > ROWS:
        menus.sort(key=lambda m: len(m[1]))
        (_, first), (_, second) = menus[0], menus[1]
        if len(first) + len(second) > PAGE_SIZE:
            return choices_view(table_id, version, seat, [c[1] for c in sorted(choices)], 0, locale)
        menus = [("more", sorted(first + second)), *menus[2:]]
    items: list[ui.Item] = []
    for index, label, _, final in buttons:
        style = discord.ButtonStyle.danger if final else discord.ButtonStyle.primary
        items.append(ChoiceButton(table_id, version, seat, index, label=label, style=style))
    for number, (name, members) in enumerate(menus):
        options = [discord.SelectOption(label=clip(("⚠️ " if final else "") + label, OPTION_LABEL), value=str(index))
                   for index, label, _, final in members]
        placeholder = group_labels.get(name) or t("discord.choices.placeholder", locale)
        items.append(ChoiceSelect(table_id, version, seat, number, options, placeholder=clip(placeholder, 150)))
    return _view(*items)


def confirm_view(table_id: int, version: int, seat: int, index: int, locale: str) -> ui.View:
    return _view(ConfirmButton(table_id, version, seat, index, label=t("discord.button.confirm", locale),
                               style=discord.ButtonStyle.danger),
                 BackButton(table_id, version, seat, label=t("discord.button.back", locale)))


def page_count(choices: int) -> int:
    return 1 if choices <= MAX_BUTTONS else math.ceil(choices / PAGE_SIZE)


def choices_view(table_id: int, version: int, seat: int, labels: Sequence[str], page: int, locale: str) -> ui.View:
    """The choices of one seat, from the engine's legal actions (labels from describe_action, which shows
    only what that seat may know).  Few choices become buttons; more become a select menu of 25 a page."""
    if len(labels) <= MAX_BUTTONS:
        return _view(*[ChoiceButton(table_id, version, seat, i, label=f"{i + 1}. {label}")
                       for i, label in enumerate(labels)])
    pages = page_count(len(labels))
    page = max(0, min(page, pages - 1))
    first = page * PAGE_SIZE
    options = [discord.SelectOption(label=clip(f"{i + 1}. {labels[i]}", OPTION_LABEL), value=str(i))
               for i in range(first, min(first + PAGE_SIZE, len(labels)))]
    items: list[ui.Item] = [ChoiceSelect(table_id, version, seat, page, options,
                                         placeholder=t("discord.choices.placeholder", locale))]
    if page > 0:
        items.append(PageButton(table_id, version, seat, page - 1, label=t("discord.button.previous", locale)))
    if page < pages - 1:
        items.append(PageButton(table_id, version, seat, page + 1, label=t("discord.button.next", locale)))
    view = _view(*items)
    return view


# ------------------------------------------------------------------------------------------------ records
class LogPageButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:log:{_N}:{_N}"):
    """Turns a page of a table's log (table, page from 1); what the page shows is decided at the click
    (moderators see versions there), never taken from the id."""

    kind, cog, handler = "log", "Play", "on_log_page"


class OptionsButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:opts:{_N}"):
    """Under a lobby message: every option of the table, privately to whoever asks."""

    kind, cog, handler = "opts", "Lobby", "on_options"


DYNAMIC_ITEMS = (*DYNAMIC_ITEMS, LogPageButton, OptionsButton)


class LeaderboardButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:lb:{_N}:{_N}"):
    """Turns a page of a leaderboard (the game's number in bot.ratings.outcomes.rated_games(), page from 1); the
    server is the click's own."""

    kind, cog, handler = "lb", "Ratings", "on_leaderboard_page"


DYNAMIC_ITEMS = (*DYNAMIC_ITEMS, LeaderboardButton)


def _pager(button: Any, key: int, page: int, pages: int, back: str, forward: str) -> ui.View | None:
    """A back and a forward button under one page of ``pages`` (none when it all fits one page)."""
    items: list[ui.Item] = []
    if page > 1:
        items.append(button(key, page - 1, label=back))
    if page < pages:
        items.append(button(key, page + 1, label=forward))
    return _view(*items) if items else None


def leaderboard_view(game_index: int, page: int, pages: int, locale: str) -> ui.View | None:
    """◀ / ▶ under a page of a leaderboard."""
    return _pager(LeaderboardButton, game_index, page, pages, t("ratings.board.previous", locale),
                  t("ratings.board.next", locale))


def log_view(table_id: int, page: int, pages: int, locale: str) -> ui.View | None:
    """Earlier / Later under a page of a table's log."""
    return _pager(LogPageButton, table_id, page, pages, t("records.button.earlier", locale),
                  t("records.button.later", locale))


# ------------------------------------------------------------------------------------------------ tournaments
class EnterButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:tjoin:{_N}"):
    """Under a tournament's message: enter it (or, while it runs, enter late where the format allows)."""

    kind, cog, handler = "tjoin", "Tournament", "on_enter"


class WithdrawButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:tleave:{_N}"):
    """Under a tournament's message: leave it before the start, drop out after."""

    kind, cog, handler = "tleave", "Tournament", "on_withdraw"


class StandingsButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:tstand:{_N}"):
    """Under a tournament's message: the standings now, privately."""

    kind, cog, handler = "tstand", "Tournament", "on_standings"


DYNAMIC_ITEMS = (*DYNAMIC_ITEMS, EnterButton, WithdrawButton, StandingsButton)


class CheckInButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:tcheck:{_N}"):
    """Under a tournament's message, where it asks for check-in: an entered player confirms before round 1."""

    kind, cog, handler = "tcheck", "Attendance", "on_check_in"


class ByeButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:tbye:{_N}"):
    """Under a tournament's message: ask to sit out the next round (or take the request back)."""

    kind, cog, handler = "tbye", "Attendance", "on_bye"


DYNAMIC_ITEMS = (*DYNAMIC_ITEMS, CheckInButton, ByeButton)


class CorrectionButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:tfix:{_N}:{_N}"):
    """Under the organiser's private preview of a bracket correction that undoes later games: apply it
    (tournament, the kept preview's log entry)."""

    kind, cog, handler = "tfix", "Organise", "on_confirm_correction"


DYNAMIC_ITEMS = (*DYNAMIC_ITEMS, CorrectionButton)


def correction_view(tournament_id: int, shown: int, locale: str) -> ui.View:
    return _view(CorrectionButton(tournament_id, shown, label=t("tournament.correction.button", locale),
                                  style=discord.ButtonStyle.danger))


def tournament_view(tournament_id: int, status: str, locale: str, settings: dict | None = None) -> ui.View | None:
    """Enter / leave while a tournament takes entries (check in and a requested bye where its settings
    offer them), the standings once it has any; nothing when closed."""
    items: list[ui.Item] = []
    settings = settings or {}
    if status in ("registration", "running"):
        items += [EnterButton(tournament_id, label=t("tournament.button.enter", locale),
                              style=discord.ButtonStyle.primary),
                  WithdrawButton(tournament_id, label=t("tournament.button.withdraw", locale))]
        if status == "registration" and settings.get("check_in"):
            items.append(CheckInButton(tournament_id, label=t("tournament.button.check_in", locale),
                                       style=discord.ButtonStyle.success))
        if settings.get("requested_byes"):
            items.append(ByeButton(tournament_id, label=t("tournament.button.bye", locale)))
    if status != "registration":
        items.append(StandingsButton(tournament_id, label=t("tournament.button.standings", locale)))
    return _view(*items) if items else None


# ------------------------------------------------------------------------------------------------ moderators
class EvidenceButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:ev:{_N}"):
    """Under a moderators' notice of a new dispute (bot/discord/moderators.py): its evidence, privately, to a
    moderator of the dispute's server (checked at the click, in the server's channel or in a DM)."""

    kind, cog, handler = "ev", "DisputeModeration", "on_evidence"


class DecideButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:dd:{_N}:{_N}"):
    """Uphold / Reject / Amend under a moderators' notice (dispute, the decision's index in DECISIONS): opens the
    form for the reason (and an amend's correction); who may decide is judged at the click and again when the
    form comes back (cogs/disputes.py)."""

    kind, cog, handler = "dd", "DisputeModeration", "on_decide_button"


DYNAMIC_ITEMS = (*DYNAMIC_ITEMS, EvidenceButton, DecideButton)

#: the decisions a notice's buttons offer, by their index in a custom_id (bot/referee/disputes.py KINDS)
DECISIONS = ("uphold", "reject", "amend")
_DECISION_STYLES = (discord.ButtonStyle.success, discord.ButtonStyle.danger, discord.ButtonStyle.secondary)
#: the decision form's custom_id: dispute, decision (answered in cogs/disputes.py: a form is not a message
#: component, and one sent before a restart must still be answered)
DECIDE_FORM = re.compile(rf"j:ddf:{_N}:{_N}")
DECIDE_REASON, DECIDE_CORRECTION, DECIDE_RULE = "reason", "correction", "rule"


def decide_view(dispute_id: int, locale: str) -> ui.View:
    """Under a moderators' notice of a dispute: Evidence, then Uphold / Reject / Amend."""
    return _view(EvidenceButton(dispute_id, label=t("disputes.button.evidence", locale),
                                style=discord.ButtonStyle.primary),
                 *(DecideButton(dispute_id, i, label=t(f"disputes.button.{kind}", locale), style=style)
                   for i, (kind, style) in enumerate(zip(DECISIONS, _DECISION_STYLES))))


def decide_form(dispute_id: int, decision: int, locale: str) -> ui.Modal:
    """The form a decision button opens: the reason, an amend's correction (a number from the evidence's list,
    a label or JSON, as ``/disputes decide`` reads it) and a rule to keep the reason as this server's ruling on.
    Stopped before it is sent, like the replay's form: its answer reaches the cog alike after a restart."""
    kind = DECISIONS[decision]
    form = ui.Modal(title=clip(t(f"disputes.form.{kind}", locale, id=dispute_id), 45),
                    custom_id=f"j:ddf:{dispute_id}:{decision}", timeout=None)
    form.add_item(ui.TextInput(label=clip(t("disputes.form.reason", locale), 45), custom_id=DECIDE_REASON,
                               style=discord.TextStyle.paragraph, max_length=300, required=True))
    if kind == "amend":
        form.add_item(ui.TextInput(label=clip(t("disputes.form.correction", locale), 45),
                                   custom_id=DECIDE_CORRECTION, max_length=2000, required=True,
                                   placeholder=clip(t("disputes.form.correction_hint", locale), 100)))
    form.add_item(ui.TextInput(label=clip(t("disputes.form.rule", locale), 45), custom_id=DECIDE_RULE,
                               max_length=40, required=False))
    form.stop()
    return form


# ------------------------------------------------------------------------------------------------ rules
# "Why?" under a message that cites a rule (bot/discord/citations.py): answered by the Rules cog
DYNAMIC_ITEMS = (*DYNAMIC_ITEMS, WhyButton, WhySelect)


# ------------------------------------------------------------------------------------------------ what if
class WhatIfButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:wiv:{_N}:{_N}"):
    """A moderator's "what if" (cogs/whatif.py) from a stored step: table, version (under a moderator's replay)."""

    kind, cog, handler = "wiv", "WhatIf", "on_open"


class WhatIfDisputeButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:wid:{_N}"):
    """Under a dispute's evidence: "what if" from the position right before the disputed move."""

    kind, cog, handler = "wid", "WhatIf", "on_dispute"


class WhatIfBotsButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:wib:{_N}:{_N}"):
    """Under a trial: the bots play on (trial, moves: 0 to the end)."""

    kind, cog, handler = "wib", "WhatIf", "on_bots"


class WhatIfPageButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:wip:{_N}:{_N}"):
    """Under a trial: another page of the moves open (trial, page)."""

    kind, cog, handler = "wip", "WhatIf", "on_page"


class WhatIfSelect(ui.DynamicItem[ui.Select], template=f"j:wis:{_N}:{_N}"):
    """Under a trial: the next move by hand (trial, page); the value is the move's index in the trial's list."""

    def __init__(self, trial: int, page: int, options: Sequence[discord.SelectOption] = (),
                 placeholder: str | None = None):
        self.numbers = [trial, page]
        super().__init__(ui.Select(custom_id=f"j:wis:{trial}:{page}",
                                   options=list(options) or [discord.SelectOption(label="·", value="0")],
                                   placeholder=placeholder))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
                             ) -> Self:
        trial, page = _numbers(match)
        return cls(trial, page)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            index = int(self.item.values[0])
        except (IndexError, ValueError):
            index = -1
        await _route(interaction, "WhatIf", "on_pick", self.numbers[0], index)


DYNAMIC_ITEMS = (*DYNAMIC_ITEMS, WhatIfButton, WhatIfDisputeButton, WhatIfBotsButton, WhatIfPageButton, WhatIfSelect)


def whatif_dispute_view(dispute_id: int, locale: str, *, deciding: bool = False) -> ui.View:
    """The "What if…" button under a dispute's evidence; ``deciding`` (the dispute is open): Uphold / Reject /
    Amend beside it, so the moderator decides where they read."""
    decide = [DecideButton(dispute_id, i, label=t(f"disputes.button.{kind}", locale), style=style)
              for i, (kind, style) in enumerate(zip(DECISIONS, _DECISION_STYLES))] if deciding else []
    return _view(WhatIfDisputeButton(dispute_id, label=t("whatif.button.open", locale)), *decide)


def trial_view(trial: int, labels: Sequence[str], page: int, locale: str, *, over: bool) -> ui.View | None:
    """Under a trial: its open moves a page at a time (a select), the pages, and the bots (unless it is over)."""
    items: list[ui.Item] = []
    pages = max(1, math.ceil(len(labels) / PAGE_SIZE))
    if not over and labels:
        page = min(max(page, 0), pages - 1)
        first = page * PAGE_SIZE
        options = [discord.SelectOption(label=clip(label, OPTION_LABEL), value=str(first + i))
                   for i, label in enumerate(labels[first:first + PAGE_SIZE])]
        items.append(WhatIfSelect(trial, page, options, placeholder=t("whatif.select.placeholder", locale)))
        if page > 0:
            items.append(WhatIfPageButton(trial, page - 1, label=t("discord.button.previous", locale)))
        if page + 1 < pages:
            items.append(WhatIfPageButton(trial, page + 1, label=t("discord.button.next", locale)))
    if not over:
        items += [WhatIfBotsButton(trial, 1, label=t("whatif.button.bots_one", locale)),
                  WhatIfBotsButton(trial, 0, label=t("whatif.button.bots_end", locale),
                                   style=discord.ButtonStyle.primary)]
    return _view(*items) if items else None


# ------------------------------------------------------------------------------------------------ replay
#: the stepper's buttons, the last number of their custom_id: what the click asks for (bot/discord/replay.py)
REPLAY_FIRST, REPLAY_PREVIOUS, REPLAY_NEXT, REPLAY_LAST, REPLAY_GOTO = range(5)
_REPLAY_ARROWS = {REPLAY_FIRST: "⏮", REPLAY_PREVIOUS: "◀", REPLAY_NEXT: "▶", REPLAY_LAST: "⏭"}


class ReplayButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:replay:{_N}"):
    """Under a finished table's end post and live message: its replay, privately, as the clicker may see it."""

    kind, cog, handler = "replay", "Replay", "on_open"


class ReplayStepButton(_TableButton, ui.DynamicItem[ui.Button], template=f"j:rp:{_N}:{_N}:{_N}:{_N}:{_N}"):
    """A button of the replay's private message: table, viewer kind, perspective (seat + 1, 0: the public), the
    step shown, and which button.  The state of the stepper only: the rights are judged again at every click."""

    kind, cog, handler = "rp", "Replay", "on_step"


class ReplayPerspectiveSelect(ui.DynamicItem[ui.Select], template=f"j:rps:{_N}:{_N}:{_N}"):
    """A moderator's choice of whose view the replay's picture shows (table, viewer kind, step); the value is
    the perspective (seat + 1, 0: the public)."""

    def __init__(self, table_id: int, kind: int, step: int, options: Sequence[discord.SelectOption] = (),
                 placeholder: str | None = None):
        self.numbers = [table_id, kind, step]
        super().__init__(ui.Select(custom_id=f"j:rps:{table_id}:{kind}:{step}",
                                   options=list(options) or [discord.SelectOption(label="·", value="0")],
                                   placeholder=placeholder))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
                             ) -> Self:
        table_id, kind, step = _numbers(match)
        return cls(table_id, kind, step)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            persp = int(self.item.values[0])
        except (IndexError, ValueError):
            persp = -1
        await _route(interaction, "Replay", "on_perspective", *self.numbers, persp)


DYNAMIC_ITEMS = (*DYNAMIC_ITEMS, ReplayButton, ReplayStepButton, ReplayPerspectiveSelect)

#: the "go to move" form's custom_id: table, viewer kind, perspective, the step shown (answered in cogs/replay.py:
#: a form is not a message component, and one sent before a restart must still be answered)
REPLAY_GOTO_FORM = re.compile(rf"j:rpgo:{_N}:{_N}:{_N}:{_N}")
REPLAY_GOTO_FIELD = "move"


def replay_open_view(table_id: int, locale: str) -> ui.View:
    return _view(ReplayButton(table_id, label=t("replay.button.open", locale)))


def replay_view(table_id: int, kind: int, persp: int, step: int, steps: int, locale: str,
                perspectives: Sequence[str] = (), whatif: int | None = None) -> ui.View:
    """⏮ ◀ ▶ ⏭ and "go to move" under a step of the replay (the arrows that lead nowhere disabled); for a
    moderator, ``perspectives`` (the public, then each seat by name) to choose whose view the picture shows, and
    ``whatif``: the step's version, to try another move from it (cogs/whatif.py judges the rights again)."""
    items: list[ui.Item] = []
    for button, arrow in _REPLAY_ARROWS.items():
        item = ReplayStepButton(table_id, kind, persp, step, button, label=arrow)
        back = button in (REPLAY_FIRST, REPLAY_PREVIOUS)
        item.item.disabled = step <= 0 if back else step >= steps - 1
        items.append(item)
    items.append(ReplayStepButton(table_id, kind, persp, step, REPLAY_GOTO, label=t("replay.button.goto", locale)))
    if perspectives:
        options = [discord.SelectOption(label=clip(label, OPTION_LABEL), value=str(i), default=i == persp)
                   for i, label in enumerate(perspectives[:PAGE_SIZE])]
        items.append(ReplayPerspectiveSelect(table_id, kind, step, options,
                                             placeholder=clip(t("replay.perspective", locale), 150)))
    if whatif is not None:
        items.append(WhatIfButton(table_id, whatif, label=t("whatif.button.open", locale)))
    return _view(*items)


def replay_goto_form(table_id: int, kind: int, persp: int, step: int, locale: str) -> ui.Modal:
    """The form "go to move N".  Stopped before it is sent: discord.py then keeps no handler for it in memory,
    and its answer reaches the cog's ``on_interaction`` alike before and after a restart."""
    form = ui.Modal(title=clip(t("replay.goto.title", locale), 45),
                    custom_id=f"j:rpgo:{table_id}:{kind}:{persp}:{step}", timeout=None)
    form.add_item(ui.TextInput(label=clip(t("replay.goto.label", locale), 45), custom_id=REPLAY_GOTO_FIELD,
                               max_length=6, required=True))
    form.stop()
    return form


def form_values(interaction: discord.Interaction) -> dict[str, str]:
    """A form's text inputs as sent back (custom_id → value); Discord nests each in a row, newer forms in a label."""
    values: dict[str, str] = {}
    data: dict[str, Any] = dict(interaction.data or {})  # one of discord.py's TypedDicts, read as plain JSON
    for row in data.get("components") or []:
        for item in row.get("components") or ([row["component"]] if isinstance(row.get("component"), dict) else []):
            if isinstance(item, dict) and item.get("custom_id"):
                values[str(item["custom_id"])] = str(item.get("value") or "")
    return values
