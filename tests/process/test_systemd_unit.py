"""Issue 39: the systemd unit the project ships (deploy/judge.service) is one systemd accepts, and it says what
docs/operations.md promises: restart on failure, the token from a protected environment file, a user of its
own, the database in the state directory, hardening.  ``systemd-analyze verify`` runs where it exists."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "judge.service"


def _service() -> dict[str, list[str]]:
    """The [Service] section's settings, every value of a repeated key kept."""
    found: dict[str, list[str]] = {}
    section = None
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line
        elif section == "[Service]":
            key, _, value = line.partition("=")
            found.setdefault(key, []).append(value)
    return found


def test_the_unit_restarts_on_failure_runs_as_its_own_user_and_keeps_the_token_out_of_itself():
    service = _service()
    assert service["Restart"] == ["on-failure"] and service["RestartPreventExitStatus"] == ["2 3"]
    assert service["User"] == ["judge"] and service["StateDirectory"] == ["judge"]
    assert service["EnvironmentFile"] == ["/etc/judge/judge.env"]
    assert "JUDGE_DB=/var/lib/judge/judge.db" in service["Environment"][0]
    assert service["ExecStart"] == ["/opt/judge/.venv/bin/python -m bot run"]
    assert service["KillSignal"] == ["SIGTERM"] and service["TimeoutStopSec"] == ["30s"]
    for hardening in ("NoNewPrivileges", "ProtectSystem", "ProtectHome", "PrivateTmp", "RestrictNamespaces"):
        assert hardening in service, hardening
    assert "TOKEN" not in UNIT.read_text(encoding="utf-8").split("[Service]")[1].replace("DISCORD_TOKEN=...", "")
    # the stop waits longer than the bot takes to finish the message in hand
    from bot.discord.client import STOP_GRACE
    assert STOP_GRACE < int(service["TimeoutStopSec"][0].rstrip("s"))


def test_the_docs_show_the_unit_as_shipped():
    docs = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    body = [line for line in UNIT.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    assert all(line in docs for line in body), [line for line in body if line not in docs]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_systemd_analyze_verify_accepts_the_unit(tmp_path):
    # the paths of this checkout stand in for /opt/judge: verify checks that the program and files exist
    env_file = tmp_path / "judge.env"
    env_file.write_text("DISCORD_TOKEN=not-a-real-token\n")
    text = UNIT.read_text(encoding="utf-8").replace("/opt/judge/.venv/bin/python", sys.executable) \
        .replace("WorkingDirectory=/opt/judge", f"WorkingDirectory={ROOT}") \
        .replace("EnvironmentFile=/etc/judge/judge.env", f"EnvironmentFile={env_file}")
    unit = tmp_path / "judge.service"
    unit.write_text(text)
    run = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    complaints = [line for line in (run.stdout + run.stderr).splitlines() if str(unit) in line or "judge" in line]
    assert run.returncode == 0 and not complaints, run.stdout + run.stderr
    # and it would notice: a key in the wrong section is a complaint
    unit.write_text(text.replace("[Install]", "[Install]\nRestart=always"))
    run = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert "Restart" in run.stdout + run.stderr
