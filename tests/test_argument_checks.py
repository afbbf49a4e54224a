"""Arguments are checked where their type lives: the bindings convert each Python argument to its
Rust type (crates/topolab-py/src/args.rs) and the Rust type or function that owns the value checks
its range and meaning. A value of the wrong Python type and a value out of range both raise a
ParameterError naming the parameter, the value and what is allowed, never a TypeError or
OverflowError from the bindings, and before any work starts."""

from __future__ import annotations

import pathlib

import pytest

import topolab
from topolab import _core, routing
from topolab.design.saturation import check_saturation_point
from topolab.experiment.kinds import check_exchange_point, check_values
from topolab.sim import check_point
from topolab.workload import check_workload_point

NET = topolab.build("torus:dims=2x3")
QUICK = {"progress": False, "sample_period": 50, "max_samples": 4}


def simulate(**kw):
    return topolab.simulate(NET, **{**QUICK, **kw})


def sweep(**kw):
    return topolab.sweep_load(NET, **{"loads": [0.1], "load_resolution": 0.0, **QUICK, **kw})


def timeline(**kw):
    return topolab.timeline(NET, **{"window": 50, "cycles": 400, "progress": False, **kw})


def workload(**kw):
    return topolab.run_workload(NET, "allreduce:bytes=512", **{"progress": False, **kw})


def exchange(per_source=((1, 2),), **kw):
    return topolab.run_exchange(NET, [list(per_source)], **{"progress": False, **kw})


# (call, parameter, words the allowed text holds): a wrong type, then a value out of range.
# The simulator's arguments (topolab-sim: check_load, sweep, timeline, Exchange::listed, SimConfig).
SIM_CASES = [
    ("simulate load str", lambda: simulate(load="0.5"), "load", "a number"),
    ("simulate load bool", lambda: simulate(load=True), "load", "a number"),
    ("simulate load 1.5", lambda: simulate(load=1.5), "load", "from 0 to 1"),
    ("simulate load nan", lambda: simulate(load=float("nan")), "load", "from 0 to 1"),
    ("simulate seed float", lambda: simulate(seed=1.5), "seed", "an integer"),
    ("simulate seed -1", lambda: simulate(seed=-1), "seed", "an integer from 0"),
    ("simulate seed 2**64", lambda: simulate(seed=2**64), "seed", "18446744073709551615"),
    ("simulate routing bytes", lambda: simulate(routing=b"min"), "routing", "a string"),
    ("simulate traffic surrogate", lambda: simulate(traffic="\ud800"), "traffic", "a string"),
    ("sweep loads str", lambda: sweep(loads="0.1"), "loads", "a list"),
    ("sweep loads empty", lambda: sweep(loads=[]), "loads", "non-empty"),
    ("sweep loads item", lambda: sweep(loads=[0.1, 2.0]), "loads[1]", "from 0 to 1"),
    ("sweep resolution str", lambda: sweep(load_resolution="0.1"), "load_resolution", "a number"),
    ("sweep resolution 2", lambda: sweep(load_resolution=2.0), "load_resolution", "below 1"),
    ("sweep every_load int", lambda: sweep(every_load=1), "every_load", "True or False"),
    ("timeline window str", lambda: timeline(window="50"), "window", "an integer"),
    ("timeline window 0", lambda: timeline(window=0), "window", "run's length"),
    ("timeline window past the run", lambda: timeline(window=500), "window", "run's length"),
    ("timeline cycles float", lambda: timeline(cycles=400.0), "cycles", "an integer"),
    ("timeline cycles 0", lambda: timeline(cycles=0), "cycles", "1 to"),
    ("timeline load 2", lambda: timeline(load=2), "load", "from 0 to 1"),
    ("workload packet_bytes str", lambda: workload(packet_bytes="256"), "packet_bytes", "an integer"),
    ("workload packet_bytes 0", lambda: workload(packet_bytes=0), "packet_bytes", "at least 1"),
    ("workload background_load str", lambda: workload(background_load="0.1"), "background_load", "a number"),
    ("workload background_load 3", lambda: workload(background_load=3.0), "background_load", "from 0 to 1"),
    ("workload seed -1", lambda: workload(seed=-1), "seed", "an integer from 0"),
    ("exchange packets -1", lambda: exchange([(1, -1)]), "per_source", "(destination endpoint, packets)"),
    (
        "exchange pair of three",
        lambda: exchange([(1, 2, 3)]),
        "per_source",
        "(destination endpoint, packets)",
    ),
    ("exchange destination", lambda: exchange([(6, 1)]), "destination", "from 0 to 5"),
    ("exchange packets in all", lambda: exchange([(1, 60_000_000)] * 2), "packets", "at most 100000000"),
    ("exchange name int", lambda: exchange(name=5), "name", "a string"),
    ("exchange interleave str", lambda: exchange(interleave="yes"), "interleave", "True or False"),
    ("from_booksim bytes", lambda: topolab.from_booksim(b"x.cfg"), "path", "a file path"),
    ("from_booksim empty", lambda: topolab.from_booksim(""), "path", "a file path"),
    ("point load str", lambda: check_point({"network": "ring:n=4", "load": "x"}), "load", "a number"),
    ("point load 1.5", lambda: check_point({"network": "ring:n=4", "load": 1.5}), "load", "from 0 to 1"),
    (
        "point seed -1",
        lambda: check_point({"network": "ring:n=4", "load": 0.1, "seed": -1}),
        "seed",
        "from 0",
    ),
    (
        "workload point packet_bytes 0",
        lambda: check_workload_point({"network": "ring:n=4", "jobs": "allreduce", "packet_bytes": 0}),
        "packet_bytes",
        "at least 1",
    ),
]

