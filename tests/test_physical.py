"""topolab.place / cost / latency against values computed here independently: cable lengths
from the floor geometry of Besta & Hoefler, SC14, §VI-B and Fujiwara et al., IPDPS 2014, §III-A, prices from
Besta & Hoefler's regressions, latencies from networkx's Dijkstra."""

from __future__ import annotations

import math

import networkx as nx
import pytest

import topolab

FDR10_ELECTRIC = (0.4079, 0.5771)  # Besta & Hoefler, SC14, §VI-B1, $/Gb/s = a·x + b at 40 Gb/s
FDR10_OPTICAL = (0.0919, 2.7452)


def cable_price(length: float, electric: bool) -> float:
    a, b = FDR10_ELECTRIC if electric else FDR10_OPTICAL
    return 40.0 * (a * length + b)


def cabinet_length(pl: topolab.Placement, a: int, b: int, f: topolab.Floor) -> float:
    """Cable length between the cabinets of routers a and b, by the rule of Fujiwara et al., IPDPS 2014,
    §III-A."""
    ca, cb = pl.cabinet_of[a], pl.cabinet_of[b]
    if ca == cb:
        return f.intra_cabinet_cable_m
    (ra, ka), (rb, kb) = pl.position(ca), pl.position(cb)
    return abs(ra - rb) * f.cabinet_depth_m + abs(ka - kb) * f.cabinet_width_m + f.inter_cabinet_overhead_m


def test_builtin_models_carry_the_papers_numbers():
    floors = {f.name: f for f in topolab.floors()}
    assert set(floors) == {"slimfly", "skywalk"}
    sky = floors["skywalk"]
    assert (
        sky.cabinet_width_m,
        sky.cabinet_depth_m,
        sky.intra_cabinet_cable_m,
        sky.inter_cabinet_overhead_m,
    ) == (
        0.6,
        2.1,
        2.0,
        4.0,
    )
    sf = floors["slimfly"]
    assert (sf.cabinet_width_m, sf.intra_cabinet_cable_m, sf.inter_cabinet_overhead_m) == (1.0, 1.0, 2.0)
    (cat,) = topolab.catalogs()
    assert cat.name == "fdr10" and cat.bandwidth_gbps == 40.0
    assert (cat.electric.per_gbps_per_m, cat.electric.per_gbps) == FDR10_ELECTRIC
    assert (cat.router.per_port, cat.router.fixed) == (350.4, -892.3)
    assert cat.router.lanes_per_port * cat.router.watts_per_lane == pytest.approx(2.8)


def test_hypercube_cost_and_power_by_hand():
    # n = 3, two routers per rack on the slimfly floor: 4 racks on a 2 x 2 grid (1 m pitch).
    # Bit 0 stays in a rack (1 m electric), bits 1 and 2 cross to the next rack (1 + 2 m optical).
    net = topolab.build("hypercube:n=3")
    rep = topolab.cost(net, "fdr10", "slimfly", per_cabinet=2)
    assert (rep.cabinets, rep.grid_rows, rep.grid_cols) == (4, 2, 2)
    cables = 4 * cable_price(1.0, True) + 8 * cable_price(3.0, False) + 8 * cable_price(1.0, True)
    routers = 8 * (350.4 * 4 - 892.3)
    assert (rep.electric_cables, rep.optical_cables, rep.endpoint_cables) == (4, 8, 8)
    assert rep.total_cable_m == pytest.approx(4 * 1.0 + 8 * 3.0)
    assert rep.cable_cost == pytest.approx(cables)
    assert rep.router_cost == pytest.approx(routers)
    assert rep.cost_per_endpoint == pytest.approx((cables + routers) / 8)
    assert rep.power_w == pytest.approx(8 * 4 * 4 * 0.7)  # Besta & Hoefler, SC14, §VI-C
    assert rep.power_per_endpoint_w == pytest.approx(11.2)
    by = {c.link_class: c for c in rep.by_class}
    assert set(by) == {"dim0", "dim1", "dim2", "endpoint"}
    assert (by["dim0"].electric, by["dim1"].optical, by["endpoint"].electric) == (4, 4, 8)
    d = rep.to_dict()
    assert d["by_class"][0]["link_class"] == "dim0" and d["electric_cables"] == 4


