"""Text answers go gzipped to a client that accepts it, with their own ETag, ``Vary: Accept-Encoding`` and 304s
as before; pictures go as they are; the favicon is served from /favicon.ico and every page links it."""
from __future__ import annotations

import gzip

import pytest

from tests.web import pages_world
from tests.web.pages_world import Client


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    path = tmp_path_factory.mktemp("gzip") / "gzip.db"
    return path, pages_world.build_sync(path, games=("claygod",))


async def _raw(c, url, **headers):
    """The answer's bytes as sent; without an Accept-Encoding of the test's own, ``identity`` (the client
    library would otherwise ask for gzip by itself)."""
    answer = await c.get(url, headers={"Accept-Encoding": "identity", **headers}, auto_decompress=False)
    return answer, await answer.read()


@pytest.mark.parametrize("kind", ["table", "log", "record", "css", "js", "rules"])
async def test_text_is_gzipped_when_accepted_and_304_still_works(world, kind):
    path, ids = world
    tid = ids["finished"]["claygod"]
    url = {"table": f"/table/{tid}", "log": f"/table/{tid}/log", "record": f"/table/{tid}/record.json",
           "css": "/static/style.css", "js": "/static/replay.js", "rules": "/rules/claygod"}[kind]
    async with Client(path) as c:
        plain, body = await _raw(c, url)
        assert plain.status == 200 and "Content-Encoding" not in plain.headers
        assert "Accept-Encoding" in plain.headers["Vary"]
        if len(body) < 512:
            pytest.skip("too short to be worth gzip")
        packed, zipped = await _raw(c, url, **{"Accept-Encoding": "gzip, deflate, br"})
        assert packed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed.headers["Vary"]
        assert gzip.decompress(zipped) == body and len(zipped) < len(body)
        assert packed.headers["ETag"] != plain.headers["ETag"]  # two representations, two strong ETags
        assert packed.headers["Content-Type"] == plain.headers["Content-Type"]
        again, _ = await _raw(c, url, **{"Accept-Encoding": "gzip", "If-None-Match": packed.headers["ETag"]})
        assert again.status == 304 and again.headers["ETag"] == packed.headers["ETag"]
        again, _ = await _raw(c, url, **{"If-None-Match": plain.headers["ETag"]})
        assert again.status == 304
        refused, body2 = await _raw(c, url, **{"Accept-Encoding": "gzip;q=0, identity"})
        assert "Content-Encoding" not in refused.headers and body2 == body


async def test_pictures_go_as_they_are(world):
    path, ids = world
    async with Client(path) as c:
        answer, body = await _raw(c, f"/table/{ids['finished']['claygod']}/picture.png", **{"Accept-Encoding": "gzip"})
        assert answer.status == 200 and body.startswith(b"\x89PNG") and "Content-Encoding" not in answer.headers


async def test_the_favicon(world):
    path, ids = world
    async with Client(path) as c:
        answer, body = await _raw(c, "/favicon.ico", **{"Accept-Encoding": "gzip"})
        assert answer.status == 200 and answer.headers["Content-Type"] == "image/x-icon"
        assert body[:4] == b"\x00\x00\x01\x00" and 0 < len(body) < 16_000  # an ICO, small
        assert "max-age=86400" in answer.headers["Cache-Control"] and "Content-Encoding" not in answer.headers
        again, _ = await _raw(c, "/favicon.ico", **{"If-None-Match": answer.headers["ETag"]})
        assert again.status == 304
        for url in ("/", f"/table/{ids['finished']['claygod']}", "/rules/gwent", "/nothing-here"):
            page = await (await c.get(url)).text()  # the "not found" page too
            assert '<link rel="icon" href="/favicon.ico"' in page, url
