"""The organiser's tools through the fake Discord (cogs/organise.py): results, adjust (logged with the value it
replaced), forfeit, pause and resume of the round's clock, export as JSON and CSV attachments, repair before any
move, removal (``/tournament drop player: reason:``) — and a player who is not the organiser refused each time."""
import csv
import io
import json

import pytest

from bot.discord.render import user_key
from tests.discord.support import enter, new_tournament


async def _log(h, tid):
    return await h.bot.tournaments.director.record.log(tid)


async def test_an_organiser_runs_an_event_to_the_end_from_discord(harness):
    h, fake = harness, harness.fake
    dave = fake.add_user("Dave")
    tid, _ = await new_tournament(h, h.alice, rounds=2, hours=48)
    await enter(h, tid, h.alice, h.bob, h.carol, dave)
    members = {user_key(u.id): u for u in (h.alice, h.bob, h.carol, dave)}
    await (await fake.slash(h.alice, "tournament start", number=tid)).answer()
    await h.settled()
    director = h.bot.tournaments.director
    # the organiser plays: ``one`` is the game she does not play in, ``two`` hers (another organiser sets its result)
    one, two = sorted(await director.record.games(tid, 1), key=lambda g: user_key(h.alice.id) in g.players)
    game = {g.board: i for i, g in enumerate(await director.record.games(tid, 1))}

    listed = await (await fake.slash(h.bob, "organise results", number=tid)).text()
    assert listed.count("…") == 2 and all(members[p].mention in listed for p in one.players + two.players)

    refused = await (await fake.slash(h.bob, "organise adjust", round=1, board=one.board, points="1 0",
                                      reason="x")).text()
    assert "организатор" in refused and not (await director.record.games(tid, 1))[game[one.board]].settled
    bad = await (await fake.slash(h.alice, "organise adjust", round=1, board=one.board, points="1", reason="x")).text()
    assert "2" in bad and not (await director.record.games(tid, 1))[game[one.board]].settled

    first = await (await fake.slash(h.alice, "organise adjust", round=1, board=one.board, points="1 0",
                                    reason="сдался в чате")).text()
    assert "… → 1:0" in first
    again = await (await fake.slash(h.alice, "organise adjust", round=1, board=one.board, points="½ ½",
                                    reason="ошибся")).text()
    assert "1:0 → 0.5:0.5" in again
    adjusted = [e for e in await _log(h, tid) if e["action"] == "adjusted"]
    assert adjusted[-1]["reason"] == "ошибся" and adjusted[-1]["data"]["before"] == {one.players[0]: 1.0,
                                                                                     one.players[1]: 0.0}
    assert (await h.table(one.table_id)).status == "cancelled"  # adjusting a game whose table plays closes it

    absent = members[two.players[1]]
    own = await (await fake.slash(h.alice, "organise forfeit", round=1, board=two.board, player=absent,
                                  reason="мой стол")).text()
    assert "другой организатор" in own and not (await director.record.games(tid, 1))[game[two.board]].settled
    moderator = fake.add_user("Mod", moderator=True)
    done = await (await fake.slash(moderator, "organise forfeit", round=1, board=two.board, player=absent,
                                   reason="не пришёл")).text()
    assert absent.mention in done
    settled = (await director.record.games(tid, 1))[game[two.board]]
    assert settled.result == "forfeit" and settled.points == {two.players[0]: 1.0, two.players[1]: 0.0}
    await h.settled()
    t = await director.record.get(tid)
    assert t.round == 2  # the last result of round 1 paired round 2

    paused = await (await fake.slash(h.alice, "organise pause", reason="сервер лежал")).text()
    assert "⏸" in paused and (await director.record.rounds(tid))[1].deadline is None
    assert any("⏸" in m.content for m in fake.in_channel(fake.channel_id))  # told in the tournament's channel
    resumed = await (await fake.slash(h.alice, "organise pause")).text()  # stopped: the same command restarts it
    assert "▶" in resumed and "<t:" in resumed
    deadline = (await director.record.rounds(tid))[1].deadline
    assert h.bot.referee.now() + 47 * 3600 < deadline <= h.bot.referee.now() + 48 * 3600
    no_reason = await (await fake.slash(h.alice, "organise pause")).text()
    assert "причину" in no_reason.lower() and (await director.record.rounds(tid))[1].deadline == deadline

    before = await director.record.games(tid, 2)
    repaired = await (await fake.slash(h.alice, "organise repair", reason="пересадка")).text()
    assert "заново" in repaired
    after = await director.record.games(tid, 2)
    for g in before:
        if g.table_id:
            assert (await h.table(g.table_id)).status == "cancelled"
    assert [g.table_id for g in after] != [g.table_id for g in before]

    gone = next(members[p] for g in after for p in g.players if members.get(p) not in (None, h.alice))
    removed = await (await fake.slash(h.alice, "tournament drop", player=gone, reason="нарушение")).text()
    assert gone.mention in removed
    assert any(e["action"] == "removed" and e["reason"] == "нарушение" for e in await _log(h, tid))

    exported = await (await fake.slash(h.alice, "organise export")).answer()
    names = sorted(a["filename"] for a in exported.attachments)
    assert names == [f"tournament{tid}-public.csv", f"tournament{tid}-public.json", f"tournament{tid}.csv",
                     f"tournament{tid}.json", f"tournament{tid}.trf"]
    files = {a["filename"].replace(f"tournament{tid}", "").lstrip(".").replace(".", "_"): a["data"].decode()
             for a in exported.attachments}
    public = json.loads(files["-public_json"])  # the auditor's: no Discord id anywhere in it
    assert not any(str(m.id) in files["-public_json"] + files["-public_csv"] + files["trf"]
                   for m in members.values()) and len(public["players"]) == 4
    data = json.loads(files["json"])
    points = {}
    for g in data["games"]:
        for p, v in (g["points"] or {}).items():
            points[p] = points.get(p, 0) + v
    assert {s["user_id"]: s["points"] for s in data["standings"]} == {p: points.get(p, 0) for p in members}
    rows = list(csv.reader(io.StringIO(files["csv"])))
    assert rows[0][0] == "user_id" and len([r for r in rows[1:] if r and r[0] in members]) == 4
    assert any(e["action"] == "forfeit" and e["reason"] == "не пришёл" for e in data["log"])


