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
            curve.network, curve.routing, curve.traffic, load_resolution=0.05, seed=1, **sim_params(TABLE)
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


def test_exchanges_equal_direct_runs_and_resume(tmp_path, monkeypatch):
    from topolab.reproduce.cases import Exchange, run_exchanges

    store = tmp_path / "results"
    declared = [
        Exchange("MIN", "mlfm:h=2", "min", "alltoall:packets=3"),
        Exchange("INR", "mlfm:h=2", "valiant:endpoints_only=true,vcs=phase", "nn3d:packets=5"),
    ]
    got = run_exchanges("test", declared, TABLE, Execution(results=store))
    for x, m in zip(declared, got):
        direct = topolab.run_exchange(x.network, x.exchange, x.routing, seed=1, **sim_params(TABLE))
        assert m["exchange"] == x
        assert m["name"] == direct.name
        assert (m["completion_cycles"], m["packets"]) == (direct.completion_cycles, direct.packets)
        assert m["effective_throughput"] == direct.effective_throughput
    # mlfm:h=2 has 12 endpoints: all-to-all of 3 packets per message, 11 destinations each.
    assert got[0]["packets"] == 12 * 11 * 3

    def no_simulation(*args, **kwargs):
        raise AssertionError("a stored exchange was simulated again")

    monkeypatch.setattr(topolab.sim, "run_exchange", no_simulation)
    again = run_exchanges("test", declared, TABLE, Execution(results=store))
    assert [m["completion_cycles"] for m in again] == [m["completion_cycles"] for m in got]


def test_exchange_kind_rejects_unknown_router_parameter():
    from topolab.experiment import run_experiment

    case = {"network": "mlfm:h=2", "exchange": "alltoall", "bufsize": 3}
    experiment = {"kind": "exchange", "cases": [case]}
    with pytest.raises(topolab.ParameterError, match="bufsize"):
        run_experiment(experiment)
