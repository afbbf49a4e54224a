"""topolab reproduce unidirectional-sim (Koibuchi et al., 2018, Figs. 5-8), quick mode only, and the
hot-potato router from Python and the command line."""

from __future__ import annotations

import json

import networkx as nx
import pytest

import topolab
from topolab import reproduce
from topolab.cli import main
from topolab.reproduce.unidirectional_sim import (
    BUFFERED_DEFLECTIONS,
    BUFFERED_LABEL,
    BUFFERED_WAITS,
    READINGS_PANEL,
)


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
    all_readings = [r for r in rep.data if r["panel"].startswith(READINGS_PANEL)]
    readings = [r for r in all_readings if not r["label"].startswith(BUFFERED_LABEL)]
    buffered = [r for r in all_readings if r["label"].startswith(BUFFERED_LABEL)]
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
    grid = {(deflect, wait) for deflect in BUFFERED_DEFLECTIONS for wait in BUFFERED_WAITS}
    assert {(r["deflect"], r["deflect_after"]) for r in buffered} == grid
    assert {(r["router"], r["flow_control"], r["vc_priority"]) for r in buffered} == {("iq", "vct", "hops")}
    assert len(per_reading) == len(policies) + 2 + len(grid)
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
    # The buffered reading: at the low load a packet rarely finds every minimal output blocked,
    # so its path is about minimal routing's on the same network; at the higher load the VCs
    # fill and it deflects more, and less the longer it waits before deflecting.
    low, high = sorted({r["offered_load"] for r in buffered})
    minimal_low = next(
        r["avg_hops"]
        for r in rep.data
        if r["label"] == "minimal" and r["network"] == buffered[0]["network"] and r["offered_load"] == low
    )
    at = {(r["deflect"], r["deflect_after"], r["offered_load"]): r for r in buffered}
    for deflect, wait in grid:
        r_low, r_high = at[deflect, wait, low], at[deflect, wait, high]
        assert r_low["deflection_rate"] < 0.05 and r_low["avg_hops"] <= 1.05 * minimal_low, r_low
        assert r_high["deflection_rate"] > r_low["deflection_rate"] or r_high["deflection_rate"] == 0, r_high
    for deflect in BUFFERED_DEFLECTIONS:
        first, last = min(BUFFERED_WAITS), max(BUFFERED_WAITS)
        assert at[deflect, last, high]["deflection_rate"] < at[deflect, first, high]["deflection_rate"]
    assert any("scaled" in n for n in rep.notes)


def _uniform_minimal_bound(spec: str) -> float:
    """1 / the busiest link's load under uniform traffic (every host sends 1/N of its load to
    each of the N hosts, itself included: BookSim2's uniform) when every router splits a flow
    evenly over its next hops on shortest paths, computed with networkx."""
    net = topolab.build(spec)
    g = net.to_networkx()
    g = g if g.is_directed() else g.to_directed()
    hosts, total = list(net.endpoints), net.num_endpoints
    load: dict[tuple[int, int], float] = {}
    for t in g:
        dist = nx.single_source_shortest_path_length(g.reverse(copy=False), t)
        inflow = {s: hosts[s] * hosts[t] / total for s in g if s != t}
        for r in sorted(inflow, key=lambda r: -dist[r]):  # farthest first: all flow has arrived
            nexts = [v for v in g.successors(r) if dist[v] == dist[r] - 1]
            for v in nexts:
                load[r, v] = load.get((r, v), 0.0) + inflow[r] / len(nexts)
                if v != t:
                    inflow[v] += inflow[r] / len(nexts)
    return 1 / max(load.values())


def test_figure_rows_show_minimal_routings_static_bound(rep):
    figure_rows = [
        x
        for x in rep.rows
        if not x.column.startswith(READINGS_PANEL) and "accepted traffic before saturation" in x.quantity
    ]
    assert len(figure_rows) == 2 * 3  # two networks x three routings
    specs = {s.column: s.spec for s in rep.setups}
    for x in figure_rows:
        assert x.bound == pytest.approx(_uniform_minimal_bound(specs[x.column]), rel=1e-9), x
        if x.quantity.startswith("minimal"):
            # The saturation verdict allows 10% less accepted than offered (setup table).
            assert x.topolab <= 1.1 * x.bound, x


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
