"""The rule book, rule by rule (shared/rules/raiders.txt), on tables arranged card by card."""
import pytest

from bot.engine import Code

from .helpers import GAME, act, all_pass, arrange, card, kinds, new_table, refused


def _other_suit_trump(state, *avoid):
    """Make a trump suit none of the named cards has (so that «той же масти» really binds)."""
    suits = {GAME_suit(state, c) for c in avoid}
    state["trump"] = next(s for s in ("clubs", "diamonds", "hearts", "spades") if s not in suits)
    return state


def GAME_suit(state, short):
    from bot.games.raiders.cards import fighter
    return fighter(state, card(short)).suit


# ------------------------------------------------------------------------------------------ set-up and turn
def test_setup_deals_six_separates_the_decks_and_puts_the_trump_card_under_the_deck():
    state = new_table(3, first=1)
    assert [len(p["hand"]) for p in state["players"]] == [6, 6, 6]
    assert state["deck"][-1] == state["trump_card"] and state["trump_shown"]
    assert state["trump"] == GAME_suit(state, state["trump_card"].split(":")[1])
    assert all(c.startswith("house:") and c in GAME_cards(state).fighters for c in state["deck"])
    assert all(c in GAME_cards(state).properties for c in state["pdeck"])
    assert state["turn"]["seat"] == 1 and len(state["props"]) == 1, "the first turn reveals one property"
    assert GAME.view(state, 0)["trump_card"] == state["trump_card"], "the trump card is seen by everyone"


def GAME_cards(state):
    from bot.games.raiders.cards import cards_of
    return cards_of(state)


def test_a_turn_refills_to_six_and_reveals_only_when_no_property_is_unguarded():
    state = arrange(new_table(2), hands={0: ["c6"], 1: ["d6", "d7"]}, guarded={"bank1": ("sa", 0)})
    state, events = act(state, 0, {"type": "end"})
    assert len(state["players"][1]["hand"]) == 6 and "revealed" in kinds(events)
    state, events = act(state, 1, {"type": "end"})
    assert "revealed" not in kinds(events), "an unguarded property is there: nothing more is revealed"


# ------------------------------------------------------------------------------------------ captures
@pytest.mark.parametrize("fighter, won", [("c10", True), ("c9", False)])   # крутизна 5 and 4 against a market's 5
def test_capture_of_an_unguarded_property_needs_at_least_its_krutizna(fighter, won):
    state = arrange(new_table(2), hands={0: [fighter, "c6"], 1: ["d6"]}, free=["market1"])
    state, _ = act(state, 0, {"type": "capture", "card": card(fighter), "prop": card("market1")})
    state, events = all_pass(state)
    p = state["props"][0]
    if won:
        assert p == {"card": card("market1"), "guard": card(fighter), "owner": 0}
    else:
        assert p["guard"] is None and card(fighter) in state["discard"] and "died" in kinds(events)
    assert state["turn"]["captured"], "the attempt is spent either way"


@pytest.mark.parametrize("attacker, guard, result", [
    ("ck", "dq", "guard_dies"),     # 8 > 7: the guard dies, then 8 ≥ the garage's 4
    ("cq", "dq", "both_die"),       # 7 = 7
    ("cj", "dq", "attacker_dies"),  # 6 < 7
])
def test_capture_of_a_guarded_property_fights_the_guard_first(attacker, guard, result):
    state = arrange(new_table(2), hands={0: [attacker], 1: ["d6"]}, guarded={"garage1": (guard, 1)})
    state, _ = act(state, 0, {"type": "capture", "card": card(attacker), "prop": card("garage1")})
    state, events = all_pass(state)
    p = state["props"][0]
    if result == "guard_dies":
        assert p["guard"] == card(attacker) and p["owner"] == 0 and card(guard) in state["discard"]
    elif result == "both_die":
        assert p["guard"] is None and {card(attacker), card(guard)} <= set(state["discard"])
    else:
        assert p["guard"] == card(guard) and p["owner"] == 1 and card(attacker) in state["discard"]
    assert "fight" in kinds(events)


def test_a_guard_beaten_by_a_fighter_too_weak_for_the_property_leaves_it_unguarded():
    # the bank wants 8: the ♣9 (4) kills the ♦7 (2) guard, then dies against the bank
    state = arrange(new_table(2), hands={0: ["c9"], 1: ["d6"]}, guarded={"bank1": ("d7", 1)})
    state, _ = act(state, 0, {"type": "capture", "card": card("c9"), "prop": card("bank1")})
    state, events = all_pass(state)
    assert state["props"][0]["guard"] is None and state["props"][0]["owner"] is None
    assert kinds(events).count("died") == 2 and "repelled" in kinds(events)


