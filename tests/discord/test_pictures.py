"""Table pictures in Discord: the live message carries the public picture and each control message its
player's hand picture, uploaded on the same calls that post and edit them, replaced when the table changes
(a correspondence table's live picture when the decision passes; a waiting player's hand when they are asked
something), as lossless WebP within Discord's upload limit; ``/table picture`` shows the asker's own view."""
from __future__ import annotations

from bot.i18n import t
from bot.render.picture import MAX_BYTES, picture
from tests.discord.fake_discord import UPLOAD_LIMIT


def _png(message) -> dict:
    """The message's only attachment, a WebP picture (a picture replaced, never piled up)."""
    assert len(message.attachments) == 1, [a["filename"] for a in message.attachments]
    attached = message.attachments[0]
    assert attached["content_type"] == "image/webp" and attached["data"][8:12] == b"WEBP"
    assert attached["description"]  # alt text for screen readers
    return attached


async def _drawn(h, table, seat, kind):
    state = await h.store.state(table.id)
    names = [s.name for s in await h.store.seats(table.id)]
    game = h.bot.games[table.game]
    return picture(game.view(state, seat), "ru", names, kind, "webp"), state["version"]


async def test_live_and_control_messages_carry_pictures_replaced_as_the_table_changes(claygod, harness, monkeypatch):
    h, fake = harness, harness.fake
    monkeypatch.setattr("bot.referee.service.new_seed", lambda: "pictures-e2e")
    table = await h.new_table(h.alice, "claygod")
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    table = await h.table(table.id)
    live = h.turn_message(table)
    first = _png(live)
    public, version = await _drawn(h, table, None, "table")
    assert first["data"] == public and f"-v{version}-" in first["filename"]  # the public view, nothing more
    for seat, user in enumerate((h.alice, h.bob)):
        control = fake.dms(user)[-1]  # the control message: the only message of the table in their DMs
        hand, _ = await _drawn(h, table, seat, "hand")
        assert _png(control)["data"] == hand

    passed = waited = 0
    for _ in range(40):  # moves until the turn passed twice: the live picture replaced when the turn passes
        if passed >= 2 and waited:
            break
        state = await h.store.state(table.id)
        seat = claygod.to_act(state)[0].seat
        await h.act((h.alice, h.bob)[seat], table)
        table = await h.table(table.id)
        now = _png(fake.messages[live.id])
        public, version = await _drawn(h, table, None, "table")
        if claygod.to_act(await h.store.state(table.id))[0].seat != seat:  # the decision passed: drawn anew
            assert now["data"] == public and f"-v{version}-" in now["filename"]
            assert t("picture.behind", "ru") not in fake.messages[live.id].content
            passed += 1
        elif now["data"] != public:  # the same player goes on: the picture waits for the turn, as its text says
            assert t("picture.behind", "ru") in fake.messages[live.id].content
            waited += 1
    assert passed >= 2 and waited
    assert now["id"] != first["id"] and len([u for u in fake.uploads if u[0] == live.id]) > 2
    for seat, user in enumerate((h.alice, h.bob)):  # redrawn by their own clicks too: the hand as it is now
        hand, _ = await _drawn(h, table, seat, "hand")
        control = fake.dms(user)[-1]
        if any(p.seat == seat for p in claygod.to_act(await h.store.state(table.id))):
            assert _png(control)["data"] == hand
        else:  # waiting: the hand as it is, or no picture (a changed hand uploaded when they are asked something)
            assert control.attachments == [] or _png(control)["data"] == hand
    assert fake.uploads and all(size <= min(MAX_BYTES, UPLOAD_LIMIT) for _, _, size in fake.uploads)
    assert not fake.violations


async def test_table_picture_shows_a_player_their_seat_and_anyone_else_the_public_table(claygod, harness,
                                                                                     monkeypatch):
    h, fake = harness, harness.fake
    monkeypatch.setattr("bot.referee.service.new_seed", lambda: "pictures-command")
    table = await h.new_table(h.alice, "claygod")
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    table = await h.table(table.id)
    own = await (await fake.slash(h.alice, "table picture", table=table.id)).answer()
    seen = await (await fake.slash(h.carol, "table picture", table=table.id)).answer()
    assert own.ephemeral_for == h.alice.id and seen.ephemeral_for == h.carol.id
    assert _png(own)["data"] == (await _drawn(h, table, 0, "table"))[0]      # Alice's cards drawn for her only
    assert _png(seen)["data"] == (await _drawn(h, table, None, "table"))[0]  # the public table for Carol
    assert own.content and seen.content  # the board in words beside the picture
    assert not fake.violations


async def test_a_hand_played_out_has_no_picture_and_its_old_one_goes(claygod, harness, monkeypatch):
    """No hand picture for a seat that holds no card: its control message, edited or posted anew, carries no
    attachment, and the picture of the cards it held before is removed rather than left showing them."""
    h, fake = harness, harness.fake
    monkeypatch.setattr("bot.referee.service.new_seed", lambda: "pictures-empty-hand")
    table = await h.new_table(h.alice, "claygod")
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    table = await h.table(table.id)
    assert _png(fake.dms(h.alice)[-1])["data"] == (await _drawn(h, table, 0, "hand"))[0]
    await (await fake.slash(h.alice, "table pings", when="never")).answer()  # her control message: edited
    held = fake.dms(h.alice)[-1].id

    view = claygod.view

    def empty_for_alice(state, seat):  # Alice's hand as if played out, in everything drawn for her
        shown = view(state, seat)
        if seat == 0:
            players = [dict(p) for p in shown["players"]]
            players[0]["hand"] = []
            shown = {**shown, "players": players}
        return shown

    monkeypatch.setattr(claygod, "view", empty_for_alice)
    uploads = len(fake.uploads)
    for _ in range(4):
        state = await h.store.state(table.id)
        user = (h.alice, h.bob)[claygod.to_act(state)[0].seat]
        await h.act(user, table)
    table = await h.table(table.id)
    assert (await _drawn(h, table, 0, "hand"))[0] is None
    assert fake.dms(h.alice)[-1].id == held  # edited in place, never posted anew
    assert fake.messages[held].attachments == []  # no picture: the old one is gone
    assert _png(fake.messages[fake.dms(h.bob)[-1].id])["data"] == (await _drawn(h, table, 1, "hand"))[0]
    assert len(fake.uploads) > uploads  # Bob's hand and the live table are still drawn
    assert not fake.violations
