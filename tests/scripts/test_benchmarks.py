"""The benchmark script keeps working (benchmarks/bench.py): each of its measurements runs at a tiny size and
reports what it measured.  No timing is asserted here; the figures are for docs/performance.md."""
import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench", ROOT / "benchmarks" / "bench.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench"] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules["bench"]


async def test_act_is_timed_against_both_floors_over_the_same_rows(bench):
    figures = await bench.act_figures("claygod", 1)
    assert figures["floor"] > 0 and figures["threaded"] > 0 and figures["median"] > 0
    assert figures["ratio"] == figures["median"] / figures["floor"]
    assert figures["bytes"] > 0


async def test_the_load_runs_every_prepared_action_in_rounds_then_paced(bench):
    figures = await bench.load_figures("bloodwood", 12, 2, 2000.0, rounds=2)
    assert len(figures["rounds"]) == 2 and all(r > 0 for r in figures["rounds"])
    assert figures["actions"] == 12 * 2 * 3  # no bloodwood game ends within six actions


async def test_a_restart_finds_the_tables_with_bots_and_serves(bench):
    figures = await bench.restart_figures(30)
    assert figures["tables"] == 30 and figures["with bots"] == 3
    assert 0 < figures["opened"] <= figures["accepting"] <= figures["delivering"]


async def test_the_web_benchmark_measures_every_page_kind():
    """benchmarks/web.py at a tiny size: every page kind answered in each state it times."""
    spec = importlib.util.spec_from_file_location("web_bench", ROOT / "benchmarks" / "web.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    figures = await module.figures(players=4, rounds=1, runs=2, games=["gwent"])
    assert set(figures) == {"index", "tournament (4 players)", "table: gwent", "replay step", "replay picture",
                            "player"}
    for kinds in figures.values():
        assert set(kinds) == {"fresh", "cold", "warm", "304"}
        assert all(k["median"] > 0 and k["rps"] > 0 for k in kinds.values()) and kinds["cold"]["bytes"] > 0
