"""What a player missed: the public moves since their last decision, at the top of the control message that
pings them (issue 27: "the ping says what happened").  Compact: at most ``MOST`` lines, the newest kept, the
earlier ones counted with a link to the whole log (the table's public page where the bot serves one, else the
``/table log`` command)."""
from __future__ import annotations

from typing import Sequence

from bot.engine.board_text import shorten
from bot.i18n import t

MOST = 6          # lines of the recap, the "…and N more" line included
WIDTH = 120       # characters of one line (Discord wraps prose; a card's long effect is cut)


def recap_lines(lines: Sequence[str], locale: str, log_url: str | None = None) -> list[str]:
    """``lines`` (public event lines, oldest first) as the recap shows them."""
    lines = [line for line in lines if line.strip()]
    if len(lines) <= MOST:
        shown, earlier = lines, 0
    else:
        shown, earlier = lines[-(MOST - 1):], len(lines) - (MOST - 1)
    out = [f"▸ {shorten(line, WIDTH)}" for line in shown]
    if earlier:
        more = t("discord.recap.more_link", locale, n=earlier, url=f"<{log_url}>") if log_url \
            else t("discord.recap.more", locale, n=earlier)
        out.insert(0, more)
    return out