# Networks: specs, files and formats (topolab_core::io, the spec parser).
NETWORK_CASES = [
    ("neighbors -1", lambda: NET.neighbors(-1), "router", "an integer from 0"),
    ("neighbors past the routers", lambda: NET.neighbors(6), "router", "from 0 to 5"),
    ("dumps format int", lambda: NET.dumps(5), "format", "json"),
    ("build spec int", lambda: topolab.build(5), "spec", "a spec string"),
    ("load path bytes", lambda: topolab.load(b"x.json"), "path", "a file path"),
    ("load format int", lambda: topolab.load("x.json", format=5), "format", "json"),
    (
        "load endpoints_per_router -1",
        lambda: topolab.load("x.json", endpoints_per_router=-1),
        "endpoints_per_router",
        "from 0 to 4294967295",
    ),
    ("loads directed str", lambda: topolab.loads(NET.dumps(), directed="yes"), "directed", "True or False"),
    ("loads text bytes", lambda: topolab.loads(NET.dumps().encode()), "text", "a str"),
    (
        "from_networkx family int",
        lambda: topolab.from_networkx(__import__("networkx").path_graph(3), family=5),
        "family",
        "a string",
    ),
]

# Floors, catalogs, placement, cost and latency (topolab_core::physical).
PHYSICAL_CASES = [
    ("place per_cabinet str", lambda: topolab.place(NET, per_cabinet="2"), "per_cabinet", "an integer"),
    ("place per_cabinet 0", lambda: topolab.place(NET, per_cabinet=0), "per_cabinet", ">= 1"),
    ("place floor int", lambda: topolab.place(NET, floor=5), "floor", "a built-in name or the path"),
    ("place placement int", lambda: topolab.place(NET, placement=5.0), "placement", "a list of cabinets"),
    ("cost max_electric_m str", lambda: topolab.cost(NET, max_electric_m="3"), "max_electric_m", "a number"),
    ("cost max_electric_m -1", lambda: topolab.cost(NET, max_electric_m=-1.0), "max_electric_m", ">= 0"),
    ("cost router_radix -1", lambda: topolab.cost(NET, router_radix=-1), "router_radix", "an integer from 0"),
    (
        "cost router_radix below the network's",
        lambda: topolab.cost(NET, router_radix=2),
        "router_radix",
        "network's radix",
    ),
    ("cost catalog None", lambda: topolab.cost(NET, catalog=None), "catalog", "a built-in name or the path"),
    (
        "latency switch_delay_ns str",
        lambda: topolab.latency(NET, switch_delay_ns="60", progress=False),
        "switch_delay_ns",
        "a number",
    ),
    (
        "latency switch_delay_ns -1",
        lambda: topolab.latency(NET, switch_delay_ns=-1.0, progress=False),
        "switch_delay_ns",
        "from 0",
    ),
    (
        "latency injection_ns inf",
        lambda: topolab.latency(NET, injection_ns=float("inf"), progress=False),
        "injection_ns",
        "a finite number",
    ),
    ("latency routing int", lambda: topolab.latency(NET, routing=5, progress=False), "routing", "a string"),
    ("load_floor None", lambda: topolab.load_floor(None), "name", "a built-in name or the path"),
    ("load_catalog int", lambda: topolab.load_catalog(5), "name", "a built-in name or the path"),
]

