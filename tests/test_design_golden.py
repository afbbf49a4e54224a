"""The design enumeration and the stand-in rules against a golden recorded before the families
declared their design spaces (issue 16).

The golden (tests/data/design_golden.json.gz) was written by the Python rules that the Rust
family files replace (topolab/design/structured.py, randomized.py and simulate.py's
SCALE_RULES at commit d8a2683): an independent implementation, so these tests check the port
row for row. For four questions (K = 48, N = 10,000, the default; K = 32, N = 2,000; K = 64,
N = 50,000; K = 24, N = 500) it holds every column of every design (sorted by spec), the
enumeration order, and the stand-in list of each family's best four designs (``shortlist``).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from topolab.design.enumerate import designs_frame, enumerate_designs, shortlist
from topolab.design.simulate import smaller_members

GOLDEN = json.loads(gzip.decompress((Path(__file__).parent / "data" / "design_golden.json.gz").read_bytes()))
QUESTIONS = GOLDEN["questions"]


def rows(designs) -> list[dict]:
    """Every column of the designs frame plus the parameters, as the golden stores them."""
    frame = designs_frame(designs)
    frame["params"] = [json.dumps(d.to_dict()["params"]) for d in designs]
    # through JSON, as the golden went: tuples become lists, floats keep every digit
    return json.loads(json.dumps(sorted(frame.to_dict("records"), key=lambda r: r["spec"])))


@pytest.fixture(scope="module", params=QUESTIONS, ids=lambda q: f"K{q['radix']}-N{q['endpoints']}")
def question(request):
    q = request.param
    return q, enumerate_designs(q["radix"], q["endpoints"])


def test_every_design_and_column_matches_the_golden(question):
    golden, designs = question
    got = rows(designs)
    assert len(got) == len(golden["designs"])
    for mine, theirs in zip(got, golden["designs"]):
        assert mine == theirs


def test_enumeration_order_matches_the_golden(question):
    golden, designs = question
    assert [d.spec for d in designs] == golden["order"]


def test_stand_ins_match_the_golden(question):
    golden, designs = question
    picked = shortlist(designs, per_family=4)
    assert sorted(d.spec for d in picked) == sorted(golden["stand_ins"])
    for d in picked:
        assert smaller_members(d) == golden["stand_ins"][d.spec], d.spec
