"""Control messages in the DMs during live play: the next player's choices are posted anew as a plain message
(never an interaction's followup, which Discord shows as a reply to the clicked message: docs/discord.md), the
new DM being their ping; the old message goes through the token of their own latest click, so a hand-over
costs two rate-limited writes, the live message's edit and that post.  Without a living token (a player who
answers hours later) the old message stays rather than cost a third call (issue 35); a player whose DMs are
closed is pinged in the thread."""
from tests.discord.support import control, started_toy, user_to_act
from tests.discord.transcript import Transcript


async def move_in_dms(h, table):
    """The player to act clicks their first choice in their DM control message; returns who."""
    acting = await user_to_act(h, table)
    await h.pick(acting, control(h.fake, acting), 0)
    await h.settled()
    return acting


async def test_a_hand_over_in_live_play_is_two_writes_and_the_new_dm_a_plain_message_is_the_ping(
        harness, monkeypatch):
    h, fake = harness, harness.fake
    monkeypatch.setattr("bot.referee.service.new_seed", lambda: "tokens-1")  # a game with hand-overs and a trick won
    table = await started_toy(h)
    transcript = Transcript(fake)
    await move_in_dms(h, table)  # the second player has not clicked yet: ordinary calls for them
    await move_in_dms(h, table)  # now both have: tokens from here on
    h.new_pings(table)
    def controls(user):  # the DMs besides the end's own notice (issue 35)
        return len([m for m in fake.dms(user) if not m.content.startswith("🏁 ")])
    held = {user.id: controls(user) for user in (h.alice, h.bob)}

    hand_overs = 0
    while (await h.table(table.id)).status == "active":
        mark = transcript.mark()
        acting = await move_in_dms(h, table)
        if (await h.table(table.id)).status != "active":
            break
        following = await user_to_act(h, table)
        steps = transcript.entries[mark:]
        writes = [(e.kind, e.where) for e in steps if e.rate_limited]
        if following is acting:  # the same player goes on (a trick won): redrawn by the answer to the click
            assert writes == [("edit", "thread")], "only the live message is written"
            assert h.new_pings(table) == [] and control(fake, acting).find(prefix="j:do:") is not None
            continue
        hand_overs += 1
        assert writes == [("edit", "thread"), ("post", f"DM {following.name}")]
        assert not [e for e in steps if e.kind == "followup"], "no new message through an interaction token"
        posted = [e for e in steps if e.kind == "post" and e.where == f"DM {following.name}"]
        assert len(posted) == 1 and posted[0].pings == [following.id]
        assert any(e.kind == "response_delete" and e.user_id == following.id for e in steps)
        assert control(fake, following).find(prefix="j:do:") is not None  # their choices, one click away
        assert control(fake, acting).find(prefix="j:do:") is None        # the clicker: waiting, redrawn
        assert h.new_pings(table) == [following.id]                     # nobody else, never the clicker
    assert hand_overs >= 2
    assert {user.id: controls(user) for user in (h.alice, h.bob)} == held  # each replaced one deleted
    assert len(fake.in_channel(table.thread_id)) == 2  # the live message, and the final result
    assert fake.violations == []


async def test_without_a_living_token_a_hand_over_is_two_ordinary_calls_and_the_old_message_stays(harness):
    h, fake = harness, harness.fake
    table = await started_toy(h)
    await move_in_dms(h, table)
    await move_in_dms(h, table)
    fake.expire_tokens()  # fifteen minutes later
    transcript = Transcript(fake)
    acting = await move_in_dms(h, table)
    following = await user_to_act(h, table)
    assert following is not acting
    old = fake.dms(following)[-2]  # the control message the new one replaces
    writes = [(e.kind, e.where) for e in transcript.entries if e.rate_limited and e.ok]
    assert sorted(writes) == sorted([("edit", "thread"), ("post", f"DM {following.name}")])
    assert old.id in fake.messages  # left as it was: a deletion would be a third rate-limited call
    assert control(fake, following).find(prefix="j:do:") is not None
    assert control(fake, acting).find(prefix="j:do:") is None
    assert fake.violations == []


async def test_a_player_whose_dms_are_closed_is_pinged_in_the_thread(harness):
    h, fake = harness, harness.fake
    fake.dm_blocked.add(h.bob.id)
    table = await started_toy(h)
    h.new_pings(table)
    for _ in range(5):
        acting = await user_to_act(h, table)
        await h.act(acting, table)
        following = await user_to_act(h, table)
        pings = h.new_pings(table)
        if following is acting:
            assert pings == []
        elif following is h.bob:
            post = fake.in_channel(table.thread_id)[-1]
            assert pings == [h.bob.id] and h.bob.mention in post.content and len(post.content) <= 300
        else:
            assert pings == [h.alice.id] and fake.dms(h.alice)[-1].pinged == [h.alice.id]


async def test_hours_between_moves_every_decision_costs_at_most_the_live_edit_and_the_ping(harness):
    """Correspondence: every token has outlived its fifteen minutes before each move (benchmarks/discord_ux.py
    --stale-tokens).  A decision costs at most two rate-limited writes, the live message's edit and the next
    player's new control message; the clicker's own message is redrawn through the click, nothing is deleted."""
    h, fake = harness, harness.fake
    table = await started_toy(h)
    decisions = 0
    while (await h.table(table.id)).status == "active":
        fake.expire_tokens()  # hours since anyone clicked
        transcript = Transcript(fake)
        acting = await move_in_dms(h, table)
        transcript.detach()
        if (await h.table(table.id)).status != "active":
            break  # the end has its own post, the lobby's line and the thread archived (and each player told)
        decisions += 1
        writes = [(e.kind, e.where) for e in transcript.entries if e.rate_limited and e.ok]
        assert len(writes) <= 2 and ("edit", "thread") in writes, writes
        assert ("delete", f"DM {acting.name}") not in writes and ("edit", f"DM {acting.name}") not in writes
    assert decisions >= 4 and fake.violations == []
