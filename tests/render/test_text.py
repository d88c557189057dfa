"""The rendered outbox and boards: what the terminal and Discord actually print, read on a phone."""
import re

import pytest

from bot.engine import get_game
from bot.engine.board_text import PHONE_WIDTH, display_width, wrap, wrap_items
from bot.engine.playout import play
from bot.i18n import t
from bot.render.text import outcome_line, render_message, turn_line
from bot.referee.visibility import pending_messages


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
    finish = [m for m in await pending_messages(store, limit=100_000) if m.kind == "finish"]
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


# ---------------------------------------------------------------------------------------------- phone width
LOCALES = ("ru", "uk", "en")
#: real-looking names, one long one (a Discord display name may have 32 characters) and one with an emoji
SEAT_NAMES = ["Аня", "Константинопольская Василиса", "Вера 🦇", "Гена", "Даша", "Егор", "Женя", "Зоя", "Игорь",
              "Катя", "Лёша", "Маша"]


def test_display_width_counts_what_a_phone_shows():
    assert display_width("Аня: 5/5") == 8
    assert display_width("🟥") == 2 and display_width("❤️") == 2 and display_width("❤") == 2
    assert display_width("👨‍👩‍👧") == 2, "a family joined by U+200D is one emoji"
    assert display_width("🇺🇦") == 2, "two regional indicators are one flag"
    assert display_width("é") == 1 and display_width("e\u0301") == 1
    assert display_width("漢字") == 4
    assert display_width("── A · ♦◊") == 11, "♦ and ◊ may be drawn as emoji: counted wide"


def test_wrapping_keeps_every_word_and_the_width():
    line = "— Константинопольская Василиса: ❤️ 54/50 · 🔮 42/50 · and a wordthatiswiderthanthewholephonelinecanhold"
    lines = wrap(line, 40)
    assert all(display_width(x) <= 40 for x in lines) and len(lines) > 1
    assert "".join(" ".join(lines).split()) == "".join(line.split())
    items = ["Воительница клана Друммонд 4", "Бирна Бран 2", "Лютик 2", "Керис ★10"]
    lines = wrap_items("  Ближний 22 [☁, рог]:", items, hang="    ")
    assert lines[0] == "  Ближний 22 [☁, рог]:" and lines[1] == "    Воительница клана Друммонд 4,"
    assert " ".join(" ".join(lines).split()).endswith("Бирна Бран 2, Лютик 2, Керис ★10")


