"""topolab's result classes are declared once, in Rust (``topolab_core::result_type!``), and
python/topolab/_results.py is what scripts/result_types.py writes from that declaration: a field
added, renamed or documented in Rust fails here until the module is written again. The classes
then hold what a real call returns (a run, a channel load, an analysis, the physical reports, an
InfiniBand check, a timeline, a failure set, a mapping, a family's sizes, compare's designs),
field for field, with the types they declare."""

import dataclasses
import importlib.util
import json
import math
import subprocess
import sys
import types
import typing
from pathlib import Path

import topolab
from topolab import _core, _result_methods, _results, routing

ROOT = Path(__file__).resolve().parent.parent


def load_script():
    spec = importlib.util.spec_from_file_location("result_types", ROOT / "scripts" / "result_types.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_module_is_what_the_script_writes_from_the_rust_declarations():
    script = load_script()
    assert (ROOT / "python" / "topolab" / "_results.py").read_text() == script.source(), (
        "python/topolab/_results.py is out of date: run python scripts/result_types.py"
    )
    check = subprocess.run([sys.executable, str(ROOT / "scripts" / "result_types.py"), "--check"])
    assert check.returncode == 0


def test_every_declared_type_is_a_class_with_the_declared_fields_in_order():
    types = {t["name"]: t for t in _core.result_types()}

    def held(t):
        # a flattened field (serde's flatten) stands for its type's fields; a skipped one is
        # not seen, unless it is a network (which the binding hands over as an object)
        for f in t["fields"]:
            if f["serde"] == "flatten":
                yield from held(types[f["rust_type"]])
            elif f["serde"] != "skip" or f["rust_type"] == "Network":
                yield f

    for declared in types.values():
        cls = getattr(_results, declared["python"] or declared["name"])
        assert [f.name for f in dataclasses.fields(cls)] == [f["name"] for f in held(declared)]
        assert cls.UNITS == {f["name"]: f["unit"] for f in held(declared) if f["unit"]}
    flattened = [f for f in types["Analysis"]["fields"] if f["serde"] == "flatten"]
    assert [f["rust_type"] for f in flattened] == ["Distances"]
    # every mixin of _result_methods.py is a base of the class it names
    mixins = [name for name in vars(_result_methods) if name.endswith("Methods")]
    assert "ThresholdMethods" in mixins
    for name in mixins:
        assert issubclass(getattr(_results, name.removesuffix("Methods")), getattr(_result_methods, name))


def _check_value(v, hint, where):
    """``v`` is of the annotation ``hint``: scalars by their class (an int is no bool), tuples
    element by element, optional values when not None, nested results field by field."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is float:
        assert isinstance(v, float), (where, v)
    elif hint is int:
        assert isinstance(v, int) and not isinstance(v, bool), (where, v)
    elif hint in (str, bool, topolab.Network):
        assert isinstance(v, hint), (where, v)
    elif origin in (typing.Union, getattr(types, "UnionType", typing.Union)):
        if v is not None or type(None) not in args:
            inner = [a for a in args if a is not type(None)]
            errors = []
            for hint in inner:  # one of them holds
                try:
                    return _check_value(v, hint, where)
                except AssertionError as e:
                    errors.append(e)
            raise AssertionError(where, v, errors)
    elif origin is dict:
        assert isinstance(v, dict), (where, v)
        key_hint, value_hint = args
        for key, item in v.items():
            _check_value(key, key_hint, f"{where} key")
            _check_value(item, value_hint, f"{where}[{key!r}]")
    elif origin is tuple:
        assert isinstance(v, tuple), (where, v)
        items = args[:1] * len(v) if len(args) == 2 and args[1] is Ellipsis else args
        assert len(items) == len(v), (where, v)
        for i, (item, item_hint) in enumerate(zip(v, items)):
            _check_value(item, item_hint, f"{where}[{i}]")
    elif dataclasses.is_dataclass(hint):
        assert isinstance(v, hint), (where, v)
        _check_types(v, hint)
    else:
        raise AssertionError(f"{where}: no check for the annotation {hint}")


def _check_types(value, cls):
    hints = typing.get_type_hints(cls, vars(_results))
    for f in dataclasses.fields(cls):
        _check_value(getattr(value, f.name), hints[f.name], f"{cls.__name__}.{f.name}")


def test_a_run_fills_every_field_with_its_declared_type():
    net = topolab.build("slimfly:q=5,p=2")
    r = topolab.simulate(net, "min", "uniform", 0.2, sample_period=300, warmup_periods=1, max_samples=3)
    assert type(r) is _results.SimResult
    _check_types(r, _results.SimResult)
    # the run's own figures, read independently of the class: the dict the core returns
    raw = _core.simulate(
        net._net,
        "min",
        "uniform",
        0.2,
        seed=0,
        params={"sample_period": 300, "warmup_periods": 1, "max_samples": 3},
    )
    assert set(raw) == {f.name for f in dataclasses.fields(r)}
    assert r.accepted_throughput == raw["accepted_throughput"]
    low, high = r.accepted_throughput_ci95
    assert low <= r.accepted_throughput <= high
    assert r.to_dict()["flit_hops"] == raw["flit_hops"] > 0


def test_nested_results_are_classes_and_unmeasured_figures_are_nan():
    net = topolab.build("slimfly:q=5,p=2")
    w = topolab.run_workload(net, "allreduce:bytes=64KiB,ranks=8", slowdown=True)
    _check_types(w, _results.WorkloadResult)
    job = w.jobs[0]
    assert type(job) is _results.JobResult and all(type(p) is _results.PhaseTime for p in job.phases)
    assert job.alone_cycles > 0 and math.isclose(job.slowdown, job.completion_cycles / job.alone_cycles)
    assert list(w.to_dataframe()["name"]) == [j.name for j in w.jobs]
    # a run that measures no packet: its latencies are NaN, not None
    idle = topolab.simulate(net, "min", "uniform", 0.0, sample_period=100, warmup_periods=1, max_samples=2)
    assert math.isnan(idle.avg_latency) and idle.measured_packets == 0


def test_a_channel_load_fills_every_field_with_its_declared_type():
    net = topolab.build("slimfly:q=5,p=2")
    load = routing.channel_load(net, "min", traffic="worst")
    assert type(load) is _results.ChannelLoad is routing.ChannelLoad
    _check_types(load, _results.ChannelLoad)
    raw = json.loads(_core.routing_load(net._net, "min", None, None, "worst"))
    assert list(raw) == [f.name for f in dataclasses.fields(load)]
    assert load.loads == tuple(raw["loads"]) and len(load.loads) == 2 * net.num_links
    # the summary figures agree with the per-arc loads they summarize
    assert load.max_load == max(load.loads) > 0
    assert load.throughput_bound == 1 / load.max_load
    src, dst = load.max_link
    assert dst in net.neighbors(src)


def test_an_analysis_fills_every_field_with_its_declared_type():
    net = topolab.build("slimfly:q=5")
    everything = {"paths": True, "resilience": True, "bisection": True, "spectrum": True, "seed": 3}
    a = topolab.analyze(net, **everything)
    assert type(a) is topolab.Analysis and isinstance(a, _results.Analysis)
    sections = (a.paths, a.resilience, a.bisection, a.spectrum)
    assert [type(s) for s in sections] == [
        _results.PathDiversity,
        _results.Resilience,
        _results.Bisection,
        _results.Spectrum,
    ]
    _check_types(a, _results.Analysis)
    # the core's JSON is flat (the distances flattened into it) and holds every field
    raw = json.loads(_core.analyze(net._net, **everything))
    assert list(raw) == [f.name for f in dataclasses.fields(a)]
    # Slim Fly q=5 is the Hoffman-Singleton graph: 50 routers of degree 7 at diameter 2, a
    # Moore graph (1 + 7 + 7 * 6 = 50)
    assert (a.routers, a.network_radix, a.diameter) == (50, 7, 2)
    assert a.moore_bound == 1 + 7 + 7 * 6 and a.moore_fraction == 1.0
    assert a.histogram == (0, 50 * 7, 50 * 42) and a.eccentricities == (2,) * 50
    # the methods of nested sections come with them (topolab/_result_methods.py)
    t = a.resilience.disconnect
    assert t.interval == (t.ci_low, t.ci_high) and t.ci_low <= t.mean <= t.ci_high
    assert a.to_dict()["bisection_links"] == a.bisection.links_cut >= a.bisection.lower_bound
    assert a.to_dict()["histogram"] == list(a.histogram)


def test_the_physical_reports_fill_every_field_with_its_declared_type():
    net = topolab.build("slimfly:q=5")
    placed = topolab.place(net, floor="slimfly")
    cost = topolab.cost(net, "fdr10", "slimfly")
    latency = topolab.latency(net, routing="fastest", floor="slimfly", progress=False)
    for report in (placed, cost, latency):
        _check_types(report, type(report))
    assert [type(c) for c in cost.by_class] == [_results.ClassCables] * len(cost.by_class)
    # the core's dict holds every declared field and nothing else (the placement's grid is Rust's)
    raw = _core.place(net._net, "slimfly", None, None, None)
    assert set(raw) == {f.name for f in dataclasses.fields(placed)}
    # the fields agree with each other and with the network
    assert len(placed.cabinet_of) == net.num_routers and max(placed.cabinet_of) + 1 == placed.cabinets
    assert placed.position(placed.cabinets - 1) == divmod(placed.cabinets - 1, placed.cols)
    links = [c for c in cost.by_class if c.link_class != "endpoint"]
    assert sum(c.cables for c in links) == cost.electric_cables + cost.optical_cables == net.num_links
    assert cost.cables_of("endpoint").cables == cost.endpoint_cables == net.num_endpoints
    assert math.isclose(sum(c.cost for c in cost.by_class), cost.cable_cost)
    assert cost.to_dict()["by_class"] == [dataclasses.asdict(c) for c in cost.by_class]
    assert latency.routing == "fastest" and latency.pairs == net.num_routers * (net.num_routers - 1)
    assert latency.min_latency_ns <= latency.avg_latency_ns <= latency.max_latency_ns


def test_an_infiniband_check_fills_every_field_with_its_declared_type(tmp_path):
    from topolab import infiniband

    net = topolab.build("hyperx:dims=3x3,p=2")
    checked = infiniband.export(net, "hyperx_dor", tmp_path, progress=False)
    assert type(checked) is _results.InfinibandCheck and type(checked.cdg) is _results.DeadlockReport
    _check_types(checked, _results.InfinibandCheck)
    # every switch has hosts: each host is reached from the 8 other switches, along DOR's at
    # most 2 hops, on a deadlock-free channel graph
    assert (checked.switches, checked.hosts) == (net.num_routers, net.num_endpoints)
    assert checked.pairs == checked.hosts * (checked.switches - 1)
    assert checked.max_hops == 2 and checked.cdg.acyclic and checked.cdg.cycle is None
    assert checked == infiniband.check(net, "hyperx_dor", tmp_path)


def test_a_timeline_fills_every_field_with_its_declared_type():
    failing = {"num_vcs": 8, "dynamic_failures": "links:fraction=0.05,seed=3", "failure_cycle": 1000}
    t = topolab.timeline("slimfly:q=5,p=2", "min", "uniform", 0.3, window=250, progress=False, **failing)
    assert type(t) is topolab.Timeline and isinstance(t, _results.Timeline)
    _check_types(t, _results.Timeline)
    assert {type(w) for w in t.windows} == {_results.TimelineWindow}
    # the windows tile the run and count every flit lost; the table holds the same figures
    assert [w.start for w in t.windows] == list(range(0, t.cycles, 250))
    assert sum(w.dropped for w in t.windows) == t.dropped_flits == t.dropped_on_wire + t.dropped_at_dead_port
    frame = t.to_dataframe()
    assert list(frame.columns) == [f.name for f in dataclasses.fields(_results.TimelineWindow)]
    assert list(frame["dropped"]) == [w.dropped for w in t.windows]
    assert list(frame["accepted"]) == [w.accepted for w in t.windows]
    assert t.UNITS["accepted"] == t.UNITS["load"] == "flits/active endpoint/cycle"


def test_a_failure_set_fills_every_field_with_its_declared_type():
    net = topolab.build("slimfly:q=5,p=2")
    lost = topolab.apply_failures(net, "router:id=3")
    assert type(lost) is topolab.Failures and isinstance(lost, _results.Failures)
    _check_types(lost, _results.Failures)
    # router 3 and its 2 endpoints go; the Hoffman-Singleton graph less a vertex stays connected
    assert lost.failed_routers == (3,) and lost.isolated_routers == ()
    assert lost.cut_off_endpoints == (6, 7)
    assert lost.network.num_routers == 49 and lost.network.num_endpoints == 98
    assert lost.router_ids == tuple(r for r in range(50) if r != 3)
    # a router failing counts no failed cable, but its 7 links (degree 7) are gone
    assert lost.failed_cables == 0 and lost.cables_before == 175
    assert lost.network.num_links == 175 - 7
    # ordered endpoint pairs (s != t) with a cut-off end, of 100 endpoints
    assert lost.excluded_pair_fraction == 1 - (98 * 97) / (100 * 99)
    d = lost.to_dict()
    assert "network" not in d and "router_ids" not in d
    assert d["surviving_endpoints"] == 98 and json.loads(json.dumps(d)) == d


def test_a_mapping_fills_every_field_with_its_declared_type():
    # the bare graph of a 3x4 HyperX: no labels, as a subnet manager sees a fabric
    bare = topolab.from_networkx(topolab.build("hyperx:dims=3x4,p=1").to_networkx(), endpoints=1)
    m = topolab.map_network(bare, "hyperx")
    assert type(m) is topolab.MappedNetwork and isinstance(m, _results.MappedNetwork)
    _check_types(m, _results.MappedNetwork)
    assert sorted(m.shape) == [3, 4] and m.missing_links == () and m.missing_cables == 0
    assert m.network.num_routers == 12 and m.network.label_fields[:2] == ["d0", "d1"]
    d = m.to_dict()
    assert "network" not in d and json.loads(json.dumps(d)) == d


def test_family_sizes_fill_every_field_with_its_declared_type():
    s = topolab.family_sizes("torus:dims=4x4x4,p=2")
    assert type(s) is topolab.FamilySizes
    _check_types(s, _results.FamilySizes)
    built = topolab.build("torus:dims=4x4x4,p=2")
    assert (s.routers, s.endpoints, s.network_radix) == (built.num_routers, built.num_endpoints, 6)


def test_compare_designs_fill_every_field_with_their_declared_type():
    from topolab.design import enumerate_designs

    designs = enumerate_designs(16, 400, endpoint_tolerance=0.5, oversubscription=1.0)
    assert {type(d) for d in designs} == {_results.Design}
    for d in designs:
        _check_types(d, _results.Design)
        # the spec is the family and its parameters in order; the name shows every value
        assert d.spec == f"{d.family}:" + ",".join(
            f"{k}=" + ("x".join(map(str, v)) if isinstance(v, tuple) else str(v)) for k, v in d.params.items()
        )
        shown = ("x".join(map(str, v)) if isinstance(v, tuple) else str(v) for v in d.params.values())
        assert all(s.strip("()").split("=")[-1] in d.name for s in shown), (d.name, d.params)
        assert d.deviation == d.endpoints / 400 - 1
        assert d.balanced == (d.tags[0] == "balanced") == (d.oversubscription == 0)
    product = [d for d in enumerate_designs(64, 20000, families=["product"], endpoint_tolerance=0.3)]
    assert product and all(d.name.startswith("Slim Fly q=") and " x HyperX " in d.name for d in product)
