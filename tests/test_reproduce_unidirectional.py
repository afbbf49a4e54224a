"""topolab reproduce unidirectional (Koibuchi et al., 2018, Table 1, §I, §III-A, §IV-A, §IV-C): Table 1 within
the tolerances of docs/reproduce.md, the Moore ASPL bound against brute force, Kautz sizes and
Moore fractions from their closed forms."""

from __future__ import annotations

import itertools

import networkx as nx
import pytest

import topolab
from topolab import reproduce
from topolab.reproduce import unidirectional as uni


@pytest.fixture(scope="module")
def rep():
    return reproduce.run("unidirectional", quick=True)


@pytest.fixture(scope="module")
def rows(rep):
    return {(r.column, r.quantity): r for r in rep.rows}


def test_table1(rows):
    for case, n, d, paper in uni.TABLE1:
        col = f"Table 1 {case} (n = {n}, d = {d})"
        for fam, (aspl, bis) in paper.items():
            a = rows[(col, f"{fam} ASPL")]
            assert a.paper == aspl and abs(a.topolab - aspl) <= 0.03, (col, fam)
            b = rows[(col, f"{fam} bisection (both directions)")]
            assert b.paper == bis and abs(b.rel_diff) <= 0.10, (col, fam)
        # the Moore bound is a lower bound, the uni-directional graphs beat the bi-directional one
        lower = rows[(col, "Moore bound on the ASPL, directed")].topolab
        assert all(rows[(col, f"{fam} ASPL")].topolab >= lower - 1e-12 for fam in paper)
        assert rows[(col, "Imase ASPL")].topolab < rows[(col, "bi Random ASPL")].topolab
        assert (
            rows[(col, "bi Random ASPL")].topolab
            >= rows[(col, "Moore bound on the ASPL, bi-directional")].topolab
        )


def test_bisection_1024(rows):
    col = "1,024 routers, degree 8 (§I, §III-A)"
    for q in (
        "bi Random bisection (links)",
        "Rand bisection (both directions)",
        "MDDP bisection (both directions)",
    ):
        assert abs(rows[(col, q)].rel_diff) <= 0.03, q
    assert abs(rows[(col, "Imase bisection (both directions)")].rel_diff) <= 0.05
    assert rows[(col, "Rand / bi Random bisection (Koibuchi et al. (2018): more than 2)")].topolab > 2


def brute_force_moore_aspl(n: int, d: int, directed: bool) -> float:
    """Fill a BFS tree level by level with the most vertices allowed, vertex by vertex."""
    dist = [0]
    frontier_children = d
    i = 1
    while len(dist) < n:
        level = min(frontier_children, n - len(dist))
        dist += [i] * level
        frontier_children = level * (d if directed else d - 1)
        i += 1
    return sum(dist) / (n - 1)


def test_moore_aspl_bound():
    for n, d, directed in itertools.product((2, 5, 10, 37, 100, 1190), (2, 3, 8), (True, False)):
        assert uni.moore_aspl(n, d, directed) == pytest.approx(brute_force_moore_aspl(n, d, directed))
    # Moore graphs reach it (Petersen, the complete digraph); other graphs stay above it
    assert uni.moore_aspl(10, 3, False) == pytest.approx(nx.average_shortest_path_length(nx.petersen_graph()))
    assert uni.moore_aspl(9, 8, True) == 1.0
    kautz = topolab.analyze(topolab.build("kautz:d=2,k=2"), progress=False)
    assert kautz.aspl >= uni.moore_aspl(6, 2, True)


def test_kautz_against_closed_forms(rows):
    for d, k, paper_n, paper_pct in uni.KAUTZ:
        col = f"Kautz K({d},{k}) (§IV-A)"
        if (col, "routers") not in rows:
            assert d**k > 10000  # left out in quick mode
            continue
        routers = (d + 1) * d ** (k - 1)
        bound = sum(d**i for i in range(k + 1))
        assert rows[(col, "routers")].topolab == routers
        assert rows[(col, "diameter")].topolab == k
        assert rows[(col, "directed Moore bound")].topolab == bound
        assert rows[(col, "% of the directed Moore bound")].topolab == pytest.approx(100 * routers / bound)
        if paper_pct is not None:
            assert abs(rows[(col, "% of the directed Moore bound")].abs_diff) <= 0.5
        if paper_n is not None:
            assert rows[(col, "routers")].topolab == paper_n
        undirected = 1 + d * sum((d - 1) ** i for i in range(k))
        assert rows[(col, "directed / bi-directional Moore bound at this d, k")].topolab == pytest.approx(
            bound / undirected
        )
        assert rows[(col, "bi Random: % of the bi-directional Moore bound")].topolab < 10


def test_cables_cost_power(rep, rows):
    for d, n in ((8, 1190), (29, 722)):
        col = f"cables, cost, power, d = {d}, n = {n} (§IV-C)"
        # Koibuchi et al. (2018): uni- and bi-directional random topologies have similar cable length, cost,
        # power
        assert (
            abs(
                rows[(col, "uni Random vs bi Random avg cable [%] (Koibuchi et al. (2018): similar)")].topolab
            )
            <= 5
        )
        assert (
            abs(rows[(col, "uni Random vs bi Random cost [%] (Koibuchi et al. (2018): similar)")].topolab)
            <= 2
        )
        assert rows[
            (col, "uni Random vs bi Random power [%] (Koibuchi et al. (2018): similar)")
        ].topolab == pytest.approx(0)
    assert (
        rows[("cables, cost, power, d = 8, n = 1190 (§IV-C)", "uni MDDP vs bi MDDP avg cable [%]")].topolab
        is None
    )
    cable = [r for r in rep.data if r["figure"] == "14-16"]
    uni_rand = next(r for r in cable if r["d"] == 8 and r["name"] == "Rand")
    bi_rand = next(r for r in cable if r["d"] == 8 and r["name"] == "bi Random")
    # d arcs per switch against d/2 links: twice the cables, each at half the price
    assert uni_rand["cables"] == 2 * bi_rand["cables"] == 1190 * 8


def test_files_and_determinism(rep, tmp_path):
    assert reproduce.run("unidirectional", quick=True).to_dict() == rep.to_dict()
    written, _ = reproduce.write(rep, tmp_path)
    assert {"unidirectional.csv", "unidirectional_data.csv", "unidirectional.json"} <= {
        p.name for p in written
    }
