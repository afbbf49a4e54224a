"""topolab reproduce infiniband (003 §4, scaled down), quick mode: the paper's values are carried
through, and the simulated saturation respects bounds derived independently of the simulator:
the complement permutation's closed-form link load for DOR on a hypercube-shaped FlatFly, and
the static channel-load bound of the same rule under uniform traffic."""

from __future__ import annotations

import pytest

import topolab
from topolab import reproduce
from topolab import routing as static_routing
from topolab.reproduce import infiniband as ib


@pytest.fixture(scope="module")
def rep():
    return reproduce.run("infiniband", quick=True)


def test_rows_carry_the_papers_values(rep):
    rows = {(r.column, r.quantity): r for r in rep.rows}
    assert len(rows) == 4
    assert rows[("FlatFly", "DOR: Uniform")].paper == 81.3
    assert rows[("FlatFly", "ADOR: Cmpl")].paper == 50.0
    assert all(r.unit == "%" and 0 < r.topolab <= 100 for r in rep.rows)
    assert rep.quick and any("SCALED DOWN" in n for n in rep.notes)
    assert {d["network"] for d in rep.data} == {ib.TOPOLOGIES["FlatFly"][0]["quick"]}


def test_complement_meets_the_closed_form_bound(rep):
    # 2x2x2x2 with 4 hosts per switch is a 4-cube: under complement every switch sends its 4
    # hosts' traffic to the opposite switch along one DOR path, and each directed link lies on
    # exactly one such path, so a link carries 4 x load: saturation <= 25%.
    cmpl = next(r for r in rep.rows if r.quantity == "DOR: Cmpl")
    assert 20.0 <= cmpl.topolab <= 25.0 + 1.0


def test_uniform_stays_under_the_static_channel_load_bound(rep):
    net = topolab.build(ib.TOPOLOGIES["FlatFly"][0]["quick"])
    bound = 100 * static_routing.channel_load(net, "hyperx_dor").throughput_bound
    uni = next(r for r in rep.rows if r.quantity == "DOR: Uniform")
    assert uni.topolab <= bound + 1.0
    assert uni.topolab >= 0.5 * bound


def test_the_sweep_stops_at_the_first_saturated_load_with_the_exhaustive_figure(rep):
    # The reproduction's curves list 11 loads; the sweep stops at the first saturated one. The
    # same curve with every listed load run gives the same figure from more runs, every load
    # above the first saturated one saturated too.
    from topolab.reproduce import sim_params

    curve, _, _, _ = next(c for c in ib.curves("quick") if c[0].label == "DOR: Cmpl")
    setup = sim_params(ib.SETUP_TABLE)
    kwargs = dict(loads=list(curve.loads), tolerance=ib.TOLERANCE, seed=1, **setup)
    stopped = topolab.sweep_load(curve.network, curve.routing, curve.traffic, **kwargs)
    every = topolab.sweep_load(curve.network, curve.routing, curve.traffic, every_load=True, **kwargs)
    assert len(stopped) < len(every)
    assert stopped.attrs["saturation_load"] == every.attrs["saturation_load"]
    first = stopped[stopped["saturated"]]["offered_load"].max()
    assert every[every["offered_load"] >= first]["saturated"].all()
    row = next(r for r in rep.rows if r.quantity == "DOR: Cmpl")
    assert row.topolab == pytest.approx(100 * stopped.attrs["saturation_load"])
