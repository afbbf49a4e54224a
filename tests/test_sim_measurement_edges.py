"""The measurement edge cases of issue 13 through the Python binding and `topolab sim --json`
(the Rust side has one test per case and property tests: crates/topolab-sim/tests/
sim_measurement_edges.rs)."""

from __future__ import annotations

import json
import math

import pytest

import topolab
from topolab.cli import main

NET = "slimfly:q=5"


def _cli_json(capsys, *args: str) -> dict:
    assert main(["sim", NET, "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_tiny_load_measures_nothing(capsys):
    r = _cli_json(capsys, "--load", "1e-20")
    assert r["injected_throughput"] == 0 and r["accepted_throughput"] == 0
    assert r["avg_latency"] is None and r["measured_packets"] == 0
    assert r["saturated"] is False and r["saturation_reason"] == ""
    assert r["cycles"] <= r["cycle_budget"]


def test_a_sweep_takes_no_figure_from_a_tiny_load():
    # A load below ~1e-16 once injected at full rate (accepted 0.65), and a sweep's saturation
    # throughput, the most any run accepted, came from that run.
    df = topolab.sweep_load(
        NET,
        "min",
        "uniform",
        loads=[1e-20, 0.3],
        load_resolution=0,
        sample_period=300,
        warmup_periods=1,
        max_samples=3,
    )
    tiny, carried = df.iloc[0], df.iloc[1]
    assert tiny["accepted_throughput"] == 0 and not tiny["saturated"] and math.isnan(tiny["avg_latency"])
    assert not carried["saturated"], carried["saturation_reason"]
    assert df.attrs["saturation_load"] == 0.3
    assert df.attrs["saturation_throughput"] == carried["accepted_throughput"]
    assert abs(carried["accepted_throughput"] - 0.3) < 0.03


def test_sparse_load_with_few_samples_ends(capsys):
    r = _cli_json(
        capsys, "--load", "1e-8", "--warmup_periods", "1", "--max_samples", "3", "--sample_period", "200"
    )
    assert r["cycles"] <= r["cycle_budget"] and not r["saturated"]


@pytest.mark.parametrize(
    "params,named",
    [
        ({"warmup_periods": 5, "max_samples": 3}, "max_samples"),
        ({"load": 1e-8, "max_samples": 3, "sample_period": 200}, "max_samples"),
        ({"sample_period": 1}, "sample_period"),
    ],
)
def test_unmeasurable_combinations_name_the_parameter(params, named):
    params = dict(params)
    load = params.pop("load", 0.5)
    with pytest.raises(topolab.ParameterError, match=f"'{named}'"):
        topolab.simulate(NET, "min", "uniform", load, **params)


def test_iq_results_report_max_hops_and_saturation_reasons():
    r = topolab.simulate(NET, "min", "uniform", 0.3, sample_period=300, warmup_periods=1, max_samples=3)
    # Slim Fly diameter 2: minimal paths traverse at most 3 routers (BookSim2's count).
    assert r.max_hops == 3 and 1 < r.avg_hops < 3
    over = topolab.simulate(
        NET, "valiant", "uniform", 1.0, sample_period=300, warmup_periods=1, max_samples=3
    )
    assert over.saturated and over.saturation_reason
    assert not math.isnan(over.avg_latency)
