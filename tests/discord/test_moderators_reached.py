"""Moderators always reached and able to act (issue 35, item 4): without a notice channel a dispute reaches the
moderators the bot has seen at work, else the server's owner, and when it reaches nobody its author is told so;
the notice names the move in words and who disputes it, and its Uphold / Reject / Amend buttons open a form and
decide as ``/disputes decide`` does, refused to a seated moderator and to a plain player; the evidence opens
with the log around the move; the first table of a server without a channel asks for one."""
import asyncio

from bot.engine import get_game
from bot.referee import disputes
from bot.render.disputes import evidence_texts
from tests.discord.support import disputed
from tests.discord.support import started_toy, user_to_act

NOTICE = "Новый спор №1"


def owner_of_server(fake):
    """The server's owner as a member the fake knows (it has DMs): owner_id comes with the server."""
    fake.users[fake.owner.id] = fake.owner
    return fake.owner


def notice_in(fake, user):
    found = [m for m in fake.dms(user) if NOTICE in m.content]
    assert len(found) == 1, [m.content for m in fake.dms(user)]
    return found[0]


async def raise_first(h, table, user, move=1, text="wrong card"):
    ix = await h.fake.slash(user, "dispute", channel_id=table.thread_id, move=move, text=text)
    said = await ix.text()
    await h.settled()
    return said


async def test_without_a_channel_or_a_known_moderator_the_owner_is_told_with_the_move_in_words(harness):
    h, fake = harness, harness.fake
    owner = owner_of_server(fake)
    table = await started_toy(h)
    mover = await user_to_act(h, table)
    await h.act(mover, table)
    waiting = await user_to_act(h, table)
    said = await raise_first(h, table, waiting)
    assert "сообщит модераторам, которых знает, в личные сообщения" in said, said

    notice = notice_in(fake, owner)
    events = await h.bot.referee.history(table.id)
    seats = await h.store.seats(table.id)
    game = get_game("toy")
    line = " · ".join(x for e in events if e["version"] == 1 and (x := game.render_event(e, "ru", [s.name for s in seats])))
    assert f"В журнале: 1. {line}" in notice.content, notice.content  # the move as the log reads it
    assert f"{waiting.name}\u2069 оспаривает ход 1" in notice.content and f"стол №{table.id}" in notice.content
    assert [b["label"] for row in notice.components for b in row["components"]] == \
        ["Материалы", "Поддержать", "Отклонить", "Исправить ход"]


async def test_a_moderator_seen_at_work_is_told_and_the_owner_is_not(harness):
    h, fake = harness, harness.fake
    owner = owner_of_server(fake)
    moderator = fake.add_user("Mod", moderator=True)
    await (await fake.slash(moderator, "disputes queue")).answer()
    await disputed(h)
    notice_in(fake, moderator)
    assert not any(NOTICE in m.content for m in fake.dms(owner))


async def test_nobody_to_reach_the_author_is_told_the_truth_at_once(harness):
    h, fake = harness, harness.fake
    owner = owner_of_server(fake)
    table = await started_toy(h, owner, h.bob)  # the owner plays here: a player, not a judge of this table
    await h.act(await user_to_act(h, table), table)
    waiting = await user_to_act(h, table)
    said = await raise_first(h, table, waiting)
    assert "сообщить о нём некому" in said and "/настройки канал-модераторов" in said, said
    assert "Модераторам сообщат" not in said
    assert not any(NOTICE in m.content for u in (owner, h.bob) for m in fake.dms(u))
    ((status,),) = await h.store.conn.execute_fetchall("SELECT status FROM outbox WHERE kind = 'moderators'")
    assert status == "skipped"
    # told once, in the answer: no second word by DM
    assert not any("не удалось сообщить" in m.content for m in fake.dms(waiting))


async def test_moderators_whose_dms_are_closed_leave_the_author_told_by_dm(harness):
    h, fake = harness, harness.fake
    moderator = fake.add_user("Mod", moderator=True)
    await (await fake.slash(moderator, "disputes queue")).answer()
    fake.dm_blocked.add(moderator.id)
    table = await started_toy(h)
    await h.act(await user_to_act(h, table), table)
    waiting = await user_to_act(h, table)
    said = await raise_first(h, table, waiting)
    assert "личные сообщения" in said  # a moderator was known: the bot tried
    told = [m for m in fake.dms(waiting) if "О споре №1 не удалось сообщить ни одному модератору" in m.content]
    assert len(told) == 1, [m.content for m in fake.dms(waiting)]


async def decide_by_button(fake, user, notice, label, values):
    opened = await fake.click(user, notice, label=label)
    await opened.answer()
    if opened.modal is None:
        return opened, None
    sent = await fake.submit(user, opened, values)
    await sent.answer()
    return opened, sent


