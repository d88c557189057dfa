"""Two-stage events (docs/tournaments.md T-24): a Swiss or round-robin groups, then a knockout of the best."""
from bot.tournament import stages
from bot.tournament.director import Director
from bot.tournament.pairing import bracket
from tests.support.events import new_event, play_out


async def _both_stages(director, tid):
    """Play the first stage out; return it and its second stage (played out too)."""
    first = await play_out(director, tid)
    assert first.status == "finished"
    link = await director.stages(tid)
    second = await director.record.get(link["next"])
    assert second.status == "running" and second.settings["first_stage"] == tid
    assert await director.stages(second.id) == {"first": tid}
    return first, await play_out(director, second.id)


async def test_swiss_then_the_top_four_in_single_elimination(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 8, settings={"rounds": 3, "stage2": "elimination", "advance": 4})
    await director.start(tid, by="u:org")
    first, second = await _both_stages(director, tid)
    ranked = [s.user_id for s in await director.standings(tid)]
    entries = await director.record.entries(second.id)
    # the best four of the Swiss, seeded in its order: 1 v 4, 2 v 3
    assert [e.user_id for e in entries] == ranked[:4] == second.settings["order"]
    r1 = await director.record.games(second.id, 1)
    assert {frozenset(g.players) for g in r1 if g.kind == "table"} <= {
        frozenset((ranked[0], ranked[3])), frozenset((ranked[1], ranked[2]))}
    assert second.status == "finished" and second.format == "elimination"
    # the first stage's standings are as they ended: 3 rounds, 8 players, untouched by the knockout
    again = await director.standings(tid)
    assert [s.user_id for s in again] == ranked and sum(s.played + s.byes for s in again) == 24
    assert {r.number for r in await director.record.rounds(tid)} == {1, 2, 3}


async def test_two_groups_of_four_then_the_best_two_of_each_cross_over(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 8, fmt="round_robin",
                                    settings={"seeding": "order", "groups": 2, "stage2": "elimination",
                                              "advance": 2})
    await director.start(tid, by="u:org")
    t = await director.record.get(tid)
    # the snake from the seeding pots: 1 and 2 lead the groups, 3 and 4 go back the other way
    assert t.settings["pools"] == [["u:p00", "u:p03", "u:p04", "u:p07"], ["u:p01", "u:p02", "u:p05", "u:p06"]]
    assert t.settings["rounds"] == 3
    group = {p: i for i, pool in enumerate(t.settings["pools"]) for p in pool}
    for g in await director.record.games(tid):  # nobody meets anyone outside their group
        assert len({group[p] for p in g.players}) == 1
    first, second = await _both_stages(director, tid)
    groups = await director.group_standings(tid)
    assert [len(g) for g in groups] == [4, 4] and [r.rank for r in groups[0]] == [1, 2, 3, 4]
    winners = {groups[0][0].user_id, groups[1][0].user_id}
    order = second.settings["order"]
    assert set(order[:2]) == winners  # the group winners are the top seeds: opposite halves
    assert set(order) == {r.user_id for g in groups for r in g[:2]}
    for a, b in bracket(order):  # round 1 crosses the groups: a winner meets the other group's runner-up
        assert group[a] != group[b]
    assert second.settings["stage_groups"] == {p: group[p] for p in order}
    assert second.status == "finished"


async def test_a_double_elimination_second_stage(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 6, settings={"rounds": 3, "stage2": "double_elimination",
                                                          "advance": 4, "reset": False})
    await director.start(tid, by="u:org")
    first, second = await _both_stages(director, tid)
    assert second.format == "double_elimination" and second.settings["reset"] is False
    assert len(await director.record.entries(second.id)) == 4 and second.status == "finished"
    labels = set(director.bracket_labels(second, await director.record.games(second.id)).values())
    assert {"W", "L", "F"} <= labels


async def test_stage_settings_are_checked(env):
    store, referee, clock = env
    director = Director(referee)
    for fmt, bad, key in (("swiss", {"stage2": "swiss", "advance": 4}, "tournament.reject.choice"),
                          ("elimination", {"stage2": "elimination", "advance": 4}, "tournament.reject.stage_format"),
                          ("swiss", {"stage2": "elimination", "advance": 1}, "tournament.reject.range"),
                          ("swiss", {"groups": 2}, "tournament.reject.setting"),
                          ("swiss", {"advance": 4}, "tournament.reject.setting")):
        refused = await director.create("toy", fmt, creator="x", settings=bad)
        assert refused.key == key, (fmt, bad)
    ok = await director.create("toy", "round_robin", creator="x",
                               settings={"groups": 3, "stage2": "double_elimination", "advance": 1})
    assert ok.settings["groups"] == 3


