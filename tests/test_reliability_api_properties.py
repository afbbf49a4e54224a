"""Hypothesis over every public function of ``topolab`` (``topolab.__all__``) and every one of
its parameters (docs/reliability.md): starting from a quick call that works, one argument is
replaced by any value of any type; the call answers or raises a topolab error with a short
message, never a TypeError, ValueError, OverflowError, AttributeError or UnicodeError.
A function added to ``__all__`` without a quick call here fails
``test_every_public_function_is_covered``. CI runs the "ci" profile (conftest.py)."""

from __future__ import annotations

import inspect
import os
import pathlib
import tempfile

import pytest

hypothesis = pytest.importorskip("hypothesis")
import networkx as nx  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import topolab  # noqa: E402

MESSAGE_LIMIT = 2000
NET = topolab.build("torus:dims=2x3")

ANY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, -1, 2**32, 2**64, 10**9]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(["", "\ud800", "a\x00b", "\x1b[31m", "nan", "1e400", "torus:dims=2x2"]),
    st.binary(max_size=8),
    st.lists(st.integers(min_value=-3, max_value=2**40), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.just(object()),
    st.just(NET),
)


# Input files of the quick calls, written once per test session.
DATA = pathlib.Path(tempfile.mkdtemp(prefix="topolab-api-properties-"))
(DATA / "ring.edgelist").write_text("0 1\n1 2\n2 0\n")
(DATA / "torus.cfg").write_text("topology = torus;\nk = 4;\nn = 2;\nrouting_function = dim_order;\n")


# A quick call of each public function that answers (arguments by name). Keep them cheap: each
# runs once per example. Functions whose parameters are all listed run with one replaced.
QUICK = {
    "apply_failures": {"net": NET, "failures": "links:fraction=0.2,seed=1"},
    "analyze": {"net": NET, "bisection": False, "bisection_runs": 2, "seed": 1, "progress": False},
    "build": {"spec": "torus:dims=2x3"},
    "cable_lengths": {"net": NET, "floor": "slimfly", "placement": None, "per_cabinet": None},
    "catalogs": {},
    "compare": {
        "radix": 6,
        "endpoints": 8,
        "families": "torus",
        "per_family": 1,
        "endpoint_tolerance": 0.5,
        "progress": False,
        "seed": 0,
        "workers": None,
        "scheduler": None,
        "output": None,
        "sim_results": None,
    },
    "cost": {"net": NET, "catalog": "fdr10", "floor": "slimfly", "router_radix": 8, "per_cabinet": None},
    "failure_kinds": {},
    "families": {},
    "family_sizes": {"spec": "torus:dims=2x3"},
    "floors": {},
    "from_booksim": {"path": str(DATA / "torus.cfg")},
    "from_networkx": {"graph": nx.path_graph(3), "endpoints": 1, "family": "path"},
    "latency": {
        "net": NET,
        "switch_delay_ns": 60.0,
        "routing": "fastest",
        "floor": "slimfly",
        "progress": False,
    },
    "load": {"path": str(DATA / "ring.edgelist"), "format": None, "directed": None},
    "load_catalog": {"name": "fdr10"},
    "load_floor": {"name": "slimfly"},
    "loads": {"text": NET.dumps(), "format": "json", "directed": None, "endpoints_per_router": None},
    "map_network": {"net": "hyperx:dims=2x3", "family": "hyperx", "max_missing": 0},
    "moore_bound": {"degree": 3, "diameter": 2, "directed": False},
    "place": {"net": NET, "floor": "slimfly", "placement": None, "per_cabinet": None},
    "routings": {},
    "run_exchange": {
        "net": NET,
        "per_source": [[(1, 2)]],
        "routing": "min",
        "seed": 0,
        "name": "x",
        "interleave": True,
        "progress": False,
    },
    "run_experiment": {
        "experiment": {"kind": "info", "axes": {"network": ["torus:dims=2x2"]}},
        "results": None,
        "workers": 1,
        "dry_run": False,
        "retry_failed": False,
        "progress": False,
    },
    "run_workload": {
        "net": NET,
        "jobs": "allreduce:bytes=512",
        "routing": "min",
        "seed": 0,
        "packet_bytes": 256,
        "slowdown": False,
        "progress": False,
        "num_vcs": 2,
    },
    "sim_params": {},
    "simulate": {
        "net": NET,
        "routing": "min",
        "traffic": "uniform",
        "load": 0.2,
        "seed": 0,
        "progress": False,
        "sample_period": 50,
        "max_samples": 4,
        "num_vcs": 2,
    },
    "sweep_load": {
        "net": NET,
        "routing": "min",
        "traffic": "uniform",
        "loads": [0.1],
        "seed": 0,
        "load_resolution": 0.0,
        "every_load": True,
        "progress": False,
        "sample_period": 50,
        "max_samples": 4,
    },
    "timeline": {
        "net": NET,
        "routing": "min",
        "traffic": "uniform",
        "load": 0.2,
        "seed": 0,
        "window": 50,
        "cycles": 400,
        "failures": None,
        "progress": False,
        "num_vcs": 2,
    },
    "workload_patterns": {},
}
# Arguments that must keep their quick value: a scheduler address would reach for a network.
FIXED = {("compare", "scheduler"), ("run_experiment", "scheduler")}

