"""topolab reproduce moore (Besta & Hoefler, SC14, Fig. 5a/5b): Moore bounds from the closed form, the built
networks' sizes from their constructions, the paper's quoted numbers."""

from __future__ import annotations

import pytest

from topolab import reproduce
from topolab.reproduce import moore


@pytest.fixture(scope="module")
def rep():
    return reproduce.run("moore")


def rows_of(rep):
    return {(r.column, r.quantity): r for r in rep.rows}


def moore_closed_form(k: int, d: int) -> int:
    # Besta & Hoefler, SC14, §II-A: 1 + k' * sum_{i < D} (k' - 1)^i, written out for D = 2 and 3
    return {2: 1 + k * k, 3: 1 + k + k * (k - 1) + k * (k - 1) ** 2}[d]


def test_moore_bound_of_every_point_is_the_closed_form(rep):
    for p in rep.data:
        assert p["moore_bound"] == moore_closed_form(p["network_radix"], p["D"]), p
        assert p["moore_fraction"] == pytest.approx(p["routers"] / p["moore_bound"])
        assert p["routers"] <= p["moore_bound"]


def test_prime_powers_against_a_hand_list():
    assert moore.prime_powers(2, 32) == [2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 31, 32]


def test_slim_flies_have_the_mms_sizes_and_diameter_two(rep):
    sf = {p["spec"]: p for p in rep.data if p["family"] == "SF MMS"}
    qs = [q for q in moore.prime_powers(3, 64) if q % 4 != 2]
    assert len(sf) == len(qs) == 26
    for q in qs:
        p = sf[f"slimfly:q={q}"]
        delta = {0: 0, 1: 1, 3: -1}[q % 4]
        assert p["routers"] == 2 * q * q
        assert p["network_radix"] == (3 * q - delta) // 2
        assert p["measured_diameter"] == 2


def test_other_diameter_two_and_three_networks(rep):
    for p in rep.data:
        if p["family"] == "FBF-2":
            s = p["network_radix"] // 2 + 1
            assert p["routers"] == s * s and p["measured_diameter"] == 2
        elif p["family"] == "FT-2":
            assert p["routers"] == 3 * p["network_radix"] // 2 and p["measured_diameter"] == 2
        elif p["family"] == "DF":
            h = (p["network_radix"] + 1) // 3
            assert p["routers"] == 2 * h * (2 * h * h + 1)
            assert p["measured_diameter"] in (None, 3)
        elif p["family"] == "FBF-3":
            s = p["network_radix"] // 3 + 1
            assert p["routers"] == s**3 and p["measured_diameter"] in (None, 3)
    analysed = [p for p in rep.data if p["family"] in ("DF", "FBF-3") and p["measured_diameter"] is not None]
    assert len(analysed) >= 8 + 11


def test_delorme_graphs_are_built_with_the_closed_form_sizes(rep):
    points = [p for p in rep.data if p["family"] == "DEL"]
    assert [p["spec"] for p in points] == [f"delorme:v={v},p=1" for v in (2, 3, 4, 5, 7, 8, 9)]
    for p in points:
        v = int(p["spec"].split("=")[1].split(",")[0])
        assert (p["network_radix"], p["routers"]) == ((v + 1) ** 2, (v + 1) ** 2 * (v * v + 1) ** 2)
        assert p["how"].startswith("built") == (v <= moore.DEL_BUILT_V)
        assert p["measured_diameter"] == (3 if v <= moore.DEL_ANALYSED_V else None)


def test_quoted_numbers(rep):
    rows = rows_of(rep)
    col = "SF MMS, D = 2"
    assert rows[(col, "routers at k' = 96 (q = 64)")].topolab == 8192
    assert rows[(col, "Moore bound at k' = 96")].topolab == 9217 == moore_closed_form(96, 2)
    assert rows[(col, "bound above MMS at k' = 96")].topolab == pytest.approx(100 * (9217 / 8192 - 1))
    hs = "Hoffman-Singleton (SF q = 5)"
    assert [rows[(hs, q)].topolab for q in ("routers", "edges", "network radix", "Moore bound M(7, 2)")] == [
        50,
        175,
        7,
        50,
    ]
    assert rows[(hs, "Moore fraction")].topolab == pytest.approx(100.0)
    # Koibuchi et al., 2018, §II-A's list of Slim Fly sizes, every one exact
    for r in rep.rows:
        if r.column == "Koibuchi et al., 2018, §II-A Slim Fly sizes":
            assert r.topolab == r.paper, r
    # Diameter 3 (docs/reproduce.md tolerances): DF within 2 points of 14%, the closed forms within 1 point.
    df = next(r for r in rep.rows if r.column == "DF, D = 3" and r.quantity.startswith("Moore fraction"))
    assert abs(df.abs_diff) <= 2.0 and df.topolab == pytest.approx(100 * 131136 / moore_closed_form(95, 3))
    del_row = next(r for r in rep.rows if r.column == "DEL, D = 3")
    assert abs(del_row.abs_diff) <= 1.0, del_row
    bdf_row = next(r for r in rep.rows if r.column == "BDF, D = 3")
    if moore.has_family("bdf"):
        assert abs(bdf_row.abs_diff) <= 1.0, bdf_row
    else:
        assert bdf_row.topolab is None
        assert any(s.details == "bdf not built in this version" for s in rep.setups)
    assert moore.delorme(9) == (100, 100 * 82**2)
    assert moore.bdf(3) == (6, 52)  # 8/27 * 216 - 4/9 * 36 + 2/3 * 6 = 64 - 16 + 4


def test_plot_and_files(rep, tmp_path):
    pytest.importorskip("matplotlib")
    written, problem = reproduce.write(rep, tmp_path)
    assert problem is None
    names = {p.name for p in written}
    assert names == {"moore.csv", "moore_data.csv", "moore_setup.csv", "moore.json", "moore.png"}
    assert (tmp_path / "moore.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    header = (tmp_path / "moore_data.csv").read_text().splitlines()[0].split(",")
    assert {"family", "network_radix", "routers", "moore_bound"} <= set(header)