# Metrics (topolab_core::metrics).
ANALYSIS_CASES = [
    (
        "analyze bisection_runs str",
        lambda: topolab.analyze(NET, bisection_runs="5", progress=False),
        "bisection_runs",
        "an integer",
    ),
    (
        "analyze bisection_runs 0",
        lambda: topolab.analyze(NET, bisection_runs=0, progress=False),
        "bisection_runs",
        "from 1 to 1000",
    ),
    ("analyze paths int", lambda: topolab.analyze(NET, paths=1, progress=False), "paths", "True or False"),
    ("analyze seed -1", lambda: topolab.analyze(NET, seed=-1, progress=False), "seed", "an integer from 0"),
    ("moore_bound degree -1", lambda: topolab.moore_bound(-1, 2), "degree", "an integer from 0"),
    ("moore_bound diameter 2**32", lambda: topolab.moore_bound(3, 2**32), "diameter", "4294967295"),
    (
        "moore_bound directed str",
        lambda: topolab.moore_bound(3, 2, directed="yes"),
        "directed",
        "True or False",
    ),
    ("moore_bound past 2**128", lambda: topolab.moore_bound(2**63, 2**20), "diameter", "fits in 128 bits"),
]
# Mapping, failure sets and the saturation search (topolab_core::topology::mapping,
# topolab_core::failures, topolab_sim::saturation::Search).
MORE_CASES = [
    ("map_network family int", lambda: topolab.map_network(NET, 5), "family", "hyperx or dragonfly"),
    (
        "map_network max_missing -1",
        lambda: topolab.map_network(NET, "hyperx", -1),
        "max_missing",
        "an integer",
    ),
    ("apply_failures int", lambda: topolab.apply_failures(NET, 5), "failures", "a failure spec"),
    ("apply_failures fraction 2", lambda: topolab.apply_failures(NET, "links:fraction=2"), "fraction", "1"),
    ("simulate failures bytes", lambda: simulate(failures=b"links"), "failures", "a failure spec"),
    ("search tolerance str", lambda: saturation_search(tolerance="0.01"), "tolerance", "a number"),
    ("search tolerance 0", lambda: saturation_search(tolerance=0.0), "tolerance", "from 1e-6"),
    ("search start str", lambda: saturation_search(start="0.5"), "start", "a number"),
    (
        "search session warm_starts int",
        lambda: _core.SearchSession(NET._net, "min", "uniform", warm_starts=1),
        "warm_starts",
        "True or False",
    ),
    (
        "search session seed -1",
        lambda: _core.SearchSession(NET._net, "min", "uniform", seed=-1),
        "seed",
        "an integer from 0",
    ),
    (
        "saturation point tolerance 1",
        lambda: check_saturation_point({"network": "ring:n=4", "tolerance": 1.0}),
        "tolerance",
        "below 1",
    ),
    (
        "saturation point seed str",
        lambda: check_saturation_point({"network": "ring:n=4", "seed": "1"}),
        "seed",
        "an integer",
    ),
]
# Experiment points checked before any runs (topolab.experiment.kinds) by the same core checks.
POINT_CASES = [
    (
        "analyze point seed -1",
        lambda: check_values("analyze", {"network": "ring:n=4", "seed": -1}),
        "seed",
        "from 0",
    ),
    ("simulate point load str", lambda: check_values("simulate", {"load": "0.1"}), "load", "a number"),
    ("simulate point load 2", lambda: check_values("simulate", {"load": 2.0}), "load", "from 0 to 1"),
    (
        "exchange point seed str",
        lambda: check_exchange_point({"exchange": "alltoall", "seed": "1"}),
        "seed",
        "an integer",
    ),
]
# Static routing analysis (routing.rs): these took PyO3's TypeError before.
ROUTING_CASES = [
    ("routing.check routing int", lambda: routing.check(NET, 5), "routing", "a string"),
    (
        "channel_load permutation int",
        lambda: routing.channel_load(NET, "min", permutation=5),
        "permutation",
        "a list",
    ),
    (
        "channel_load permutation -1",
        lambda: routing.channel_load(NET, "min", permutation=[-1]),
        "permutation",
        "a list",
    ),
    (
        "channel_load max_pairs -1",
        lambda: routing.channel_load(NET, "min", max_pairs=-1),
        "max_pairs",
        "an integer",
    ),
    (
        "forwarding_tables vl_budget str",
        lambda: routing.forwarding_tables(NET, "min", vl_budget="8"),
        "vl_budget",
        "an integer",
    ),
]
CASES = ROUTING_CASES + POINT_CASES + SIM_CASES + NETWORK_CASES + PHYSICAL_CASES + ANALYSIS_CASES + MORE_CASES


