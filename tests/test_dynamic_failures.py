"""Cables dying during a run (``topolab.timeline``, ``topolab sim --timeline``): every flit
counted, nothing lost before the failure or once the tables changed, the windows' throughput
back at the offered load after recovery, and the failures the model does not cover refused by
name. The simulator's own tests (crates/topolab-sim/tests/sim/sim_dynamic_failure.rs) check the
recovered network against the surviving network simulated alone, and one thread against two."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

import topolab
from topolab.cli import main

NET = "slimfly:q=5,p=2"
FAILING = dict(
    num_vcs=8, dynamic_failures="links:fraction=0.05,seed=3", failure_cycle=2000, reaction_delay=400
)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_timeline_counts_every_flit_and_recovers():
    t = topolab.timeline(NET, "min", "uniform", 0.3, window=200, progress=False, **FAILING)
    w = t.to_dataframe()
    assert len(w) == len(t.windows) and list(w.columns) == [f.name for f in fields(type(t.windows[0]))]
    assert (t.failure_cycle, t.reroute_cycle, t.cycles) == (2000, 2400, 2 * 2000 + 400)
    assert list(w["start"]) == list(range(0, t.cycles, 200))
    assert t.created_flits == t.delivered_flits + t.dropped_flits + t.in_flight_flits
    assert t.dropped_flits == t.dropped_on_wire + t.dropped_at_dead_port == w["dropped"].sum() > 0
    assert w[w["start"] < 2000]["dropped"].sum() == 0
    assert w[w["start"] >= 2400 + 400]["dropped"].sum() == 0
    # The windows' accepted flits add up to what the run delivered, less what the first
    # window's warm-up left in flight (accepted is per sending endpoint per cycle).
    delivered = (w["accepted"] * w["cycles"] * t.senders).round().sum()
    assert delivered == t.delivered_flits
    assert t.recovery_cycles is not None and t.recovery_cycles <= 400 + 600
    assert abs(t.accepted_after - 0.3) < 0.03 * 0.3
    lo, hi = t.latency_after_ci95
    assert lo <= t.latency_after <= hi


def test_timeline_without_failures_is_the_intact_network():
    t = topolab.timeline(NET, "min", "uniform", 0.3, window=250, cycles=2000, progress=False, num_vcs=8)
    assert t.failures is None and t.failure_cycle is None and t.recovery_cycles is None
    assert t.dropped_flits == 0 and sum(w.dropped for w in t.windows) == 0


def test_sim_timeline_json_and_plot(capsys, tmp_path):
    plot = tmp_path / "timeline.png"
    flags = ["--num-vcs", "8", "--dynamic-failures", "links:fraction=0.05,seed=3", "--failure-cycle", "2000"]
    code, out, _ = run(
        capsys,
        "sim",
        NET,
        "--timeline",
        "--load",
        "0.3",
        "--window",
        "400",
        "--reaction-delay",
        "400",
        "--json",
        "--plot",
        str(plot),
        "--no-progress",
        *flags,
    )
    assert code == 0 and plot.stat().st_size > 0
    doc = json.loads(out)
    assert doc["command"] == "sim --timeline"
    assert doc["inputs"]["window"] == 400
    assert doc["inputs"]["router"]["dynamic_failures"] == "links:fraction=0.05,seed=3"
    r = doc
    assert r["created_flits"] == r["delivered_flits"] + r["dropped_flits"] + r["in_flight_flits"]
    assert len(r["windows"]) == r["cycles"] // 400
    assert doc["units"]["accepted"] == "flits/active endpoint/cycle"
    code, out, _ = run(capsys, "sim", NET, "--timeline", "--load", "0.3", "--no-progress", *flags)
    assert code == 0
    assert "9 of 175 cables die at cycle 2000" in out and "recovered" in out


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--window", "100"], "--window"),
        (["--timeline", "--sweep"], "--timeline"),
        (["--timeline", "--dynamic-failures", "router:id=3"], "cables only"),
        (
            ["--timeline", "--dynamic-failures", "links:fraction=0.05,seed=3", "--packet-size", "4"],
            "single-flit",
        ),
        (
            ["--timeline", "--dynamic-failures", "links:fraction=0.05,seed=3", "--failure-cycle", "100"],
            "failure_cycle",
        ),
        # A measured run would mix the intact and the degraded network and hide the lost flits.
        (["--dynamic-failures", "links:fraction=0.05,seed=3"], "--timeline"),
        (["--sweep", "--dynamic-failures", "links:fraction=0.05,seed=3"], "--timeline"),
    ],
)
def test_sim_timeline_refuses_what_it_cannot_do(capsys, argv, words):
    code, _, err = run(capsys, "sim", NET, "--num-vcs", "8", "--no-progress", *argv)
    assert code == 2 and words in err, err
