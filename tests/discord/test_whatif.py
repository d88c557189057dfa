"""A moderator's "what if" through the fake Discord (cogs/whatif.py): ``/whatif`` and its autocomplete, the "What
if…" button under a dispute's evidence, a move picked by hand, the bots to the end — every answer private to the
moderator, nothing posted anywhere, the table's rows unchanged, each look logged; players, strangers and a
moderator seated at the table get nothing."""
from bot.engine import get_game
from tests.discord.fake_discord import until
from tests.discord.support import started_toy, user_to_act
from tests.support.records import looks, record_rows


async def _all_shown(ix, *needles):
    """Every private answer of ``ix`` once the last of ``needles`` shows (an answer takes several messages)."""
    await ix.answer()
    await until(lambda: all(any(n in text for text in ix.shown) for n in needles), what=f"{needles} shown")
    return "\n".join(ix.shown)


async def test_a_moderator_tries_another_move_and_plays_it_on_privately(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    for _ in range(2):
        await h.act(await user_to_act(h, table), table)
    await h.settled()
    before = await record_rows(h.store, table.id)
    def public():  # every message in channels, threads and DMs, with every text it showed
        return [(m.id, tuple(m.history)) for m in fake.messages.values() if not m.ephemeral_for]

    posted = public()
    moderator = fake.add_user("Mod", moderator=True)

    # the legal moves at the position, for the autocomplete: the hand of the seat to act (hidden state)
    state = await h.store.state(table.id, 1)
    seat = get_game("toy").to_act(state)[0].seat
    legal = get_game("toy").legal_actions(state, seat)
    offered = await fake.autocomplete(moderator, "whatif", "action", table=table.id, after_move=1, action="")
    assert [c["value"] for c in offered] == [str(n) for n in range(1, len(legal) + 1)]
    assert await fake.autocomplete(h.alice, "whatif", "action", table=table.id, after_move=1, action="") == []

    ix = await fake.slash(moderator, "whatif", table=table.id, after_move=1, action="1")
    shown = await _all_shown(ix, "Место 2")
    assert f"стол №{table.id}" in shown and "после хода 1 (версия 1)" in shown and "1. ✋" in shown
    assert f"hand={state['hands'][1 - seat]}" in shown  # the other seat's hand too: the moderator sees everything
    assert all(m.ephemeral_for == moderator.id for m in ix.replies)
    last = ix.replies[-1]
    assert last.find(prefix="j:wis:") and last.find(label="🤖 Боты — до конца")

    # the next move by hand, from the select; then the bots to the end
    picked = await fake.choose(moderator, last, ["0"], prefix="j:wis:")
    assert "2. ✋" in await _all_shown(picked, "2. ✋", "Место 2")
    ended = await fake.click(moderator, picked.replies[-1], label="🤖 Боты — до конца")
    shown = await _all_shown(ended, "🏆", "Место 2")
    assert "🤖" in shown and not ended.replies[-1].find(prefix="j:wis:")  # over: nothing more to pick
    # the first answer's select still plays from the position it showed: a branch of its own
    branch = await fake.choose(moderator, last, ["0"], prefix="j:wis:")
    assert "2. ✋" in await _all_shown(branch, "2. ✋", "Место 2")

    assert public() == posted                                 # nothing posted or edited anywhere
    assert await record_rows(h.store, table.id) == before     # the real table untouched
    logged = await looks(h.store, table.id)
    assert len(logged) == 4 and all(what == "hidden_view" and data["what"] == "whatif" for _, what, data in logged)


async def test_what_if_from_a_dispute_s_evidence(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    await h.act(await user_to_act(h, table), table)
    waiting = await user_to_act(h, table)
    await (await fake.slash(waiting, "dispute", channel_id=table.thread_id, move=1, text="wrong card")).answer()
    moderator = fake.add_user("Mod", moderator=True)
    evidence = await fake.slash(moderator, "disputes evidence", dispute=1)
    await _all_shown(evidence, "🔬 Что если…")
    button = next(m for m in evidence.replies if m.find(label="🔬 Что если…"))
    trial = await fake.click(moderator, button, label="🔬 Что если…")
    shown = await _all_shown(trial, "Место 2")
    assert "после хода 0 (версия 0)" in shown                 # right before the disputed move
    assert trial.replies[-1].find(prefix="j:wis:")
    # the command in one go: a move from the start, then the bots to the end
    ended = await fake.slash(moderator, "whatif", table=table.id, after_move=0, action="1", bots=0)
    shown = await _all_shown(ended, "Место 2")
    assert "1. ✋" in shown and "2. 🤖" in shown and not ended.replies[-1].find(prefix="j:wis:")

    # a player who is no moderator, clicking a crafted copy of the button: as if the dispute did not exist
    crafted = fake.crafted_message(fake.channel_id, ["j:wid:1"])
    refused = await (await fake.click(h.carol, crafted, custom_id="j:wid:1")).text()
    assert "Спора №1 нет" in refused
    # an old trial's button (the bot restarted, or another moderator's): no trial behind it
    crafted = fake.crafted_message(fake.channel_id, ["j:wib:1:0"])
    assert "больше не хранится" in await (await fake.click(moderator, crafted, custom_id="j:wib:1:0")).text()


async def test_players_and_a_seated_moderator_are_refused(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    await h.act(await user_to_act(h, table), table)
    await h.settled()
    refused = await (await fake.slash(h.carol, "whatif", table=table.id)).text()
    assert "только для модераторов" in refused
    fake.users[h.alice.id].permissions = fake.add_user("x", moderator=True).permissions  # Alice moderates
    seated = await (await fake.slash(h.alice, "whatif", table=table.id, action="1")).text()
    assert f"Вы играете за столом #{table.id}" in seated
    assert await fake.autocomplete(h.alice, "whatif", "action", table=table.id, action="") == []
    assert await looks(h.store, table.id) == []


def test_the_moves_open_come_a_page_at_a_time_and_a_finished_trial_offers_nothing():
    from bot.discord.components import trial_view

    labels = [f"{n}. move {n}" for n in range(1, 61)]
    first = trial_view(7, labels, 0, "en", over=False)
    ids = [item.custom_id for item in first.children]
    select = first.children[0]
    assert ids == ["j:wis:7:0", "j:wip:7:1", "j:wib:7:1", "j:wib:7:0"]
    assert [o.value for o in select.item.options] == [str(i) for i in range(25)]
    last = trial_view(7, labels, 2, "en", over=False)
    assert [item.custom_id for item in last.children] == ["j:wis:7:2", "j:wip:7:1", "j:wib:7:1", "j:wib:7:0"]
    assert [o.value for o in last.children[0].item.options] == [str(i) for i in range(50, 60)]
    assert trial_view(7, [], 0, "en", over=True) is None
