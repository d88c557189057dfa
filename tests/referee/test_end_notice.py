"""Every player told the end (issue 35, item 3): a finish enqueues one ``end`` message per seat in the same
transaction as the step (bot/referee/steps.py), the terminal prints a seat's own to the user who holds it, and
the notice's text says that player's own result in every language (bot/render/text.py end_notice)."""
from __future__ import annotations

import io
import re

import pytest

from bot.engine import get_game
from bot.i18n import LOCALES, t
from bot.referee.delivery import drain
from bot.render.text import end_notice, game_title
from bot.terminal.session import TerminalDeliverer
from tests.support.tables import new_toy, play_one


async def test_a_finish_enqueues_one_end_message_per_seat_and_the_terminal_prints_its_own(env):
    store, referee, _ = env
    table_id = await new_toy(referee)
    while (await store.get_table(table_id)).status == "active":
        await play_one(referee, store, table_id)
    rows = await store.conn.execute_fetchall(
        "SELECT seat, target FROM outbox WHERE table_id = ? AND kind = 'end' ORDER BY seat", (table_id,))
    assert [tuple(r) for r in rows] == [(0, "seat"), (1, "seat")]
    out = io.StringIO()
    await drain(store, TerminalDeliverer(out, "u:alice", "en", store=store), only=[table_id])
    told = [line for line in out.getvalue().splitlines() if line.startswith("🏁 ")]
    outcome = (await store.state(table_id))["outcome"]
    key = "core.end.won" if 0 in outcome["winners"] else "core.end.lost"
    assert told == [t(key, "en", table=table_id, game=game_title(get_game("toy"), "en"))], told  # alice's own, once


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("outcome, seat, key", [
    ({"winners": [0], "reason": "gwent.outcome.win", "params": {"rounds": "2:1"}}, 0, "won"),
    ({"winners": [0], "reason": "gwent.outcome.win", "params": {"rounds": "2:1"}}, 1, "lost"),
    ({"winners": [], "reason": "gwent.outcome.draw", "params": {"rounds": "1:1"}}, 1, "draw"),
    ({"winners": [], "reason": "gwent.outcome.draw", "params": {"rounds": "1:1", "lost": True}}, 0, "lost_together"),
])
def test_the_notice_says_the_players_own_result_first_with_nothing_left_unfilled(locale, outcome, seat, key):
    text = end_notice(get_game("gwent"), outcome, seat, locale, ["Ann", "Ben"], 7, taken=True)
    first = text.split("\n")[0]
    assert first == t(f"core.end.{key}", locale, table=7, game=t("gwent.title", locale))
    assert first.startswith(("🏁 Стол №7, ", "🏁 Стіл №7, ", "🏁 Table #7, "))
    assert len(text.split("\n")) == 3 and not re.search(r"\{\w+", text), text