async def test_reject_and_amend_by_button_decide_as_the_command_does(harness):
    h, fake = harness, harness.fake
    moderator = fake.add_user("Mod", moderator=True)
    await (await fake.slash(moderator, "disputes queue")).answer()
    table, _ = await disputed(h)
    notice = notice_in(fake, moderator)

    opened, sent = await decide_by_button(fake, moderator, notice, "Отклонить", {"reason": "the card was legal"})
    assert opened.modal["custom_id"] == "j:ddf:1:1"
    assert "отклонён" in await sent.text()
    row = await h.store.dispute(1)
    assert (row.status, row.reason, row.moderator) == ("rejected", "the card was legal", f"discord:{moderator.id}")
    await h.settled()
    thread = "\n".join(m.content for m in fake.in_channel(table.thread_id))
    assert "Спор №1 о ходе 1 отклонён" in thread and "the card was legal" in thread
    # decided already: the button says so and opens no form
    again, _ = await decide_by_button(fake, moderator, notice, "Поддержать", {"reason": "x"})
    assert again.modal is None and "уже" in await again.text()

    # a second dispute, amended from its notice: the correction numbered as the evidence lists it
    table2 = await started_toy(h)
    await h.act(await user_to_act(h, table2), table2)
    waiting = await user_to_act(h, table2)
    await raise_first(h, table2, waiting)
    (notice2,) = [m for m in fake.dms(moderator) if "Новый спор №2" in m.content]
    ev = await disputes.evidence(h.bot.referee, 2)
    opened, sent = await decide_by_button(fake, moderator, notice2, "Исправить ход",
                                          {"reason": "misclick", "correction": "2", "rule": ""})
    assert [c["components"][0]["custom_id"] for c in opened.modal["components"]] == ["reason", "correction", "rule"]
    assert "ход исправлен" in await sent.text()
    row = await h.store.dispute(2)
    assert row.status == "amended" and row.decision["correction"] == ev.corrections[1]
    assert row.decision["mode"] == "amend" and row.decision["seat"] == ev.seat


async def test_uphold_by_button_returns_the_table_like_the_command(harness):
    h, fake = harness, harness.fake
    moderator = fake.add_user("Mod", moderator=True)
    await (await fake.slash(moderator, "disputes queue")).answer()
    table, _ = await disputed(h)
    _, sent = await decide_by_button(fake, moderator, notice_in(fake, moderator), "Поддержать",
                                     {"reason": "wrong card", "rule": "TOY-1"})
    assert "поддержан" in await sent.text()
    row = await h.store.dispute(1)
    assert row.status == "upheld" and row.decision["mode"] == "rollback" and row.decision["note"] == "TOY-1"
    assert (await h.store.state(table.id))["hands"] == (await h.store.state(table.id, 0))["hands"]


async def test_the_buttons_are_refused_to_a_seated_moderator_and_to_a_player(harness):
    h, fake = harness, harness.fake
    owner = owner_of_server(fake)
    seated = fake.add_user("SeatedMod", moderator=True)
    table = await started_toy(h, h.alice, seated)
    await h.act(await user_to_act(h, table), table)
    waiting = await user_to_act(h, table)
    await raise_first(h, table, waiting)
    notice = notice_in(fake, owner)  # the seated moderator is no judge here: the owner is told

    for user, said in ((seated, "играете"), (h.carol, "нет")):
        opened, _ = await decide_by_button(fake, user, notice, "Отклонить", {"reason": "x"})
        assert opened.modal is None and said in (await opened.text()).lower(), await opened.text()
    # a form sent back without the button (a forged one) is judged again: no decision
    opened = await fake.click(owner, notice, label="Отклонить")
    await opened.answer()
    forged = await fake.submit(h.carol, opened, {"reason": "forged"})
    assert "нет" in (await forged.text()).lower()
    forged = await fake.submit(seated, opened, {"reason": "forged"})
    assert "играете" in (await forged.text()).lower()
    assert (await h.store.dispute(1)).status == "open"


async def test_the_evidence_opens_with_the_log_around_the_move(harness):
    h, fake = harness, harness.fake
    moderator = fake.add_user("Mod", moderator=True)
    table = await started_toy(h)
    for _ in range(5):
        await h.act(await user_to_act(h, table), table)
    waiting = await user_to_act(h, table)
    await raise_first(h, table, waiting, move=4)
    ev = await disputes.evidence(h.bot.referee, 1)
    assert [(m.number, m.disputed) for m in ev.around] == [(1, False), (2, False), (3, False), (4, True),
                                                          (5, False)]
    first = evidence_texts(ev, "ru")[0].splitlines()
    assert first[0].startswith("⚖️ Спор №1") and first[1] == "> wrong card"
    assert first[2].startswith("Журнал вокруг хода")
    assert first[3].lstrip().startswith("1. ") and first[6].startswith("▶ 4. ") and first[7].lstrip().startswith("5. ")
    assert "`{" not in "\n".join(first[:9])  # the raw action comes last
    asked = await fake.slash(moderator, "disputes evidence", dispute=1)
    await asked.answer()
    for _ in range(100):  # the evidence comes in several messages, the buttons under the last
        if asked.replies and asked.replies[-1].find(label="Отклонить"):
            break
        await asyncio.sleep(0.05)
    assert "▶ 4. " in "\n".join(asked.shown)
    # decided where it is read: the buttons under the evidence open the same form
    opened, sent = await decide_by_button(fake, moderator, asked.replies[-1], "Отклонить", {"reason": "legal"})
    assert opened.modal["custom_id"] == "j:ddf:1:1" and (await h.store.dispute(1)).status == "rejected"


