"""Out-of-turn decisions through the fake Discord, game by game: exactly the seats that owe a decision are
mentioned (and pinged when the decision is new to them), the others are refused, and nothing public gives
away what the prompt is about."""
import re

import pytest

from bot.games.claygod.render import card_name
from tests.discord.harness import choice_labels
from tests.discord.support import stacked_table


async def do(h, user, table, wanted):
    """``user`` clicks Act and picks the choice whose action is ``wanted`` (a predicate on the action)."""
    legal = await h.bot.referee.legal(table.id, f"discord:{user.id}")
    index = next(i for i, action in enumerate(legal[2]) if wanted(action))
    return await h.act(user, table, lambda n: index)


def flat(text):
    """A text with its line wrapping undone (boards wrap at 40 columns)."""
    return " ".join(text.split())


async def asked_of(h, user, table):
    """What ``user``'s control message says is asked of them (the prompt is theirs, not the thread's)."""
    return flat((await h.open_choices(user, table)).content).lower()


def assert_prompts_only(h, table, owed, others, pinged=None):
    """The live message names exactly ``owed`` among those asked, and the thread's new messages since the
    last look pinged exactly ``pinged`` (default: all of ``owed``; a decision already asked of a player, or
    one that follows the player's own click, is not pinged)."""
    live = h.turn_message(table)
    pinged = owed if pinged is None else pinged
    assert sorted(h.new_pings(table)) == sorted(u.id for u in pinged), live.content
    # the board's own line of who is asked (⏳), and the first ping (🔔) of the start
    asked = "\n".join(line for line in live.content.splitlines() if line.lstrip().startswith(("⏳", "🔔")))
    for user in owed:
        assert user.name in asked or user.mention in asked, asked
    for user in others:
        assert user.name not in asked, asked
    return live


# ---------------------------------------------------------------------------------------------- Clay God
CLAYGOD_GIVE = {"rolls": {"claygod.first": [0], "claygod.dice": [3, 4, 5, 6, 5, 4, 3]},
                "hands": [["sunset", "silver_wolf", "pearl", "eye", "flight"],
                          ["ghost", "skeleton", "luck", "mask", "statue"]],
                "deck_top": ["haze", "glazon"]}


async def test_claygod_the_opponent_alone_is_asked_which_cards_to_hand_over(claygod, harness):
    h, fake = harness, harness.fake
    table = await stacked_table(h, "claygod", [h.alice, h.bob], CLAYGOD_GIVE)  # the roll is taken for her
    await do(h, h.alice, table, lambda a: a["type"] == "play_two" and set(a["cards"]) == {"sunset", "silver_wolf"})

    turn = assert_prompts_only(h, table, [h.bob], [h.alice, h.carol])
    assert "какие карты отдать сопернику" in flat(turn.content)
    waits = await h.open_choices(h.alice, table)
    assert "Ждём: \u2068Bob\u2069" in waits.content and not choice_labels(waits)
    choices = await h.open_choices(h.bob, table)
    assert choices.ephemeral_for == h.bob.id and len(choice_labels(choices)) == 5

    await do(h, h.bob, table, lambda a: a == {"type": "give", "card": "ghost"})
    assert_prompts_only(h, table, [h.bob], [h.alice], pinged=[])  # one card more: asked already
    await do(h, h.bob, table, lambda a: a == {"type": "give", "card": "skeleton"})
    state = await h.store.state(table.id)
    assert state["turn"]["stage"] != "roll" and state["turn"]["seat"] == 1  # his roll was taken for him
    assert_prompts_only(h, table, [h.bob], [h.alice], pinged=[])  # now Bob's own turn, after his own click

    bobs = {card_name(c, "ru") for c in ("ghost", "skeleton", "luck", "mask", "statue")}
    for message, text in fake.public_texts():
        if message.id != table.thread_id:  # the lobby message lists options, never cards
            assert not [name for name in bobs if name in text], text
    alice_dms = "\n".join(text for m in fake.dms(h.alice) for text in m.history)
    assert card_name("ghost", "ru") in alice_dms and card_name("luck", "ru") not in alice_dms


