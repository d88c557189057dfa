"""Tournaments on Discord: the tournament's message, every round's tables opened as threads or forum posts,
the pairings and the end posted, the clock's results.

The director (bot/tournament/director.py) does the work; this is its Discord front.  ``open_table`` is the
director's step between seating a round table and starting it, so a table's start message always finds its
thread (or forum post); a table Discord refused one stays a seated lobby and is tried again by the clock a
minute later.  ``announce`` tells the tournament's channel what a change did (a round paired, the end) and
redraws the tournament's message; ``tick`` is the clock's call (results from finished tables, rounds whose
deadline passed).

The tournament's message and the announcements are sent straight away, not through the outbox: the record
is the director's, and a crash between pairing a round and announcing it loses only the announcement (each
table's start still reaches its thread through the outbox and pings its players; the tournament's message is
redrawn from the record at the next change).  The table threads a crash left half-made are found again by the
director (docs/tournaments.md, Safety); a thread Discord made whose id a crash kept from the record stays an
empty thread.
"""
from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any, Sequence

import discord

from bot.discord.components import tournament_view
from bot.discord.render import discord_user_id, lobby_text, named, pack
from bot.engine import Rejection
from bot.engine.board_text import shorten
from bot.discord.threads import TABLE_CHANNELS, open_thread, starter, tag_names
from bot.i18n import t
from bot.render.picture.bracket import bracket_png
from bot.render.picture.standings import standings_png
from bot.render.standings import standings_text
from bot.render.text import game_title
from bot.storage.tournaments import Entry, GameRow, TournamentRow
from bot.ratings.seeding import seeding_line
from bot.tournament.bracket_layout import as_rows, for_event
from bot.tournament.crosstable import bracket_path, crosstable, round_results
from bot.web.links import base_url, link_line, tournament_url
from bot.tournament.director import Director, Progress
from bot.tournament.entry import describe as entry_line
from bot.tournament.stages import group_letter

if TYPE_CHECKING:
    from bot.discord.host import Host

log = logging.getLogger("judge.discord.tournaments")

#: seconds before a table thread Discord refused is tried again
RETRY_SECONDS = 60.0
#: seconds a round's record waits for its tables' results to be delivered first, and how often it looks
RESULTS_WAIT = 30.0
RESULTS_POLL = 0.1
#: players named on the tournament's message (the rest are counted)
SHOWN_PLAYERS = 60
STANDINGS_CHARS = 1800
#: a player's seat at a table in the pairing post
SEAT_MARKS = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫"


def who(entry: Entry | None, user_id: str) -> str:
    """A player as the channel shows them: a mention that notifies nobody (the bot sends none), or a name."""
    uid = discord_user_id(user_id)
    if uid is not None:
        return f"<@{uid}>"
    return named(entry.name if entry else user_id)


def standings_block(rows: list[dict], fmt: str, locale: str) -> str:
    """The standings as a code block, cut to fit a message (the leaders kept)."""
    lines = standings_text(rows, fmt, locale).split("\n")
    while len(lines) > 2 and sum(len(line) + 1 for line in lines) > STANDINGS_CHARS:
        lines.pop()
    return "```\n" + "\n".join(lines) + "\n```"


def heading(tour: TournamentRow, locale: str, game_name: str) -> str:
    return t("tournament.discord.heading", locale, title=named(tour.title) if tour.title else "",
             tournament=tour.id, game=game_name, format=t(f"tournament.format.{tour.format}", locale)).strip()


