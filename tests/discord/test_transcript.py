"""The transcript recorder (tests/discord/transcript.py): a short toy game through the fake Discord, recorded
step by step, in order, with what Discord would notify; and the figures it derives."""
from bot.engine import get_game
from tests.discord.fake_discord import FakeDiscord
from tests.discord.transcript import Entry, Transcript, choice_count, shown_lines


def in_order(entries, *wanted):
    """The first entry matching each predicate, each found after the previous one."""
    found, rest = [], iter(entries)
    for number, want in enumerate(wanted):
        match = next((e for e in rest if want(e)), None)
        assert match is not None, f"step {number} of the expected order is missing"
        found.append(match)
    return found


async def to_act(h, table):
    state = await h.store.state(table.id)
    seats = await h.store.seats(table.id)
    seat = get_game(table.game).to_act(state)[0].seat
    return h.fake.users[seats[seat].user_id.split(":", 1)[1]]


async def test_a_toy_game_is_recorded_in_order_with_pings_answers_and_clicks(harness):
    h, fake = harness, harness.fake
    transcript = Transcript(fake)
    alice, bob = h.alice, h.bob
    table = await h.new_table(alice, "toy")
    await h.join(bob, table)
    start = transcript.mark()
    await h.start(alice, table)
    table = await h.table(table.id)
    first = await to_act(h, table)
    entries = transcript.entries

    lobby_post, thread, join, start_click, live = in_order(
        entries,
        lambda e: e.kind == "post" and e.where == "#games" and "toy.title" in e.text,
        lambda e: e.kind == "thread_create" and e.channel_id == table.thread_id,
        lambda e: e.kind == "click" and e.actor == "Bob" and "j:join:" in e.detail,
        lambda e: e.kind == "click" and e.actor == "Alice" and "j:start:" in e.detail,
        lambda e: e.kind == "post" and e.where == "thread")
    assert entries[0].kind == "slash" and entries[0].detail.startswith("/game new")
    assert entries[1].kind == "response" and entries[1].user_id == alice.id and entries[1].ephemeral
    # the first to act is pinged, unless they just clicked Start themselves: by their control message in their DMs,
    # as at every later turn (issue 35); the live message mentions nobody whose DMs are open
    assert live.pings == [] and live.rate_limited and "[Мой ход]" not in live.text
    dm_pings = [e for e in entries[entries.index(live):] if e.kind == "post" and e.where.startswith("DM ") and e.pings]
    assert [e.pings for e in dm_pings] == ([] if first is alice else [[first.id]])
    assert {e.where for e in entries[live.n:] if e.kind == "post" and e.where.startswith("DM ")} == \
        {"DM Alice", "DM Bob"}, "each player's control message is a new DM"
    assert any(e.kind == "dm_open" for e in entries[start_click.n:])

    # the first move: a click on the control message in the DMs, then (whatever the bot made of it) the
    # moves through "My move" under the live message
    control = next(m for m in reversed(fake.dms(first)) if m.find(prefix="j:do:") or m.find(prefix="j:pick:"))
    mark = transcript.mark()
    item = next(c for c in control.items() if c["custom_id"].startswith(("j:do:", "j:pick:")))
    if item["type"] == 2:
        ix = await fake.click(first, control, custom_id=item["custom_id"])
    else:
        ix = await fake.choose(first, control, [item["options"][0]["value"]], custom_id=item["custom_id"])
    await ix.answer()
    await h.settled()
    dm_click, dm_answer = in_order(
        entries[mark:],
        lambda e: e.kind in ("click", "select") and e.user_id == first.id and e.where == f"DM {first.name}",
        lambda e: e.kind == "response_edit" and e.user_id == first.id and e.where == f"DM {first.name}")
    assert dm_answer.message_id == control.id and not dm_answer.pings and not dm_answer.rate_limited

    moves = 0
    while (await h.table(table.id)).status == "active":
        mover = await to_act(h, table)
        mark = transcript.mark()
        before = (await h.table(table.id)).version
        await h.act(mover, table)
        moves += 1
        my_move, opened, shown, chose, redrawn = in_order(
            entries[mark:],
            lambda e, mover=mover: e.kind == "click" and e.user_id == mover.id and "«Мой ход»" in e.detail,
            lambda e, mover=mover: e.kind == "response" and e.user_id == mover.id and e.ephemeral,
            lambda e, mover=mover: e.kind == "followup" and e.user_id == mover.id and e.ephemeral and "hand=" in e.text,
            lambda e, mover=mover: e.kind in ("click", "select") and e.user_id == mover.id,
            lambda e, mover=mover: e.kind == "response_edit" and e.user_id == mover.id and e.ephemeral)
        assert chose.message_id == shown.message_id == redrawn.message_id
        assert (await h.table(table.id)).version > before
        edits = [e for e in entries[chose.n:] if e.kind == "edit"]
        assert edits and all(not e.pings for e in edits), "an edit never notifies"
        assert all(not e.pings for e in entries[mark:] if e.ephemeral)
    assert moves >= 3

    end, archived = in_order(entries[start:],
                             lambda e: e.kind == "post" and e.where == "thread" and "🏆" in e.text,
                             lambda e: e.kind == "thread_edit" and '"archived": true' in e.detail)

    figures = transcript.figures(start)
    after = entries[start:]
    assert figures.api_calls == sum(1 for e in after if e.kind in ("post", "edit", "delete", "pin", "thread_edit")
                                    and e.ok)
    assert figures.clicks == sum(1 for e in after if e.kind in ("click", "select")) >= 2 * moves + 1
    assert figures.pings == sum(len(e.pings) for e in after) >= 1
    assert figures.posts + figures.edits + figures.dm_posts + figures.dm_edits + figures.other_writes == \
        figures.api_calls
    assert figures.responses >= 3 * moves and figures.widest >= len("table=[None, None] tricks=[0, 0] hand=None")

    md = transcript.markdown("toy", since=start)
    lines = md.splitlines()
    assert lines[0] == "# toy"
    numbered = [line for line in lines if line[:1].isdigit()]
    assert len(numbered) == sum(1 for e in after if e.kind != "setup")
    assert f"{live.n}. 🤖 ⏱ posts" in md and f"🔔 @{first.name}" in md
    assert f"{my_move.n}. 👤 **{mover.name}** clicks «Мой ход»" in md
    assert "    > ```" in md and "    > [Мой ход] [Моя рука] [Весь стол]" in md
    assert not any("<@" in line for line in shown_lines(end.text, fake)) and archived.ok