PUBLIC = sorted(
    name
    for name in topolab.__all__
    if inspect.isfunction(getattr(topolab, name)) or inspect.isbuiltin(getattr(topolab, name))
)
CASES = [(name, param) for name in PUBLIC for param in (QUICK.get(name) or {}) if (name, param) not in FIXED]


def test_every_public_function_is_covered():
    assert sorted(QUICK) == PUBLIC


def test_the_quick_calls_answer(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in PUBLIC:
        getattr(topolab, name)(**QUICK[name])


def answers_or_refuses(call, **kwargs):
    try:
        return call(**kwargs)
    except topolab.TopolabError as err:
        assert len(str(err)) < MESSAGE_LIMIT, f"{len(str(err))} characters"
        assert_attributes(err)
        return None


@pytest.mark.parametrize("function, parameter", CASES, ids=[f"{f}.{p}" for f, p in CASES])
@settings(max_examples=int(os.environ.get("TOPOLAB_API_EXAMPLES", "12")))
@given(value=ANY)
def test_any_value_for_any_parameter(function, parameter, value, tmp_path_factory):
    cwd = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("call"))  # anything written lands here
    try:
        answers_or_refuses(getattr(topolab, function), **{**QUICK[function], parameter: value})
    finally:
        os.chdir(cwd)


def assert_attributes(err: topolab.TopolabError) -> None:
    """A ParameterError names the parameter, the value and what is allowed, as attributes."""
    if isinstance(err, topolab.ParameterError):
        for name in ("parameter", "value", "allowed"):
            assert isinstance(getattr(err, name), str), f"{name} = {getattr(err, name)!r} in: {err}"


@pytest.mark.parametrize("function, parameter", CASES, ids=[f"{f}.{p}" for f, p in CASES])
def test_a_bad_argument_is_a_parameter_error_with_its_attributes(function, parameter, tmp_path, monkeypatch):
    """Every public function, every parameter, given a value of no type it takes."""
    monkeypatch.chdir(tmp_path)
    try:
        getattr(topolab, function)(**{**QUICK[function], parameter: object()})
    except topolab.TopolabError as err:
        assert isinstance(err, topolab.ParameterError), f"{type(err).__name__}: {err}"
        assert_attributes(err)
    # A parameter that takes any object (a name, a flag read for truth) may answer.


@pytest.mark.parametrize(
    "call",
    [
        lambda: topolab.build("slimfly:q=5,zzz=1"),  # unknown parameter
        lambda: topolab.build("slimfly"),  # missing parameter
        lambda: topolab.build("slimfly:q=(("),  # a spec that does not parse
        lambda: topolab.build("nosuch:q=5"),  # unknown family
        lambda: topolab.build("slimfly:q=6"),  # a value the family refuses
        lambda: topolab.build("slimfly", q=2**70),  # an integer past 64 bits (the bindings)
        lambda: topolab.build("slimfly:q=5", q=7),  # a parameter given twice
        lambda: NET.neighbors(10**6),  # a router that does not exist
        lambda: topolab.simulate(NET, num_vcs=None),  # a simulation parameter of None
        lambda: topolab.simulate(NET, routing="nosuch"),
        lambda: topolab.simulate(NET, traffic="nosuch"),
        lambda: topolab.compare(radix=2, endpoints=10, progress=False),
        lambda: topolab.compare(radix=6, endpoints=8, families="nosuch", progress=False),
        lambda: topolab.run_experiment({"kind": "info", "axes": {"network": []}}, progress=False),
        lambda: topolab.run_experiment({"kind": "nosuch", "axes": {"network": ["torus:dims=2x2"]}}),
    ],
)
def test_errors_from_the_core_and_the_bindings_carry_their_attributes(call):
    with pytest.raises(topolab.ParameterError) as info:
        call()
    assert_attributes(info.value)


def test_compare_reports_a_bad_family_as_its_own():
    with pytest.raises(topolab.ParameterError) as info:
        topolab.compare(radix=6, endpoints=8, families="nosuch", progress=False)
    assert str(info.value).startswith("compare: "), str(info.value)
    assert (info.value.parameter, info.value.value) == ("families", "nosuch")


def test_the_python_code_builds_parameter_errors_through_one_helper():
    """topolab._args.bad is the one place a ParameterError is made, so that none lacks its
    attributes; a `ParameterError(` elsewhere in the package fails here."""
    package = pathlib.Path(topolab.__file__).parent
    found = [
        f"{path.relative_to(package)}:{n}"
        for path in package.rglob("*.py")
        if path.name != "_args.py"
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if "ParameterError(" in line and not line.lstrip().startswith("#")
    ]
    assert not found, found


NETWORK_FUNCTIONS = [name for name in PUBLIC if "net" in QUICK[name]]


@pytest.mark.parametrize("function", NETWORK_FUNCTIONS)
def test_every_function_taking_a_network_takes_a_spec_string_alike(function, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert len(NETWORK_FUNCTIONS) >= 10, NETWORK_FUNCTIONS
    by_network = getattr(topolab, function)(**QUICK[function])
    by_spec = getattr(topolab, function)(**{**QUICK[function], "net": NET.spec})
    assert type(by_spec) is type(by_network)
    if function == "analyze":
        assert (by_spec.diameter, by_spec.endpoint_aspl) == (by_network.diameter, by_network.endpoint_aspl)
