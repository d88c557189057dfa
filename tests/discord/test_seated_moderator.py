"""A moderator seated at a table is a player there (bot/referee/oversight.py), through the fake Discord: the
opponent's private dispute text stays out of their queue and its autocomplete, every moderator's step at that
table is refused to them (another moderator takes it), and the log and the check show them no versions or
action counts.  An unseated moderator, at the same table, sees and does all of it: the control each time."""
from tests.discord.support import started_toy, user_to_act

SECRET = "alice's private complaint 4417"
SEATED = "другого модератора"        # moderation.reject.seated_decide, ru
OWN_TABLE = "другой модератор"       # disputes.reject.own_table, ru


async def _a_private_dispute(h, seated_mod):
    """A toy table of Alice and the seated moderator, one move made, Alice's private dispute of it open."""
    table = await started_toy(h, h.alice, seated_mod)
    await h.act(await user_to_act(h, table), table)
    answer = await (await h.fake.slash(h.alice, "dispute", channel_id=table.thread_id, move=1, text=SECRET,
                                       private=True)).text()
    assert "Спор №1" in answer, answer
    await h.settled()
    return await h.table(table.id)


async def test_a_seated_moderator_reads_no_private_dispute_text_and_decides_nothing(harness):
    h, fake = harness, harness.fake
    seated = fake.add_user("SeatedMod", moderator=True)
    other = fake.add_user("OtherMod", moderator=True)
    table = await _a_private_dispute(h, seated)

    queue = await (await fake.slash(seated, "disputes queue")).text()
    assert "№1 · стол №" in queue and SECRET not in queue and "вы играете за ним" in queue
    offered = await fake.autocomplete(seated, "disputes decide", "dispute", dispute="")
    assert offered and not any(SECRET in c["name"] for c in offered), offered
    assert SECRET in await (await fake.slash(other, "disputes queue")).text()
    assert any(SECRET in c["name"] for c in await fake.autocomplete(other, "disputes decide", "dispute",
                                                                   dispute=""))

    decided = await (await fake.slash(seated, "disputes decide", dispute=1, decision="reject", reason="mine")).text()
    assert OWN_TABLE in decided
    amended = await (await fake.slash(seated, "disputes decide", dispute=1, decision="amend", reason="mine",
                                      correction="1")).text()
    assert OWN_TABLE in amended
    assert (await h.store.dispute(1)).status == "open"

    version = (await h.table(table.id)).version
    for path, values in (("mod rollback", {"move": 0, "reason": "undo"}), ("mod ruling", {"text": "I win"}),
                         ("mod cancel", {"reason": "bored"}), ("pause", {"reason": "tea"})):
        refused = await (await fake.slash(seated, path, table=table.id, **values)).text()
        assert SEATED in refused and f"#{table.id}" in refused, (path, refused)
    refused = await (await fake.slash(seated, "game cancel", channel_id=table.thread_id)).text()
    assert SEATED in refused, refused
    after = await h.table(table.id)
    assert (after.status, after.version, after.paused_at) == ("active", version, None)
    logged = await h.store._all("SELECT action FROM moderation WHERE table_id = ?", (table.id,))
    assert not [r["action"] for r in logged if r["action"] != "hidden_view"], [dict(r) for r in logged]

    # another moderator decides: the same steps go through for them
    assert "Спор №1" in await (await fake.slash(other, "disputes decide", dispute=1, decision="reject",
                                                reason="a fair move")).text()
    assert "приостановлен" in await (await fake.slash(other, "pause", table=table.id, reason="tea")).text()
    refused = await (await fake.slash(seated, "resume", table=table.id)).text()
    assert SEATED in refused and (await h.table(table.id)).paused_at is not None
    await (await fake.slash(other, "resume", table=table.id)).answer()
    await (await fake.slash(other, "mod cancel", table=table.id, reason="test over")).answer()
    assert (await h.table(table.id)).status == "cancelled"


async def test_a_seated_moderator_sees_no_versions_in_the_log_nor_counts_in_the_check(harness):
    h, fake = harness, harness.fake
    seated = fake.add_user("SeatedMod", moderator=True)
    other = fake.add_user("OtherMod", moderator=True)
    table = await started_toy(h, h.alice, seated)
    await h.act(await user_to_act(h, table), table)

    mine = await (await fake.slash(seated, "table log", channel_id=table.thread_id)).text()
    theirs = await (await fake.slash(other, "table log", channel_id=table.thread_id)).text()
    assert "`v1`" in theirs and "`v" not in mine, (mine, theirs)
    spectator = await (await fake.slash(h.bob, "table log", channel_id=table.thread_id)).text()
    assert "`v" not in spectator

    mine = await (await fake.slash(seated, "table verify", channel_id=table.thread_id)).text()
    theirs = await (await fake.slash(other, "table verify", channel_id=table.thread_id)).text()
    assert "ещё идёт" in mine and "ещё идёт" not in theirs, (mine, theirs)
