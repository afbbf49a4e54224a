"""topolab reproduce slimfly-routing (Besta & Hoefler, SC14, §V, Fig. 6), with the paper's
router setup (§V: internal speedup 2, 64 flit entries per port, credit delay 2, single-flit
packets): the saturation figures the paper states in its text, on Slim Fly q = 7; quick mode:
minimal routing saturates at the static bound of the Slim Fly worst case (Kathareios et al.
§4.2's 1/(2p)), UGAL-L well above it; the files (rows, setup table, curve data, plot) are
written."""

from __future__ import annotations

import csv

import pytest

import topolab
from topolab import reproduce
from topolab import routing as static_routing
from topolab.cli import main
from topolab.cli.reproduce import _print
from topolab.reproduce import sim_params
from topolab.reproduce.slimfly_routing import curves, setup_table


@pytest.fixture(scope="module")
def rep():
    return reproduce.run("slimfly-routing", quick=True)


def _row(rep, column, quantity):
    return next(r for r in rep.rows if r.column == column and r.quantity == quantity)


@pytest.fixture(scope="module")
def q7():
    return topolab.build("slimfly:q=7")


# (routing, traffic, a load it carries, a load it does not) on Slim Fly q = 7 with the paper's
# setup. The paper (§V-A, §V-C): MIN near full load and UGAL-L saturating at 80% under uniform
# traffic; VAL up to 40% and UGAL-L up to 45% under the worst case.
PAPER_POINTS = [
    ("min", "uniform", 0.78, None),
    ("ugal_l", "uniform", 0.78, None),
    ("valiant", "worst", 0.37, 0.47),
    ("ugal_l", "worst", 0.42, 0.53),
]


@pytest.mark.parametrize("routing,traffic,carried,refused", PAPER_POINTS)
def test_paper_saturation_figures_on_slimfly_q7(q7, routing, traffic, carried, refused):
    params = sim_params(setup_table("quick"))
    assert params["internal_speedup"] == 2.0 and params["num_vcs"] * params["vc_buf_size"] == 64
    ok = topolab.simulate(q7, routing, traffic, carried, **params)
    assert not ok.saturated, ok.saturation_reason
    if refused is not None:
        over = topolab.simulate(q7, routing, traffic, refused, **params)
        assert over.saturated and over.saturation_reason


# (label, traffic, a load the default run's curve carries): Fig. 6's Dragonfly and fat tree
# (§V-A, §V-C). DF-UGAL-L saturates near 0.80 under uniform traffic and carries the worst case
# far above its minimal routing's bound (0.06: every packet of a group crosses one global link);
# FT-ANCA carries 0.9 of both, above the Slim Fly's worst case (the paper: FT-3 "achieves higher
# bandwidth than both DF and SF").
DF_FT_POINTS = [
    ("DF-UGAL-L", "uniform", 0.7),
    ("DF-UGAL-L", "worst", 0.35),
    ("FT-ANCA", "uniform", 0.9),
    ("FT-ANCA", "worst", 0.9),
]


@pytest.mark.parametrize("label,traffic,carried", DF_FT_POINTS)
def test_dragonfly_and_fat_tree_curves_carry_their_load(label, traffic, carried):
    curve = next(c for c in curves("default", bounds={}) if c.label == label and c.traffic == traffic)
    params = {**sim_params(setup_table("default")), **dict(curve.params)}
    r = topolab.simulate(curve.network, curve.routing, traffic, carried, **params)
    assert not r.saturated, r.saturation_reason
    if label == "DF-UGAL-L" and traffic == "worst":
        minimal = static_routing.channel_load(topolab.build(curve.network), "min", traffic=traffic)
        assert carried > 5 * minimal.throughput_bound


def test_fat_tree_curves_run_the_anca_choice_the_table_prints():
    # The row is not a simulator keyword: the choice is a reader key of the routing itself.
    for scale in ("default", "full"):
        table = {row.parameter: row.topolab for row in setup_table(scale)}
        choice = table["fat-tree ANCA up-port choice"]
        fat_tree = [c for c in curves(scale, bounds={}) if c.label == "FT-ANCA"]
        assert len(fat_tree) == 4, scale
        assert {c.routing for c in fat_tree} == {f"fattree_anca:select={choice}"}, scale


def test_full_scale_loads_do_not_follow_the_bounds_shown():
    # The full-size curves' points are keyed by their loads: the minimal bounds shown in the
    # rows must not move them, or a stored full-size run would not resume.
    shown = {(c.label, c.traffic): 0.3 for c in curves("full", bounds={})}
    assert [c.loads for c in curves("full", bounds=shown)] == [c.loads for c in curves("full", bounds={})]
    # at the default scale the loads do start at the bound
    default = curves("default", bounds={})
    moved = curves("default", bounds={(c.label, c.traffic): 0.3 for c in default})
    assert [c.loads for c in moved] != [c.loads for c in default]


def test_saturation_against_bounds(rep):
    worst_min = _row(rep, "worst", "SF-MIN saturation load")
    p = max(topolab.build("slimfly:q=5").endpoints)
    assert abs(worst_min.bound - 1 / (2 * p)) < 1e-9
    assert 0.6 * worst_min.bound <= worst_min.topolab <= worst_min.bound + 0.05
    ugal = _row(rep, "worst", "SF-UGAL-L saturation load")
    assert ugal.paper == 0.45 and ugal.topolab > 2 * worst_min.topolab and ugal.bound is None
    uniform_min = _row(rep, "uniform", "SF-MIN saturation load")
    assert uniform_min.topolab > 0.75 and uniform_min.topolab <= uniform_min.bound + 0.02
    # Latency grows with load along every curve below saturation.
    for routing in ("SF-MIN", "SF-UGAL-L"):
        pts = sorted(
            (
                d
                for d in rep.data
                if d["label"] == routing and d["traffic"] == "uniform" and not d["saturated"]
            ),
            key=lambda d: d["offered_load"],
        )
        assert len(pts) >= 2 and pts[-1]["avg_latency"] >= pts[0]["avg_latency"]
    # Every saturated point says why.
    assert all(bool(d["saturation_reason"]) == d["saturated"] for d in rep.data)


def test_files_written(rep, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    files, _ = reproduce.write(rep, tmp_path)
    names = {f.name for f in files}
    assert {
        "slimfly-routing.csv",
        "slimfly-routing_data.csv",
        "slimfly-routing_setup.csv",
        "slimfly-routing.png",
    } <= names
    with open(tmp_path / "slimfly-routing_data.csv") as f:
        assert {r["traffic"] for r in csv.DictReader(f)} == {"uniform", "worst"}
    with open(tmp_path / "slimfly-routing_setup.csv") as f:
        written = {r["parameter"]: r for r in csv.DictReader(f)}
    assert (
        written["internal speedup"]["paper"] == "2 (§V)" and written["internal speedup"]["topolab"] == "2.0"
    )
    assert main(["reproduce", "--list"]) == 0
    assert "slimfly-routing" in capsys.readouterr().out
    _print(rep)  # what `topolab reproduce slimfly-routing` prints
    out = capsys.readouterr().out
    assert "== worst: slimfly:q=5" in out and "SF-UGAL-L saturation load" in out
    assert "why different" in out and "bound" in out
