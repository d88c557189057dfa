"""The referee's notices at a table (who did what and why), the seed line of each front end, and the
verification's problems in the reader's language."""
from bot.discord.records import log_page
from bot.engine import get_game
from bot.i18n import t
from bot.referee.record import Problem, export_table, verify_export
from bot.render.notices import person
from bot.render.text import render_event, render_message
from bot.storage.store import SeatRow, TableRow
from tests.support.tables import new_toy, play_one

TOY = get_game("toy")


def test_people_are_named_by_their_user_key():
    assert person("discord:123", "ru") == "<@123>"
    assert person("cli:ann", "en") == "ann"
    assert person("system", "en") == person(None, "en") == "the referee"
    assert person("discord:not-a-number", "en") == "discord:not-a-number"


def test_notices_name_the_moderator_and_the_reason_on_one_line():
    def text(kind, payload, locale="en", front="terminal"):
        return render_message(TOY, kind, payload, names=["A", "B"], locale=locale, table_id=7, front=front)

    assert text("ruling", {"text": "Card 3 stands.", "by": "discord:5"}) == \
        "⚖️ Ruling on table #7 by <@5>: Card 3 stands."
    assert text("ruling", {"text": "Card 3 stands."}).endswith("#7: Card 3 stands.")  # recorded before: no one named
    cancelled = text("cancelled", {"by": "cli:op", "reason": "no\nshow", "seed": "abc"})
    assert cancelled.splitlines() == ["✖️ Table #7 was cancelled by op. Reason: no show",
                                      "Random seed: `abc`. Check it: `python -m bot verify 7`."]
    assert "`/table verify 7`" in text("cancelled", {"by": "cli:op", "seed": "abc"}, front="discord")
    assert "`/стол проверить 7`" in text("cancelled", {"by": "cli:op", "seed": "abc"}, "ru", "discord")
    assert text("cancelled", {"by": "discord:9"}, "uk") == "✖️ Стіл №7 скасовано — <@9>."
    rollback = {"to": 3, "move": 2, "reason": "misclick", "by": "discord:5"}
    update = text("update", {"rollback": rollback, "events": [], "view": None})
    assert update == "↩️ Rolled back to move 2 of the log by <@5>. Reason: misclick"
    event = {"kind": "rollback", "to": None, "data": {**rollback, "move": 0}}
    assert render_event(TOY, event, "ru", []) == "↩️ Откат к началу партии — <@5>. Причина: misclick"
    # a rollback recorded before moves were numbered keeps its old wording (it named a version)
    old = {"kind": "rollback", "to": None, "data": {"to": 3, "reason": "x"}}
    assert "3" in render_event(TOY, old, "en", []) and "x" in render_event(TOY, old, "en", [])


async def test_verification_problems_read_in_english_at_the_terminal_and_localised_elsewhere(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    while (await store.get_table(tid)).status == "active":
        await play_one(referee, store, tid)
    doc = await export_table(store, tid)
    doc["snapshots"][2]["sha256"] = "0" * 64
    doc["table"]["seed_hash"] = "f" * 64
    report = verify_export(doc)
    assert not report.ok and all(isinstance(p, Problem) for p in report.problems)
    assert report.problems[0] == "the revealed seed does not match the published commitment"
    assert "snapshot 2 differs from the re-run" in report.problems
    assert [t(p.key, "ru", **p.params) for p in report.problems] == [
        "открытое зерно не совпадает с опубликованным отпечатком", "состояние версии 2 не совпадает с повтором"]


def test_a_log_page_never_exceeds_discord_and_keeps_its_place_as_the_game_goes_on():
    table = TableRow(id=1, game="toy", status="active", options={}, seed=None, seed_hash="h", stack=None, version=0,
                     next_deadline=None, origin="discord", creator="discord:1", title=None, locale="en",
                     guild_id="1", channel_id="2", thread_id="3", outcome=None, created_at=0.0, started_at=0.0,
                     finished_at=None)
    seats = [SeatRow(0, "discord:1", "A", False), SeatRow(1, "discord:2", "B", False)]

    def events(n):
        return [{"version": v, "kind": "played", "to": None, "data": {"seat": v % 2, "card": v}} for v in range(1, n)]

    first, page, pages = log_page(TOY, table, seats, events(400), "en", page=1)
    assert page == 1 and pages > 2 and len(first) <= 2000 and "**1.**" in first
    newest, page, _ = log_page(TOY, table, seats, events(400), "en")
    assert page == pages and "**399.**" in newest and len(newest) <= 2000
    later, _, more = log_page(TOY, table, seats, events(600), "en", page=1)
    assert later.split("\n")[1:] == first.split("\n")[1:] and more > pages  # page 1 is still page 1
    assert log_page(TOY, table, seats, events(400), "en", page=10 ** 9)[1] == pages