def _sampled(po, every, others=12):
    """Every ``every``-th state of a playout, the last, and up to ``others`` more where someone owes an
    answer to a card or a choice (spread over the game)."""
    game = get_game(po.initial["game"])
    states = [po.initial, *po.states]
    picked = [s for i, s in enumerate(states) if i % every == 0 or s is states[-1]]
    rest = [s for i, s in enumerate(states) if i % every and any(p.kind != "turn" for p in game.to_act(s))]
    return picked + rest[::max(1, len(rest) // others)][:others]


PHONE_TABLES = [
    ("claygod", 2, {}, 2), ("claygod", 2, {"turn_clock": "live", "clock_mode": "live"}, 4),
    ("gwent", 2, {}, 1), ("gwent", 2, {"variant": "hardgwent", "faction_a": "skellige", "faction_b": "monsters"}, 2),
    ("gwent", 2, {"faction_a": "scoiatael", "faction_b": "northern_realms", "deck": "build"}, 3),
    ("bloodwood", 5, {}, 6), ("bloodwood", 8, {"role_deal": "host", "first_player": "host"}, 15),
    ("bloodwood", 12, {"turn_seconds": 40, "counter_seconds": 20}, 40),
]


@pytest.mark.parametrize("game_name, seats, options, every", PHONE_TABLES,
                         ids=[f"{g}-{n}-{'-'.join(map(str, o.values())) or 'default'}" for g, n, o, _ in PHONE_TABLES])
@pytest.mark.long
def test_every_board_line_fits_a_phone(game_name, seats, options, every):
    """Bot games to the end; every (sampled) state's board, for each seat and the public, in every language,
    compact and full: no line wider than a phone shows, and the compact one fits a Discord message."""
    game = get_game(game_name)
    names = SEAT_NAMES[:seats]
    po = play(game, seats, seed=f"phone-{game_name}-{seats}-{sorted(options.items())}", options=options,
              bot_seed=seats)
    assert po.final["outcome"] is not None
    checked = 0
    for state in _sampled(po, every):
        for seat in (None, *range(seats)):
            view = game.view(state, seat)
            for locale in LOCALES:
                compact = game.render_view(view, locale, names)
                full = game.render_view(view, locale, names, full=True)
                assert len(compact) <= 1800
                for text in (compact, full):
                    wide = [line for line in text.split("\n") if display_width(line) > PHONE_WIDTH]
                    assert not wide, (state["version"], seat, locale, wide)
                assert len(full) >= len(compact)
                checked += 1
    assert checked > 100


def _statements(board: str) -> list[str]:
    """The lines saying who owes a decision, each joined with the lines it was wrapped onto."""
    out: list[str] = []
    inside = False
    for line in board.split("\n"):
        if line.startswith(("⏳ ", "➤ ")):
            out.append(line)
            inside = True
        elif inside and line.startswith("  "):
            out[-1] += " " + line.strip()
        else:
            inside = False
    return out


@pytest.mark.parametrize("game_name, seats, options", [("claygod", 2, {}), ("gwent", 2, {"variant": "hardgwent"}),
                                                       ("bloodwood", 6, {})])
def test_a_board_says_once_whose_decision_it_is_and_calls_only_a_turn_a_turn(game_name, seats, options):
    """One line per kind of decision owed, naming the seats once (the header and the player list do not); the
    word "turn" appears in it only for an ordinary turn.  A message that carries the board does not add the
    one-line statement again."""
    game = get_game(game_name)
    names = SEAT_NAMES[:seats]
    po = play(game, seats, seed=f"once-{game_name}", options=options, bot_seed=4)
    kinds = set()
    for state in _sampled(po, 3)[:-1]:
        pending = game.to_act(state)
        kinds |= {p.kind for p in pending}
        view = game.view(state, None)
        for locale in LOCALES:
            board = game.render_view(view, locale, names)
            lines = " ".join(_statements(board))
            for p in pending:
                assert lines.count(names[p.seat]) == 1, (board, p)
                if p.kind != "turn":
                    assert not re.search(r"(?i)(ход|хід|turn):", lines), lines
            assert len(_statements(board)) == len({(p.kind, p.prompt) for p in pending}), board
            payload = {"events": [], "view": view}
            message = render_message(game, "update", payload, names=names, locale=locale, table_id=1)
            assert turn_line(view, locale, names) not in message.split("\n")
    assert "turn" in kinds and kinds - {"turn"}, kinds


def test_a_reaction_window_is_an_answer_to_a_card_not_a_turn():
    """Bloodwood: while the target of a night card may answer with Mirror or Amulet, no board calls it a
    turn (nor the turn line of a message without a board); it says that an answer to a card is awaited."""
    game = get_game("bloodwood")
    names = SEAT_NAMES[:7]
    windows = 0
    for i in range(4):
        po = play(game, 7, seed=f"reaction-{i}", bot_seed=i)
        for state in po.states:
            pending = game.to_act(state)
            if not any(p.kind == "reaction" for p in pending):
                continue
            windows += 1
            for seat in (None, *range(7)):
                for locale in LOCALES:
                    for full in (False, True):
                        board = game.render_view(game.view(state, seat), locale, names, full=full)
                        flat = " ".join(board.split()).lower()
                        assert not re.search(r"\b(ход|хід|turn)\s*[:—]", flat), board
                        assert not re.search(r"(ваш|your) (ход|хід|turn)", flat), board
                        assert t("core.pending.reaction", locale).lower() in flat, board
                line = turn_line(game.view(state, None), locale, names)
                assert not re.search(r"(?i)\b(ход|хід|turn)\b", line) and "To act" not in line, line
    assert windows >= 5
