"""Public move numbers (bot/referee/moves.py): counted from public events only, rollbacks by move number, undone moves
kept and marked; the terminal's replay and its ``mod rollback --move``."""
import random

from bot.engine import Code, Rejection, get_game
from bot.referee import moderation
from bot.referee.moves import Moves
from bot.referee.record import verify_table
from bot.referee.service import Accepted
from bot.terminal.cli import main
from tests.support.tables import new_toy, play_one


async def _moves(referee, table_id):
    return Moves(await referee.history(table_id))


def _numbered(moves):
    return [(e.number, e.version, e.undone) for e in moves.entries if e.kind == "move"]


async def test_every_public_action_is_a_move_numbered_from_one(env):
    store, referee, clock = env
    tid = await new_toy(referee)
    assert (await _moves(referee, tid)).latest == 0
    for _ in range(3):
        clock.t += 1
        await play_one(referee, store, tid)
    moves = await _moves(referee, tid)
    assert _numbered(moves) == [(1, 1, False), (2, 2, False), (3, 3, False)]
    assert [e.kind for e in moves.entries] == ["setup", "move", "move", "move"]
    assert moves.latest == 3 and [moves.version_of(n) for n in (0, 1, 2, 3, 4)] == [0, 1, 2, 3, None]


async def test_a_rollback_by_move_number_undoes_the_later_moves_which_the_log_keeps_marked(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    for _ in range(3):
        await play_one(referee, store, tid)
    result = await moderation.rollback(referee, tid, move=1, moderator="cli:mod", reason="misclick")
    assert isinstance(result, Accepted) and result.version == 4
    assert result.events[0]["data"] == {"to": 1, "move": 1, "reason": "misclick", "by": "cli:mod"}
    assert await store.state(tid) == {**await store.state(tid, 1), "version": 4}
    moves = await _moves(referee, tid)
    assert _numbered(moves) == [(1, 1, False), (2, 2, True), (3, 3, True)]
    assert moves.entries[-1].kind == "rollback" and moves.entries[-1].number == 1 and moves.latest == 1

    await play_one(referee, store, tid)  # the next move is move 2 again; the undone move 2 stays undone
    moves = await _moves(referee, tid)
    assert _numbered(moves) == [(1, 1, False), (2, 2, True), (3, 3, True), (2, 5, False)]
    assert moves.version_of(2) == 5 and moves.version_of(3) is None

    # back to the start: every move is undone, the rollbacks themselves are not moves
    assert isinstance(await moderation.rollback(referee, tid, move=0, moderator="cli:mod", reason="restart"),
                      Accepted)
    moves = await _moves(referee, tid)
    assert all(undone for _, _, undone in _numbered(moves)) and moves.latest == 0
    assert [e.number for e in moves.entries if e.kind == "rollback"] == [1, 0]
    while (await store.get_table(tid)).status == "active":
        await play_one(referee, store, tid)
    assert (await verify_table(store, tid)).ok


async def test_a_rollback_by_version_is_announced_with_the_move_it_returns_to(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    for _ in range(3):
        await play_one(referee, store, tid)
    result = await moderation.rollback(referee, tid, 2, moderator="cli:op", reason="x")
    assert result.events[0]["data"]["move"] == 2
    # a version rolled back to over an undone stretch: the line as it stood then
    await play_one(referee, store, tid)
    result = await moderation.rollback(referee, tid, 3, moderator="cli:op", reason="redo")
    moves = await _moves(referee, tid)
    assert result.events[0]["data"]["move"] == 3 and moves.latest == 3
    assert _numbered(moves) == [(1, 1, False), (2, 2, False), (3, 3, False), (3, 5, True)]


async def test_bad_move_numbers_are_refused_and_change_nothing(env):
    store, referee, _ = env
    tid = await new_toy(referee)
    refused = await moderation.rollback(referee, tid, move=0, moderator="m", reason="x")
    assert isinstance(refused, Rejection) and refused.key == "moderation.reject.no_moves"
    for _ in range(2):
        await play_one(referee, store, tid)
    for move, key in [(2, "moderation.reject.latest_move"), (3, "moderation.reject.no_move"),
                      (-1, "moderation.reject.no_move")]:
        refused = await moderation.rollback(referee, tid, move=move, moderator="m", reason="x")
        assert isinstance(refused, Rejection) and refused.key == key and refused.code == Code.ILLEGAL
        assert "1" in refused.message("en")  # the last move that may be given
    assert (await store.get_table(tid)).version == 2


# ------------------------------------------------------------------------------------------ secret steps
async def _gwent_through_the_mulligan(referee, store, exchanges: int) -> int:
    """A Gwent table (same seed, same choices) up to the end of the mulligan, where seat 0 exchanges
    ``exchanges`` cards in secret and seat 1 none."""
    game = get_game("gwent")
    table = await referee.create_table("gwent", creator="u:a", creator_name="a", origin="terminal")
    await referee.join(table.id, "u:b", "b")
    await referee.start(table.id, "u:a", seed="same seed")
    users = ["u:a", "u:b"]
    done = 0
    while True:
        state = await store.state(table.id)
        if state["phase"] not in ("setup", "mulligan"):
            return table.id
        seat = game.to_act(state)[0].seat
        legal = game.legal_actions(state, seat)
        if state["phase"] == "setup":
            action = game.bot_action(state, seat, random.Random(f"setup {seat}"))
        elif seat == 0 and done < exchanges:
            kind = "mulligan_take" if state["mull"][0]["give"] is not None else "mulligan_give"
            action = next(a for a in legal if a["type"] == kind)
            done += kind == "mulligan_take"
        else:
            action = {"type": "mulligan_done"}
        assert isinstance(await referee.act(table.id, users[seat], action, seat=seat), Accepted)


async def test_move_numbers_do_not_tell_how_many_cards_a_secret_mulligan_exchanged(env):
    store, referee, _ = env
    none = await _gwent_through_the_mulligan(referee, store, exchanges=0)
    two = await _gwent_through_the_mulligan(referee, store, exchanges=2)
    assert (await store.get_table(two)).version > (await store.get_table(none)).version  # the secret steps

    def public_moves(moves):
        return [(e.number, e.undone, [(ev["kind"], ev["data"]) for ev in e.events])
                for e in moves.entries if e.kind == "move"]

    seen_none, seen_two = await _moves(referee, none), await _moves(referee, two)
    assert public_moves(seen_none) == public_moves(seen_two) and seen_none.latest == seen_two.latest >= 3
    assert any(ev["kind"] == "mulligan_done" for e in seen_two.entries for ev in e.events)
    # a moderator's history (private events too) numbers the moves the same way
    everything = Moves(await referee.history(two, moderator=True))
    assert [(e.number, e.version) for e in everything.entries if e.kind == "move"] == \
        [(e.number, e.version) for e in seen_two.entries if e.kind == "move"]
    assert any(e.kind == "private" for e in everything.entries)

    # rolling both back to the same move gives the same public position
    for tid in (none, two):
        assert isinstance(await moderation.rollback(referee, tid, move=1, moderator="m", reason="x"), Accepted)
    game = get_game("gwent")
    views = [{k: v for k, v in game.view(await store.state(tid), None).items() if k != "version"}
             for tid in (none, two)]
    assert views[0] == views[1]


# ------------------------------------------------------------------------------------------ the terminal
def test_replay_numbers_moves_and_marks_the_undone_ones(tmp_path, capsys):
    db = str(tmp_path / "j.db")
    run = lambda *a: main(["--db", db, "--locale", "en", *a])  # noqa: E731
    assert run("table", "new", "--game", "toy", "--user", "ann") == 0
    assert run("table", "join", "1", "--user", "ben") == 0
    assert run("table", "start", "1", "--user", "ann", "--seed", "x") == 0
    played = 0
    while played < 3:
        played += sum(run("table", "act", "1", "1", "--user", user) == 0 for user in ("ann", "ben"))
    capsys.readouterr()
    assert run("mod", "rollback", "1", "--move", "1", "--to", "0", "--reason", "x") == 2
    assert "either --to" in capsys.readouterr().err
    assert run("mod", "rollback", "1", "--move", "1", "--reason", "misclick", "--user", "op") == 0
    capsys.readouterr()

    assert run("replay", "1") == 0
    lines = capsys.readouterr().out.splitlines()
    moves = [line for line in lines if line[:1].isdigit()]
    assert [line.split(".")[0] for line in moves] == ["1", "2", "3"]
    assert all(line.endswith("[undone]") == (not line.startswith("1.")) for line in moves)
    assert any("Rolled back to move 1 of the log by op. Reason: misclick" in line for line in lines)
    assert not any(line.startswith("[") for line in lines)  # versions only for moderators
    assert run("replay", "1", "--moderator") == 0
    out = capsys.readouterr().out
    assert "] • the referee: {" in out and '"type": "rollback"' in out and "[2] 2. ben  [undone]: {" in out
