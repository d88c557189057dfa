"""The published record of a round through the fake Discord: after each round a post with its results, the
standings (text and picture) and the crosstable; the pairing post names each player's seat."""
from bot.discord.tournaments import who
from bot.storage.tournaments import GameRow
from bot.tournament.crosstable import bracket_path, crosstable
from tests.discord.harness import eventually
from tests.discord.support import enter, new_tournament, play_round


async def test_each_round_is_published_with_results_standings_and_crosstable(harness):
    h, fake = harness, harness.fake
    tid, _ = await new_tournament(h, h.alice, rounds=2)
    await enter(h, tid, h.alice, h.bob, h.carol)
    await h.bot.tournaments.director.join(tid, "bot:t1", "Robo", is_bot=True)
    await (await fake.slash(h.alice, "tournament start", number=tid)).answer()
    await h.settled()
    director = h.bot.tournaments.director
    pairing = [m for m in fake.in_channel(fake.channel_id) if "Тур 1 из 2" in m.content][0]
    for g in await director.record.games(tid, 1):
        first, second = g.players
        names = {"bot:t1": "\u2068Robo\u2069"}  # a name, isolated as every name in a message
        assert f"①{names.get(first) or who(None, first)} — ②{names.get(second) or who(None, second)}" \
            in pairing.content
    await play_round(h, tid, 1)

    async def record():
        return [m for m in fake.in_channel(fake.channel_id) if "Итоги тура 1" in m.content]
    await eventually(record, what="round 1's record to be posted")
    posts = [m for m in fake.in_channel(fake.channel_id)
             if m.attachments or "Итоги тура 1" in m.content or "Таблица встреч" in m.content]
    text = "\n".join(m.content for m in posts)
    assert "Таблица встреч" in text and "```" in text
    pictures = [a for m in posts for a in m.attachments]
    assert pictures and pictures[0]["data"].startswith(b"\x89PNG")
    rows = await director.standings(tid)
    assert rows[0].name[:10] in text


def test_crosstable_and_bracket_text():
    rows = [{"user_id": u, "name": u.upper(), "rank": i, "points": p}
            for i, (u, p) in enumerate((("a", 2.0), ("b", 1.0), ("c", 1.0), ("d", 0.0)), start=1)]
    games = [GameRow(1, 1, "table", ["a", "d"], 1, {"a": 1.0, "d": 0.0}, "played"),
             GameRow(1, 2, "table", ["b", "c"], 2, {"b": 0.0, "c": 1.0}, "forfeit"),
             GameRow(2, 1, "table", ["c", "a"], 3, {"c": 0.0, "a": 1.0}, "played"),
             GameRow(2, 2, "bye", ["b"], None, {"b": 1.0}, "bye")]
    lines = crosstable(rows, games, 2).split("\n")
    assert lines[0].split() == ["1", "A", "2", "4+", "3+"]
    assert lines[1].split() == ["2", "B", "1", "3<", "B+"]
    assert lines[2].split() == ["3", "C", "1", "2>", "1-"]
    assert all(len(line) <= 40 for line in lines)
    path = bracket_path({u: u.upper() for u in "abcd"}, games[:2], "en").split("\n")
    assert path == ["Round 1", " A — D 1:0 ⇒ A", " B — C 0:1 ⇒ C"]


async def test_an_elimination_round_is_published_with_the_bracket_picture(harness):
    h, fake = harness, harness.fake
    await (await fake.slash(h.alice, "tournament new", game="toy", format="elimination")).answer()
    tid = (await h.bot.tournaments.director.record.find())[0].id
    await enter(h, tid, h.alice, h.bob, h.carol)
    await h.bot.tournaments.director.join(tid, "bot:t1", "Robo", is_bot=True)
    await (await fake.slash(h.alice, "tournament start", number=tid)).answer()
    await h.settled()
    await play_round(h, tid, 1)

    async def record():
        return [m for m in fake.in_channel(fake.channel_id) if any(
            a["filename"].startswith("bracket") for a in m.attachments)]
    (post,) = await eventually(record, what="round 1's record with the bracket picture")
    (picture,) = [a for a in post.attachments if a["filename"].startswith("bracket")]
    assert picture["data"].startswith(b"\x89PNG") and picture["description"] and len(picture["data"]) < 300_000
    assert any("Тур 1" in m.content and "⇒" in m.content for m in fake.in_channel(fake.channel_id))


def test_the_bracket_picture_is_drawn_from_the_pages_layout():
    from bot.i18n import t
    from bot.render.picture.bracket import bracket_png
    from bot.tournament.bracket_layout import as_rows, layout
    from bot.tournament.standings import Points
    games = [GameRow(1, 1, "table", ["a", "d"], 1, {"a": 1.0, "d": 0.0}, "played"),
             GameRow(1, 2, "table", ["b", "c"], 2, {"b": 1.0, "c": 0.0}, "played"),
             GameRow(1, 3, "table", ["c", "b"], 3, {"c": 1.0, "b": 0.0}, "played"),
             GameRow(1, 4, "table", ["b", "c"], 4, {"b": 1.0, "c": 0.0}, "played")]
    names = {u: u.upper() for u in "abcd"}
    trees = as_rows(layout(list("abcd"), games, Points(), double=False, current_round=2, best_of=3), names,
                    lambda key, **v: t(key, "en", **v))
    one, two = trees[0]["columns"]
    assert [[(s["text"], s["score"], s["advances"]) for s in m["slots"]] for m in one["matches"]] == \
        [[("A", "1", True), ("D", "0", False)], [("B", "2", True), ("C", "1", False)]]
    assert [s["text"] for s in two["matches"][0]["slots"]] == ["A", "B"]
    png = bracket_png(trees, "en", "Cup")
    assert png.startswith(b"\x89PNG") and png == bracket_png(trees, "en", "Cup")