def test_self_pings_one_choice_lists_and_widths_are_counted_as_defined():
    fake = FakeDiscord()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    transcript = Transcript(fake)
    one = [{"type": 1, "components": [{"type": 2, "label": "roll", "custom_id": "j:do:1:4:0:0"}]}]
    menu = [{"type": 1, "components": [{"type": 3, "custom_id": "j:pick:1:4:0:0",
                                        "options": [{"label": "a", "value": "0"}, {"label": "b", "value": "1"}]}]}]
    steps = [Entry(0, "click", "Alice", user_id=alice.id),
             Entry(0, "post", "bot", where="thread", text=f"▶ {alice.mention}", pings=[alice.id]),  # self
             Entry(0, "post", "bot", where="thread", text=f"▶ {bob.mention}", pings=[bob.id]),
             Entry(0, "click", "Bob", user_id=bob.id),
             Entry(0, "edit", "bot", where="DM Alice", text="```\n" + "🟥" * 21 + "\n```", components=one),
             Entry(0, "response_edit", "bot", where="DM Bob", text="x", components=menu),
             Entry(0, "post", "bot", where="thread", text=f"{alice.mention} " + "a" * 30, pings=[alice.id])]
    for i, entry in enumerate(steps, 1):
        entry.n = i
        transcript.entries.append(entry)
    f = transcript.figures()
    assert (f.clicks, f.pings, f.self_pings, f.one_choice) == (2, 3, 1, 1)
    assert (f.api_calls, f.posts, f.dm_edits, f.responses) == (4, 3, 1, 1)
    assert (f.widest, f.widest_code) == (42, 42) and f.wide_lines == 1
    assert transcript.self_pinged() == [(2, alice.id)]
    assert "**(self-ping)**" in transcript.markdown().splitlines()[5]

    assert choice_count(one) == 1 and choice_count(menu) == 2 and choice_count([]) is None
    paged = [menu[0], {"type": 1, "components": [{"type": 2, "label": ">", "custom_id": "j:page:1:4:0:1"}]}]
    assert choice_count(paged) is None, "one page of a longer list is not a one-choice list"
    thread = "https://discord.com/channels/1/" + fake.channel_id + "/99"
    assert shown_lines(f"**{bob.mention}** · <t:1700000000:R> · {thread} · [↗ к столу]({thread})\n"
                       "```\n**code** <@1>\n```", fake) == ["@Bob · через 5 минут · #games › 💬 · ↗ к столу",
                                                          "**code** <@1>"]
