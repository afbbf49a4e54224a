"""Failure sets from Python and the command line: the surviving network against an independent
networkx computation (components and the minimal routing's channel-load bound), structured
routings refused, and a property test that no flit is lost or duplicated on degraded networks."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Sequence

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import topolab
from topolab.cli import main
from topolab.routing import channel_load, check


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def minimal_loads(graph: nx.Graph, endpoints: dict[int, int]) -> dict[tuple[int, int], float]:
    """The load per cable of every directed link under uniform traffic when every router splits
    what it forwards over its neighbours one hop closer to the destination in proportion to the
    cables to each (topolab's ``min``: a port drawn at random), computed here from networkx
    distances alone. Demands are in units of one endpoint's injection rate."""
    total = sum(endpoints.values())
    load: dict[tuple[int, int], float] = defaultdict(float)
    for t in graph:
        if not endpoints[t]:
            continue
        dist = nx.single_source_shortest_path_length(graph, t)
        flow = {s: endpoints[s] * endpoints[t] / (total - 1) if s != t else 0.0 for s in graph}
        for r in sorted(graph, key=lambda v: -dist[v]):
            if r == t or not flow[r]:
                continue
            closer = {v: graph[r][v]["width"] for v in graph[r] if dist[v] == dist[r] - 1}
            cables = sum(closer.values())
            for v, width in closer.items():
                share = flow[r] * width / cables
                load[r, v] += share / width
                flow[v] += share
    return {arc: load.get(arc, 0.0) for u, v in graph.edges for arc in ((u, v), (v, u))}


def degraded_in_networkx(net: topolab.Network, dead: list[tuple[int, int]], dead_routers: Sequence[int] = ()):
    graph = net.to_networkx()
    graph.remove_edges_from(dead)
    graph.remove_nodes_from(dead_routers)
    endpoints = dict(enumerate(net.endpoints))
    kept = max(nx.connected_components(graph), key=lambda c: (sum(endpoints[r] for r in c), -min(c)))
    sub = graph.subgraph(kept).copy()
    return sub, {r: endpoints[r] for r in sub}


@pytest.mark.parametrize(
    "spec",
    [
        "slimfly:q=5,p=3",
        "dragonfly:a=4,h=2",
        "torus:dims=5x5",
        "mesh:dims=4x6",
        # Links of 2 cables along the first dimension: the split weighs a neighbour by its cables.
        "hyperx:dims=3x4,widths=2x1,p=2",
    ],
)
@pytest.mark.parametrize("share", [0.05, 0.15])
@pytest.mark.parametrize("routers", [0, 2])
def test_static_bound_on_a_degraded_graph_agrees_with_networkx(tmp_path, spec, share, routers):
    net = topolab.build(spec)
    rng = random.Random(f"{spec}/{share}/{routers}")
    links = [(a, b) for a, b, _, _ in net.links]
    dead = rng.sample(links, round(share * len(links)))
    dead_routers = rng.sample(range(net.num_routers), routers)
    listed = tmp_path / "dead.txt"
    listed.write_text(
        "".join(f"link {a} {b}\n" for a, b in dead) + "".join(f"router {r}\n" for r in dead_routers)
    )
    lost = topolab.apply_failures(net, f"file:path={listed}")
    graph, endpoints = degraded_in_networkx(net, dead, dead_routers)
    assert lost.network.num_routers == graph.number_of_nodes()
    assert lost.network.num_links == sum(w for _, _, w in graph.edges(data="width"))
    assert lost.surviving_endpoints == sum(endpoints.values()) == lost.network.num_endpoints
    assert sorted(lost.router_ids) == sorted(graph.nodes)
    expected = minimal_loads(graph, endpoints)
    found = channel_load(lost.network, "min", progress=False)
    # Every directed link's load, not only the busiest: the same multiset of loads.
    assert sorted(found.loads) == pytest.approx(sorted(expected.values()), rel=1e-9, abs=1e-12)
    assert found.throughput_bound == pytest.approx(1 / max(expected.values()), rel=1e-9)


def test_build_with_failures_is_apply_failures():
    lost = topolab.apply_failures("slimfly:q=5,p=3", "links:fraction=0.1,seed=4")
    net = topolab.build("slimfly:q=5,p=3", failures="links:fraction=0.1,seed=4")
    assert net == lost.network
    assert net.failures == "links:fraction=0.1,seed=4"
    assert net.info()["failures"] == "links:fraction=0.1,seed=4"
    assert topolab.build("slimfly:q=5,p=3").failures is None
    assert lost.failed_cables == round(0.1 * 175)
    assert lost.to_dict()["surviving_endpoints"] == net.num_endpoints


def test_a_failed_router_cuts_off_its_endpoints():
    lost = topolab.apply_failures("slimfly:q=5,p=3", "router:id=2")
    assert lost.cut_off_endpoints == (6, 7, 8)
    assert lost.failed_routers == (2,)
    assert lost.network.num_endpoints == 147


@pytest.mark.parametrize(
    "failures, words",
    [
        ("links:fraction=2", "fraction"),
        ("links", "missing parameter 'fraction'"),
        ("routers:fraction=0.1,sed=3", "valid parameters: fraction, seed"),
        ("earthquake", "links, routers, file, bundle, cabinet, tray, router"),
        ("router:id=50", "a router from 0 to 49"),
        ("tray:row=99", "a row from 0 to"),
        ("tray:row=0,col=1", "exactly one of row and col"),
        ("tray", "exactly one of row and col"),
    ],
)
def test_impossible_failure_sets_are_parameter_errors(failures, words):
    with pytest.raises(topolab.ParameterError, match=words.replace("(", r"\(")):
        topolab.apply_failures("slimfly:q=5,p=3", failures)


@pytest.mark.parametrize("spec", ["dragonfly:a=6,h=3", "slimfly:q=7,p=5", "torus:dims=8x8"])
def test_trays_carry_every_cable_between_cabinets_and_no_other(spec):
    """Every cable between two cabinets lies in a row tray or a column tray, none within a
    cabinet does (checked against the cabinet failure kind: the cables leaving each cabinet),
    and no cable lies in two row trays or two column trays."""
    net = topolab.build(spec)

    def failed(specs: list[str]) -> int:
        return topolab.apply_failures(net, "+".join(specs)).failed_cables

    def count(kind: str, key: str, out_of_range: str) -> int:
        # The first index the kind refuses as out of range (a tray without cables is refused
        # for another reason, and counted).
        i = 0
        while True:
            try:
                failed([f"{kind}:{key}={i}"])
            except topolab.ParameterError as err:
                if out_of_range in str(err):
                    return i
            i += 1

    rows = count("tray", "row", "a row from 0")
    cols = count("tray", "col", "a col from 0")
    cabinets = count("cabinet", "id", "a cabinet from 0")
    assert rows > 1 and cols > 1 and cabinets > 1

    def carried(kind: str, count: int) -> list[str]:
        # A tray no cable runs along is refused: it is left out of the union.
        specs = []
        for i in range(count):
            try:
                failed([f"tray:{kind}={i}"])
                specs.append(f"tray:{kind}={i}")
            except topolab.ParameterError:
                pass
        return specs

    row_trays, col_trays = carried("row", rows), carried("col", cols)
    between_cabinets = failed([f"cabinet:id={c}" for c in range(cabinets)])
    assert failed(row_trays + col_trays) == between_cabinets
    assert failed(row_trays) == sum(failed([t]) for t in row_trays)
    assert failed(col_trays) == sum(failed([t]) for t in col_trays)


def test_an_unknown_link_in_a_file_names_the_line(tmp_path):
    listed = tmp_path / "dead.txt"
    listed.write_text("link 0 1\nlink 0 24\n")
    net = topolab.build("torus:dims=7x7")
    with pytest.raises(topolab.TopolabError, match="line 2.*no link between 0 and 24"):
        topolab.apply_failures(net, f"file:path={listed}")
    with pytest.raises(topolab.FileError):
        topolab.apply_failures(net, f"file:path={tmp_path / 'missing.txt'}")


def test_failure_kinds_declare_their_parameters():
    kinds = {k["name"]: k for k in topolab.failure_kinds()}
    assert set(kinds) == {"links", "routers", "file", "bundle", "cabinet", "tray", "router"}
    assert [p["name"] for p in kinds["links"]["params"]] == ["fraction", "seed"]
    assert all(p["help"] for k in kinds.values() for p in k["params"])


def test_structured_routing_refuses_a_degraded_network_and_the_check_reverifies_updown():
    net = topolab.build("dragonfly:a=4,h=2", failures="bundle:a=0,b=1,class=global")
    with pytest.raises(topolab.ParameterError, match="updown"):
        check(net, "dragonfly_static", progress=False)
    with pytest.raises(topolab.ParameterError, match="updown"):
        topolab.simulate(net, "dragonfly_min", load=0.1)
    report = check(net, "updown", progress=False)
    assert report.acyclic and report.vcs_used == 1


def test_cli_failures_flag_reports_what_was_cut_off(capsys):
    code, out, err = run(capsys, "info", "slimfly:q=5,p=3", "--failures", "router:id=1", "--json")
    assert code == 0
    assert json.loads(out)["endpoints"] == 147
    assert "3 of 150 endpoints cut off (3, 4, 5)" in err
    code, _, err = run(
        capsys,
        "routing",
        "check",
        "dragonfly:a=4,h=2",
        "--routing",
        "dragonfly_static",
        "--failures",
        "links:fraction=0.05,seed=1",
    )
    assert code != 0 and "updown" in err


def test_sim_cli_runs_on_the_survivors(capsys):
    code, out, err = run(
        capsys,
        "sim",
        "slimfly:q=5,p=3",
        "--failures",
        "links:fraction=0.1,seed=2",
        "--load",
        "0.2",
        "--json",
    )
    assert code == 0, err
    d = json.loads(out)
    assert d["endpoints"] == 150 and not d["saturated"]


def test_degradation_curve_from_the_command_line(capsys, tmp_path):
    code, out, err = run(
        capsys,
        "analyze",
        "slimfly:q=5,p=3",
        "--resilience",
        "--simulate",
        "--failure-fractions",
        "0,0.2",
        "--failure-seeds",
        "1",
        "--load-resolution",
        "0.05",
        "--workers",
        "1",
        "--results",
        str(tmp_path / "r"),
        "--json",
        "--no-progress",
    )
    assert code == 0, err
    d = json.loads(out)
    # --load-resolution: each search's bracket [highest carried, lowest saturated] is at most 0.05 wide
    from topolab.experiment import load_results

    stored = load_results(tmp_path / "r")
    assert set(stored["tolerance"]) == {0.05} and d["inputs"]["load_resolution"] == 0.05
    brackets = [
        search["saturated_load"] - search["saturation_load"]
        for _, search in stored.iterrows()
        if search["saturated_load"] is not None and search["saturated_load"] == search["saturated_load"]
    ]
    assert brackets and all(0 < width <= 0.05 + 1e-9 for width in brackets), brackets
    rows = {r["failed_fraction"]: r for r in d["summary"]}
    assert rows[0.0]["seeds"] == 1 and rows[0.2]["seeds"] == 1
    for r in d["searches"]:
        assert 0 < r["saturation_load"] <= 1 and r["surviving_endpoints"] <= 150
    # 20% of the cables gone lowers the bound of minimal routing and what the network carries.
    assert rows[0.2]["saturation_load_max"] < rows[0.0]["saturation_load_min"]
    assert rows[0.2]["static_bound_max"] < rows[0.0]["static_bound_min"]


@settings(max_examples=12, deadline=None)
@given(
    spec=st.sampled_from(["slimfly:q=5,p=2", "dragonfly:a=4,h=2,p=1", "torus:dims=4x4"]),
    kind=st.sampled_from(["links", "routers"]),
    fraction=st.sampled_from([0.0, 0.05, 0.1, 0.2, 0.3]),
    failure_seed=st.integers(0, 1000),
    routing=st.sampled_from(["min", "updown", "valiant"]),
)
def test_no_flit_is_lost_or_duplicated_on_a_degraded_network(spec, kind, fraction, failure_seed, routing):
    lost = topolab.apply_failures(spec, f"{kind}:fraction={fraction},seed={failure_seed}")
    net = lost.network
    n = net.num_endpoints
    if n < 2:
        return
    # Every surviving endpoint sends 2 packets to each of 3 others.
    messages = [[((s + k) % n, 2) for k in (1, 2, 3) if (s + k) % n != s] for s in range(n)]
    # The routing on the degraded graph is re-verified deadlock-free with the VCs it uses; the
    # simulator wants one per VC class the rule declares (2D for Valiant, where the longest
    # path found may be shorter), at most twice the VCs used.
    report = check(net, routing, progress=False)
    assert report.acyclic
    num_vcs = max(4, 2 * report.vcs_used)
    result = topolab.run_exchange(net, messages, routing, seed=failure_seed, num_vcs=num_vcs)
    assert result.packets == sum(p for m in messages for _, p in m)
    assert result.delivered_packets == result.packets
    assert result.delivered_flits == result.sent_flits == result.flits


def test_compare_with_failures_adds_a_column_and_an_objective():
    from topolab.design import simulate as S
    from topolab.design.compare import CompareSettings, objectives_for, run_comparison
    from topolab.design.measurements import MEASUREMENTS

    with pytest.raises(topolab.ParameterError, match="failures"):
        CompareSettings(radix=8, endpoints=20, failures=0.05)
    with pytest.raises(topolab.ParameterError, match="failures"):
        CompareSettings(radix=8, endpoints=20, simulate=True, failures=1.5)
    settings = CompareSettings(
        radix=8, endpoints=20, families=("mlfm",), simulate=True, per_family=1, sim_per_family=1, failures=0.1
    )
    sim = [m for m in MEASUREMENTS if m.name in ("graph", "cost", "latency", "simulation")]
    result = run_comparison(settings, measurements=sim, progress=False, workers=1)
    assert "saturation_failed" in objectives_for(settings) and "saturation_failed" in result.objectives
    row = result.frame.iloc[0]
    routing = S.degraded_routing(S.SIM_CHOICES["mlfm"].uniform_routing)
    assert row["sim_failed"] == f"{routing} / uniform / links:fraction=0.1,seed={settings.seed}"
    assert 0 < row["saturation_failed"] <= 1
    # The same search by hand: the saturation point on the degraded network.
    from topolab.design.saturation import saturation_point

    direct = saturation_point(
        {
            "network": row["sim_network"],
            "routing": routing,
            "traffic": "uniform",
            "seed": settings.seed,
            "tolerance": 0.01,
            "failures": f"links:fraction=0.1,seed={settings.seed}",
            **S.SIM_PARAMS,
        }
    )
    assert direct["saturation_load"] == row["saturation_failed"]


def test_structured_family_routings_fall_back_to_min_when_cables_fail():
    from topolab.design.simulate import degraded_routing

    assert degraded_routing("ugal_l:paths=dragonfly,n=1") == "min"
    assert degraded_routing("dragonfly_ugal") == "min"
    assert degraded_routing("fattree_anca") == "min"
    assert degraded_routing("ugal_l:n=4") == "ugal_l:n=4"
    assert degraded_routing("updown") == "updown"


def test_failures_is_a_key_of_experiment_points():
    from topolab.experiment import run_experiment

    frame = run_experiment(
        {
            "name": "failures",
            "kind": "simulate",
            "fixed": {"network": "slimfly:q=5,p=2", "load": 0.1, "routing": "updown"},
            "axes": {"failures": ["router:id=0", "links:fraction=0.2,seed=1"]},
        },
        workers=1,
        progress=False,
    )
    assert list(frame["status"]) == ["ok", "ok"]
    by_failures = dict(zip(frame["failures"], frame["endpoints"]))
    assert by_failures["router:id=0"] == 98
    expected = topolab.apply_failures("slimfly:q=5,p=2", "links:fraction=0.2,seed=1").surviving_endpoints
    assert by_failures["links:fraction=0.2,seed=1"] == expected
    bad = run_experiment(
        {
            "name": "bad",
            "kind": "simulate",
            "cases": [{"network": "slimfly:q=5,p=2", "load": 0.1, "failures": "links:fraction=3"}],
        },
        workers=1,
        progress=False,
    )
    assert bad["status"][0] == "failed" and "fraction" in bad["error"][0]
