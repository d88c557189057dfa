"""Helpers shared by the fake-Discord tests: starting a toy table, finding who is to act, playing a table or a
tournament round out through the buttons, a disputed table, a user's control message, a thread's live messages,
the web address of the ``linked`` harness."""
from bot.engine import get_game
from bot.tournament.director import Director
from tests.discord.harness import random_choice


async def started_toy(h, *players):
    players = players or (h.alice, h.bob)
    table = await h.new_table(players[0], "toy")
    for user in players[1:]:
        await h.join(user, table)
    await h.start(players[0], table)
    return await h.table(table.id)


async def user_to_act(h, table):
    state = await h.store.state(table.id)
    seats = await h.store.seats(table.id)
    pending = get_game(table.game).to_act(state)
    uid = seats[pending[0].seat].user_id.split(":")[1]
    return h.fake.users[uid]


async def tournament_message(h, tid):
    tour = await h.bot.tournaments.director.record.get(tid)
    return tour, h.fake.messages[tour.message_id]


async def enter(h, tid, *users):
    """Each of ``users`` enters the tournament by its message's button; returns that message."""
    _, message = await tournament_message(h, tid)
    for user in users:
        await (await h.fake.click(user, message, prefix="j:tjoin:")).answer()
    return message


async def new_tournament(h, user, **values):
    reply = await (await h.fake.slash(user, "tournament new", game="toy", format="swiss", **values)).answer()
    found = await h.bot.tournaments.director.record.find()
    assert found, f"no tournament: {reply.content}"
    return found[0].id, reply


async def play_round(h, tid, number):
    """Every human move of the round's tables, through the buttons, until each table is finished."""
    director: Director = h.bot.tournaments.director
    for g in await director.record.games(tid, number):
        if g.kind != "table":
            continue
        table = await h.table(g.table_id)
        while (await h.table(table.id)).status == "active":
            await h.act(await user_to_act(h, table), table, random_choice(f"t{table.id}"))


async def play_out(h, table, choose=None):
    while (await h.table(table.id)).status == "active":
        await h.act(await user_to_act(h, table), table, choose)


async def record_of_a_game(h, game, *, restart_after):
    """Play a whole table through the fake Discord (restarting the bot after ``restart_after`` moves);
    returns its record: every action and every snapshot."""
    table = await h.new_table(h.alice, game)
    await h.join(h.bob, table)
    await h.start(h.alice, table)
    moves = 0
    while (await h.table(table.id)).status == "active":
        if moves == restart_after:
            await h.restart()
        await h.act(await user_to_act(h, table), table, lambda n: n // 2)
        moves += 1
    actions = [(a.version, a.seat, a.user_id, a.action, a.at) for a in await h.store.actions(table.id)]
    return actions, [text for _, text in await h.store.snapshot_texts(table.id)]


async def disputed(h, *, private=False):
    table = await started_toy(h)
    await h.act(await user_to_act(h, table), table)
    waiting = await user_to_act(h, table)
    await (await h.fake.slash(waiting, "dispute", channel_id=table.thread_id, move=1, text="wrong card",
                              private=private)).answer()
    await h.settled()
    return table, waiting


def control(fake, user):
    """The user's control message of the table: the newest message in their DMs (the only table of these tests;
    an older one stays where it was replaced without a living token)."""
    return fake.dms(user)[-1]


def live(fake, table):
    """The messages of the table's thread that still carry components of play (a finished table's Replay button,
    on its end post and live message, is not one)."""
    return [m for m in fake.in_channel(table.thread_id) if not m.ephemeral_for
            and any(not c["custom_id"].startswith("j:replay:") for c in m.items())]


#: the public pages' address of the ``linked`` harness (tests/discord/conftest.py)
BASE = "https://judge.example.org"


async def stacked_table(h, game, users, stack, **values):
    """A table opened and joined through Discord, then dealt from a stacked deck (a moderator's tool of the
    referee, not offered on Discord)."""
    table = await h.new_table(users[0], game, **values)
    for user in users[1:]:
        await h.join(user, table)
    started = await h.bot.referee.start(table.id, f"discord:{users[0].id}", moderator=True, stack=stack)
    assert not hasattr(started, "code"), started
    await h.settled()
    return await h.table(table.id)
