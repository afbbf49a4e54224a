"""One name, one meaning in the Python API as on the command line (docs/cli.md): the endpoint
window is ``endpoint_tolerance`` (``--endpoint-tolerance``), a saturation search's resolution
``load_resolution`` (``--load-resolution``). The former keyword ``tolerance`` still works, with a
DeprecationWarning, and gives what the new name gives."""

import warnings

import pytest

import topolab
from topolab.degradation import degradation
from topolab.design.enumerate import enumerate_designs


def test_enumerate_designs_former_keyword_is_the_endpoint_window():
    narrow = [d.spec for d in enumerate_designs(48, 10000, endpoint_tolerance=0.02, families=["slimfly"])]
    wide = [d.spec for d in enumerate_designs(48, 10000, endpoint_tolerance=0.3, families=["slimfly"])]
    assert narrow and set(narrow) < set(wide)  # the window does something, so the alias is observable
    with pytest.warns(DeprecationWarning, match="'tolerance' is deprecated; it is now 'endpoint_tolerance'"):
        former = [d.spec for d in enumerate_designs(48, 10000, tolerance=0.02, families=["slimfly"])]
    assert former == narrow


def test_sweep_load_former_keyword_is_the_load_resolution():
    common = dict(loads=[0.3, 1.0], seed=1, progress=False, sample_period=100, max_samples=4)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        new = topolab.sweep_load("torus:dims=4x4", "dor", load_resolution=0.2, **common)
    with pytest.warns(DeprecationWarning, match="'tolerance' is deprecated; it is now 'load_resolution'"):
        old = topolab.sweep_load("torus:dims=4x4", "dor", tolerance=0.2, **common)
    assert list(old["offered_load"]) == list(new["offered_load"])
    assert len(new) > 2  # the bisection ran, at the resolution given
    hi, lo = new.attrs["saturated_load"], new.attrs["saturation_load"]
    assert hi is not None and hi - lo <= 0.2 + 1e-9


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: topolab.compare(radix=6, endpoints=8, tolerance=7, progress=False), "endpoint_tolerance"),
        (lambda: topolab.sweep_load("torus:dims=4x4", tolerance=7, progress=False), "load_resolution"),
        (lambda: degradation("torus:dims=4x4", [0.0], 1, tolerance=7, progress=False), "load_resolution"),
    ],
)
def test_a_bad_value_under_the_former_name_is_named_by_the_new_one(call, name):
    with pytest.warns(DeprecationWarning), pytest.raises(topolab.ParameterError) as err:
        call()
    assert err.value.parameter == name and err.value.value == "7"
