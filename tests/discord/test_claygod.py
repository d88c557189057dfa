"""A complete game of Clay God through the fake Discord's buttons, with every channel message checked for
cards from a hand, and a game interrupted by a restart that leaves the same record as one played straight."""
import json

import pytest

from tests.discord.harness import assert_private_stays_private, random_choice
from tests.discord.support import play_out


async def cards_never_public(h, table, game):
    """(names of the cards that sat in a hand or face down on the table and were never shown to everyone,
    names of the cards that were shown), judged from the record: public views and public events."""
    from bot.games.claygod.cards import card_ids
    from bot.games.claygod.render import card_name

    hidden, shown = set(), set()
    public = [json.dumps(e.data) for e in await h.store.events(table.id) if e.to is None]
    for _, text in await h.store.snapshot_texts(table.id):
        state = json.loads(text)
        for player in state["players"]:
            hidden |= set(player["hand"]) | ({player["table_card"]} if player["table_card"] else set())
        public.append(json.dumps(game.view(state, None)))
    everything_public = "\n".join(public)
    shown = {card for card in card_ids() if f'"{card}"' in everything_public}
    names = lambda cards: {card_name(card, locale) for card in cards for locale in ("ru", "uk", "en")}  # noqa: E731
    return names(hidden - shown), names(shown)


@pytest.mark.long
async def test_a_full_game_through_buttons_never_shows_a_hand_in_a_channel(claygod, harness, monkeypatch):
    h, fake = harness, harness.fake
    monkeypatch.setattr("bot.referee.service.new_seed", lambda: "claygod-e2e")
    table = await h.new_table(h.alice, "claygod")
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    table = await h.table(table.id)
    state = await h.store.state(table.id)
    for seat, user in enumerate((h.alice, h.bob)):
        hand = [claygod.describe_action(state, seat, {"type": "discard", "card": c}, "ru") for c in
                state["players"][seat]["hand"]]
        assert hand and fake.dms(user), "each player gets their hand by DM"

    await play_out(h, table, random_choice("claygod"))
    table = await h.table(table.id)
    assert table.status == "finished" and table.version > 20
    assert "🏆" in fake.in_channel(table.thread_id)[-1].content

    secret_names, shown_names = await cards_never_public(h, table, claygod)
    assert secret_names, "the game should end with cards nobody else has seen"
    for message, text in fake.public_texts():
        if message.id == table.thread_id:
            continue  # the lobby message: players and options (option labels name cards, hands never)
        for name in sorted(shown_names, key=len, reverse=True):
            text = text.replace(name, "·")  # "Монстр отдыхает" played does not reveal "Монстр"
        leaked = [name for name in secret_names if name in text]
        assert not leaked, f"hidden cards {leaked} in a channel message: {text}"
    assert await assert_private_stays_private(h, table, [h.alice, h.bob]) > 0
    assert all(len(m.content) <= 2000 for m in fake.messages.values())


@pytest.mark.long
async def test_a_game_interrupted_by_a_restart_has_the_same_record_as_one_played_straight(claygod, harness,
                                                                                         monkeypatch):
    from tests.discord.support import record_of_a_game

    monkeypatch.setattr("bot.referee.service.new_seed", lambda: "claygod-same-seed")
    straight = await record_of_a_game(harness, "claygod", restart_after=None)
    interrupted = await record_of_a_game(harness, "claygod", restart_after=12)
    assert straight == interrupted and len(straight[0]) > 20
