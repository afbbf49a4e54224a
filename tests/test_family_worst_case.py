"""Every family's declared worst-case traffic (``routing.simulation`` in its Rust table, what
``compare --simulate`` runs and what ``--traffic worst`` means) exists on every network the
family builds, not only on its example: a pattern defined for part of the family (PolarFly's
Perm1Hop, odd q only) made an even-q design's worst-case row an error."""

from __future__ import annotations

import math
import re

import pytest

import topolab
from topolab import _core
from topolab.design import enumerate_designs
from topolab.design.compare import CompareSettings
from topolab.design.simulate import simulate_designs
from topolab.routing import channel_load

# Small (radix, endpoints) windows with wide tolerance: many members of every family, each
# built in milliseconds (the windows of tests/test_family_table.py).
WINDOWS = [(12, 150), (16, 400)]
PER_FAMILY = 8

DECLARED = {f["name"]: f["simulation"] for f in _core.families() if f["simulation"] is not None}


def _sample(family: str) -> list[str]:
    """The family's example and its smallest enumerated members of distinct router counts (so
    different structural parameters, e.g. both parities of PolarFly's q)."""
    example = next(f["example"] for f in _core.families() if f["name"] == family)
    by_routers: dict[int, str] = {}
    for radix, endpoints in WINDOWS:
        for d in enumerate_designs(
            radix, endpoints, endpoint_tolerance=0.5, families=[family], oversubscription=1.0
        ):
            by_routers.setdefault(d.routers, d.spec)
    return [example] + [by_routers[r] for r in sorted(by_routers)[:PER_FAMILY]]


@pytest.mark.parametrize("family", sorted(DECLARED))
def test_declared_worst_case_exists_on_every_sampled_member(family):
    worst = DECLARED[family]["worst_traffic"]
    specs = _sample(family)
    assert len(specs) > 2, f"{family}: too few members sampled"
    for spec in specs:
        net = topolab.build(spec)
        # The demand of the pattern is built from the network (an error names what is missing);
        # its load is finite and positive, so the pattern sends something. DFSSSP's one path
        # per pair keeps the count small on every family (minimal routing's all shortest paths
        # exceed the path limit on a hypercube). A family's own adversarial pattern is also
        # what `worst` means on its networks.
        for traffic in (worst, "worst") if worst.endswith("_worst") else (worst,):
            load = channel_load(net, "dfsssp", traffic=traffic, progress=False)
            assert 0 < load.max_load < math.inf, (spec, traffic)


def test_polarfly_is_sampled_with_even_and_odd_q():
    qs = {int(re.search(r"q=(\d+)", spec).group(1)) for spec in _sample("polarfly")}
    assert {q % 2 for q in qs} == {0, 1}, qs


def test_compare_simulates_an_even_q_polarfly_without_an_error_row():
    # The function that makes compare --simulate's uniform and worst-case rows, on the smallest
    # even-q PolarFly the enumeration gives (q = 4: 21 routers, p = 3).
    design = next(d for d in enumerate_designs(8, 63, families=["polarfly"]) if d.params == {"q": 4, "p": 3})
    settings = CompareSettings(radix=8, endpoints=63, families=("polarfly",), simulate=True)
    [row] = simulate_designs([design], settings, workers=1, progress=False)
    choice = DECLARED["polarfly"]
    assert row["sim_worst"] == f"{choice['worst_routing']} / {choice['worst_traffic']}"
    errors = [n for n in row["sim_note"].split("; ") if n.startswith(("uniform: ", "worst: "))]
    assert errors == [], row["sim_note"]
    assert 0 < row["saturation_worst"] < row["saturation_uniform"] <= 1
