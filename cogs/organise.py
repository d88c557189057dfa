"""The organiser's tools on Discord: ``/organise results | adjust | forfeit | repair | export | pause`` and
``/pairing swap | forbid`` (docs/tournaments.md, "Running one on Discord"); removing a player is
``/tournament drop player: reason:``.

A group of its own beside ``/tournament`` (a command's size, with its three languages, is capped by Discord).
Everything here is the director's (bot/tournament/director.py): the same checks, the same log; the answers are
private to the organiser, and what changes the event (a result, a re-pairing) is announced in the tournament's
channel by the desk (bot/discord/tournaments.py), as the clock's changes are.
"""
from __future__ import annotations

import io
import json
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.client import JudgeBot
from bot.discord.interactions import begin, player_key, refuse, say
from bot.discord.locale import L
from bot.discord.render import pack, user_key
from bot.discord.tournaments import who
from bot.engine import Code, Rejection
from bot.i18n import t
from bot.render.standings import export_csv
from bot.discord.components import correction_view
from bot.tournament.corrections import Undo, describe
from bot.tournament.audit import audit_csv, audit_export
from bot.tournament.trf import write_trf, writable
from bot.tournament.director import Progress

_NUMBER = re.compile(r"^(?:\d+(?:[.,]\d+)?|½)$")


def parse_points(text: str, players: list[str]) -> dict[str, float] | Rejection:
    """``1 0``, ``1:0``, ``½-½``, ``0.5 0.5``: each player's points in the table's seat order."""
    parts = [p for p in re.split(r"[\s:;/–—-]+", text.strip()) if p]
    if len(parts) != len(players) or not all(_NUMBER.match(p) for p in parts):
        return Rejection(Code.MALFORMED, "tournament.reject.points_order", {"n": len(players)})
    return {p: 0.5 if v == "½" else float(v.replace(",", ".")) for p, v in zip(players, parts)}


def _score(points: dict[str, float] | None, players: list[str]) -> str:
    return ":".join(f"{points[p]:g}" for p in players) if points else "…"


