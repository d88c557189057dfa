"""Rules at hand in the fake Discord (issue 36): a refusal that cites a rule carries "Почему?", which opens the
paragraph privately (also after a restart, and with a link to the public rules page when there is one); /rules
answers a ruling id, a § paragraph, a word (its matches open from a menu) and an unknown citation (the nearest);
its autocomplete offers the game's citations; every post of a played table that cites a rule can open it."""
from __future__ import annotations

import dataclasses
import random

from bot.engine import get_game
from bot.process.config import WebSettings
from bot.referee.service import Accepted
from bot.rules import GAMES, catalogue, find_cites
from tests.discord.harness import Harness

BASE = "https://judge.example.org"


async def bridges_table(h):
    table = await h.new_table(h.alice, "bridges")
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    await h.settled()
    return await h.table(table.id)


async def refused_end(h, table):
    """Ending a phase before choosing a character: refused citing §1.1 (the set-up)."""
    ix = await h.fake.slash(h.alice, "play", channel_id=table.thread_id, action='{"type": "end"}')
    return await ix.answer()


async def test_a_refusals_why_button_opens_the_paragraph_privately(harness):
    h, fake = harness, harness.fake
    table = await bridges_table(h)
    refusal = await refused_end(h, table)
    assert refusal.ephemeral_for == h.alice.id and "✋" in refusal.content and "(см. §1.1)" in refusal.content
    button = refusal.find(custom_id="j:why:bridges:§1.1")
    assert button is not None and button["label"] == "Почему? §1.1"
    answer = await (await fake.click(h.alice, refusal, custom_id="j:why:bridges:§1.1")).answer()
    entry = catalogue("bridges").find("§1.1")
    assert answer.ephemeral_for == h.alice.id
    assert answer.content.startswith("📖 Мосты: Душа, §1.1 — Подготовка к игре") and entry.text["ru"] in answer.content
    assert "http" not in answer.content  # no public address configured: no link
    assert (await h.table(table.id)).version == (await h.store.state(table.id))["version"]  # nothing changed
    # the button is a persistent one: it still opens after a restart
    await h.restart()
    again = await (await fake.click(h.alice, refusal, custom_id="j:why:bridges:§1.1")).answer()
    assert again.content == answer.content


async def test_rules_answers_a_ruling_a_paragraph_a_word_and_an_unknown_citation(harness):
    h, fake = harness, harness.fake
    ruling = await (await fake.slash(h.bob, "rules", game="claygod", query="CG-14")).answer()
    assert ruling.ephemeral_for == h.bob.id
    assert ruling.content.startswith("⚖️ Глиняный БОГ: Карты, решение CG-14 — Комбинации")  # in the reader's words
    assert "Вид: пробел (книга молчит)" in ruling.content and "`frozen_combos`" in ruling.content
    assert "**Решение.**" in ruling.content and len(ruling.content) <= 2000

    paragraph = await (await fake.slash(h.bob, "rules", game="bridges", query="§ 1.6")).text()
    assert paragraph.startswith("📖 Мосты: Душа, §1.6 — Нокдаун и поражение")

    word = await (await fake.slash(h.bob, "rules", game="gwent", query="scorch")).answer()
    # a word in any language finds the ruling; its title is shown in the reader's
    assert "🔎 «scorch»" in word.content and "GW-10 — Казнь и сила 0" in word.content
    assert "GW-10 — Казнь и сила 0" in await (await fake.slash(h.bob, "rules", game="gwent", query="казнь")).text()
    opened = await (await fake.choose(h.bob, word, ["GW-10"], prefix="j:whys:gwent")).answer()
    assert opened.content.startswith("⚖️ Гвинт") and "GW-10" in opened.content

    unknown = await (await fake.slash(h.bob, "rules", game="claygod", query="§3.10")).answer()
    assert unknown.content.startswith("❓ В правилах Глиняный БОГ: Карты нет «§3.10».")
    assert "Ближайшие: §3.1" in unknown.content
    nearest = await (await fake.choose(h.bob, unknown, ["§3.1"], prefix="j:whys:claygod")).text()
    assert nearest.startswith("📖 Глиняный БОГ: Карты, §3.1 — Карта с руки")

    guide = await (await fake.slash(h.bob, "rules", game="raiders")).text()
    assert "Захват — Захват" in guide and "⚖️ Решения судьи: RD-1…RD-25 (25)" in guide


async def test_rules_autocomplete_offers_the_games_citations(harness):
    h, fake = harness, harness.fake
    offered = await fake.autocomplete(h.alice, "rules", "query", game="raiders", query="зах")
    # the citation first, then the rulings whose title (in the reader's language) holds the word
    values = [c["value"] for c in offered]
    assert values[0] == "Захват" and values[1:] and all(v.startswith("RD-") for v in values[1:])
    assert all("захват" in c["name"].casefold() for c in offered)
    offered = await fake.autocomplete(h.alice, "rules", "query", game="claygod", query="CG-1")
    assert offered[0]["value"] == "CG-1" and len(offered) == 11  # CG-1, CG-10 … CG-19
    assert all(len(c["name"]) <= 100 for c in offered)


