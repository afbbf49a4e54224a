import pathlib

import pytest

SHARED = pathlib.Path(__file__).resolve().parents[2] / "shared"


@pytest.fixture
def booksim_reference() -> pathlib.Path:
    path = SHARED / "reference" / "booksim"
    if not path.is_dir():
        pytest.skip(f"{path} not present")
    return path


# Hypothesis (tests/test_reliability_properties.py): a bounded run in CI, a long one on request
# (TOPOLAB_HYPOTHESIS_PROFILE=campaign, docs/reliability.md).
try:
    import os

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
