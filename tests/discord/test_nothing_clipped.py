"""Nothing clipped that the player needs (issue 27, item 5): menus never offer the same entry twice, Gwent's own hand
is shown whole in the player's control message."""
from bot.discord.control import distinct
from bot.engine import get_game


def test_choices_that_read_alike_are_numbered_apart():
    labels = ["Чучело → Главоглаз (ближний)", "Пас", "Чучело → Главоглаз (ближний)", "x" * 100, "x" * 100]
    out = distinct(labels)
    assert out[1] == "Пас" and len(set(out)) == len(out)
    assert out[0] == "Чучело → Главоглаз (ближний) · 1" and out[2] == "Чучело → Главоглаз (ближний) · 2"
    assert out[3].endswith(" · 1") and len(out[3]) <= 80  # the number survives a button's 80 characters


def test_gwents_own_hand_is_shown_whole_on_the_compact_board():
    from tests.games.gwent.helpers import give, table

    game = get_game("gwent")
    s = table("monsters", "nilfgaard")
    give(s, 0, *["ghoul", "nekker", "fiend", "arachas", "griffin", "harpy", "wyvern", "cockatrice", "frightener",
                 "werewolf", "botchling", "celaeno_harpy"][:12])
    board = game.render_view(game.view(s, 0), "ru", ["Аня", "Боб"])
    hand = board.split("Ваша рука")[-1]
    assert "Ваша рука" in board and "ещё" not in hand and hand.count("\n") > 4