class Organise(commands.Cog):
    organise = app_commands.Group(name=L("tournament.cmd.organise"), description=L("tournament.cmd.organise.desc"),
                                  guild_only=True)

    def __init__(self, bot: JudgeBot):
        self.bot = bot
        self.desk = bot.tournaments
        self.director = bot.tournaments.director

    def _events(self) -> Any:
        return self.bot.get_cog("Tournament")

    async def _begin(self, interaction: discord.Interaction, number: int | None):
        """Deferred; (tournament, locale, organiser's rights) or None when refused (answered)."""
        locale = await begin(interaction)
        tour = await self._events()._find(interaction, number)
        if isinstance(tour, Rejection):
            await refuse(interaction, tour, locale)
            return None
        return tour, locale, await self._events()._runs_events(interaction)

    async def _done(self, interaction: discord.Interaction, result: Any, locale: str, text: str) -> None:
        if isinstance(result, Rejection):
            return await refuse(interaction, result, locale)
        if isinstance(result, Undo):
            return await self._undo(interaction, result, locale)
        if isinstance(result, Progress):
            await self.desk.announce(result)
            if result.kept_pairings:  # Swiss: the later pairings stand (docs/tournaments.md)
                text += "\n" + t("tournament.correction.kept", locale,
                                  rounds=", ".join(map(str, result.kept_pairings)))
        await say(interaction, text)

    async def _undo(self, interaction: discord.Interaction, undo: Undo, locale: str) -> None:
        """A bracket correction that undoes later games: done, or shown with a button to confirm it."""
        if undo.done:
            if isinstance(undo.progress, Progress):
                await self.desk.announce(undo.progress)
            return await say(interaction, t("tournament.correction.done", locale, games=len(undo.games),
                                            first=undo.from_round))
        entries = {e.user_id: e for e in await self.director.record.entries(undo.tournament_id)}
        lines = describe(undo, {p: who(e, p) for p, e in entries.items()}, locale)
        # a big bracket's list may pass Discord's 2000 characters: several messages, the button under the last
        await say(interaction, pack([*lines, t("tournament.correction.confirm_hint", locale)]),
                  view=correction_view(undo.tournament_id, undo.shown, locale))

    async def on_confirm_correction(self, interaction: discord.Interaction, tournament_id: int, shown: int) -> None:
        """The organiser confirms a correction shown to them (``correction_view``)."""
        locale = await begin(interaction)
        tour = await self.director.record.get(tournament_id)
        if tour is None or tour.guild_id != str(interaction.guild_id):  # a button is answered in its own server only
            return await refuse(interaction, Rejection(Code.NOT_FOUND, "tournament.reject.no_tournament",
                                                       {"tournament": tournament_id}), locale)
        result = await self.director.confirm_correction(tournament_id, shown, by=player_key(interaction),
                                                        moderator=await self._events()._runs_events(interaction))
        if isinstance(result, Progress):  # the bracket moved between the check and the lock: nothing left to undo
            await self.desk.announce(result)
            return await say(interaction, t("tournament.correction.done_alone", locale))
        if isinstance(result, Rejection):
            return await refuse(interaction, result, locale)
        await self._undo(interaction, result, locale)

    # ------------------------------------------------------------------ results
    @organise.command(name=L("tournament.cmd.results"), description=L("tournament.cmd.results.desc"))
    @app_commands.rename(number=L("tournament.param.tournament"), round=L("tournament.param.round"))
    @app_commands.describe(number=L("tournament.param.tournament.desc"), round=L("tournament.param.round.desc"))
    async def results(self, interaction: discord.Interaction, number: int | None = None,
                      round: app_commands.Range[int, 1, 1000] | None = None):
        begun = await self._begin(interaction, number)
        if begun is None:
            return
        tour, locale, _ = begun
        entries = {e.user_id: e for e in await self.director.record.entries(tour.id)}
        lines = [t("tournament.discord.results_head", locale, tournament=tour.id)]
        for g in await self.director.record.games(tour.id, round):
            players = " — ".join(who(entries.get(p), p) for p in g.players)
            lines.append(t("tournament.discord.result_line", locale, round=g.round, board=g.board, players=players,
                           score=_score(g.points, g.players),
                           result=t(f"tournament.result.{g.result or 'playing'}", locale)))
        await say(interaction, pack(lines))

    # ------------------------------------------------------------------ adjust / forfeit
    @organise.command(name=L("tournament.cmd.adjust"), description=L("tournament.cmd.adjust.desc"))
    @app_commands.rename(round=L("tournament.param.round"), board=L("tournament.param.board"),
                         points=L("tournament.param.points"), reason=L("tournament.param.reason"),
                         number=L("tournament.param.tournament"))
    @app_commands.describe(round=L("tournament.param.round.desc"), board=L("tournament.param.board.desc"),
                           points=L("tournament.param.points.desc"), reason=L("tournament.param.reason.desc"),
                           number=L("tournament.param.tournament.desc"))
    async def adjust(self, interaction: discord.Interaction, round: app_commands.Range[int, 1, 1000],
                     board: app_commands.Range[int, 1, 10_000], points: app_commands.Range[str, 1, 100],
                     reason: app_commands.Range[str, 1, 300], number: int | None = None):
        begun = await self._begin(interaction, number)
        if begun is None:
            return
        tour, locale, rights = begun
        game = next((g for g in await self.director.record.games(tour.id, round) if g.board == board), None)
        if game is None:
            return await refuse(interaction, Rejection(Code.NOT_FOUND, "tournament.reject.no_game",
                                                       {"round": round, "board": board}), locale)
        parsed = parse_points(points, game.players)
        if isinstance(parsed, Rejection):
            return await refuse(interaction, parsed, locale)
        result = await self.director.adjust(tour.id, round, board, parsed, by=player_key(interaction),
                                            reason=reason, moderator=rights)
        await self._done(interaction, result, locale, t(
            "tournament.discord.adjusted", locale, round=round, board=board,
            before=_score(game.points, game.players), after=_score(parsed, game.players)))

    @organise.command(name=L("tournament.cmd.forfeit"), description=L("tournament.cmd.forfeit.desc"))
    @app_commands.rename(round=L("tournament.param.round"), board=L("tournament.param.board"),
                         reason=L("tournament.param.reason"), player=L("tournament.param.loser"),
                         number=L("tournament.param.tournament"))
    @app_commands.describe(round=L("tournament.param.round.desc"), board=L("tournament.param.board.desc"),
                           reason=L("tournament.param.reason.desc"), player=L("tournament.param.loser.desc"),
                           number=L("tournament.param.tournament.desc"))
    async def forfeit(self, interaction: discord.Interaction, round: app_commands.Range[int, 1, 1000],
                      board: app_commands.Range[int, 1, 10_000], reason: app_commands.Range[str, 1, 300],
                      player: discord.Member | None = None, number: int | None = None):
        """``player`` forfeits (the others win); no player: everyone at the table forfeits (0–0)."""
        begun = await self._begin(interaction, number)
        if begun is None:
            return
        tour, locale, rights = begun
        game = next((g for g in await self.director.record.games(tour.id, round) if g.board == board), None)
        losers = [user_key(player.id)] if player is not None else list(game.players) if game else []
        result = await self.director.forfeit(tour.id, round, board, losers, by=player_key(interaction),
                                             reason=reason, moderator=rights)
        entries = {e.user_id: e for e in await self.director.record.entries(tour.id)}
        await self._done(interaction, result, locale, t("tournament.discord.forfeited", locale, round=round,
                                                        board=board,
                                                        players=", ".join(who(entries.get(p), p) for p in losers)))

    # ------------------------------------------------------------------ repair
    @organise.command(name=L("tournament.cmd.repair"), description=L("tournament.cmd.repair.desc"))
    @app_commands.rename(reason=L("tournament.param.reason"), number=L("tournament.param.tournament"))
    @app_commands.describe(reason=L("tournament.param.reason.desc"), number=L("tournament.param.tournament.desc"))
    async def repair(self, interaction: discord.Interaction, reason: app_commands.Range[str, 1, 300],
                     number: int | None = None):
        begun = await self._begin(interaction, number)
        if begun is None:
            return
        tour, locale, rights = begun
        result = await self.director.repair(tour.id, by=player_key(interaction), reason=reason, moderator=rights)
        await self._done(interaction, result, locale, t("tournament.discord.repaired", locale, tournament=tour.id,
                                                        round=tour.round))

    # ------------------------------------------------------------------ export
    @organise.command(name=L("tournament.cmd.export"), description=L("tournament.cmd.export.desc"))
    @app_commands.rename(number=L("tournament.param.tournament"))
    @app_commands.describe(number=L("tournament.param.tournament.desc"))
    async def export(self, interaction: discord.Interaction, number: int | None = None):
        begun = await self._begin(interaction, number)
        if begun is None:
            return
        tour, locale, _ = begun
        data = await self.director.export(tour.id)
        if isinstance(data, Rejection):
            return await refuse(interaction, data, locale)
        files = [discord.File(io.BytesIO(json.dumps(data, ensure_ascii=False, indent=1).encode()),
                              filename=f"tournament{tour.id}.json"),
                 discord.File(io.BytesIO(export_csv(data).encode()), filename=f"tournament{tour.id}.csv")]
        public = await audit_export(self.director, tour.id)  # the auditor's: no user ids, can be published
        if not isinstance(public, Rejection):
            files += [discord.File(io.BytesIO(json.dumps(public, ensure_ascii=False, indent=1).encode()),
                                   filename=f"tournament{tour.id}-public.json"),
                      discord.File(io.BytesIO(audit_csv(public).encode()), filename=f"tournament{tour.id}-public.csv")]
            if writable(public):
                points = self.director.points(tour)  # the row read at the start: an export changes nothing
                files.append(discord.File(io.BytesIO(write_trf(public, win=points.win, draw=points.draw).encode()),
                                          filename=f"tournament{tour.id}.trf"))
        await say(interaction, t("tournament.discord.exported", locale, tournament=tour.id), files=files)

    # ------------------------------------------------------------------ the round's clock
    @organise.command(name=L("tournament.cmd.pause"), description=L("tournament.cmd.pause.desc"))
    @app_commands.rename(reason=L("tournament.param.reason"), number=L("tournament.param.tournament"))
    @app_commands.describe(reason=L("tournament.param.pause_reason.desc"),
                           number=L("tournament.param.tournament.desc"))
    async def pause(self, interaction: discord.Interaction, reason: app_commands.Range[str, 1, 300] | None = None,
                    number: int | None = None):
        """Stop the current round's clock (a reason needed), or, when it is stopped, let it run again."""
        begun = await self._begin(interaction, number)
        if begun is None:
            return
        tour, locale, rights = begun
        by = player_key(interaction)
        left = await self.director.pause_round(tour.id, by=by, reason=reason, moderator=rights)
        if isinstance(left, Rejection) and left.key == "tournament.reject.round_paused":
            deadline = await self.director.pause_round(tour.id, by=by, reason=reason, resume=True, moderator=rights)
            if isinstance(deadline, Rejection):
                return await refuse(interaction, deadline, locale)
            text = t("tournament.discord.round_resumed", locale, round=tour.round, at=f"<t:{int(deadline)}:f>",
                     left=f"<t:{int(deadline)}:R>")
        elif isinstance(left, Rejection):
            return await refuse(interaction, left, locale)
        else:
            text = t("tournament.discord.round_paused", locale, round=tour.round, reason=reason)
        await self.desk.post(tour, [text])
        await say(interaction, text)

    # ------------------------------------------------------------------ /pairing: manual edits (T-22)
    pairing = app_commands.Group(name=L("tournament.cmd.pairing"), description=L("tournament.cmd.pairing.desc"),
                                 guild_only=True)

    @pairing.command(name=L("tournament.cmd.swap"), description=L("tournament.cmd.swap.desc"))
    @app_commands.rename(first=L("tournament.param.first"), second=L("tournament.param.second"),
                         reason=L("tournament.param.reason"), number=L("tournament.param.tournament"))
    @app_commands.describe(first=L("tournament.param.first.desc"), second=L("tournament.param.second.desc"),
                           reason=L("tournament.param.reason.desc"), number=L("tournament.param.tournament.desc"))
    async def swap(self, interaction: discord.Interaction, first: discord.Member, second: discord.Member,
                   reason: app_commands.Range[str, 1, 300], number: int | None = None):
        begun = await self._begin(interaction, number)
        if begun is None:
            return
        tour, locale, rights = begun
        result = await self.director.swap(tour.id, user_key(first.id), user_key(second.id),
                                          by=player_key(interaction), reason=reason, moderator=rights)
        if isinstance(result, Progress):
            entries = {e.user_id: e for e in await self.director.record.entries(tour.id)}
            await self.desk.post(tour, await self.desk.round_text(tour, tour.round, entries, locale))
        await self._done(interaction, result, locale, t("tournament.discord.swapped", locale, round=tour.round,
                                                        first=f"<@{first.id}>", second=f"<@{second.id}>"))

    @pairing.command(name=L("tournament.cmd.forbid"), description=L("tournament.cmd.forbid.desc"))
    @app_commands.rename(first=L("tournament.param.first"), second=L("tournament.param.second"),
                         reason=L("tournament.param.reason"), number=L("tournament.param.tournament"))
    @app_commands.describe(first=L("tournament.param.first.desc"), second=L("tournament.param.second.desc"),
                           reason=L("tournament.param.reason.desc"), number=L("tournament.param.tournament.desc"))
    async def forbid(self, interaction: discord.Interaction, first: discord.Member, second: discord.Member,
                     reason: app_commands.Range[str, 1, 300], number: int | None = None):
        begun = await self._begin(interaction, number)
        if begun is None:
            return
        tour, locale, rights = begun
        result = await self.director.forbid(tour.id, user_key(first.id), user_key(second.id),
                                            by=player_key(interaction), reason=reason, moderator=rights)
        await self._done(interaction, result, locale, t("tournament.discord.forbidden", locale,
                                                        first=f"<@{first.id}>", second=f"<@{second.id}>"))

    @swap.autocomplete("number")
    @forbid.autocomplete("number")
    @results.autocomplete("number")
    @adjust.autocomplete("number")
    @forfeit.autocomplete("number")
    @repair.autocomplete("number")
    @export.autocomplete("number")
    @pause.autocomplete("number")
    async def _tournaments(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await self._events()._tournaments(interaction, current)


async def setup(bot: JudgeBot) -> None:
    await bot.add_cog(Organise(bot))