# ---------------------------------------------------------------------------------------------- Gwent
async def _gwent_started(h, monkeypatch, seed, options):
    """Alice and Bob at a started Gwent table with a known seed and the factions fixed."""
    monkeypatch.setattr("bot.referee.service.new_seed", lambda: seed)
    table = await h.new_table(h.alice, "gwent", options=options)
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    return await h.table(table.id)


async def test_gwent_both_players_are_asked_at_once_then_only_whoever_still_owes(harness, monkeypatch):
    """Set-up and mulligans are simultaneous: both are prompted, and each stops being prompted once done;
    Eredin's secret pick from the deck is offered to its player alone and its card stays private."""
    from bot.games.gwent.render import cname
    from bot.games.gwent.state import card  # the card behind a hand entry

    h, fake = harness, harness.fake
    table = await _gwent_started(h, monkeypatch, "gwent-out-of-turn", "faction_a=monsters faction_b=nilfgaard")
    turn = assert_prompts_only(h, table, [h.alice, h.bob], [h.carol], [h.bob])  # Alice clicked Start
    assert "выбор лидера" in flat(turn.content)
    await do(h, h.alice, table, lambda a: a == {"type": "leader_pick", "leader": "eredin_destroyer_of_worlds"})
    assert_prompts_only(h, table, [h.bob], [h.alice], pinged=[])  # still asked, not pinged again
    await do(h, h.bob, table, lambda a: a["type"] == "leader_pick")

    state = await h.store.state(table.id)
    assert state["phase"] == "mulligan"
    # both asked to exchange; Bob's own pick led here, so only Alice is pinged
    assert "обмен карт" in flat(assert_prompts_only(h, table, [h.alice, h.bob], [h.carol], [h.alice]).content).lower()
    alice_choices = await h.open_choices(h.alice, table)
    bob_choices = await h.open_choices(h.bob, table)
    assert alice_choices.ephemeral_for == h.alice.id and bob_choices.ephemeral_for == h.bob.id
    await do(h, h.bob, table, lambda a: a["type"] == "mulligan_done")
    assert_prompts_only(h, table, [h.alice], [h.bob], pinged=[])
    await do(h, h.alice, table, lambda a: a["type"] == "mulligan_done")

    await to_alices_turn(h, table)
    h.new_pings(table)
    await do(h, h.alice, table, lambda a: a["type"] == "leader")
    for pinged in ([], []):  # two discards after her own click: asked, never pinged
        assert_prompts_only(h, table, [h.alice], [h.bob], pinged)
        await do(h, h.alice, table, lambda a: a["type"] == "discard")
    turn = assert_prompts_only(h, table, [h.alice], [h.bob], pinged=[])
    assert "тайно взять из колоды" in await asked_of(h, h.alice, table)
    assert not choice_labels(await h.open_choices(h.bob, table))
    before = set((await h.store.state(table.id))["hand"][0])
    await do(h, h.alice, table, lambda a: a["type"] == "take")
    taken = set((await h.store.state(table.id))["hand"][0]) - before
    assert len(taken) == 1
    uid = taken.pop()
    name = cname(card(await h.store.state(table.id), uid).id, "ru")
    assert "тайно берёт карту из колоды" in fake.in_channel(table.thread_id)[-1].content
    assert name in "\n".join(text for m in fake.dms(h.alice) for text in m.history)
    assert name not in "\n".join(text for m in fake.dms(h.bob) for text in m.history)
    for _message, text in fake.public_texts():
        assert name not in text, f"the secret pick {name} in a channel: {text}"


