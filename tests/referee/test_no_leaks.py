"""Red-team probes of "hidden information never reaches anyone who may not see it", at the engine, service and
terminal level: exports, logs, refusals, labels and the public record of the real games."""
from __future__ import annotations

import json
import random
import re

import pytest

from bot.engine import Applied, Rejection, get_game
from bot.engine.playout import play
from bot.referee.record import export_table, verify_export
from bot.referee.service import Accepted
from bot.terminal import cli
from bot.referee.visibility import pending_messages


async def _gwent_table(referee, options=None, stack=None, moderator=False):
    table = await referee.create_table("gwent", creator="u:ann", creator_name="ann", options=options,
                                       origin="terminal")
    assert isinstance(await referee.join(table.id, "u:ben", "ben"), int)
    started = await referee.start(table.id, "u:ann", seed="leak-probe", stack=stack, moderator=moderator)
    assert isinstance(started, Accepted), started
    return table.id


async def test_export_of_a_running_table_names_no_secret_choice_of_a_player(env):
    """Gwent: a faction chosen in secret (a private event only) must not be readable from a player's export
    while the game runs; the raw actions are the record of such choices."""
    store, referee, _ = env
    tid = await _gwent_table(referee)
    chosen = await referee.act(tid, "u:ann", {"type": "faction", "faction": "skellige"})
    assert isinstance(chosen, Accepted), chosen
    public = json.dumps(await referee.history(tid), ensure_ascii=False)
    assert "skellige" not in public                                  # the table was never told
    doc = await export_table(store, tid)
    assert "skellige" not in json.dumps(doc, ensure_ascii=False)
    full = await export_table(store, tid, include_seed=True, include_states=True)
    assert "skellige" in json.dumps(full, ensure_ascii=False)        # the moderator's export keeps it


async def test_export_of_a_running_table_does_not_carry_a_stacked_deck(env):
    """A moderator's stacked deck is the hidden order of the cards: only the moderator's export has it
    before the end."""
    store, referee, _ = env
    table = await referee.create_table("toy", creator="u:ann", creator_name="ann", origin="terminal")
    await referee.join(table.id, "u:ben", "ben")
    deck = list(range(12, 0, -1))
    started = await referee.start(table.id, "u:ann", seed="s", stack={"deck": deck}, moderator=True)
    assert isinstance(started, Accepted)
    doc = await export_table(store, table.id)
    assert doc["table"]["stack"] is None and doc["table"]["seed"] is None
    assert (await export_table(store, table.id, include_seed=True))["table"]["stack"] == {"deck": deck}


async def test_export_after_the_end_still_verifies(env):
    """Withholding before the end must not break the record once the game is over."""
    from tests.support.tables import new_toy, play_one

    store, referee, _ = env
    tid = await new_toy(referee, stack={"deck": list(range(1, 13))}, moderator=True)
    while (await store.get_table(tid)).status == "active":
        await play_one(referee, store, tid)
    doc = await export_table(store, tid)
    assert doc["actions"] and doc["table"]["stack"] == {"deck": list(range(1, 13))}
    assert verify_export(doc).ok


def test_export_command_without_moderator_hides_raw_actions(tmp_path, capsys):
    db = str(tmp_path / "j.db")
    run = lambda *a: cli.main(["--db", db, "--locale", "en", *a])  # noqa: E731
    assert run("table", "new", "--game", "gwent", "--user", "ann") == 0
    assert run("table", "join", "1", "--user", "ben") == 0
    assert run("table", "start", "1", "--user", "ann") == 0
    assert run("table", "act", "1", '{"type": "faction", "faction": "monsters"}', "--user", "ben") == 0
    capsys.readouterr()
    assert run("export", "1") == 0
    assert "monsters" not in capsys.readouterr().out
    assert run("export", "1", "--moderator") == 0
    assert "monsters" in capsys.readouterr().out


def _public_record(messages):
    """The table messages as the channel gets them, without the version numbers (which count every action,
    public or not, and say nothing by themselves once nothing is posted for a private one)."""
    out = []
    for m in messages:
        if m.target != "table":
            continue
        payload = {k: v for k, v in m.payload.items() if k != "version"}
        payload["view"] = {k: v for k, v in (payload.get("view") or {}).items() if k != "version"}
        out.append((m.kind, json.dumps(payload, sort_keys=True)))
    return out


async def _mulligan_table(referee, store, exchanges: int):
    tid = await _gwent_table(referee, options={"variant": "hardgwent", "faction_a": "monsters",
                                               "faction_b": "nilfgaard"})
    state = await store.state(tid)
    assert state["phase"] == "mulligan"
    for _ in range(exchanges):
        state = await store.state(tid)
        give = next(a for a in referee_game(state).legal_actions(state, 0) if a["type"] == "mulligan_give")
        assert isinstance(await referee.act(tid, "u:ann", give), Accepted)
        state = await store.state(tid)
        take = referee_game(state).legal_actions(state, 0)[0]
        assert isinstance(await referee.act(tid, "u:ann", take), Accepted)
    assert isinstance(await referee.act(tid, "u:ann", {"type": "mulligan_done"}), Accepted)
    return _public_record([m for m in await pending_messages(store, limit=1000) if m.table_id == tid])