def test_a_guard_may_be_weaker_than_its_property_even_negative():
    state = arrange(new_table(2), hands={0: ["c6"], 1: ["d6"]}, guarded={"bank1": ("d7", 1)})
    state["mods"][card("d7")] = -5
    assert GAME.judge_table(state)["krutizna"][card("d7")] == -3
    state, _ = act(state, 0, {"type": "end"})
    assert state["props"][0]["guard"] == card("d7"), "a guard does not die of its own крутизна"


def test_one_capture_attempt_per_turn_and_only_shnyagi_during_a_capture():
    state = arrange(new_table(2), hands={0: ["c10", "c9"], 1: ["d6", "dk"]}, free=["kiosk1", "club1"])
    state, _ = act(state, 0, {"type": "capture", "card": card("c10"), "prop": card("kiosk1")})
    r = refused(state, 1, {"type": "capture", "card": card("dk"), "prop": card("club1")})
    assert r.key == "raiders.reject.only_shnyagi" and r.rule == "Захват"
    state, _ = all_pass(state)
    r = refused(state, 0, {"type": "capture", "card": card("c9"), "prop": card("club1")})
    assert r.key == "raiders.reject.one_attempt" and r.rule == "Захват"
    assert not any(a["type"] == "capture" for a in GAME.legal_actions(state, 0))


def test_ones_own_property_is_not_a_capture_target():
    state = arrange(new_table(2), hands={0: ["ck"], 1: ["d6"]}, guarded={"bank1": ("c6", 0)}, free=["kiosk1"])
    targets = {a["prop"] for a in GAME.legal_actions(state, 0) if a["type"] == "capture"}
    assert targets == {card("kiosk1")}


# ------------------------------------------------------------------------------------------ the window
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_the_window_asks_everyone_and_resolves_only_when_all_pass_after_the_last_shnyaga(seats):
    hands = {s: ["d6"] for s in range(seats)}
    hands[0] = ["c10", "c6"]
    hands[seats - 1] = ["s7", "s9"]   # Подножка, and Общак (not playable in another's capture)
    state = arrange(new_table(seats), hands=hands, free=["market1"])
    state, _ = act(state, 0, {"type": "capture", "card": card("c10"), "prop": card("market1")})
    asked = sorted(p.seat for p in GAME.to_act(state))
    assert asked == list(range(seats)), "every player is asked, whatever they hold"
    assert all(p.kind == "reaction" for p in GAME.to_act(state))
    assert GAME.legal_actions(state, 1 if seats > 2 else 0)[0] == {"type": "pass"}
    if seats > 2:
        assert GAME.legal_actions(state, 1) == [{"type": "pass"}], "no шняга to play: still asked, pass only"
    for s in range(seats - 1):
        state, _ = act(state, s, {"type": "pass"})
    assert state["window"] is not None
    trip = {"type": "shnyaga", "card": card("s7"), "target": card("c10")}
    state, _ = act(state, seats - 1, trip)
    assert state["window"]["passed"] == [], "a new шняга gives everyone another chance"
    for s in range(seats - 1):
        state, _ = act(state, s, {"type": "pass"})
    assert state["window"] is not None, "the one who applied it has not passed yet"
    state, events = act(state, seats - 1, {"type": "pass"})
    assert state["window"] is None and "repelled" in kinds(events)   # 5 − 2 < the market's 5


def test_a_pass_is_one_click_and_is_never_taken_automatically():
    assert "pass" not in GAME.auto_actions
    state = arrange(new_table(2), hands={0: ["c10"], 1: ["d6"]}, free=["kiosk1"])
    state, _ = act(state, 0, {"type": "capture", "card": card("c10"), "prop": card("kiosk1")})
    assert GAME.choice_group(state, 1, {"type": "pass"}) == "pass" and not GAME.confirm(state, 1, {"type": "pass"})
    assert GAME.confirm(new_table(2), 0, {"type": "end"}), "ending with the attempt unused is confirmed"


def test_effects_resolve_in_order_but_a_recall_saves_the_fighter_from_certain_death():
    state = arrange(new_table(2), hands={0: ["c10", "h10"], 1: ["ca", "d6"]}, free=["kiosk1"])
    state = _other_suit_trump(state, "c10", "ca", "h10")
    state, _ = act(state, 0, {"type": "capture", "card": card("c10"), "prop": card("kiosk1")})
    state, _ = act(state, 1, {"type": "shnyaga", "card": card("ca"), "target": card("c10")})    # Замочить first
    state, _ = act(state, 0, {"type": "shnyaga", "card": card("h10"), "target": card("c10")})   # then Откатиться
    state, events = all_pass(state)
    order = kinds(events)
    assert order.index("recalled") < order.index("fizzled"), "the recall resolves first"
    assert card("c10") in state["players"][0]["hand"] and "capture_void" in order


