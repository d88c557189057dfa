"""The rendered outbox: what the terminal and Discord actually print."""
import pytest

from bot.engine import get_game
from bot.render.text import outcome_line, render_message


@pytest.mark.parametrize("game_name, bots", [("claygod", 2), ("gwent", 2), ("bloodwood", 5)])
async def test_the_finish_message_names_the_winner_once(env, game_name, bots):
    store, referee, _ = env
    table = await referee.create_table(game_name, creator="u:host", creator_name="Host", join=False)
    for _ in range(bots):
        await referee.add_bot(table.id)
    await referee.start(table.id, "u:host", seed="render-finish")
    await referee.drive_bots(table.id)
    row = await store.get_table(table.id)
    assert row.status == "finished"
    game = get_game(game_name)
    names = [s.name for s in await store.seats(table.id)]
    finish = [m for m in await store.pending_messages(limit=100_000) if m.kind == "finish"]
    assert len(finish) == 1
    text = render_message(game, "finish", finish[0].payload, names=names, locale="ru", table_id=table.id)
    line = outcome_line(game, row.outcome, "ru", names)
    assert text.count(line) == 1
    assert text.count("🏆") <= 1, text
    assert "render-finish" in text   # the seed is revealed with the result


def test_action_labels_name_the_players_and_parse_back():
    """A Bloodwood choice that targets a seat is labelled with that player's name (not a seat number),
    and typing the label back picks the same action."""
    import random

    game = get_game("bloodwood")
    names = ["Аня", "Борис", "Вера", "Гена", "Даша"]
    state = game.initial_state(5, seed="labels").state
    rng = random.Random(1)
    checked = 0
    for _ in range(400):
        pending = game.to_act(state)
        if not pending or checked >= 5:
            break
        seat = pending[0].seat
        legal = game.legal_actions(state, seat)
        for action in legal:
            target = action.get("target", action.get("seat") if action["type"] == "target" else None)
            if isinstance(target, int) and target != seat:
                label = game.describe_action(state, seat, action, "ru", names)
                assert names[target] in label and "Место" not in label, label
                if sum(game.describe_action(state, seat, a, "ru", names) == label for a in legal) == 1:
                    assert game.parse_action(state, seat, label, names) == action
                checked += 1
        state = game.apply(state, seat, game.bot_action(state, seat, rng)).state
    assert checked >= 5


def test_an_out_of_turn_choice_can_be_typed_or_picked_by_number():
    """A seat that owes nothing but may declare (Bloodwood, BW-25) types the number or the label of that
    choice, as listed for it (the /play autocomplete and `table act` send exactly that)."""
    game = get_game("bloodwood")
    state = game.initial_state(5, seed="typed", stack={"rolls": {"bloodwood.first": [0]}}).state
    assert [p.seat for p in game.to_act(state)] == [0]
    assert game.choices(state, 2) == [{"type": "declare"}]
    assert game.parse_action(state, 2, "1") == {"type": "declare"}
    label = game.describe_action(state, 2, {"type": "declare"}, "ru")
    assert game.parse_action(state, 2, label) == {"type": "declare"}
