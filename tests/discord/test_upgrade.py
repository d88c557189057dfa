"""Issue 23 in the fake Discord: a Clay God table whose record an older release wrote (unversioned states of the
old shape) is upgraded when the bot starts again; its thread hears of the upgrade with the options it now plays
by, and the players go on through the buttons."""
import sqlite3

from bot.engine import get_game
from bot.engine.versions import RULES
from bot.storage.store import load_packed, pack_state
from tests.discord.harness import random_choice
from tests.discord.support import user_to_act
from tests.support.upgrades import _claygod_v1


def _age(db, table_id):
    conn = sqlite3.connect(str(db))
    for version, packed in conn.execute("SELECT version, state FROM snapshots WHERE table_id = ?", (table_id,)):
        conn.execute("UPDATE snapshots SET state = ? WHERE table_id = ? AND version = ?",
                     (pack_state(_claygod_v1(load_packed(packed))), table_id, version))
    conn.execute("UPDATE tables SET rules_version = 1, started_rules = NULL, release = NULL WHERE id = ?", (table_id,))
    conn.commit()
    conn.close()


async def test_an_old_claygod_table_is_upgraded_at_restart_told_in_its_thread_and_plays_on(harness):
    h, fake = harness, harness.fake
    table = await h.new_table(h.alice, "claygod")
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    table = await h.table(table.id)
    choose = random_choice("upgrade")
    for _ in range(6):
        await h.act(await user_to_act(h, table), table, choose)
    await h.stop_bot()
    _age(h.db, table.id)
    await h.start_bot()
    await h.settled()
    upgraded = await h.table(table.id)
    rules = get_game("claygod").rules_version
    assert upgraded.rules_version == rules and (await h.store.state(table.id))[RULES] == rules
    thread = [m.content for m in fake.in_channel(table.thread_id)]
    told = [text for text in thread if "2026.11.27" in text]
    assert told, thread[-3:]
    # the options it now plays by: in the notice, or in the post that carries on its text when the deadline line
    # of the table's clock (the default one at correspondence pace) makes it too long for one post
    assert any("Настройки стола" in text for text in thread[thread.index(told[0]):]), told
    for _ in range(6):
        if (await h.table(table.id)).status != "active":
            break
        await h.act(await user_to_act(h, table), table, choose)
    assert (await h.table(table.id)).version > upgraded.version


async def test_a_table_this_release_cannot_play_is_frozen_with_a_notice_and_the_other_tables_play_on(harness):
    h, fake = harness, harness.fake
    moderator = fake.add_user("Mod", moderator=True)
    await (await fake.slash(moderator, "disputes queue")).answer()  # the bot has seen them moderate here
    frozen = await h.new_table(h.alice, "claygod")
    await h.join(h.bob, frozen)
    await h.start(h.alice, frozen)
    other = await h.new_table(h.alice, "gwent")
    await h.join(h.bob, other)
    await h.start(h.alice, other)
    frozen, other = await h.table(frozen.id), await h.table(other.id)
    await h.act(await user_to_act(h, frozen), frozen)
    await h.stop_bot()
    conn = sqlite3.connect(str(h.db))  # its latest state written by a release from the future
    version, packed = conn.execute("SELECT version, state FROM snapshots WHERE table_id = ? ORDER BY version DESC"
                                   " LIMIT 1", (frozen.id,)).fetchone()
    conn.execute("UPDATE snapshots SET state = ? WHERE table_id = ? AND version = ?",
                 (pack_state({**load_packed(packed), RULES: 9}), frozen.id, version))
    conn.execute("UPDATE tables SET rules_version = 9 WHERE id = ?", (frozen.id,))
    conn.commit()
    conn.close()
    await h.start_bot()
    await h.settled()
    assert (await h.table(frozen.id)).frozen["found"] == 9
    thread = [m.content for m in fake.in_channel(frozen.thread_id)]
    assert any(f"Стол №{frozen.id} остановлен" in text for text in thread), thread[-2:]
    # the moderators are told: it waits for one of them (issue 27, item 6)
    told = [m.content for m in fake.dms(moderator) if f"Стол №{frozen.id}" in m.content]
    assert len(told) == 1 and "ждёт решения модератора" in told[0] and f"<#{frozen.thread_id}>" in told[0]
    refused = await h.open_choices(h.alice, frozen)
    assert refused is not None and "остановлен" in refused.content
    moved = (await h.table(other.id)).version
    await h.act(await user_to_act(h, other), other)
    assert (await h.table(other.id)).version > moved
