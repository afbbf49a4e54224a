import os
import pathlib

import pytest

REFERENCE = pathlib.Path(__file__).resolve().parents[1] / "reference" / "booksim"


@pytest.fixture
def booksim_reference() -> pathlib.Path:
    """BookSim2's reference data, kept in the repository: missing data fails the test (the
    agreement with BookSim2 is what such tests check), it never skips it."""
    assert (REFERENCE / "results.csv").is_file(), f"BookSim2 reference data missing: {REFERENCE}"
    return REFERENCE


@pytest.fixture(autouse=True)
def output_to_a_pipe(monkeypatch):
    """The CLI wraps its tables to $COLUMNS when set (topolab.cli.common.terminal_width); tests
    read its output as a pipe's reader does, whole lines, whatever the runner exports (pytest-xdist
    workers start with COLUMNS=80 and LINES=24). Tests of the wrapping set COLUMNS themselves."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)


# Hypothesis (tests/test_reliability_properties.py): a bounded run in CI, a long one on request
# (TOPOLAB_HYPOTHESIS_PROFILE=campaign, docs/reliability.md).
try:
    from hypothesis import HealthCheck, settings

    settings.register_profile(
        "ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    settings.register_profile(
        "campaign",
        max_examples=20_000,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    settings.load_profile(os.environ.get("TOPOLAB_HYPOTHESIS_PROFILE", "ci"))
except ImportError:
    pass


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI (``CI`` set, as .ci/run runs) a skipped test is a failed one: .ci/run installs every
    tool and package the tests need, so a skip there would hide a check that did not run. Outside
    CI a test may still skip for a missing system tool, naming how to install it."""
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, where every check must run: {reason}"