def test_identical_amend_options_are_listed_once():
    class Twins:  # a hand of two copies of one card and another
        def describe_action(self, state, seat, action, locale, names=()):
            return {"ru": "карта «Кабан»", "en": "card \"Boar\""}[locale] if action["card"] < 2 else f"card {action['card']}"

    actions = [{"type": "play", "card": 0}, {"type": "play", "card": 1}, {"type": "play", "card": 2}]
    assert disputes.distinct_actions(Twins(), {}, 0, actions, []) == [actions[0], actions[2]]
    # labels that differ in one language only are both kept
    class OneLanguage(Twins):
        def describe_action(self, state, seat, action, locale, names=()):
            return "same" if locale == "ru" else str(action["card"])

    assert disputes.distinct_actions(OneLanguage(), {}, 0, actions, []) == actions


async def test_the_first_table_asks_for_a_channel_once(harness):
    h, fake = harness, harness.fake
    owner = owner_of_server(fake)
    await h.new_table(h.alice, "toy")  # a player opened it: the owner is asked, by DM
    asked = [m for m in fake.dms(owner) if "/настройки канал-модераторов" in m.content]
    assert len(asked) == 1 and "первый стол" in asked[0].content
    admin = fake.add_user("Admin", moderator=True)
    said = await (await fake.slash(admin, "game new", game="toy")).text()
    assert "канал-модераторов" not in said  # the second table: asked already
    assert len([m for m in fake.dms(owner) if "канал-модераторов" in m.content]) == 1


async def test_a_moderator_opening_the_first_table_is_asked_in_the_answer(harness):
    fake = harness.fake
    owner = owner_of_server(fake)
    admin = fake.add_user("Admin", moderator=True)
    said = await (await fake.slash(admin, "game new", game="toy")).text()
    assert "Стол №1 открыт" in said and "`/настройки канал-модераторов`" in said
    assert not fake.dms(owner)


async def test_with_a_channel_set_the_first_table_asks_nothing(harness):
    h, fake = harness, harness.fake
    owner = owner_of_server(fake)
    await h.store.set_guild(fake.guild_id, notice_channel=fake.add_text_channel("mods"))
    said = await (await fake.slash(h.alice, "game new", game="toy")).text()  # a player: the owner would be asked
    assert "Стол №1 открыт" in said and "канал-модераторов" not in said
    assert not fake.dms(owner)


async def test_in_the_notice_channel_the_buttons_decide_for_a_moderator_of_the_server(harness):
    h, fake = harness, harness.fake
    channel = fake.add_text_channel("mods")
    admin = fake.add_user("Admin", moderator=True)
    await h.store.set_guild(fake.guild_id, notice_channel=channel)  # /settings: tests/discord/test_moderator_notices.py
    table = await started_toy(h)
    await h.act(await user_to_act(h, table), table)
    waiting = await user_to_act(h, table)
    said = await raise_first(h, table, waiting)
    assert "Модераторам сообщат в их канале" in said
    (notice,) = [m for m in fake.in_channel(channel) if NOTICE in m.content]
    assert "В журнале: 1. " in notice.content
    refused, _ = await decide_by_button(fake, h.carol, notice, "Поддержать", {"reason": "x"})
    assert refused.modal is None and (await h.store.dispute(1)).status == "open"
    _, sent = await decide_by_button(fake, admin, notice, "Отклонить", {"reason": "legal"})
    assert "отклонён" in await sent.text() and (await h.store.dispute(1)).status == "rejected"


async def test_the_buttons_and_the_form_work_after_a_restart(harness):
    h, fake = harness, harness.fake
    moderator = fake.add_user("Mod", moderator=True)
    await (await fake.slash(moderator, "disputes queue")).answer()
    await disputed(h)
    notice = notice_in(fake, moderator)
    opened = await fake.click(moderator, notice, label="Отклонить")
    await opened.answer()
    await h.restart()  # the form opened before it, sent back after
    sent = await fake.submit(moderator, opened, {"reason": "legal"})
    assert "отклонён" in await sent.text()
    # and the notice's buttons still answer (decided now: said so, no form)
    again, _ = await decide_by_button(fake, moderator, notice, "Поддержать", {"reason": "x"})
    assert again.modal is None and "уже" in await again.text()
