"""Time control and a moderator's pause through the fake Discord (fake clock): the deadline in the live
message, a reminder by DM once, a vacation, /pause refusing moves with the moderator's reason (said in the live message and /table status), /resume."""
from tests.discord.harness import eventually
from tests.discord.support import user_to_act

HOUR = 3600


async def test_a_timed_table_reminds_once_by_dm_and_a_pause_stops_everything(harness):
    h, fake = harness, harness.fake
    table = await h.new_table(h.alice, "toy", options="clock=48h clock_remind=24h vacation=1")
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    await h.settled()
    deadline = int(h.clock.t + 48 * HOUR)
    assert f"<t:{deadline}:R>" in h.turn_message(table).content   # the clock in the live message
    late = await user_to_act(h, table)
    before = len(fake.dms(late))
    h.clock.t += 25 * HOUR

    def reminder(text: str) -> bool:  # (the control message shows the deadline with a ⏰ too)
        return text.startswith(f"⏰ Стол №{table.id}")

    async def reminded() -> bool:
        return any(reminder(m.content) for m in fake.dms(late)[before:])
    await eventually(reminded, what="the reminder DM")
    await h.settled()
    assert sum(reminder(m.content) for m in fake.dms(late)) == 1
    # absolute, then relative: "28 ноября 2026 г. 14:00 (через 23 часа)" in the reader's own time
    assert f"<t:{deadline}:f> (<t:{deadline}:R>)" in fake.dms(late)[-1].content

    answer = await (await fake.slash(late, "game vacation", days=0.5, table=table.id)).text()
    assert "🏖️" in answer
    await h.settled()
    assert "🏖️" in fake.in_channel(table.thread_id)[-1].content
    assert f"<t:{deadline + 12 * HOUR}:R>" in h.turn_message(table).content   # the vacation moved the clock

    moderator = fake.add_user("Mod", moderator=True)
    assert "модераторов" in await (await fake.slash(h.alice, "pause", table=table.id, reason="x")).text()
    await (await fake.slash(moderator, "pause", table=table.id, reason="проверяем ход")).answer()
    await h.settled()
    assert "проверяем ход" in fake.in_channel(table.thread_id)[-1].content
    refused = await (await fake.slash(late, "play", table=table.id, action="1")).text()
    assert "приостановлен" in refused and "проверяем ход" in refused     # every move refused, saying why
    # the live message and /table status say it is paused, by whom and why, and show no deadline that will move
    live = h.turn_message(table).content
    assert "⏸️ Стол приостановлен" in live and "проверяем ход" in live and f"<t:{deadline + 12 * HOUR}:R>" not in live
    status = await (await fake.slash(h.carol, "table status", table=table.id)).text()
    assert "⏸️ Стол приостановлен" in status and "проверяем ход" in status
    h.clock.t += 100 * HOUR                                  # nothing runs out while paused
    await (await fake.slash(moderator, "resume", table=table.id)).answer()
    await h.settled()
    assert (await h.table(table.id)).status == "active"
    assert "▶️" in fake.in_channel(table.thread_id)[-1].content
    assert f"<t:{deadline + 112 * HOUR}:R>" in h.turn_message(table).content  # moved on by the pause


async def test_a_correspondence_table_gets_the_default_clock_shown_and_reminded_by_dm(harness):
    """/game new without options plays by correspondence, so it gets the default clock (issue 35 item 2): the
    lobby says so, the live message carries the deadline, and the player on move is reminded by a DM of its own."""
    h, fake = harness, harness.fake
    table = await h.new_table(h.alice, "claygod")
    assert table.time_control["move"] == 48 * HOUR and table.time_control["expiry"] == "zombie"
    assert "⏰ 48 ч на решение" in h.lobby(table).content
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    deadline = int(h.clock.t + 48 * HOUR)
    assert f"<t:{deadline}:R>" in h.turn_message(table).content
    late = await user_to_act(h, table)
    before = len(fake.dms(late))
    h.clock.t += 25 * HOUR

    async def reminded() -> bool:
        return any(m.content.startswith(f"⏰ Стол №{table.id}") for m in fake.dms(late)[before:])
    await eventually(reminded, what="the reminder DM")
    off = await h.new_table(h.alice, "claygod", options="clock=off")
    assert off.time_control is None and "⏰" not in h.lobby(off).content