@pytest.mark.parametrize(
    "spec,floor",
    [("skywalk:z=4,c=16,di=3,do=3", "skywalk"), ("dragonfly:a=4,h=2", "slimfly"), ("fattree:k=6", "slimfly")],
)
def test_cable_lengths_match_the_floor_rule(spec, floor):
    net = topolab.build(spec)
    f = {x.name: x for x in topolab.floors()}[floor]
    pl = topolab.place(net, floor)
    assert len(pl.cabinet_of) == net.num_routers and pl.floor == floor
    total = sum(w * cabinet_length(pl, u, v, f) for (u, v, w, _) in net.links)
    rep = topolab.cost(net, floor=floor)
    assert rep.total_cable_m == pytest.approx(total)


def test_dragonfly_and_hyperx_from_cabinet_parameters_on_the_004_floor():
    # Fujiwara et al., IPDPS 2014, §III-B: Dragonfly(8, 256, 39) 615 km, HyperX(8, 256, 37) 372 km.
    df = topolab.cost("dragonfly:z=8,c=256,d=39", floor="skywalk")
    hx = topolab.cost("hyperx:z=8,c=256,d=37", floor="skywalk")
    assert df.cabinets == hx.cabinets == 256
    assert df.total_cable_m / 1000 == pytest.approx(615, rel=0.005)
    assert hx.total_cable_m / 1000 == pytest.approx(372, rel=0.005)


def _networkx_latencies(net, pl, f, switch, per_m, inj):
    g = nx.DiGraph() if net.directed else nx.Graph()
    g.add_nodes_from(range(net.num_routers))
    for u, v, _, _ in net.links:
        g.add_edge(u, v, weight=switch + per_m * cabinet_length(pl, u, v, f))
    lat = dict(nx.all_pairs_dijkstra_path_length(g, weight="weight"))
    hops = dict(nx.all_pairs_shortest_path_length(g))
    values = [lat[s][t] + inj + switch for s in g for t in g if s != t]
    hop_values = [hops[s][t] for s in g for t in g if s != t]
    return values, hop_values


@pytest.mark.parametrize("switch", [0.0, 60.0, 500.0])
def test_fastest_routing_matches_networkx_dijkstra(switch):
    net = topolab.build("skywalk:z=4,c=16,di=2,do=3,seed=5")
    f = {x.name: x for x in topolab.floors()}["skywalk"]
    pl = topolab.place(net, "skywalk")
    want, hops = _networkx_latencies(net, pl, f, switch, 5.0, 300.0)
    fr = topolab.latency(net, switch_delay_ns=switch, routing="fastest", floor="skywalk")
    nr = topolab.latency(net, switch_delay_ns=switch, routing="nearest", floor="skywalk")
    assert fr.pairs == len(want) == 64 * 63
    assert fr.max_latency_ns == pytest.approx(max(want))
    assert fr.avg_latency_ns == pytest.approx(sum(want) / len(want))
    assert fr.max_latency_ns <= nr.max_latency_ns and fr.avg_latency_ns <= nr.avg_latency_ns
    # Nearest routing takes hop-shortest paths.
    assert nr.avg_hops == pytest.approx(sum(hops) / len(hops))
    assert nr.max_hops == max(hops)
    assert fr.avg_hops >= nr.avg_hops