async def to_alices_turn(h, table):
    """From the end of the mulligans to Alice's first turn: who goes first is Alice, and Bob passes any
    turn he gets before hers."""
    for _ in range(4):
        state = await h.store.state(table.id)
        if state["phase"] == "first":
            chooser = h.alice if state["chooser"] == 0 else h.bob
            await do(h, chooser, table, lambda a: a == {"type": "first", "seat": 0})
        elif state["turn"]["seat"] == 1:
            await do(h, h.bob, table, lambda a: a["type"] == "pass")
    state = await h.store.state(table.id)
    assert state["phase"] == "play" and state["turn"]["seat"] == 0


@pytest.mark.parametrize("shown_to", ["thread", "owner"])
async def test_gwent_the_emperors_opponent_alone_chooses_the_cards_shown_named_in_the_thread_or_to_the_two(
        harness, monkeypatch, shown_to):
    """The rule book names the cards in the game thread (§7, the default); the table option
    emperor_shown_to=owner keeps them between the two players (GW-24): then nothing of them reaches the
    channel."""
    from bot.games.gwent.render import cname

    h, fake = harness, harness.fake
    table = await _gwent_started(h, monkeypatch, "gwent-emperor",
                                 f"faction_a=nilfgaard faction_b=monsters emperor_shown_to={shown_to}")
    await do(h, h.alice, table, lambda a: a == {"type": "leader_pick", "leader": "emhyr_emperor_of_nilfgaard"})
    await do(h, h.bob, table, lambda a: a["type"] == "leader_pick")
    for user in (h.alice, h.bob):
        await do(h, user, table, lambda a: a["type"] == "mulligan_done")
    await to_alices_turn(h, table)
    h.new_pings(table)
    await do(h, h.alice, table, lambda a: a["type"] == "leader")
    asked = h.turn_message(table)
    for n in range(3):  # three cards to show: one ask, one ping (each card shown follows Bob's own click)
        turn = assert_prompts_only(h, table, [h.bob], [h.alice, h.carol], None if n == 0 else [])
        assert turn is asked
        assert "какую карту показать Императору" in flat(turn.content)
        assert not choice_labels(await h.open_choices(h.alice, table))
        await do(h, h.bob, table, lambda a: a["type"] == "reveal")
    turn = assert_prompts_only(h, table, [h.bob], [h.alice], [])  # using the ability was Alice's move
    assert "одна карта или пас" in flat(turn.content)

    shown = [e for e in await h.store.events(table.id) if e.kind == "revealed"]
    assert len(shown) == 3
    names = {cname(e.data["card"], "ru") for e in shown}
    public = "\n".join(text for _, text in fake.public_texts())
    if shown_to == "thread":
        assert all(e.to is None for e in shown) and all(name in public for name in names)
    else:
        assert all(sorted(e.to) == [0, 1] for e in shown)
        alice_dms = "\n".join(text for m in fake.dms(h.alice) for text in m.history)
        assert all(name in alice_dms for name in names)
        assert not [name for name in names if name in public], f"a shown card in a channel: {public}"


# ---------------------------------------------------------------------------------------------- Bloodwood
BLOODWOOD_ROLES = ["dracula", "werewolf", "vampire", "werewolf", "werewolf"]  # Dracula leads the vampires


async def bloodwood_table(h, users, monkeypatch, hands, phase):
    """Five players at a stacked Bloodwood table (Alice first), then set in a chosen position: the dealt
    snapshot is replaced by one where ``hands`` are as given and it is ``phase`` — a test-only shortcut to
    a position the record would reach only after many turns."""
    from bot.games.bloodwood import GAME
    from bot.storage.store import pack_state
    from tests.games.bloodwood.helpers import set_hand

    monkeypatch.setattr("bot.referee.service.new_seed", lambda: "bloodwood-out-of-turn")
    table = await stacked_table(h, "bloodwood", users, {"rolls": {"bloodwood.first": [0]},
                                                        "roles": BLOODWOOD_ROLES})
    state = await h.store.state(table.id)
    for seat, cards in hands.items():
        set_hand(state, seat, cards)
    state["phase"] = phase
    GAME.check_invariants(state)
    await h.store.conn.execute("UPDATE snapshots SET state = ? WHERE table_id = ? AND version = ?",
                               (pack_state(state), table.id, state["version"]))
    await h.store.conn.commit()
    h.bot.referee.forget(table.id)  # the version did not move: the referee would keep playing the dealt state
    h.new_pings(table)  # what the start pinged belongs to the replaced position
    return table


