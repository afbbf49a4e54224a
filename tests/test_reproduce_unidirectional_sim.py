"""topolab reproduce unidirectional-sim (002 Figs. 5-8), quick mode only, and the hot-potato
router from Python and the command line."""

from __future__ import annotations

import json

import pytest

import topolab
from topolab import reproduce
from topolab.cli import main
from topolab.reproduce.unidirectional_sim import READINGS_PANEL


@pytest.fixture(scope="module")
def rep():
    return reproduce.run("unidirectional-sim", quick=True)


def test_quick_reproduction_has_both_routings_on_both_networks(rep):
    assert rep.quick
    figures = [r for r in rep.data if not r["panel"].startswith(READINGS_PANEL)]
    keys = {(r["network"].split(":")[0], r["label"]) for r in figures}
    routings = ("minimal", "hot-potato", "hot-potato worms")
    assert keys == {(n, r) for n in ("mddp", "jellyfish") for r in routings}
    # Fig. 8's readings: every other priority x deflection (x path count for flits) on the MDDP
    readings = [r for r in rep.data if r["panel"].startswith(READINGS_PANEL)]
    policies = {
        (
            r["hotpotato_switching"],
            r["hotpotato_priority"],
            r["hotpotato_deflect"],
            r.get("hotpotato_packet_hops"),
        )
        for r in readings
    }
    assert len(policies) == 3 * 2 * 2 + 3 * 2 - 2 and {r["network"] for r in readings} == {
        r["network"] for r in figures if r["network"].startswith("mddp")
    }
    per_reading = [
        x for x in rep.rows if x.column.startswith(READINGS_PANEL) and "routers per packet" in x.quantity
    ]
    assert len(per_reading) == len(policies) + 2
    for r in rep.data:
        # accepted never above offered (3% measurement tolerance), latency at least the
        # 33-flit serialization
        assert r["accepted_throughput"] <= 1.03 * r["offered_load"], r
        assert r["avg_latency"] != r["avg_latency"] or r["avg_latency"] >= 33, r
        if r["label"] == "minimal":
            assert r["deflection_rate"] == 0.0
    hp = sorted(
        (r for r in rep.data if r["label"] == "hot-potato" and r["network"].startswith("mddp")),
        key=lambda r: r["offered_load"],
    )
    # Fig. 8: deflections lengthen paths as load grows
    assert hp[-1]["deflection_rate"] > hp[0]["deflection_rate"]
    assert hp[-1]["avg_hops"] > hp[0]["avg_hops"]
    assert any("scaled" in n for n in rep.notes)


def test_hot_potato_from_python_and_cli(capsys):
    net = topolab.build("kautz:d=2,k=3,p=2")
    r = topolab.simulate(
        net, "min", "uniform", 0.05, router="hotpotato", sample_period=300, warmup_periods=1, max_samples=3
    )
    assert not r.saturated and r.max_hops >= 1 and 0 <= r.deflection_rate < 0.5
    code = main(
        [
            "sim",
            "kautz:d=2,k=3,p=2",
            "--router",
            "hotpotato",
            "--load",
            "0.05",
            "--sample_period",
            "300",
            "--json",
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and "deflection_rate" in out and out["max_hops"] >= 1
    with pytest.raises(Exception, match="hotpotato"):
        topolab.simulate(net, "min", "uniform", 0.05, router="hotpotatoes")


def test_writes_table_data_and_figure(rep, tmp_path):
    written, problem = reproduce.write(rep, tmp_path)
    names = {p.name for p in written}
    assert {"unidirectional-sim.csv", "unidirectional-sim_data.csv", "unidirectional-sim.json"} <= names
    assert problem is not None or "unidirectional-sim.png" in names
