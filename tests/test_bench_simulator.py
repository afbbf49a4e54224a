"""benches/simulator.py: BookSim2's output read as results.csv records it, and a bounded run of the
benchmark without a BookSim2 binary (against the recorded figures), as CI runs it."""

from __future__ import annotations

import importlib.util
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUTPUTS = pathlib.Path(__file__).with_name("booksim_output")


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_simulator", ROOT / "benches" / "simulator.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_converged_output_gives_the_overall_figures_not_the_last_period(bench):
    # Real BookSim2 output; results.csv's row for it: latency 14.34, accepted 0.2994, 6047 cycles.
    lat, acc, converged, cycles = bench.parse_booksim_output((OUTPUTS / "converged.txt").read_text())
    assert (lat, acc, converged, cycles) == (14.3419, 0.299442, True, 6047)


def test_unstable_output_gives_the_last_period_and_no_convergence(bench):
    # results.csv: sf_q5_p4_min.cfg num_vcs=1 at 0.4: latency 705.2, accepted 0.2887, false.
    lat, acc, converged, cycles = bench.parse_booksim_output((OUTPUTS / "unstable.txt").read_text())
    assert (round(lat, 1), round(acc, 4), converged, cycles) == (705.1, 0.2887, False, None)


def test_output_without_figures_is_an_error(bench):
    with pytest.raises(ValueError, match="Packet latency average"):
        bench.parse_booksim_output("Error: can't open file\n")


def test_bounded_run_without_binary_compares_with_recorded_figures(bench, capsys, monkeypatch):
    monkeypatch.delenv("TOPOLAB_BOOKSIM", raising=False)
    status = bench.main(["--only", "sf_q5_p4_min.cfg num_vcs=2", "--loads", "0.4,0.5"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "no BookSim2 binary" in out and "load average before" in out
    rows = [line for line in out.splitlines() if line.startswith("sf_q5_p4_min.cfg num_vcs=2")]
    assert len(rows) == 2
    # Agreement with BookSim2's recorded figures, independently of the script's verdict.
    recorded = {0.4: (15.90, 0.3999), 0.5: (22.02, 0.5000)}
    for line in rows:
        fields = line.split()
        load = float(fields[2])
        bs_lat, tl_lat, bs_acc, tl_acc = map(float, fields[9:13])
        assert bs_lat == pytest.approx(recorded[load][0], abs=0.1)
        assert tl_lat == pytest.approx(bs_lat, rel=0.05)
        assert tl_acc == pytest.approx(bs_acc, abs=0.03)
        assert fields[13] == "yes"


def test_missing_binary_is_refused_by_name(bench, capsys):
    assert bench.main(["--booksim", "/nonexistent/booksim", "--only", "sf_q5"]) == 2
    assert "--booksim" in capsys.readouterr().err