def public_shape(h, table, users):
    """Everything public about a table (thread messages with their buttons) and every player's DMs about it
    but Bob's, with the table's own number taken out, for comparing two tables."""
    own = f"№{table.id}"

    def button(item):
        parts = item["custom_id"].split(":")  # j:<kind>:<table>:...
        return ":".join([*parts[:2], "T", *parts[3:]]) + " " + item["label"]

    def same(text):  # the table's number and its Discord links differ between the two tables
        return re.sub(r"https://discord\.com/channels/\S+", "LINK", text.replace(own, "№N"))

    thread = [(same(m.content), [button(c) for c in m.items()]) for m in h.fake.in_channel(table.thread_id)]
    dms = [[same(text) for m in h.fake.dms(u) if own in m.content for text in m.history]
           for u in users if u is not h.bob]
    return thread, dms


async def test_bloodwood_counter_window_prompts_the_target_alone_and_looks_the_same_with_or_without_a_counter(
        harness, monkeypatch):
    h, fake = harness, harness.fake
    users = [h.alice, h.bob, h.carol, fake.add_user("Dan"), fake.add_user("Eve")]
    shapes, confirmations = [], []
    for bobs_hand in (["mirror", "keys"], ["voodoo", "keys"]):  # the same backs: one night, one day
        table = await bloodwood_table(h, users, monkeypatch, {0: ["bite", "candle"], 1: bobs_hand}, "night")
        confirmations.append(await do(h, h.alice, table, lambda a: a == {"type": "play", "card": "bite"}))
        held = [m.id for m in fake.dms(h.bob)]
        confirmations.append(await do(h, h.alice, table, lambda a: a == {"type": "target", "seat": 1}))
        # the window is about Bob, its public target (issue 35): his control message is posted anew, his one
        # ping, opening with what happened and until when, whether or not he holds a counter; nobody else's
        assert_prompts_only(h, table, [h.bob], [u for u in users if u is not h.bob], pinged=[h.bob])
        fresh = [m for m in fake.dms(h.bob) if m.id not in held]
        assert len(fresh) == 1 and fresh[0].content.startswith(f"⚡ Стол №{table.id}, Bloodwood: "), fresh
        assert "на вас сыграна ночная карта" in await asked_of(h, h.bob, table)
        for other in users[2:]:
            assert not choice_labels(await h.open_choices(other, table))
        offered = choice_labels(await h.open_choices(h.bob, table))
        assert len(offered) == (2 if "mirror" in bobs_hand else 1)  # privately, to Bob alone
        shapes.append(public_shape(h, table, users))
        await (await fake.slash(h.alice, "game cancel", table=table.id)).answer()
        await h.settled()
    assert shapes[0] == shapes[1], "something public differs when the target holds a counter"
    told = [[line for line in text.splitlines() if line.startswith("✔")] for text in confirmations]
    assert told[:2] == told[2:] and all(told)  # what the attacker was told


