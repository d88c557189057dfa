"""The Gwent board as a phone shows it: a full row and a long hand are summarised with counts on the compact
board and listed on the full one."""
from bot.engine.board_text import PHONE_WIDTH, display_width
from bot.games.gwent import GAME
from bot.games.gwent.cards import catalogue
from bot.i18n import t

from .helpers import give, place, table

NAMES = ["Аня", "Боб"]
MELEE = ["letho_of_gulet", "menno_coehoorn", "cahir", "rainfarn", "vattier_de_rideaux", "morteisen", "vreemde",
         "stefan_skellen", "shilard_fitz_oesterlen"]


def _block(board: str, head: str, indent: str = "    ") -> list[str]:
    """The (non-empty) line starting with ``head`` and the lines it was wrapped onto."""
    lines = board.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(head) and not line.endswith(": —"))
    block = [lines[start]]
    for line in lines[start + 1:]:
        if not line.startswith(indent):
            break
        block.append(line)
    return block


def test_a_full_row_is_counted_on_the_compact_board_and_listed_on_the_full_one():
    s = table()
    for cid in MELEE:
        place(s, 1, cid, "melee")
    for locale in ("ru", "en"):
        names = [catalogue().card(c).name(locale) for c in MELEE]
        head = "  " + t("gwent.row.melee", locale).capitalize() + " "
        for seat in (None, 0, 1):
            compact = _block(GAME.render_view(GAME.view(s, seat), locale, NAMES), head)
            full = _block(GAME.render_view(GAME.view(s, seat), locale, NAMES, full=True), head)
            assert len(compact) <= 3 and len(full) > 3
            shown = sum(name in " ".join(compact) for name in names)
            assert 0 < shown < len(names)
            assert t("core.board.more", locale, n=len(names) - shown) in compact[-1]
            flat = " ".join(" ".join(full).split())
            assert [flat.index(name) for name in names] == sorted(flat.index(name) for name in names)
            assert all(display_width(line) <= PHONE_WIDTH for line in compact + full)


def test_a_long_hand_is_shown_whole_on_the_compact_board_as_on_the_full_one():
    """Issue 27: the player's own hand is what they choose from; the compact board (their control message) no
    longer cuts it to "… ещё 2"."""
    s = table("northern_realms", "nilfgaard", variant="hardgwent")
    give(s, 0, "esterad_thyssen", "john_natalis", "philippa_eilhart", "vernon_roche", "catapult", "siege_tower",
         "ballista", "dethmold", "trebuchet", "crinfrid_reavers_dragon_hunter", "trebuchet", "catapult")
    hand = [s["cards"][uid]["id"] for uid in s["hand"][0]]
    assert len(hand) >= 12
    for locale in ("ru", "uk", "en"):
        head = t("gwent.view.hand", locale, n=len(hand))
        compact = GAME.render_view(GAME.view(s, 0), locale, NAMES)
        full = GAME.render_view(GAME.view(s, 0), locale, NAMES, full=True)
        assert 4 < len(_block(compact, head, "  ")) == len(_block(full, head, "  "))
        flat = " ".join(compact.split())
        assert all(catalogue().card(c).name(locale) in flat for c in hand)
        assert t("core.board.more", locale, n=0).split("0")[0] not in "\n".join(_block(compact, head, "  "))
        assert head not in GAME.render_view(GAME.view(s, None), locale, NAMES, full=True)  # nobody else's hand
