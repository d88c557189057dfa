"""The Clay God board as a phone shows it: dice told apart by a letter as well as a colour, the used pile
counted on the compact board and listed on the full one."""
from bot.engine.board_text import PHONE_WIDTH, display_width
from bot.engine.playout import play
from bot.games.claygod import GAME
from bot.games.claygod.cards import COLOUR_MARK, COLOURS
from bot.games.claygod.render import card_name, die_mark
from bot.i18n import t

from .helpers import NAMES, ready, table


def test_each_die_carries_its_letter_in_every_language():
    state = ready(table(hands=(["demon"], [])), 0, dice=(6, 5, 4, 3, 2, 1, 6))
    for locale in ("ru", "uk", "en"):
        letters = [t(f"claygod.die.{c}", locale) for c in COLOURS]
        assert len(set(letters)) == 7 and all(len(x) == 1 and x.isalpha() for x in letters), letters
        board = GAME.render_view(GAME.view(state, 0), locale, NAMES)
        own = f"{COLOUR_MARK['red']}{letters[0]}6 {COLOUR_MARK['orange']}{letters[1]}5"
        assert own in board, board
        dice_lines = [line for line in board.split("\n") if all(COLOUR_MARK[c] in line for c in COLOURS)]
        assert len(dice_lines) == 2, board  # one line of seven labelled dice per player
        for line in dice_lines:
            assert [die_mark(c, locale) in line for c in COLOURS] == [True] * 7, line
            assert display_width(line) <= PHONE_WIDTH
        label = GAME.describe_action(state, 0, {"type": "play", "card": "demon"}, locale)
        assert die_mark("red", locale) + "6" in label, label  # a cost names the die the same way


def test_the_compact_board_counts_the_used_pile_and_the_full_board_lists_it():
    po = play(GAME, 2, seed="long-pile", bot_seed=3)
    state = next(s for s in po.states if len(s["discard"]) >= 12 and s["outcome"] is None)
    pile = state["discard"]
    for locale in ("ru", "uk", "en"):
        for seat in (None, 0):
            compact = GAME.render_view(GAME.view(state, seat), locale, NAMES)
            full = GAME.render_view(GAME.view(state, seat), locale, NAMES, full=True)
            assert t("claygod.view.piles", locale, deck=len(state["deck"]), used=len(pile)) in compact
            assert t("claygod.view.top", locale, top=card_name(pile[-1], locale)) in compact
            assert t("claygod.view.used_pile", locale) not in compact
            flat = " ".join(full.split())
            listed = flat.split(t("claygod.view.used_pile", locale), 1)[1]
            names = [card_name(c, locale) for c in reversed(pile)]
            assert listed.startswith(" " + ", ".join(names)), listed  # every card, from the top down
            assert all(display_width(line) <= PHONE_WIDTH for line in full.split("\n"))
            assert len(full.split("\n")) > len(compact.split("\n"))
