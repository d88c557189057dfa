"""How a referee's message is stored: lean, to be filled from the record when it is delivered.

The referee stores a game message lean: its version, the target (the table or one seat) and the referee's own
fields (who moved, the seed at the end).  The events and the view are filled in when the message is read for
delivery, from the snapshot and the events of that version (``Store.pending_records`` reads them beside the
row).  Those rows never change once committed (a rollback appends a new version), so every attempt at one
message renders the same content — what the look-back de-duplication of a deliverer compares.  Who may see
which events and which view is decided above storage, by the referee (bot/referee/visibility.py).
"""
from __future__ import annotations

from typing import Any

FROM_RECORD = "from_record"   # the payload's mark: events and view are to be read from the record


def lean(version: int, **fields: Any) -> dict[str, Any]:
    return {"version": version, FROM_RECORD: True, **fields}