def test_spread_keeps_groups_apart_where_it_can():
    group_of = {f"{g}{i}": g for g in "ABCD" for i in range(2)}
    group_of = {p: "ABCD".index(g) for p, g in group_of.items()}
    # tiers as the standings would give them, in the worst order for the bracket
    order = stages.spread([["A0", "B0", "C0", "D0"], ["A1", "B1", "C1", "D1"]], group_of)
    assert order[:4] == ["A0", "B0", "C0", "D0"]
    assert stages.clashes(order, group_of) == 0
    drawn = stages.pools([f"s{i}" for i in range(10)], 3)
    assert drawn == [["s0", "s5", "s6"], ["s1", "s4", "s7"], ["s2", "s3", "s8", "s9"]]
    assert stages.group_rounds(drawn) == 3 and len(stages.schedule(drawn)) == 3


def test_a_group_stage_and_its_knockout_from_the_terminal(tmp_path, capsys):
    from tests.support.events import tournament_cli as run

    db = tmp_path / "j.db"
    code, _ = run(db, "new", "--game", "claygod", "--format", "round_robin", "--set", "groups=2", "--set",
                  "stage2=elimination", "--set", "advance=1", "--title", "Cup", capsys=capsys)
    assert code == 0
    run(db, "bot", "1", "--count", "4", capsys=capsys)
    code, out = run(db, "start", "1", capsys=capsys)
    assert code == 0 and "Tournament 1 is over" in out.out
    assert "Into the second stage (tournament #2) go:" in out.out and "Tournament 2 is over" in out.out
    code, out = run(db, "standings", "1", capsys=capsys)
    assert out.out.count("Group ") == 2 and "Group A" in out.out and "Group B" in out.out
    assert "The second stage: tournament #2." in out.out
    code, out = run(db, "standings", "2", capsys=capsys)
    assert "This is the second stage of tournament #1." in out.out
    code, out = run(db, "list", capsys=capsys)
    assert "Cup · knockout" in out.out


async def test_the_public_pages_show_both_stages(env):
    from aiohttp.test_utils import TestClient, TestServer

    from bot.web import public
    from bot.web.app import Site

    store, referee, clock = env
    director, tid = await new_event(referee, 8, fmt="round_robin",
                                    settings={"groups": 2, "stage2": "elimination", "advance": 2})
    await director.start(tid, by="u:org")
    await play_out(director, tid)
    child = (await director.stages(tid))["next"]
    before = await public.tournament_token(store, tid)
    async with TestClient(TestServer(Site(store, locale="en").app())) as c:
        first = await c.get(f"/tournament/{tid}")
        html = await first.text()
        assert first.status == 200
        for heading in ("Stage 1 — round-robin", "Group A", "Group B", "Stage 2 — single elimination"):
            assert f">{heading}</h2>" in html, heading
        assert html.count('class="crosstable"') == 2 and 'class="bracket"' in html
        assert f'href="/tournament/{child}"' in html
        await play_out(director, child)  # the second stage's progress changes the first stage's page
        assert await public.tournament_token(store, tid) != before
        second = await c.get(f"/tournament/{child}")
        html = await second.text()
        assert second.status == 200 and ">Stage 2 — single elimination</h2>" in html
        assert f'href="/tournament/{tid}"' in html and "Stage 1 — round-robin" in html and 'class="bracket"' in html


async def test_a_crash_before_the_second_stage_is_logged_makes_it_once(env):
    store, referee, clock = env
    director, tid = await new_event(referee, 4, settings={"rounds": 1, "stage2": "elimination", "advance": 2})
    await director.start(tid, by="u:org")
    add_log = director.record.add_log

    async def crash(tournament_id, by, action, *args):
        if action == "next_stage":
            raise RuntimeError("the process died")
        return await add_log(tournament_id, by, action, *args)
    director.record.add_log = crash
    try:
        await play_out(director, tid)
    except RuntimeError:
        pass
    director.record.add_log = add_log
    assert (await director.record.get(tid)).status == "running"  # the first stage is not closed without it
    await play_out(director, tid)
    seconds = [o for o in await director.record.find(limit=100) if o.settings.get("first_stage") == tid]
    assert len(seconds) == 1 and (await director.stages(tid)) == {"next": seconds[0].id}
    assert len(await director.record.entries(seconds[0].id)) == 2 and seconds[0].status in ("running", "finished")
