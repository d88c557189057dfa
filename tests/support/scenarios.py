"""What the per-game scenario tests share: what a scenario report says went wrong."""


def failures(report: dict) -> list[dict]:
    """The checks that failed and the steps whose expectation failed (empty when the scenario ran green)."""
    return [c for c in report["checks"] if not c["ok"]] + [s for s in report["steps"] if "expectation_failed" in s]