def referee_game(state):
    from bot.engine import get_game
    return get_game(state["game"])


async def test_the_channel_cannot_count_a_players_mulligans(env):
    """Gwent: how many cards a player exchanged is his secret (the public view hides it); the channel must
    get the same messages whether he exchanged none or two."""
    store, referee, _ = env
    none = await _mulligan_table(referee, store, 0)
    two = await _mulligan_table(referee, store, 2)
    assert two == none


def test_a_gwent_clock_does_not_move_for_a_private_exchange():
    """With a move clock the deadline is public (to_act): it must not restart at each secret mulligan
    exchange, or the channel sees when and how often a player exchanged."""
    from bot.engine import get_game

    game = get_game("gwent")
    state = game.initial_state(2, seed="clock", now=100.0, options={
        "variant": "hardgwent", "faction_a": "monsters", "faction_b": "nilfgaard", "turn_seconds": 600}).state
    before = game.view(state, None)["to_act"]
    for kind in ("mulligan_give", "mulligan_take"):
        action = next(a for a in game.legal_actions(state, 0) if a["type"] == kind)
        result = game.apply(state, 0, action, now=250.0)
        assert not [e for e in result.events if e["to"] is None]
        state = result.state
        assert game.view(state, None)["to_act"] == before
    done = game.apply(state, 0, {"type": "mulligan_done"}, now=300.0).state
    assert [p["seat"] for p in game.view(done, None)["to_act"]] == [1]


# ------------------------------------------------------------------------------------------ refusals and choices
def _probe_actions(game, state, seat):
    """The seat's choices, and actions built from them with every other card and seat in their fields: what a
    player could type (``/play {...}``) to fish for what it cannot see."""
    legal = game.choices(state, seat)
    cards = set()
    if game.name == "gwent":
        cards = set(state["cards"])
    elif game.name == "bloodwood":
        from bot.games.bloodwood.cards import catalogue as bw
        cards = set(bw().cards)
    elif game.name == "claygod":
        from bot.games.claygod.cards import card_ids
        cards = set(card_ids())
    probes = [dict(a) for a in legal]
    for action in legal[:6]:
        for field in ("card", "target", "seat"):
            if field not in action:
                continue
            values = sorted(cards) if field == "card" else range(state["seats"])
            probes += [{**action, field: v} for v in values if v != action[field]]
    return legal, probes


def _answer(game, state, seat, action):
    result = game.apply(state, seat, action, now=0.0)
    if isinstance(result, Rejection):
        return ("refused", result.code, result.key, dict(result.params), result.rule)
    return ("accepted",)


@pytest.mark.parametrize("name", ["claygod", "bloodwood", "gwent"])
def test_choices_and_refusals_do_not_depend_on_what_the_seat_cannot_see(name):
    """Re-deal everything a seat cannot see: its list of choices (their number, order and labels) and the
    answer to anything it might type (accepted, or the refusal with its parameters) must stay the same."""
    game = get_game(name)
    rnd = random.Random(7)
    checked = 0

    def check(state):
        nonlocal checked
        if state["outcome"] is not None or rnd.random() > 0.15:
            return
        for seat in range(state["seats"]):
            variant = game.unseen_variant(state, seat, random.Random(rnd.random()))
            legal, probes = _probe_actions(game, state, seat)
            assert game.choices(variant, seat) == legal, f"seat {seat}'s choices depend on hidden cards"
            assert [game.describe_action(variant, seat, a, "en") for a in legal] == \
                [game.describe_action(state, seat, a, "en") for a in legal]
            for action in probes[:80]:
                assert _answer(game, variant, seat, action) == _answer(game, state, seat, action), (
                    f"seat {seat}: {action} is answered differently when only hidden cards differ")
            checked += 1

    for i in range(6):
        seats = min(game.max_seats, game.min_seats + i % 2)
        play(game, seats, seed=f"probe-{name}-{i}", bot_seed=i, on_state=check)
    assert checked > 20


#: what the rules reveal when it happens: a face-down card played (Clay God), a hand discarded face up by
#: Pandora or The Hunter and the end of the game (Bloodwood), the cards shown to the Emperor of Nilfgaard
#: (Gwent: named in the thread); everything else a public event says must be known to the actor already
_REVEALS = {"claygod": {"play_table"}, "bloodwood": {"hand_discarded", "hunter_kept", "declaration_judged",
                                                     "roles_revealed", "game_over"}, "gwent": {"revealed"}}


