"""The tournament log's attendance and pairing edits, read the same on Discord and at the terminal
(tests/terminal/test_tournament_organiser.py, tests/discord/test_tournament_entry.py)."""
PARITY_ACTIONS = ("check_in", "bye_requested", "bye_withdrawn", "forbid", "swap")


def attendance_record(entries, names):
    """The log's attendance and pairing edits with each user id replaced by the player's name: the same event
    run on Discord and at the terminal must read the same."""
    def named(value):
        if isinstance(value, str):
            return names.get(value, value)
        if isinstance(value, list):
            return [named(v) for v in value]
        return {k: named(v) for k, v in value.items()} if isinstance(value, dict) else value
    out = []
    for action, by, reason, data in entries:
        data = named(data)
        if action == "forbid":
            data["players"] = sorted(data["players"])  # stored sorted by id; ids differ between the front ends
        out.append((action, named(by), reason, data))
    return out


def parity(x, y):
    """What the event below writes: five check-ins, eve's bye asked, taken back, asked again, ann and ben kept
    apart, x and y swapped in round 1."""
    return [*[("check_in", n, None, {"user": n}) for n in ("ann", "ben", "cat", "dan", "eve")],
            ("bye_requested", "eve", None, {"user": "eve", "round": 1}),
            ("bye_withdrawn", "eve", None, {"user": "eve", "round": 1}),
            ("bye_requested", "eve", None, {"user": "eve", "round": 1}),
            ("forbid", "org", "siblings", {"players": ["ann", "ben"]}),
            ("swap", "org", "asked", {"round": 1, "players": [x, y]})]