def test_krutizna_changes_last_until_the_end_of_the_capture():
    state = arrange(new_table(2), hands={0: ["c9", "h8"], 1: ["d6"]}, free=["market1"])
    state, _ = act(state, 0, {"type": "capture", "card": card("c9"), "prop": card("market1")})
    state, _ = act(state, 0, {"type": "shnyaga", "card": card("h8"), "target": card("c9")})  # 4 + 2 ≥ 5
    state, events = all_pass(state)
    assert state["props"][0]["owner"] == 0 and state["mods"] == {}


def test_same_suit_binds_unless_the_card_is_a_trump():
    state = arrange(new_table(2), hands={0: ["c10", "c6"], 1: ["da", "d6"]}, free=["kiosk1"])
    state = _other_suit_trump(state, "c10", "da")
    state, _ = act(state, 0, {"type": "capture", "card": card("c10"), "prop": card("kiosk1")})
    kill = {"type": "shnyaga", "card": card("da"), "target": card("c10")}
    assert kill not in GAME.legal_actions(state, 1)
    r = refused(state, 1, kill)
    assert (r.key, r.rule, r.params) == ("raiders.reject.wrong_suit", "Козыри", {"suit": "♦"})
    assert "♦" in r.message("ru") and "козырн" in r.message("ru")
    # named or not, a fighter of another suit is the reason: not «исключительно для сброса» (RD-14)
    assert refused(state, 1, {**kill, "target": None}).key == "raiders.reject.wrong_suit"
    state["trump"] = "diamonds"   # «козырной туз может «замочить» бойца любой масти»
    assert kill in GAME.legal_actions(state, 1)
    state, events = act(state, 1, kill)
    state, events = all_pass(state)
    assert card("c10") in state["discard"] and state["props"][0]["guard"] is None


def test_recruit_makes_a_guard_of_the_same_suit_yours_with_its_property():
    state = arrange(new_table(2), hands={0: ["sj", "c6"], 1: ["hj", "d6"]}, guarded={"bank1": ("s6", 1)})
    state = _other_suit_trump(state, "sj", "s6")
    recruit = {"type": "shnyaga", "card": card("sj"), "target": card("s6")}
    state, _ = act(state, 0, recruit)
    state, events = all_pass(state)
    assert state["props"][0] == {"card": card("bank1"), "guard": card("s6"), "owner": 0} and "taken" in kinds(events)
    state, _ = act(state, 0, {"type": "end"})
    r = refused(state, 1, {"type": "shnyaga", "card": card("hj"), "target": card("s6")})
    assert (r.key, r.rule) == ("raiders.reject.wrong_suit", "Козыри")


def test_a_shnyaga_for_your_own_turn_is_refused_in_anothers():
    state = arrange(new_table(2), hands={0: ["c10", "c6"], 1: ["d9", "d6"]}, free=["kiosk1"])
    state, _ = act(state, 0, {"type": "capture", "card": card("c10"), "prop": card("kiosk1")})
    r = refused(state, 1, {"type": "shnyaga", "card": card("d9"), "target": None})
    assert r.key == "raiders.reject.own_turn_only"


def test_a_capture_shnyaga_is_refused_outside_a_capture():
    state = arrange(new_table(2), hands={0: ["c8", "c6"], 1: ["d6"]}, guarded={"bank1": ("c7", 0)})
    r = refused(state, 0, {"type": "shnyaga", "card": card("c8"), "target": card("c7")})
    assert r.key == "raiders.reject.capture_only"


def test_boar_costs_a_discard_and_is_refused_when_it_would_only_discard():
    state = arrange(new_table(2), hands={0: ["c10", "c6", "h9"], 1: ["d6", "h6", "s9"]}, free=["market1"])
    state, _ = act(state, 0, {"type": "capture", "card": card("c10"), "prop": card("market1")})
    # the other player has no fighter on the board: Кабан (+3 to *your* fighter) would only discard
    r = refused(state, 1, {"type": "shnyaga", "card": card("d6"), "target": None})
    assert r.key == "raiders.reject.only_discard" and r.rule == "RD-14"
    state, _ = act(state, 0, {"type": "shnyaga", "card": card("c6"), "target": card("c10")})
    assert [p.seat for p in GAME.to_act(state)] == [0] and GAME.to_act(state)[0].kind == "choice"
    assert GAME.legal_actions(state, 0) == [{"type": "discard", "card": card("h9")}]
    state, _ = act(state, 0, {"type": "discard", "card": card("h9")})
    state, events = all_pass(state)
    assert card("h9") in state["discard"] and "krutizna" in kinds(events)


