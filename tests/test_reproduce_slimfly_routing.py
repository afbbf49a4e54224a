"""topolab reproduce slimfly-routing (000 §V, Fig. 6), quick mode: minimal routing saturates at
the static bound of the Slim Fly worst case (001 §4.2's 1/(2p)), UGAL-L well above it, minimal
near full load under uniform traffic; the files (rows, curve data, plot) are written."""

from __future__ import annotations

import csv

import pytest

from topolab import reproduce
from topolab.cli import main
from topolab.cli.reproduce import _print


@pytest.fixture(scope="module")
def rep():
    return reproduce.run("slimfly-routing", quick=True)


def _row(rep, column, quantity):
    return next(r for r in rep.rows if r.column == column and r.quantity == quantity)


def test_saturation_against_bounds(rep):
    bound = _row(rep, "worst", "SF-MIN static throughput bound").topolab
    p = 3  # QUICK_SPEC
    assert abs(bound - 1 / (2 * p)) < 1e-9
    sat_min = _row(rep, "worst", "SF-MIN saturation load").topolab
    assert 0.6 * bound <= sat_min <= bound + 0.05
    ugal = _row(rep, "worst", "SF-UGAL-L saturation load")
    assert ugal.paper == 0.45 and ugal.topolab > 2 * sat_min
    assert _row(rep, "uniform", "SF-MIN saturation load").topolab >= 0.5
    # Latency grows with load along every curve below saturation.
    for routing in ("SF-MIN", "SF-UGAL-L"):
        pts = sorted(
            (
                d
                for d in rep.data
                if d["routing"] == routing and d["traffic"] == "uniform" and not d["saturated"]
            ),
            key=lambda d: d["offered_load"],
        )
        assert len(pts) >= 2 and pts[-1]["avg_latency"] >= pts[0]["avg_latency"]


def test_files_written(rep, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    files, _ = reproduce.write(rep, tmp_path)
    names = {f.name for f in files}
    assert {"slimfly-routing.csv", "slimfly-routing_data.csv", "slimfly-routing.png"} <= names
    with open(tmp_path / "slimfly-routing_data.csv") as f:
        assert {r["traffic"] for r in csv.DictReader(f)} == {"uniform", "worst"}
    assert main(["reproduce", "--list"]) == 0
    assert "slimfly-routing" in capsys.readouterr().out
    _print(rep)  # what `topolab reproduce slimfly-routing` prints: one setup per column
    out = capsys.readouterr().out
    assert "== worst: slimfly:q=5,p=3" in out and "SF-UGAL-L saturation load" in out
