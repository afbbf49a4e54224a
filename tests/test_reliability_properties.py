"""Property tests of the Python entry points' argument conversion (docs/reliability.md): any
value of any type, given to any parameter, gives a result or a topolab error (ParameterError
for a bad value) whose message is short; never a TypeError, OverflowError, ValueError or a
crash. CI runs the "ci" Hypothesis profile (tens of examples each); a campaign runs
TOPOLAB_HYPOTHESIS_PROFILE=campaign (see conftest.py)."""

import math

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import topolab  # noqa: E402
from topolab.cli import main  # noqa: E402

ANY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.binary(max_size=8),
    st.lists(st.integers(min_value=-5, max_value=2**40), max_size=4),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
MESSAGE_LIMIT = 2000

NET = topolab.build("torus:dims=2x3")


def answers_or_refuses(call, *args, **kwargs):
    """The call's result, or None after a topolab error with a short message."""
    try:
        return call(*args, **kwargs)
    except topolab.TopolabError as err:
        assert len(str(err)) < MESSAGE_LIMIT, f"{len(str(err))} characters"
        return None


@given(value=ANY, name=st.sampled_from(["dims", "widths", "p"]))
def test_build_parameters(value, name):
    params = {"dims": "2x2", name: value}
    net = answers_or_refuses(topolab.build, "torus", **params)
    if net is not None:
        assert net.num_routers >= 1


@given(text=st.text(max_size=120))
def test_spec_strings(text):
    answers_or_refuses(topolab.build, text)


@given(value=ANY, name=st.sampled_from(["directed", "endpoints_per_router"]))
def test_load_options(tmp_path_factory, value, name):
    path = tmp_path_factory.mktemp("load") / "ring.edgelist"
    path.write_text("0 1\n1 2\n2 0\n")
    net = answers_or_refuses(topolab.load, path, **{name: value})
    if net is not None:
        assert net.num_routers == 3


@given(value=ANY, name=st.sampled_from(["paths", "bisection", "bisection_runs", "seed", "spectrum"]))
def test_analyze_options(value, name):
    answers_or_refuses(topolab.analyze, NET, progress=False, **{name: value})


@given(value=ANY, name=st.sampled_from(["max_electric_m", "router_radix", "per_cabinet", "placement"]))
def test_cost_options(value, name):
    report = answers_or_refuses(topolab.cost, NET, **{"router_radix": 8, name: value})
    if report is not None:
        assert report.total_cost > 0 and math.isfinite(report.total_cost)


LATENCY_OPTIONS = ["switch_delay_ns", "cable_ns_per_m", "injection_ns", "per_cabinet", "routing"]
SIM_OPTIONS = ["load", "seed", "num_vcs", "vc_buf_size", "routing", "traffic", "show_progress"]


@given(value=ANY, name=st.sampled_from(LATENCY_OPTIONS))
def test_latency_options(value, name):
    answers_or_refuses(topolab.latency, NET, **{name: value})


@given(value=ANY, name=st.sampled_from(SIM_OPTIONS))
def test_simulate_options(value, name):
    quick = {"sample_period": 50, "max_samples": 1, "warmup_periods": 1}
    answers_or_refuses(topolab.simulate, NET, **{**quick, name: value})


CLI_OPTIONS = ["--router-radix", "--per-cabinet", "--max-electric"]


@given(text=st.text(max_size=20), option=st.sampled_from(CLI_OPTIONS))
def test_cli_numbers(text, option):
    try:
        code = main(["cost", "torus:dims=2x3", option, text])
    except SystemExit as exit:  # argparse's own usage error
        code = exit.code
    assert code in (0, 2)