def test_placements_from_lists_dicts_files_and_placements(tmp_path):
    net = topolab.build("torus:dims=4x4")
    seq = [r // 2 for r in range(16)]
    a = topolab.place(net, placement=seq)
    b = topolab.place(net, placement={r: c for r, c in enumerate(seq)})
    path = tmp_path / "p.txt"
    path.write_text("".join(f"{r} {c}\n" for r, c in enumerate(seq)))
    c = topolab.place(net, placement=path)
    d = topolab.place(net, placement="sequential", per_cabinet=2)
    assert a.cabinet_of == b.cabinet_of == c.cabinet_of == d.cabinet_of == tuple(seq)
    assert a.cabinets == 8 and a.position(7) == (2, 1)  # 8 cabinets: 3 rows x 3 columns
    # A Placement can be reused; cost follows it.
    assert (
        topolab.cost(net, placement=a).total_cable_m
        == topolab.cost(net, placement="sequential", per_cabinet=2).total_cable_m
    )
    with pytest.raises(topolab.ParameterError, match="router 3"):
        topolab.place(net, placement={0: 0, 1: 0, 2: 0})
    with pytest.raises(topolab.FormatError, match="twice"):
        path.write_text("0 0\n0 1\n")
        topolab.place(net, placement=path)


def test_user_floors_and_catalogs_from_toml(tmp_path):
    floor = tmp_path / "wide.toml"
    floor.write_text(
        "[wide]\ncabinet_width_m = 2.0\ncabinet_depth_m = 3.0\nintra_cabinet_cable_m = 0.5\n"
        "inter_cabinet_overhead_m = 1.0\nendpoint_cable_m = 0.25\nmax_electric_m = inf\n"
        "routers_per_cabinet = 2\n"
    )
    f = topolab.load_floor(floor)
    assert f.name == "wide" and math.isinf(f.max_electric_m)
    # dragonfly:a=2,h=1 on a 2 x 2 grid: local 3 x 0.5 m; globals 2 + 1, 3 + 1, 5 + 1 m.
    rep = topolab.cost("dragonfly:a=2,h=1", floor=floor)
    assert rep.total_cable_m == pytest.approx(1.5 + 3 + 4 + 6)
    assert (rep.optical_cables, rep.max_electric_m) == (0, None)
    cat = tmp_path / "cats.toml"
    one = (
        "bandwidth_gbps = 10.0\nelectric = {{ per_gbps_per_m = 1.0, per_gbps = 0.0 }}\n"
        "optical = {{ per_gbps_per_m = 1.0, per_gbps = 0.0 }}\n"
        "router = {{ per_port = {port}, fixed = 0.0, lanes_per_port = 1, watts_per_lane = 1.0 }}\n"
    )
    cat.write_text("[cheap]\n" + one.format(port=1.0) + "[dear]\n" + one.format(port=100.0))
    with pytest.raises(topolab.ParameterError, match="#NAME"):
        topolab.cost("dragonfly:a=2,h=1", catalog=cat)
    dear = topolab.cost("dragonfly:a=2,h=1", catalog=f"{cat}#dear", floor=floor)
    assert dear.router_cost == pytest.approx(6 * 300.0)
    # $10 per metre of cable at 10 Gb/s x $1/Gb/s/m, endpoint cables included.
    assert dear.cable_cost == pytest.approx(10 * (rep.total_cable_m + 6 * 0.25))
    assert dear.power_w == pytest.approx(6 * 3)


@pytest.mark.parametrize(
    "call,needle",
    [
        (lambda: topolab.place("slimfly:q=5", per_cabinet=4), "per_cabinet"),
        (lambda: topolab.place("slimfly:q=5", floor="mars"), "skywalk"),
        (lambda: topolab.cost("slimfly:q=5", catalog="qdr"), "fdr10"),
        (lambda: topolab.cost("slimfly:q=5", router_radix=3), "router_radix"),
        (lambda: topolab.cost("slimfly:q=5", max_electric_m=-1.0), "max_electric_m"),
        (lambda: topolab.latency("slimfly:q=5", routing="shortest"), "nearest"),
        (lambda: topolab.latency("slimfly:q=5", switch_delay_ns=float("nan")), "switch_delay_ns"),
        (lambda: topolab.place("slimfly:q=5", placement="nosuchfile"), "placement"),
        (lambda: topolab.place("slimfly:q=5", placement=[0, 1]), "one cabinet per router"),
        (lambda: topolab.place(42), "net"),
    ],
)
def test_bad_arguments_name_the_parameter(call, needle):
    with pytest.raises(topolab.TopolabError, match=needle):
        call()
