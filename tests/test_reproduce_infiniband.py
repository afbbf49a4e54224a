"""topolab reproduce infiniband (Daryin & Korzh, JSFI 2014, §4, scaled down), quick mode: the paper's values
are carried through, and the simulated saturation respects bounds derived independently of the simulator:
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
    kwargs = dict(loads=list(curve.loads), load_resolution=ib.TOLERANCE, seed=1, **setup)
    stopped = topolab.sweep_load(curve.network, curve.routing, curve.traffic, **kwargs)
    every = topolab.sweep_load(curve.network, curve.routing, curve.traffic, every_load=True, **kwargs)
    assert len(stopped) < len(every)
    assert stopped.attrs["saturation_load"] == every.attrs["saturation_load"]
    first = stopped[stopped["saturated"]]["offered_load"].max()
    assert every[every["offered_load"] >= first]["saturated"].all()
    row = next(r for r in rep.rows if r.quantity == "DOR: Cmpl")
    assert row.topolab == pytest.approx(100 * stopped.attrs["saturation_load"])


def _dor_uniform_bound(spec: str) -> float:
    """Closed form for DOR under the simulator's uniform traffic (each of the N hosts sends 1/N
    of its load to every host, itself included) on a HyperX of sizes S_i, widths w_i and p
    hosts per switch: a link of dimension i carries p / S_i of the load over w_i parallel links
    (its sources differ from it only in the dimensions already corrected, its destinations only
    in those not yet corrected), so the bound is min S_i w_i / p, and 1 at the hosts' links."""
    keys = dict(part.split("=") for part in spec.split(":", 1)[1].split(","))
    sizes = [int(x) for x in keys["dims"].split("x")]
    widths = [int(x) for x in keys.get("widths", "x".join("1" * len(sizes))).split("x")]
    return min(1.0, min(s * w for s, w in zip(sizes, widths)) / int(keys["p"]))


def test_flatfly_networks_have_the_papers_uniform_bound_of_one():
    # Daryin & Korzh, JSFI 2014's FlatFly (4x8x8x8, widths 2,1,1,1, 8 hosts) and the default
    # scale's stand-in both have DOR's uniform bound 1, so the routing, not the network, sets the
    # uniform figure; the quick subset's single-link 4-cube has 0.5 (shown in its bound column).
    specs = ib.TOPOLOGIES["FlatFly"][0]
    assert _dor_uniform_bound(specs["full"]) == 1.0
    assert _dor_uniform_bound(specs["quick"]) == 0.5
    for scale in ("default", "quick"):
        net = topolab.build(specs[scale])
        static = static_routing.channel_load(net, "hyperx_dor", traffic="uniform").throughput_bound
        assert static == pytest.approx(_dor_uniform_bound(specs[scale]), rel=1e-9), scale
