"""Red-team probes of "hidden information never reaches anyone who may not see it" through the fake Discord:
what a thread shows while players decide in private, refusals, and the labels of the buttons."""
from tests.discord.harness import choice_labels


async def _gwent_at_mulligans(h, monkeypatch):
    monkeypatch.setattr("bot.referee.service.new_seed", lambda: "gwent-no-leaks")
    table = await h.new_table(h.alice, "gwent", options="variant=hardgwent faction_a=monsters faction_b=nilfgaard")
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    table = await h.table(table.id)
    assert (await h.store.state(table.id))["phase"] == "mulligan"
    return table


async def _choose(h, user, table, wanted):
    legal = await h.bot.referee.legal(table.id, f"discord:{user.id}")
    index = next(i for i, action in enumerate(legal[2]) if wanted(action))
    return await h.act(user, table, lambda n: index)


async def test_a_thread_does_not_count_the_cards_a_player_exchanges(harness, monkeypatch):
    """Gwent mulligans are secret: while Alice exchanges two cards, nothing is posted or edited in the thread
    or in Bob's DMs (anything per exchange would tell Bob how many), and Bob's choices still open."""
    h, fake = harness, harness.fake
    table = await _gwent_at_mulligans(h, monkeypatch)
    posted = len(fake.in_channel(table.thread_id))
    live = h.turn_message(table)
    shown = len(live.history)
    bob_panel = fake.dms(h.bob)[-1]
    bob_shown = len(bob_panel.history)
    for _ in range(2):
        await _choose(h, h.alice, table, lambda a: a["type"] == "mulligan_give")
        await _choose(h, h.alice, table, lambda a: a["type"] == "mulligan_take")
    # no post, no edit of the live message, nothing new in Bob's DMs: nothing to count
    assert len(fake.in_channel(table.thread_id)) == posted and len(live.history) == shown
    assert len(bob_panel.history) == bob_shown and len(fake.dms(h.bob)) == 1
    bob = await h.open_choices(h.bob, table)
    assert choice_labels(bob), bob.text                      # not refused as stale
    await _choose(h, h.alice, table, lambda a: a["type"] == "mulligan_done")
    assert len(live.history) == shown + 1  # the end of her mulligans is public: the live message shows it


def _every_text(fake):
    """Everything Discord ever showed anyone: channel and thread posts, DMs and private answers, edits
    included, with the labels and ids of their components."""
    texts = []
    for msg in fake.messages.values():
        texts += msg.history or [msg.content]
        texts += [f"{c.get('label', '')} {c.get('custom_id', '')}" for c in msg.items()]
    return texts


async def test_the_seed_shows_only_as_its_hash_until_the_end(harness, monkeypatch):
    """Whoever knows the seed knows every card to come: while the table runs, no post, DM, private answer
    or button shows it (the commitment hash does); the end reveals it in the thread."""
    from tests.discord.support import started_toy, user_to_act

    seed = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
    monkeypatch.setattr("bot.referee.service.new_seed", lambda: seed)
    h, fake = harness, harness.fake
    table = await started_toy(h)
    assert any(table.seed_hash[:12] in text for text in _every_text(fake))  # the hash, shortened in the footer
    while (await h.table(table.id)).status == "active":
        assert not [text for text in _every_text(fake) if seed in text], "the seed was shown before the end"
        await (await fake.slash(h.carol, "table status", table=table.id)).answer()
        await (await fake.slash(h.carol, "table log", table=table.id)).answer()
        await h.open_choices(h.bob, table)
        await h.act(await user_to_act(h, table), table)
    assert seed in [m for m in fake.in_channel(table.thread_id) if not m.ephemeral_for][-1].content


async def test_the_public_log_does_not_number_the_private_steps(harness, monkeypatch):
    """/table log: the table versions count every action, private ones too, so the gaps between them would
    tell Bob how many cards Alice exchanged; players get the lines without them, moderators with them."""
    import re

    h, fake = harness, harness.fake
    table = await _gwent_at_mulligans(h, monkeypatch)
    for _ in range(2):
        await _choose(h, h.alice, table, lambda a: a["type"] == "mulligan_give")
        await _choose(h, h.alice, table, lambda a: a["type"] == "mulligan_take")
    await _choose(h, h.alice, table, lambda a: a["type"] == "mulligan_done")
    numbered = re.compile(r"`v\d+`")
    log = await (await fake.slash(h.bob, "table log", table=table.id)).text()
    assert "•" in log and not numbered.search(log), log
    assert "**1.** \u2068Alice\u2069" in log  # the public moves are numbered: the exchanges were no moves
    moderator = fake.add_user("Mod", moderator=True)
    assert numbered.search(await (await fake.slash(moderator, "table log", table=table.id)).text())