@pytest.mark.parametrize("name", ["claygod", "bloodwood", "gwent"])
def test_public_events_say_nothing_the_actor_could_not_see(name):
    """Apply the same action in a world where everything its actor cannot see was re-dealt: the public
    events (kinds and data, which the public log and replay read) must be the same, but for the reveals
    the rules make.  A field such as a target's hidden card in a public event fails this."""
    game = get_game(name)
    rnd = random.Random(11)
    compared = 0

    def check(state):
        nonlocal compared
        if state["outcome"] is not None:
            return
        for pending in game.to_act(state):
            seat = pending.seat
            action = rnd.choice(game.legal_actions(state, seat))
            if action["type"] in _REVEALS[name]:
                continue
            first = game.apply(state, seat, action, now=0.0)
            again = game.apply(game.unseen_variant(state, seat, random.Random(rnd.random())), seat, action, now=0.0)
            assert isinstance(first, Applied) and isinstance(again, Applied)
            public = [[(e["kind"], e["data"]) for e in r.events if e["to"] is None] for r in (first, again)]
            if any(kind in _REVEALS[name] for kind, _ in public[0] + public[1]):
                continue
            assert public[0] == public[1], f"seat {seat} {action}: the public events depend on hidden cards"
            compared += 1

    for i in range(4):
        seats = min(game.max_seats, game.min_seats + i % 2)
        play(game, seats, seed=f"events-{name}-{i}", bot_seed=i, on_state=check)
    assert compared > 100


def test_the_public_replay_does_not_number_the_private_steps(tmp_path, capsys):
    """``replay`` without --moderator: the table versions count every action, so their gaps would tell how
    many cards a player exchanged in secret; the moderator's replay keeps them (rollbacks name versions)."""
    db = str(tmp_path / "j.db")
    run = lambda *a: cli.main(["--db", db, "--locale", "en", *a])  # noqa: E731
    assert run("table", "new", "--game", "gwent", "--user", "ann", "--option", "variant=hardgwent",
               "--option", "faction_a=monsters", "--option", "faction_b=nilfgaard") == 0
    assert run("table", "join", "1", "--user", "ben") == 0
    assert run("table", "start", "1", "--user", "ann") == 0
    for _ in range(2):
        assert run("table", "act", "1", '{"type": "mulligan_give", "card": "%s"}' % _first_hand_card(db), "--user",
                   "ann") == 0
        assert run("table", "act", "1", "1", "--user", "ann") == 0
    assert run("table", "act", "1", '{"type": "mulligan_done"}', "--user", "ann") == 0
    capsys.readouterr()
    assert run("replay", "1") == 0
    public = capsys.readouterr().out
    assert not re.search(r"^\[\d+\]", public, re.M) and "•" in public
    assert run("replay", "1", "--moderator") == 0
    assert "[5]" in capsys.readouterr().out


def _first_hand_card(db):
    import asyncio

    from bot.storage.store import Store

    async def read():
        store = await Store.open(db)
        try:
            return (await store.state(1))["hand"][0][0]
        finally:
            await store.close()
    return asyncio.run(read())


def test_bloodwood_steps_taken_in_private_leave_the_public_view_as_it_was():
    """The steps a Bloodwood player takes in private (the card picked before its target, the cards kept
    after Voodoo, the names of a declaration before it is confirmed) change nothing the table can see, so
    the channel gets no post for them (service.messages_for) and cannot count or time them."""
    from bot.engine import visible_to
    from bot.referee.steps import public_unchanged
    from tests.games.bloodwood.helpers import act, table

    game = get_game("bloodwood")

    def private_steps(state, seat, actions):
        for action in actions:
            result = game.apply(state, seat, action, now=1500.0)
            assert isinstance(result, Applied), (action, result)
            assert not [e for e in result.events if visible_to(e, None)], action
            assert public_unchanged(game, state, result.state), f"{action} shows in the public view"
            state = result.state
        return state

    base = {s: [] for s in range(1, 5)}
    state = table(phase="night", hands={**base, 0: ["voodoo", "bite", "chains", "keys"], 1: ["mirror", "bite"]})
    state["chains"][1] = True  # a chained target holding only night cards cannot counter: no window
    state["decks"]["night"].remove("chains")
    private_steps(state, 0, [{"type": "play", "card": "bite"}, {"type": "cancel"}, {"type": "play", "card": "bite"}])
    state = act(state, 0, type="play", card="voodoo", target=1)
    private_steps(state, 0, [{"type": "keep", "card": "mirror"}, {"type": "keep", "card": "bite"},
                             {"type": "unkeep", "card": "mirror"}])
    declaring = act(table(), 0, type="declare")
    private_steps(declaring, 0, [{"type": "name", "seat": 4}, {"type": "name", "seat": 1},
                                 {"type": "unname", "seat": 4}])
