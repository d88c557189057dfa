"""The Bloodwood board as a phone shows it: the face-up discard pile counted on the compact board and listed
on the full one, who has seen whose role summarised, the decision awaited named once and as what it is."""
from bot.engine.board_text import PHONE_WIDTH, display_width
from bot.engine.playout import play
from bot.games.bloodwood import GAME
from bot.games.bloodwood.cards import catalogue
from bot.i18n import t

from .helpers import NAMES


def _long_game():
    po = play(GAME, 12, seed="board-12", bot_seed=2)
    return [s for s in po.states if s["outcome"] is None]


def test_the_compact_board_counts_the_discard_pile_and_the_full_board_lists_it():
    state = next(s for s in _long_game() if len(s["discard"]) >= 15)
    pile = [catalogue().cards[c].name for c in state["discard"]]
    for locale in ("ru", "uk", "en"):
        compact = GAME.render_view(GAME.view(state, None), locale, NAMES)
        full = GAME.render_view(GAME.view(state, None), locale, NAMES, full=True)
        head = t("bloodwood.board.discard_pile", locale)
        assert head not in compact and t("bloodwood.board.top", locale, card=pile[-1]) in compact
        decks = t("bloodwood.board.decks", locale, day=len(state["decks"]["day"]), night=len(state["decks"]["night"]),
                  discard=len(pile))
        assert decks in compact.split("\n"), compact  # "Колоды: ☀20 ☾17 · сброс 52"
        lines = full.split("\n")
        start = next(i for i, line in enumerate(lines) if line.startswith(head))
        block = [lines[start][len(head):]]
        for line in lines[start + 1:]:  # the lines the list was wrapped onto
            if not line.startswith("  "):
                break
            block.append(line)
        listed = " ".join(" ".join(block).split())
        expanded = []
        for item in listed.split(", "):
            card, _, copies = item.rpartition(" ×")
            expanded += [card] * int(copies) if copies.isdigit() and card else [item]
        assert expanded == pile[::-1], listed  # the whole pile, from the top down
        assert all(display_width(line) <= PHONE_WIDTH for line in full.split("\n"))


def test_roles_seen_are_summarised_on_the_compact_board():
    state = max(_long_game(), key=lambda s: len({v for v, _ in s["known"]}))
    viewers = {v for v, _ in state["known"]}
    assert len(viewers) >= 6
    for locale in ("ru", "en"):
        compact = GAME.render_view(GAME.view(state, None), locale, NAMES)
        full = " ".join(GAME.render_view(GAME.view(state, None), locale, NAMES, full=True).split())
        for viewer in viewers:
            assert f"{NAMES[viewer]} →" in full
        head = t("bloodwood.board.known", locale)
        block = compact.split(head, 1)[1].split("\n")
        assert len([line for line in block[1:] if line.startswith("  ")]) <= 1  # two lines at most
        shown = sum(f"{NAMES[v]} →" in " ".join(block[:2]) for v in viewers)
        if shown < len(viewers):
            assert t("core.board.more", locale, n=len(viewers) - shown) in " ".join(block[:2])


def test_the_seat_asked_reads_what_to_do_the_others_only_who_is_asked():
    state = next(s for s in _long_game() if s["step"] and s["step"]["kind"] == "counter")
    target = state["step"]["seat"]
    mine = " ".join(GAME.render_view(GAME.view(state, target), "ru", NAMES).split())
    other = " ".join(GAME.render_view(GAME.view(state, (target + 1) % 12), "ru", NAMES).split())
    answer = t("core.pending.reaction", "ru")
    assert f"➤ {answer}: {NAMES[target]}" in mine and t("bloodwood.prompt.counter", "ru") in mine
    assert f"⏳ {answer}: {NAMES[target]}" in other and "на вас" not in other
