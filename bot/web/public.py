"""What the public may see of the record, read from the store: the only door from the database to the pages.

Every reader here returns the public's share and nothing else: a table's *public* events (``to`` is None),
its state only as ``game.view(state, None)`` (the view the public picture is drawn from), the seed only once
the table has ended, the actions only as who moved and when (their JSON names hidden cards), never a version
number (versions count the secret steps too: bot/referee/moves.py).  The page builders (pages.py) are pure functions of
these records, so a test can hand them a state whose hidden cards were dealt anew and compare the bytes.

``token`` functions give, in one cheap query each, what a page depends on: the application keeps a rendered
page until its token changes (the ETag is the page's digest).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from bot.engine import Rejection, get_game
from bot.engine.versions import CannotMigrate, readable
from bot.referee.moves import Moves, public
from bot.storage import public_reads as reads
from bot.storage.public_reads import Scope
from bot.storage.store import Store, TableRow
from bot.storage.tournaments import Entry, GameRow, RoundRow, TournamentRow

#: statuses whose seed the referee has revealed (bot/referee/record.py exports it then too)
ENDED = ("finished", "cancelled")
#: a server's index lists this many tables a page, newest first, and this many tournaments (docs/web.md "Paging")
TABLES_PER_PAGE = 40
TOURNAMENTS_PER_PAGE = 20
#: the key of tables and tournaments played outside any Discord server (the terminal, the demo)
LOCAL = "local"


@dataclass(frozen=True)
class Seat:
    seat: int
    user_id: str
    name: str
    is_bot: bool


@dataclass(frozen=True)
class Step:
    """One public step of a table's log: the deal (``kind`` "setup"), a move, or a moderator's rollback.
    ``index`` numbers the steps 0, 1, 2 … for the replay's addresses; ``number`` is the move's number as the
    log shows it (bot/referee/moves.py).  ``seat``: who moved (None: the referee); ``at``: when."""

    index: int
    kind: str
    number: int | None
    version: int          # kept for reading the state; never shown
    seat: int | None
    at: float | None
    undone: bool
    events: tuple[Mapping[str, Any], ...]


@dataclass
class PublicTable:
    """A started table as the public sees it."""

    id: int
    game: str
    status: str
    title: str | None
    guild: str
    origin: str
    seats: list[Seat]
    seed_hash: str | None
    seed: str | None                      # only once the table has ended
    outcome: Mapping[str, Any] | None
    created_at: float
    started_at: float | None
    finished_at: float | None
    paused: bool
    steps: list[Step]
    view: Mapping[str, Any] | None        # the public view of the current state
    tournament: tuple[int, str | None, int, int] | None = None   # (id, title, round, board)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def ended(self) -> bool:
        return self.status in ENDED


def guild_key(guild_id: str | None) -> str:
    return guild_id if guild_id else LOCAL


def scope_of(guild: str | None) -> Scope:
    """The tables of the server ``guild`` keys (``LOCAL``: outside any server; None: every server's)."""
    return Scope.all_servers() if guild is None else Scope.server(None if guild == LOCAL else guild)


# ---------------------------------------------------------------------------------------------- tables
async def table_token(store: Store, table_id: int) -> tuple[Any, ...] | None:
    """What a table's pages depend on: its version, status and pause (None: no such table, or not started)."""
    marks = await reads.table_marks(store, table_id)
    if marks is None or marks.status == "lobby":
        return None
    return ("table", table_id, marks.status, marks.version, marks.paused_at)


async def load_table(store: Store, table_id: int) -> PublicTable | None:
    """The table as the public sees it now; None for no table, a lobby, or a table cancelled before it began."""
    row = await store.get_table(table_id)
    if row is None or row.status == "lobby" or row.seed_hash is None:
        return None
    seats = await store.seats(table_id)
    # the public events only, and of the actions only who and when (their JSON names hidden cards)
    events = [{"version": e.version, "kind": e.kind, "to": None, "data": e.data}
              for e in await reads.public_events(store, table_id)]
    moved = {version: (m.seat, m.at) for version, m in (await reads.movers(store, table_id)).items()}
    link = await reads.table_event(store, table_id)
    return public_table(row, seats, events, moved, await store.state(table_id),
                        (link.tournament_id, link.title, link.round, link.board) if link else None)


def public_table(row: TableRow, seats: Sequence[Any], events: Sequence[Mapping[str, Any]],
                 moved: Mapping[int, tuple[int, float]], state: Mapping[str, Any] | None,
                 tournament: tuple[int, str | None, int, int] | None = None) -> PublicTable:
    """The public's share of a table's record: every event and the whole state go in, the public events and
    the public view of the state come out (the tests feed it states whose hidden cards were dealt anew)."""
    return PublicTable(
        id=row.id, game=row.game, status=row.status, title=row.title, guild=guild_key(row.guild_id),
        origin=row.origin, seats=[Seat(s.seat, s.user_id, s.name, s.is_bot) for s in seats],
        seed_hash=row.seed_hash, seed=row.seed if row.status in ENDED else None, outcome=row.outcome,
        created_at=row.created_at, started_at=row.started_at, finished_at=row.finished_at,
        paused=row.paused_at is not None, steps=steps_of(events, moved),
        view=public_view(row.game, state), tournament=tournament)


def steps_of(events: Sequence[Mapping[str, Any]],
             moved: Mapping[int, tuple[int, float]] | None = None) -> list[Step]:
    """The public steps of a log from its public events (anything else given is dropped here too), with who
    moved and when from ``moved`` (version -> (seat, at); a negative seat is the referee's own step)."""
    shown = [dict(e) for e in events if public(e)]
    steps: list[Step] = []
    for entry in Moves(shown).entries:
        if entry.kind not in ("setup", "move", "rollback"):
            continue
        seat, at = (moved or {}).get(entry.version, (None, None))
        events_here = []
        for e in entry.events:
            if e["kind"] == "rollback":  # named by the move it returned to, as the table heard it
                e = {**e, "data": {**e["data"], "move": entry.number}}
            events_here.append(e)
        steps.append(Step(len(steps), entry.kind, entry.number, entry.version,
                          seat if seat is not None and seat >= 0 else None, at, entry.undone, tuple(events_here)))
    return steps


async def step_view(store: Store, table: PublicTable, index: int) -> Mapping[str, Any] | None:
    """The public view of the table right after its step ``index``."""
    if not 0 <= index < len(table.steps):
        return None
    return public_view(table.game, await store.state(table.id, table.steps[index].version))


def public_view(game: str, state: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """The public's view of a stored state, as today's rules read it (a state written before an upgrade is
    migrated first); None when there is none, or this release cannot read it (a frozen table: its page shows
    the record without the board)."""
    if state is None:
        return None
    rules = get_game(game)
    try:
        return rules.view(readable(rules, dict(state)), None)
    except CannotMigrate:
        return None


async def public_record(store: Store, table_id: int) -> dict[str, Any] | None:
    """The export of an ended table (bot/referee/record.py without the moderator's extras: the seed, the actions, the
    snapshots' digests, public dispute texts), which ``python -m bot verify --file`` checks.  None before the
    table ends: until then the export would tell how many secret steps were taken."""
    from bot.referee.record import export_table

    row = await store.get_table(table_id)
    if row is None or row.status not in ENDED or row.seed is None:
        return None
    return await export_table(store, table_id)


# ---------------------------------------------------------------------------------------------- tournaments
@dataclass
class PublicTournament:
    row: TournamentRow
    entries: list[Entry]
    rounds: list[RoundRow]
    games: list[GameRow]
    tables: dict[int, str]                 # table id -> its status
    standings: list[Any] = field(default_factory=list)   # bot.tournament.standings.Standing, best first
    labels: dict[tuple[int, frozenset], str] = field(default_factory=dict)   # double elimination: W, L, F
    matches: list[GameRow] = field(default_factory=list)   # the games as the crosstable counts them (T-20)
    groups: list[list[Any]] = field(default_factory=list)  # round-robin groups: each one's standings (T-24)
    first_stage: TournamentRow | None = None               # a second stage's first stage (T-24)
    next_stage: "PublicTournament | None" = None           # a first stage's second stage, for its bracket
    live: list[PublicTable] = field(default_factory=list)  # its tables in play, as their own pages show them


async def tournament_token(store: Store, tournament_id: int) -> tuple[Any, ...] | None:
    marks = await reads.tournament_marks(store, tournament_id)
    if marks is None:
        return None
    token = ("tournament", tournament_id, *marks)
    child = await reads.next_stage_id(store, tournament_id)  # the first stage's page shows the second's bracket too
    return token if child is None else (*token, await tournament_token(store, child))


async def load_tournament(store: Store, tournament_id: int) -> PublicTournament | None:
    """The tournament with its standings and bracket labels as the director computes them (its tie-breaks, how
    far each went in a bracket, each player's rating at the start)."""
    from bot.referee.service import Referee
    from bot.tournament.director import Director

    director = Director(Referee(store))  # only read: no table is touched
    record = director.record
    row = await record.get(tournament_id)
    if row is None:
        return None
    entries, games = await record.entries(tournament_id), await record.games(tournament_id)
    ids = [g.table_id for g in games if g.table_id]
    tables = await reads.table_statuses(store, ids)
    ranked = await director.standings(tournament_id) if row.status != "registration" else []
    if isinstance(ranked, Rejection):  # only for a tournament that is gone, as it was read just above
        return None
    data = PublicTournament(row, entries, await record.rounds(tournament_id), games, tables, ranked,
                            director.bracket_labels(row, games),
                            director.counted(row, entries, director.as_matches(row, games)))  # T-4a
    if row.status != "registration":
        data.groups = await director.group_standings(tournament_id)
    for table_id in sorted(t for t, status in tables.items() if status == "active"):
        found = await load_table(store, table_id)
        if found is not None:
            data.live.append(found)
    if row.settings.get("first_stage"):
        data.first_stage = await record.get(row.settings["first_stage"])
    child = await reads.next_stage_id(store, tournament_id)
    if child is not None and not row.settings.get("first_stage"):  # one level: a second stage has no third
        data.next_stage = await load_tournament(store, child)
    return data


# ---------------------------------------------------------------------------------------------- index, players
@dataclass
class ServerIndex:
    guild: str
    tournaments: list[TournamentRow]
    tables: list[tuple[TableRow, list[str]]]    # started tables, newest first, with their players' names
    page: int = 1                               # this page's number, 1 the newest
    pages: int = 1                              # how many pages the index has


async def servers(store: Store) -> list[tuple[str, int, int]]:
    """Every server with public tables or tournaments: (key, tables, tournaments), the most active first."""
    counts: dict[str, list[int]] = {}
    for c in await reads.server_counts(store):
        kept = counts.setdefault(guild_key(c.guild_id), [0, 0])
        kept[0] += c.tables
        kept[1] += c.tournaments
    return sorted(((k, v[0], v[1]) for k, v in counts.items()), key=lambda s: (-(s[1] + s[2]), s[0]))


async def index_token(store: Store, guild: str | None) -> tuple[Any, ...]:
    return ("index", guild, *await reads.index_marks(store, scope_of(guild)))


def page_count(tables: int, tournaments: int) -> int:
    """How many pages an index of so many tables and tournaments takes (one at least: an empty index's)."""
    return max(1, -(-tables // TABLES_PER_PAGE), -(-tournaments // TOURNAMENTS_PER_PAGE))


async def load_index(store: Store, guild: str, page: int = 1) -> ServerIndex | None:
    """A server's index page ``page``: its newest tournaments and started tables, ``TOURNAMENTS_PER_PAGE`` and
    ``TABLES_PER_PAGE`` a page.  None past the last page, and for a server with nothing public (none, or one
    off the public pages: the same answer) except ``LOCAL``, whose empty index says so."""
    scope = scope_of(guild)
    tables, tournaments = await reads.scope_sizes(store, scope)
    if guild != LOCAL and tables + tournaments == 0:
        return None
    pages = page_count(tables, tournaments)
    if not 1 <= page <= pages:
        return None
    tours = await reads.scope_tournaments(store, scope, TOURNAMENTS_PER_PAGE, (page - 1) * TOURNAMENTS_PER_PAGE)
    found = await reads.started_tables(store, scope, TABLES_PER_PAGE, (page - 1) * TABLES_PER_PAGE)
    names = await reads.seat_names(store, [row.id for row in found])
    return ServerIndex(guild, tours, [(row, names[row.id]) for row in found], page, pages)


@dataclass
class PublicPlayer:
    user_id: str
    name: str
    tables: list[tuple[TableRow, list[Seat]]]
    tournaments: list[tuple[TournamentRow, Entry]]
    ratings: list[Mapping[str, Any]] = field(default_factory=list)
    games: dict[int, list[GameRow]] = field(default_factory=dict)        # per tournament: the player's games
    opponents: dict[int, dict[str, str]] = field(default_factory=dict)   # per tournament: its players' names


async def player_token(store: Store, user_id: str) -> tuple[Any, ...]:
    return ("player", user_id, *await reads.player_marks(store, user_id))


async def load_player(store: Store, user_id: str, limit: int = 200) -> PublicPlayer | None:
    """A player's started tables and tournaments; None when the record knows no such player."""
    tables = []
    for row in await reads.player_tables(store, user_id, limit):
        tables.append((row, [Seat(s.seat, s.user_id, s.name, s.is_bot) for s in await store.seats(row.id)]))
    tours = await reads.player_entries(store, user_id, limit)
    ids = [row.id for row, _ in tours]
    names = [s.name for _, seats in tables for s in seats if s.user_id == user_id] + [e.name for _, e in tours]
    if not names:
        return None
    return PublicPlayer(user_id, names[0], tables, tours, games=await reads.player_games(store, user_id, ids),
                        opponents=await reads.entry_names(store, ids))