@pytest.mark.parametrize("text, expected", [("1 0", [1.0, 0.0]), ("1:0", [1.0, 0.0]), ("½-½", [0.5, 0.5]),
                                            ("0,5 0.5", [0.5, 0.5])])
def test_points_are_read_in_seat_order(text, expected):
    from cogs.organise import parse_points
    assert list(parse_points(text, ["a", "b"]).values()) == expected
    assert parse_points("1 0 1", ["a", "b"]).key == "tournament.reject.points_order"


async def test_check_in_and_a_requested_bye_by_the_buttons(harness):
    h, fake = harness, harness.fake
    tid, _ = await new_tournament(h, h.alice, rounds=2, settings="check_in=yes")
    message = await enter(h, tid, h.alice, h.bob, h.carol)
    assert [c["custom_id"] for c in message.items()] == [f"j:tjoin:{tid}", f"j:tleave:{tid}", f"j:tcheck:{tid}",
                                                         f"j:tbye:{tid}"]
    for user in (h.alice, h.bob):
        answer = await (await fake.click(user, message, prefix="j:tcheck:")).text()
        assert "подтверждено" in answer
    await (await fake.slash(h.alice, "tournament start", number=tid)).answer()
    await h.settled()
    director = h.bot.tournaments.director
    entries = await director.record.entries(tid)
    assert [e.user_id for e in entries] == [user_key(h.alice.id), user_key(h.bob.id)]  # carol did not check in
    assert f"j:tcheck:{tid}" not in [c["custom_id"] for c in message.items()]
    asked = await (await fake.click(h.bob, message, prefix="j:tbye:")).text()
    assert "Тур 2" in asked and "½" in asked
    assert await director.requested_byes(tid, 2) == {user_key(h.bob.id)}
    back = await (await fake.click(h.bob, message, prefix="j:tbye:")).text()
    assert "отменён" in back and await director.requested_byes(tid, 2) == set()


async def test_pairing_swap_and_forbid_from_discord(harness):
    h, fake = harness, harness.fake
    dave = fake.add_user("Dave")
    tid, _ = await new_tournament(h, h.alice, rounds=2)
    await enter(h, tid, h.alice, h.bob, h.carol, dave)
    members = {user_key(u.id): u for u in (h.alice, h.bob, h.carol, dave)}
    forbidden = await (await fake.slash(h.alice, "pairing forbid", first=h.bob, second=h.carol,
                                        reason="братья")).text()
    assert h.bob.mention in forbidden and h.carol.mention in forbidden
    await (await fake.slash(h.alice, "tournament start", number=tid)).answer()
    await h.settled()
    director = h.bot.tournaments.director
    one, two = await director.record.games(tid, 1)
    assert {user_key(h.bob.id), user_key(h.carol.id)} not in ({*one.players}, {*two.players})
    x, y = members[one.players[0]], members[two.players[0]]
    refused = await (await fake.slash(h.bob, "pairing swap", first=x, second=y, reason="x")).text()
    assert "организатор" in refused
    done = await (await fake.slash(h.alice, "pairing swap", first=x, second=y, reason="просьба")).text()
    assert x.mention in done and y.mention in done
    await h.settled()
    after = await director.record.games(tid, 1)
    assert after[0].players[0] == two.players[0] and after[1].players[0] == one.players[0]
    for g in after:
        table = await h.table(g.table_id)
        assert table.status == "active" and table.thread_id is not None
    log = await director.record.log(tid)
    assert [e["action"] for e in log if e["action"] in ("forbid", "swap")] == ["forbid", "swap"]
