"""A moderator's "what if" (bot/referee/whatif.py) as text: where the trial started, the moves tried and what they
did, where it ended, every seat's board and the moves open now.

For moderators only — it shows everything, hidden events (marked 🔒) and every hand included — so it is printed
at the terminal of whoever may look and answered privately on Discord, never posted.  Pure functions of a trial
(any object with the fields of ``bot.referee.whatif.Trial``)."""
from __future__ import annotations

from typing import Any, Sequence

from bot.i18n import t
from bot.render.text import game_title, outcome_line, render_event, turn_line


def _who(trial: Any, seat: int) -> str:
    return trial.names[seat] if 0 <= seat < len(trial.names) else "?"


def head_line(trial: Any, locale: str) -> str:
    return t("whatif.head", locale, table=trial.table.id, game=game_title(trial.game, locale), move=trial.move,
             version=trial.version)


def tried_lines(trial: Any, locale: str, *, most: int | None = None) -> list[str]:
    """Each move tried (by hand ✋ or by a bot 🤖) and its events; with ``most``, the last ``most`` moves only,
    after a line counting the others."""
    tried: Sequence[Any] = trial.tried
    lines: list[str] = []
    skipped = max(0, len(tried) - most) if most is not None else 0
    if skipped:
        lines.append(t("whatif.earlier", locale, n=skipped))
    for n, step in enumerate(tried[skipped:], skipped + 1):
        who = _who(trial, step.seat)
        if step.before is not None:
            label = trial.game.describe_action(step.before, step.seat, step.action, locale, trial.names)
            lines.append(f"{n}. ✋ {who}: {label}")
        else:
            lines.append(f"{n}. 🤖 {who}")
        for event in step.events:
            text = render_event(trial.game, event, locale, trial.names, detail=True)
            if text:
                lines.append(f"    {text}" + ("" if event.get("to") is None else "  🔒"))
    return lines


def end_lines(trial: Any, locale: str) -> list[str]:
    """How the trial stands: its outcome, the bots' bound reached, or whose decision it is now."""
    if trial.outcome is not None:
        return [outcome_line(trial.game, trial.outcome, locale, trial.names)]
    lines = [t("whatif.cut", locale, n=len(trial.tried))] if trial.cut else []
    turn = turn_line(trial.game.view(trial.state, None), locale, trial.names)
    return lines + ([turn] if turn else [])


def offer_labels(trial: Any, locale: str) -> list[str]:
    """The moves open now, numbered as a typed number picks them (``Trial.offers``), each with its seat."""
    return [f"{n}. {_who(trial, seat)}: {trial.game.describe_action(trial.state, seat, action, locale, trial.names)}"
            for n, (seat, action) in enumerate(trial.offers(), 1)]


def boards(trial: Any, locale: str) -> list[tuple[str, str]]:
    """Every seat's board at the scratch position (what each knows: together, everything), as (header, board)."""
    return [(t("whatif.seat_board", locale, seat=seat + 1, name=_who(trial, seat)),
             trial.game.render_view(trial.game.view(trial.state, seat), locale, trial.names))
            for seat in range(trial.state["seats"])]


def trial_text(trial: Any, locale: str) -> str:
    """The whole trial, for the terminal."""
    lines = [head_line(trial, locale), *tried_lines(trial, locale), *end_lines(trial, locale)]
    for header, board in boards(trial, locale):
        lines += ["", header, board]
    if trial.outcome is None:
        offered = offer_labels(trial, locale)
        lines += ["", t("whatif.offers", locale, n=len(offered)), *offered]
    return "\n".join(lines)


__all__ = ["head_line", "tried_lines", "end_lines", "offer_labels", "boards", "trial_text"]