async def test_bloodwood_confession_asks_its_target_alone_and_shows_the_role_to_the_chosen_player_only(
        harness, monkeypatch):
    from tests.discord.harness import assert_private_stays_private

    h, fake = harness, harness.fake
    users = [h.alice, h.bob, h.carol, fake.add_user("Dan"), fake.add_user("Eve")]
    table = await bloodwood_table(h, users, monkeypatch, {0: ["confession", "candle"]}, "day")
    await do(h, h.alice, table, lambda a: a == {"type": "play", "card": "confession"})
    await do(h, h.alice, table, lambda a: a == {"type": "target", "seat": 1})
    assert_prompts_only(h, table, [h.bob], [u for u in users if u is not h.bob])
    assert "confession: кому показать свою роль?" in await asked_of(h, h.bob, table)
    assert not choice_labels(await h.open_choices(h.alice, table))
    await do(h, h.bob, table, lambda a: a == {"type": "show", "seat": 2})
    assert await assert_private_stays_private(h, table, users) > len(users)
    confessed = [e for e in await h.store.events(table.id) if e.kind == "role_seen" and e.data["subject"] == 1]
    assert [e.to for e in confessed] == [[2]], "Carol, and only Carol, is shown Bob's role"
    assert_prompts_only(h, table, [h.alice], users[1:])  # back to Alice, who draws


async def test_bloodwood_the_leaders_look_at_every_role_names_no_leader_in_public(harness, monkeypatch):
    h, fake = harness, harness.fake
    users = [h.alice, h.bob, h.carol, fake.add_user("Dan"), fake.add_user("Eve")]
    monkeypatch.setattr("bot.referee.service.new_seed", lambda: "bloodwood-leaders")
    threads = []
    for leader in (0, 2):
        roles = list(BLOODWOOD_ROLES)
        roles[0], roles[leader] = roles[leader], roles[0]
        table = await stacked_table(h, "bloodwood", users, {"rolls": {"bloodwood.first": [0]}, "roles": roles})
        sight = [e.to for e in await h.store.events(table.id) if e.kind == "leader_sight"]
        assert sight == [[leader]]
        threads.append(public_shape(h, table, users)[0])
        assert_prompts_only(h, table, [h.alice], users[1:], [])  # Alice started it; nobody is asked about the look
        await (await fake.slash(h.alice, "game cancel", table=table.id)).answer()
        await h.settled()
    assert threads[0] == threads[1], "the public start differs with who leads"


async def test_bloodwood_the_leshy_asks_every_other_player_at_once_and_each_until_done(harness, monkeypatch):
    h, fake = harness, harness.fake
    users = [h.alice, h.bob, h.carol, fake.add_user("Dan"), fake.add_user("Eve")]
    table = await bloodwood_table(h, users, monkeypatch, {0: ["leshy", "candle"]}, "night")
    await do(h, h.alice, table, lambda a: a == {"type": "play", "card": "leshy"})
    owing = users[1:]
    assert_prompts_only(h, table, owing, [h.alice])
    assert "the leshy: сбросьте две карты" in await asked_of(h, h.bob, table)
    assert not choice_labels(await h.open_choices(h.alice, table))
    for _ in range(2):
        await do(h, h.bob, table, lambda a: a["type"] == "discard")
    assert_prompts_only(h, table, owing[1:], [h.alice, h.bob], pinged=[])  # Bob is done; the others still owe
    assert not choice_labels(await h.open_choices(h.bob, table))


async def test_bloodwood_an_anytime_declaration_is_offered_on_request_and_never_prompted(harness, monkeypatch):
    h, fake = harness, harness.fake
    users = [h.alice, h.bob, h.carol, fake.add_user("Dan"), fake.add_user("Eve")]
    table = await bloodwood_table(h, users, monkeypatch, {0: ["candle", "keys"]}, "day")
    await do(h, h.alice, table, lambda a: a["type"] == "discard")  # a quiet moment: Alice draws
    assert_prompts_only(h, table, [h.alice], users[1:], [])  # nobody else is asked anything
    offer = await h.open_choices(h.bob, table)
    assert offer.ephemeral_for == h.bob.id and "вне очереди" in offer.content
    assert len(choice_labels(offer)) == 1
    await h.pick(h.bob, offer, 0)
    await h.settled()
    assert "✔" in offer.content
    assert_prompts_only(h, table, [h.bob], [h.alice, h.carol], [])  # now Bob names the other team
    assert "назовите всех игроков другой команды" in await asked_of(h, h.bob, table)