async def test_the_answer_links_the_public_rules_page(fake, error_log, tmp_path):
    h = Harness(fake, tmp_path / "judge.db")
    h.settings = dataclasses.replace(h.settings, web=WebSettings(base_url=BASE))
    h.alice, h.bob = fake.add_user("Alice"), fake.add_user("Bob")
    await h.start_bot()
    try:
        table = await bridges_table(h)
        refusal = await refused_end(h, table)
        answer = await (await fake.click(h.alice, refusal, prefix="j:why:")).text()
        assert f"<{BASE}/rules/bridges#p1-1>" in answer
        ruling = await (await fake.slash(h.alice, "rules", game="raiders", query="захват")).text()
        assert f"<{BASE}/rules/raiders#p-%D0%B7%D0%B0%D1%85%D0%B2%D0%B0%D1%82>" in ruling
    finally:
        await h.stop_bot()


async def test_every_post_of_a_played_table_that_cites_a_rule_can_open_it(harness):
    h, fake = harness, harness.fake
    table = await h.new_table(h.alice, "raiders")
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    game, rng = get_game("raiders"), random.Random(1)
    seats = await h.store.seats(table.id)
    for _ in range(80):  # captures, шняги and a reshuffle, each citing its paragraph or ruling
        state = await h.store.state(table.id)
        if state.get("outcome") is not None:
            break
        seat = game.to_act(state)[0].seat
        done = await h.bot.referee.act(table.id, seats[seat].user_id, game.bot_action(state, seat, rng), seat=seat)
        assert isinstance(done, Accepted)
    await h.settled()
    page = await (await fake.slash(h.alice, "table log", table=table.id)).answer()
    citing = [m for m in [*fake.in_channel(table.thread_id), page] if find_cites("raiders", m.content)]
    assert len(citing) >= 3 and page in citing, "too few posts cited a rule: the probe is broken"
    for message in citing:
        cites = {e.cite for e in find_cites("raiders", message.content)}
        ids = {i.get("custom_id") for i in message.items()}
        menu = {o["value"] for i in message.items() if i.get("custom_id") == "j:whys:raiders" for o in i["options"]}
        assert ids >= {f"j:why:raiders:{c}" for c in cites} or cites <= menu, (message.content, ids)
    # what the log page cites opens from it, privately (a menu for several citations, a button for one)
    menu = page.find(prefix="j:whys:raiders")
    if menu is not None:
        first = menu["options"][0]["value"]
        opened = await (await fake.choose(h.alice, page, [first], prefix="j:whys:raiders")).answer()
    else:
        first = page.find(prefix="j:why:raiders:")["custom_id"].split(":", 3)[3]
        opened = await (await fake.click(h.alice, page, prefix="j:why:raiders:")).answer()
    entry = catalogue("raiders").find(first)
    assert opened.ephemeral_for == h.alice.id and f"{entry.cite} — {entry.title['ru']}" in opened.content


async def test_every_citation_the_code_can_print_opens_in_discord(harness):
    from tests.support.citations import PREFIX, _RULING, _cited_in_code, _cited_in_data, _split

    h, fake = harness, harness.fake
    for game in GAMES:
        cat = catalogue(game)
        cited = {c for cite in _cited_in_code(game) | _cited_in_data(game) for c in _split(cite)
                 if not (_RULING.fullmatch(c) and not c.startswith(PREFIX[game]))}
        for cite in sorted(cited):
            entry = cat.find(cite)
            answer = await (await fake.slash(h.carol, "rules", game=game, query=cite)).answer()
            assert answer.ephemeral_for == h.carol.id and f" {entry.cite} — " in answer.content.split("\n")[0], cite
            assert len(answer.content) <= 2000


async def test_a_refused_click_in_the_control_message_opens_its_rule(harness, monkeypatch):
    """Issue 35: a refusal shown in the control message after a click ("✋ … (см. §1.1)") carries the Why button
    beside the choices, as a refused command does; the other choices stay."""
    from bot.engine import Code, Rejection

    h, fake = harness, harness.fake
    table = await bridges_table(h)
    choices = await h.open_choices(h.alice, table)

    async def refused(*_args, **_kwargs):  # the referee's answer a rule would give on a racing click
        return Rejection(Code.ILLEGAL, "bridges.reject.unknown_action", {}, rule="§1.1")

    monkeypatch.setattr(h.bot.referee, "act", refused)
    await h.pick(h.alice, choices, 0)
    shown = fake.messages[choices.id]
    assert "✋" in shown.content and "(см. §1.1)" in shown.content, shown.content
    assert shown.find(custom_id="j:why:bridges:§1.1") is not None and shown.find(prefix="j:")
    answer = await (await fake.click(h.alice, shown, custom_id="j:why:bridges:§1.1")).answer()
    assert answer.content.startswith("📖 Мосты: Душа, §1.1")
