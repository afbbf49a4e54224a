"""Reproductions as data (topolab.reproduce.cases): curves run as "sweep" points through the
experiment package give what a direct sweep_load gives, and a second run with the same results
directory resumes without simulating again."""

from __future__ import annotations

import pytest

import topolab
import topolab.sim
from topolab.reproduce import SetupRow, sim_params
from topolab.reproduce.cases import Curve, Execution, check_scale, run_curves

TABLE = (
    SetupRow("buffer per VC", "-", 16, "", "vc_buf_size"),
    SetupRow("sample period", "-", 200, "", "sample_period"),
    SetupRow("warm-up periods", "-", 1, "", "warmup_periods"),
    SetupRow("most sample periods", "-", 3, "", "max_samples"),
    SetupRow("note without a simulator keyword", "-", "x", ""),
)
CURVES = [
    Curve("MIN", "slimfly:q=5,p=3", "min", "worst"),
    Curve("VAL", "slimfly:q=5,p=3", "valiant", "worst"),
]


def test_curves_equal_direct_sweeps_and_resume(tmp_path, monkeypatch):
    store = tmp_path / "results"
    got = run_curves("test", CURVES, TABLE, 0.05, Execution(results=store))
    for curve, m in zip(CURVES, got):
        direct = topolab.sweep_load(
            curve.network, curve.routing, curve.traffic, tolerance=0.05, seed=1, **sim_params(TABLE)
        )
        assert m["curve"] == curve
        assert m["saturation_load"] == direct.attrs["saturation_load"]
        assert [p["offered_load"] for p in m["points"]] == list(direct["offered_load"])
        assert [p["accepted_throughput"] for p in m["points"]] == list(direct["accepted_throughput"])

    def no_simulation(*args, **kwargs):
        raise AssertionError("a stored curve was simulated again")

    monkeypatch.setattr(topolab.sim, "sweep_load", no_simulation)
    again = run_curves("test", CURVES, TABLE, 0.05, Execution(results=store))
    assert [m["saturation_load"] for m in again] == [m["saturation_load"] for m in got]
    assert [m["points"] for m in again] == [m["points"] for m in got]


def test_unknown_scale_is_a_parameter_error():
    with pytest.raises(topolab.ParameterError, match="scale"):
        check_scale("huge")


def test_execution_options_need_a_cases_reproduction():
    from topolab import reproduce

    with pytest.raises(topolab.ParameterError, match="--full"):
        reproduce.run("table4", full=True)
    with pytest.raises(topolab.ParameterError, match="together"):
        reproduce.run("slimfly-routing", quick=True, full=True)
