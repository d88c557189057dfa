"""A refusal's citation leads somewhere (issue 35, item 5): in the terminal, each cited rule comes with the
``python -m bot rules GAME CITATION`` command that opens it, and that command does open it."""
import subprocess
import sys
from pathlib import Path

from bot.engine import Code, Rejection
from bot.rules import catalogue
from bot.terminal.common import refusal_text

ROOT = Path(__file__).resolve().parents[2]


def test_a_terminal_refusal_names_the_command_that_opens_its_rule():
    cite = catalogue("bridges").find("§1.1").cite
    text = refusal_text(Rejection(Code.ILLEGAL, "bridges.reject.unknown_action", {}, rule=cite), "ru")
    assert "(см. §1.1)" in text and text.endswith("python -m bot rules bridges §1.1")
    # a core refusal citing a table's rule: the table's game is given
    core = refusal_text(Rejection(Code.ILLEGAL, "core.reject.not_your_turn", {}, rule="§9"), "en", "gwent")
    assert "python -m bot rules gwent §9" in core
    # a ruling id alone tells its game; a refusal without a citation gets no line
    ruling = refusal_text(Rejection(Code.ILLEGAL, "core.reject.not_your_turn", {}, rule="CG-14"), "uk")
    assert "python -m bot rules claygod CG-14" in ruling
    assert refusal_text(Rejection(Code.ILLEGAL, "core.reject.not_your_turn", {}), "ru") == \
        Rejection(Code.ILLEGAL, "core.reject.not_your_turn", {}).message("ru")


def test_the_named_command_opens_the_paragraph():
    done = subprocess.run([sys.executable, "-m", "bot", "rules", "bridges", "§1.1", "--locale", "ru"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "§1.1" in done.stdout and catalogue("bridges").find("§1.1").text["ru"][:40] in done.stdout