def saturation_search(start=None, tolerance=0.01):
    return _core.saturation_search(lambda load: None, start, tolerance)


@pytest.mark.parametrize("case, call, parameter, allowed", CASES, ids=[c[0] for c in CASES])
def test_a_bad_argument_names_its_parameter_value_and_what_is_allowed(case, call, parameter, allowed):
    with pytest.raises(topolab.ParameterError) as info:
        call()
    err = info.value
    assert err.parameter == parameter, str(err)
    assert allowed in err.allowed, str(err)
    assert isinstance(err.value, str) and err.value and err.value in str(err)
    assert f"'{parameter}'" in str(err) and err.allowed in str(err)


@pytest.mark.parametrize(
    "call",
    [
        lambda progress: _core.simulate(NET._net, "min", "uniform", 1.5, progress=progress),
        lambda progress: _core.sweep_load(NET._net, "min", "uniform", loads=[0.2, -1.0], progress=progress),
        lambda progress: _core.sim_timeline(NET._net, "min", "uniform", 0.2, 0, 400, progress=progress),
    ],
    ids=["simulate", "sweep_load", "timeline"],
)
def test_a_bad_load_or_window_is_refused_before_the_network_is_wired(call):
    """The core checks them on entry: no stage (wiring the routing tables, a run) reports
    progress before the error."""
    reports = []
    with pytest.raises(topolab.ParameterError):
        call(lambda stage, done, total: reports.append(stage))
    assert reports == []


def test_the_timeline_length_defaults_to_twice_the_failure_cycle_plus_the_reaction_delay():
    t = topolab.timeline(NET, window=50, failure_cycle=300, reaction_delay=40, progress=False)
    assert t.cycles == 2 * 300 + 40


def test_pairs_may_be_lists_and_a_sequence_of_loads_a_tuple():
    listed = topolab.run_exchange(NET, [[[1, 2]], [[0, 1]]], progress=False)
    paired = topolab.run_exchange(NET, [[(1, 2)], [(0, 1)]], progress=False)
    assert listed.packets == paired.packets == 3
    df = topolab.sweep_load(NET, loads=(0.1,), load_resolution=0.0, **QUICK)
    assert list(df["offered_load"]) == [0.1]


def test_a_path_may_be_a_pathlike(tmp_path):
    cfg = tmp_path / "torus.cfg"
    cfg.write_text("topology = torus;\nk = 4;\nn = 2;\nrouting_function = dim_order;\n")
    assert topolab.from_booksim(pathlib.Path(cfg)).network.num_routers == 16
