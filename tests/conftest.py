import pathlib

import pytest

SHARED = pathlib.Path(__file__).resolve().parents[2] / "shared"


@pytest.fixture
def booksim_reference() -> pathlib.Path:
    path = SHARED / "reference" / "booksim"
    if not path.is_dir():
        pytest.skip(f"{path} not present")
    return path