def test_kitty_draws_two_on_your_own_turn_and_only_the_drawer_sees_them():
    state = arrange(new_table(2), hands={0: ["c9"], 1: ["d6"]}, guarded={"kiosk1": ("c6", 0)})
    state, _ = act(state, 0, {"type": "shnyaga", "card": card("c9"), "target": None})
    state, events = all_pass(state)
    drew = [e for e in events if e["kind"] == "drew"]
    assert len(state["players"][0]["hand"]) == 2 and drew[0]["to"] == [0]
    assert next(e for e in events if e["kind"] == "drew_count")["to"] is None


def test_an_empty_deck_is_rebuilt_from_its_discards():
    state = arrange(new_table(2), hands={0: ["c6"], 1: ["d6"]}, guarded={"kiosk1": ("c7", 0)})
    state["discard"] += state["deck"][:-3]
    state["deck"] = state["deck"][-3:]
    state, events = act(state, 0, {"type": "end"})
    assert "reshuffled" in kinds(events) and len(state["players"][1]["hand"]) == 6
    assert not state["trump_shown"], "the card under the deck was drawn"


# ------------------------------------------------------------------------------------------ бабки and the end
def test_bonuses_for_properties_of_one_kind_are_counted_per_player():
    from bot.games.raiders.state import babki, kind_value

    assert kind_value([2, 2], {2: 6}) == 6, "«2 клуба = 6»: two clubs bring 6, not 4"
    assert kind_value([6, 6, 6], {2: 14}) == 20, "a bonus for two and the third counted plainly"
    state = arrange(new_table(2), hands={0: ["c6"], 1: ["d6"]},
                    guarded={"club1": ("c7", 0), "club2": ("c8", 0), "bank1": ("c9", 0), "club3": ("d7", 1)})
    assert babki(state, 0) == 6 + 6 and babki(state, 1) == 2


def test_the_game_is_won_at_once_at_36():
    state = arrange(new_table(2), hands={0: ["ca"], 1: ["d6"]},
                    guarded={"bank1": ("c7", 0), "bank2": ("c8", 0), "casino1": ("c10", 0), "casino2": ("cj", 0)},
                    free=["bank3"])
    from bot.games.raiders.state import babki
    assert babki(state, 0) == 14 + 12
    state, _ = act(state, 0, {"type": "capture", "card": card("ca"), "prop": card("bank3")})
    state, events = all_pass(state)
    assert state["outcome"]["winners"] == [0] and babki(state, 0) == 24 + 12 == 36
    assert GAME.to_act(state) == []


@pytest.mark.parametrize("seats, short, target", [(2, True, 36), (3, False, 36), (3, True, 30), (4, True, 24),
                                                  (6, True, 12)])
def test_the_target_for_three_or_more_players(seats, short, target):
    assert new_table(seats, options={"short_target": short})["target"] == target


def test_pairs_win_together_with_bonuses_per_player():
    state = new_table(4, options={"pairs": True})
    assert state["teams"] == [[0, 2], [1, 3]]
    state = arrange(state, hands={0: ["ca"]}, guarded={"bank1": ("c7", 0), "bank2": ("c8", 2), "casino1": ("c9", 2),
                                                     "casino2": ("c10", 0), "market1": ("cj", 2)}, free=["bank3"])
    # per player: seat 0 bank 6 + casino 5 = 11; seat 2 bank 6 + casino 5 + market 4 = 15; together 26
    assert GAME.judge_table(state)["sides"] == [26, 0]
    assert GAME.view(state, None)["teams"] == [[0, 2], [1, 3]]
    with pytest.raises(Exception) as info:
        GAME.initial_state(3, seed="p", options={"pairs": True})
    assert info.value.rejection.code == Code.BAD_SETUP


def test_two_sets_are_mixed_for_more_than_four_players():
    assert new_table(4)["copies"] == 1
    state = new_table(5)
    assert state["copies"] == 2 and len(GAME_cards(state).fighters) == 72
    assert new_table(2, options={"sets": "two"})["copies"] == 2


def test_hands_stay_hidden_and_the_board_is_public():
    state = new_table(3)
    for seat in range(3):
        view = GAME.view(state, seat)
        assert view["hand"] == state["players"][seat]["hand"]
        assert "players" not in view and "deck" not in view
    assert GAME.view(state, None)["hand"] is None