class TournamentDesk:
    def __init__(self, bot: "Host"):
        self.bot = bot
        self.director = Director(bot.referee, open_table=self.open_table)
        self._retry_at: dict[int, float] = {}

    async def locale(self, tour: TournamentRow) -> str:
        return await self.bot.guild_locale(tour.guild_id) or tour.locale or self.bot.settings.locale

    async def channel(self, channel_id: str | int | None) -> discord.TextChannel | discord.ForumChannel | None:
        if channel_id is None:
            return None
        found = self.bot.get_channel(int(channel_id))
        if found is None:
            try:
                found = await self.bot.fetch_channel(int(channel_id))
            except discord.HTTPException:
                return None
        return found if isinstance(found, TABLE_CHANNELS) else None

    # ------------------------------------------------------------------ the director's step
    async def open_table(self, tour: TournamentRow, g: GameRow) -> bool:
        """The round table's message and thread (a forum post, tagged with the game, the round and "open")."""
        assert g.table_id is not None
        if self._retry_at.get(g.table_id, 0.0) > self.bot.referee.now():
            return False
        store = self.bot.store
        table = await store.get_table(g.table_id)
        assert table is not None  # a tournament game's table is made with it and never deleted
        parent = await self.channel(tour.channel_id)
        game = self.bot.games[tour.game]
        locale = await self.locale(tour)
        if parent is None:
            return self._later(tour, table.id, "no channel")
        try:
            thread = await open_thread(parent, name=f"#{table.id} {table.title or game_title(game, locale)}",
                                       content=lobby_text(game, table, await store.seats(table.id), locale),
                                       tags=tag_names(game, "open", g.round))
        except discord.HTTPException as exc:
            return self._later(tour, table.id, f"{exc.status} {exc.code}")
        self._retry_at.pop(g.table_id, None)
        await store.set_table_fields(table.id, thread_id=str(thread.id))
        return True

    def _later(self, tour: TournamentRow, table_id: int, why: str) -> bool:
        log.warning("no thread for table %s of tournament %s (%s): trying again later", table_id, tour.id, why)
        self._retry_at[table_id] = self.bot.referee.now() + RETRY_SECONDS
        return False

    # ------------------------------------------------------------------ telling the channel
    async def announce(self, progress: Progress) -> None:
        """Bot seats of the tables started move; a paired round and the end are posted; the message redrawn."""
        for table_id in progress.tables:
            self.bot.schedule_bots(table_id)
        if not progress:
            return
        tour = await self.director.record.get(progress.tournament_id)
        if tour is None:
            return
        locale = await self.locale(tour)
        entries = {e.user_id: e for e in await self.director.record.entries(tour.id)}
        ended = sorted({n - 1 for n in progress.rounds if n > 1} | ({tour.round} if progress.finished else set()))
        if ended:  # a round's record (the final standings) after its tables' own results, not before them
            await self._results_delivered(tour, ended)
        for number in ended:
            try:
                await self.post_record(tour, number, entries, locale)
            except Exception:  # the record is a courtesy: the pairing and the end must still be posted
                log.exception("the record of round %s of tournament %s was not posted", number, tour.id)
        for number in progress.rounds:
            await self.post(tour, await self.round_text(tour, number, entries, locale))
        if progress.finished:
            await self.post(tour, pack([t("tournament.discord.finished", locale, tournament=tour.id),
                                        standings_block(await self.standing_rows(tour), tour.format, locale),
                                        *link_line("web.link.tournament",
                                                   tournament_url(base_url(self.bot.settings), tour.id), locale)]))
        await self.refresh(tour.id)
        if progress.next_stage is not None:  # T-24: who went on, then the second stage's round 1
            qualified = await self.director.record.entries(progress.next_stage.tournament_id)
            await self.post(tour, [t("tournament.stage.next", locale, tournament=progress.next_stage.tournament_id,
                                     n=len(qualified), players=", ".join(who(e, e.user_id) for e in qualified))])
            await self.announce(progress.next_stage)

    async def _results_delivered(self, tour: TournamentRow, rounds: Sequence[int]) -> None:
        """Wait (at most RESULTS_WAIT seconds: a delivery that keeps failing must not hold the tournament) until
        the tables of ``rounds`` have had their messages delivered — their end posts in their threads — so the
        channel never shows a round's record, or the final standings, before the last table's result."""
        tables = [g.table_id for g in await self.director.record.games(tour.id) if g.round in rounds and g.table_id]
        loop = asyncio.get_running_loop()
        until = loop.time() + RESULTS_WAIT
        for table_id in tables:
            while await self.bot.store.later_pending(table_id, 0) and loop.time() < until:
                await asyncio.sleep(RESULTS_POLL)

    async def standing_rows(self, tour: TournamentRow) -> list[dict[str, Any]]:
        """The standings as rows; none once the tournament is gone (the director's only refusal here)."""
        rows = await self.director.standings(tour.id)
        return [] if isinstance(rows, Rejection) else [r.as_dict() for r in rows]

    async def post_record(self, tour: TournamentRow, number: int, entries: dict[str, Entry], locale: str) -> None:
        """After a round: its results, the standings (text and picture) and the crosstable (Swiss, round-robin)
        or the bracket's path so far (elimination)."""
        names = {u: e.name for u, e in entries.items()}
        games = await self.director.record.games(tour.id)
        rows = await self.standing_rows(tour)
        texts = [t("tournament.record.head", locale, round=number, tournament=tour.id),
                 *round_results({u: who(entries.get(u), u) for u in names}, [g for g in games if g.round == number
                                                                            and g.result != "late"], locale),
                 standings_block(rows, tour.format, locale)]
        groups = await self.director.group_standings(tour.id)
        counted = self.director.counted(tour, list(entries.values()), self.director.as_matches(tour, games))
        if groups:  # T-24: each group's standings and crosstable, ranked inside the group
            texts.pop()
            for index, group in enumerate(groups, start=1):
                ranked = [r.as_dict() for r in group]
                table = crosstable(ranked, counted, number)  # annulled results are not shown (T-4a)
                texts += [t("tournament.stage.group", locale, group=group_letter(index)),
                          standings_block(ranked, tour.format, locale),
                          t("tournament.record.crosstable", locale) + "\n```\n" + table[:1800] + "\n```"]
        elif tour.format in ("swiss", "round_robin"):
            table = crosstable(rows, counted, number)  # annulled results are not shown (T-4a)
            texts.append(t("tournament.record.crosstable", locale) + "\n```\n" + table[:1800] + "\n```")
        elif tour.format in ("elimination", "double_elimination"):
            texts.append("```\n" + bracket_path(names, games, locale)[:1900] + "\n```")
        title = " · ".join(p for p in (tour.title, f"#{tour.id}", t("tournament.record.after", locale,
                                                                      round=number)) if p)
        data = await asyncio.to_thread(standings_png, rows, tour.format, locale, title)
        files = [discord.File(io.BytesIO(data), filename=f"standings{tour.id}-{number}.png",
                              description=t("tournament.picture.alt", locale, tournament=tour.id))]
        if tour.format in ("elimination", "double_elimination"):  # the bracket's path so far, as a picture too
            # the whole bracket as it stands now (the page's layout): the next round's matches drawn in, waiting
            now = await self.director.record.get(tour.id) or tour
            drawing = for_event(now, list(entries.values()), games, self.director.points(now))
            trees = as_rows(drawing, names, lambda key, **values: t(key, locale, **values)) if drawing else []
            drawn = await asyncio.to_thread(bracket_png, trees, locale, title)
            files.append(discord.File(io.BytesIO(drawn), filename=f"bracket{tour.id}-{number}.png",
                                      description=t("tournament.picture.bracket_alt", locale, tournament=tour.id)))
        await self.post(tour, pack(texts), files=files)

    async def round_text(self, tour: TournamentRow, number: int, entries: dict[str, Entry], locale: str) -> list[str]:
        rounds = {r.number: r for r in await self.director.record.rounds(tour.id)}
        deadline = rounds[number].deadline if number in rounds else None
        lines = [t("tournament.discord.round", locale, round=number, rounds=tour.settings.get("rounds") or "?")]
        seeded = seeding_line(tour.settings, {p: who(e, p) for p, e in entries.items()}, locale) \
            if number == 1 else None
        if seeded:  # by rating, and who was placed by lot
            lines.append(seeded)
        if deadline:
            lines.append(t("tournament.discord.deadline", locale, at=f"<t:{int(deadline)}:f>",
                           left=f"<t:{int(deadline)}:R>"))
        lines.append(t("tournament.discord.seats_legend", locale))
        for g in await self.director.record.games(tour.id, number):
            players = " — ".join(who(entries.get(p), p) for p in g.players)
            if g.kind == "table":  # each player's seat: ① first, ② second … (T-18)
                players = " — ".join(f"{SEAT_MARKS[i] if i < len(SEAT_MARKS) else i + 1}{who(entries.get(p), p)}"
                                     for i, p in enumerate(g.players))
                table = await self.bot.store.get_table(g.table_id) if g.table_id else None
                where = f"<#{table.thread_id}>" if table and table.thread_id else "…"
                lines.append(t("tournament.discord.board", locale, board=g.board, players=players, thread=where))
            elif g.result != "late":
                lines.append(t(f"tournament.discord.{g.result or 'bye'}", locale, players=players))
        lines += link_line("web.link.tournament", tournament_url(base_url(self.bot.settings), tour.id, number), locale)
        return pack(lines)

    async def post(self, tour: TournamentRow, texts: Sequence[str], files: Sequence[discord.File] = ()) -> None:
        """A post where the tournament lives: its channel, or (in a forum) its own post; ``files`` go with the
        last text."""
        parent = await self.channel(tour.channel_id)
        if parent is None:
            return
        message_id = tour.message_id
        if message_id is None and tour.settings.get("first_stage"):  # a second stage posts in the first's forum post
            first = await self.director.record.get(tour.settings["first_stage"])
            message_id = first.message_id if first else None
        where = message_id if isinstance(parent, discord.ForumChannel) else tour.channel_id
        if where is None:
            return
        channel = self.bot.get_partial_messageable(int(where))
        try:
            for i, text in enumerate(texts):
                if files and i == len(texts) - 1:
                    await channel.send(text, files=list(files))
                else:
                    await channel.send(text)
        except discord.HTTPException as exc:
            log.warning("cannot post in tournament %s's channel: %s", tour.id, exc.status)

    async def refresh(self, tournament_id: int) -> None:
        """Redraw the tournament's message from the record (players, state, round); never raises."""
        tour = await self.director.record.get(tournament_id)
        if tour is None or tour.channel_id is None or tour.message_id is None:
            return
        locale = await self.locale(tour)
        content = await self.message_text(tour, locale)
        try:
            await starter(self.bot, tour.channel_id, tour.message_id).edit(
                content=content, view=tournament_view(tour.id, tour.status, locale, tour.settings))
        except discord.HTTPException as exc:
            log.warning("cannot update the message of tournament %s: %s", tournament_id, exc.status)

    async def message_text(self, tour: TournamentRow, locale: str) -> str:
        game = self.bot.games[tour.game]
        s = tour.settings
        lines = [heading(tour, locale, game_title(game, locale))]
        facts = [t("tournament.discord.rounds", locale, rounds=s.get("rounds") or "auto")]
        if s.get("round_hours"):
            facts.append(t("tournament.discord.round_hours", locale, hours=s["round_hours"]))
        if tour.format in ("swiss", "multiseat"):
            facts.append(t("tournament.discord.late_entry." + ("yes" if s.get("late_entry") else "no"), locale))
        if s.get("stage2"):  # T-24: where the best go on
            facts.append(t("tournament.stage.second", locale, format=t(f"tournament.format.{s['stage2']}", locale)))
        lines.append(" · ".join(facts))
        if tour.status in ("registration", "running") and (conditions := entry_line(s, locale)):
            lines.append(conditions)  # who may enter, before anyone clicks (T-23)
        if tour.status == "registration":
            until = s.get("registration_until")
            lines.append(t("tournament.discord.open", locale) + (
                " " + t("tournament.discord.until", locale, at=f"<t:{int(until)}:R>") if until else ""))
        elif tour.status == "running":
            lines.append(t("tournament.discord.running", locale, round=tour.round))
        else:
            lines.append(t(f"tournament.status.{tour.status}", locale).capitalize())
        entries = [e for e in await self.director.record.entries(tour.id) if e.status == "active"]
        shown = ", ".join(who(e, e.user_id) for e in entries[:SHOWN_PLAYERS])
        more = len(entries) - SHOWN_PLAYERS
        lines.append(t("tournament.discord.players", locale, n=len(entries),
                       players=(shown or "—") + (f" … +{more}" if more > 0 else "")))
        return shorten("\n".join(lines), 2000)  # its lines kept (clip makes one line: for labels)

    # ------------------------------------------------------------------ the clock
    async def tick(self) -> None:
        for progress in await self.director.tick():
            try:
                await self.announce(progress)
            except Exception:
                log.exception("announcing tournament %s failed", progress.tournament_id)
