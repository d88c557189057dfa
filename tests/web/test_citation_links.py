"""Citations on the pages open their rule: every ``(see §6)``, ``(см. CG-14)``, ``(див. «Захват»: …)`` in a log
line of a table, its whole log or a replay step is a link to ``/rules/<game>#<anchor>``, and a crawl finds each
anchor on that rules page in the page's language; the terminal's ``rules`` prints the same address when
``web.base_url`` is set (the Discord answer's link: tests/discord/test_rules.py)."""
from __future__ import annotations

import re
from html import unescape
from urllib.parse import unquote, urlsplit

import pytest

from bot.i18n import t
from bot.rules import GAMES, catalogue, cite_spans, find_cites
from bot.rules.text import rules_url
from tests.web import pages_world
from tests.web.pages_world import Client

LINK = re.compile(r'<a class="cite" href="([^"]+)">([^<]*)</a>')


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    path = tmp_path_factory.mktemp("cites") / "cites.db"
    return path, pages_world.build_sync(path)


def _citing_lines(page: str) -> list[str]:
    """The log lines (``<li>`` without nested lists) of a page that hold a citation's brackets."""
    marks = [t("core.cite", lang, rule="").rstrip(")") for lang in ("ru", "uk", "en")]
    lines = re.findall(r"<li>((?:(?!<li>|</li>|<ul>).)*)</li>", page)
    return [line for line in lines if any(mark in unescape(re.sub(r"<[^>]+>", "", line)) for mark in marks)]


async def test_every_citation_on_the_pages_links_an_anchor_of_the_rules_page(world):
    path, ids = world
    anchors: dict[tuple[str, str], set[str]] = {}
    linked = 0
    async with Client(path) as c:
        for game, tid in ids["finished"].items():
            for lang in ("ru", "uk", "en"):
                urls = [f"/table/{tid}/log?lang={lang}", f"/table/{tid}?lang={lang}"]
                log = await (await c.get(urls[0])).text()
                steps = sorted({int(n) for n in re.findall(rf"/table/{tid}/replay/(\d+)\?", log)})
                urls += [f"/table/{tid}/replay/{n}?lang={lang}" for n in steps[:: max(1, len(steps) // 8)]]
                for url in urls:
                    page = await (await c.get(url)).text()
                    for line in _citing_lines(page):  # no citation left as bare text
                        assert LINK.search(line), (url, line)
                    for href, text in LINK.findall(page):
                        where = urlsplit(unescape(href))
                        assert where.path == f"/rules/{game}" and where.query == f"lang={lang}", href
                        key = (game, lang)
                        if key not in anchors:
                            rules = await c.get(f"/rules/{game}?lang={lang}")
                            assert rules.status == 200
                            anchors[key] = set(re.findall(r'id="([^"]+)"', unescape(await rules.text())))
                        assert unquote(where.fragment) in anchors[key], (url, href)
                        entry = catalogue(game).find(unescape(text))
                        assert entry is not None and entry.anchor == unquote(where.fragment), (href, text)
                        linked += 1
            assert any(g == game for g, _ in anchors), f"{game}: no citation was linked on its pages"
    assert linked > 200


def test_each_citation_of_a_bracket_is_its_own_span():
    line = "Something happens (see §1.3, BR-5) and then (see nothing here)"
    spans = cite_spans("bridges", line)
    assert [line[a:b] for a, b, _ in spans] == ["§1.3", "BR-5"]
    assert [e.cite for _, _, e in spans] == [e.cite for e in find_cites("bridges", line)]
    glossed = "⚔ A captures B (see «Захват»: Capture)"
    (start, end, entry), = cite_spans("raiders", glossed)
    assert glossed[start:end] == "«Захват»" and entry.cite == "Захват"
    assert [e.cite for e in find_cites("raiders", glossed)] == ["Захват"]  # the Why? button still offers it
    assert cite_spans("claygod", "(см. CG-14; CG-3)")[1][2].cite == "CG-3"
    assert cite_spans("gwent", "no brackets at all §3") == []
    for game in GAMES:  # every entry, cited in each language, is found where it stands
        for entry in catalogue(game).entries[:6]:
            for lang in ("ru", "uk", "en"):
                text = "x " + t("core.cite", lang, rule=entry.cite)
                (a, b, found), = cite_spans(game, text)
                assert found == entry and text[a:b] == entry.cite


def test_the_terminal_prints_the_rules_address_when_configured(tmp_path, capsys):
    from bot.terminal.cli import main

    config = tmp_path / "config.yaml"
    config.write_text("web:\n  base_url: https://judge.example/\n", encoding="utf-8")
    assert main(["--config", str(config), "--locale", "en", "rules", "raiders", "Захват"]) == 0
    out = capsys.readouterr().out
    entry = catalogue("raiders").find("Захват")
    assert rules_url("https://judge.example", "raiders", entry) in out
    plain = tmp_path / "plain.yaml"
    plain.write_text("locale: en\n", encoding="utf-8")
    assert main(["--config", str(plain), "--locale", "en", "rules", "raiders", "Захват"]) == 0
    assert "/rules/raiders" not in capsys.readouterr().out
