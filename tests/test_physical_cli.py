"""The machine-room commands: topolab place, cost, latency, reproduce table4."""

from __future__ import annotations

import json

import pytest

from topolab.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cost_json_has_the_required_keys(capsys):
    code, out, _ = run(capsys, "cost", "dragonfly:a=2,h=1", "--floor", "skywalk", "--json")
    assert code == 0
    rep = json.loads(out)
    for key in (
        "electric_cables",
        "optical_cables",
        "total_cable_m",
        "cost_per_endpoint",
        "power_per_endpoint_w",
    ):
        assert key in rep
    # By hand: 3 local cables of 2 m (electric), globals 4.6, 6.1 and 6.7 m (optical).
    assert (rep["electric_cables"], rep["optical_cables"]) == (3, 3)
    assert rep["total_cable_m"] == pytest.approx(6 + 4.6 + 6.1 + 6.7)
    assert rep["power_per_endpoint_w"] == pytest.approx(3 * 2.8)


def test_cost_per_cabinet_and_threshold(capsys):
    code, out, _ = run(capsys, "cost", "torus:dims=4x4", "--per-cabinet", "16", "--json")
    rep = json.loads(out)
    assert code == 0 and rep["cabinets"] == 1 and rep["optical_cables"] == 0
    code, out, _ = run(
        capsys, "cost", "torus:dims=4x4", "--per-cabinet", "1", "--max-electric", "inf", "--json"
    )
    rep = json.loads(out)
    assert rep["cabinets"] == 16 and rep["optical_cables"] == 0 and rep["max_electric_m"] is None
    code, out, _ = run(capsys, "cost", "torus:dims=4x4", "--per-cabinet", "1")
    assert code == 0 and "endpoint" in out and "dim1" in out


def test_latency_json_has_the_required_keys(capsys):
    code, out, err = run(
        capsys, "latency", "mesh:dims=3", "--floor", "skywalk", "--per-cabinet", "1", "--json"
    )
    # The progress display's one final line (stderr is not a terminal here): routers done.
    assert code == 0 and len(err.splitlines()) == 1 and "3/3" in err
    rep = json.loads(out)
    # Fujiwara et al., IPDPS 2014, §III-A by hand: 300 + 3 x 60 + 5 x (4.6 + 6.7) = 536.5 ns end to end.
    assert rep["max_latency_ns"] == pytest.approx(536.5)
    assert rep["avg_latency_ns"] == pytest.approx((443 + 453.5 + 536.5) / 3)
    assert rep["avg_hops"] == pytest.approx(4 / 3)
    code, out, _ = run(
        capsys,
        "latency",
        "mesh:dims=3",
        "--floor",
        "skywalk",
        "--per-cabinet",
        "1",
        "--switch-delay",
        "100",
        "--routing",
        "nearest",
        "--json",
    )
    assert json.loads(out)["max_latency_ns"] == pytest.approx(300 + 300 + 56.5)


def test_place_writes_a_file_the_other_commands_read(capsys, tmp_path):
    path = tmp_path / "sf.txt"
    code, out, _ = run(capsys, "place", "slimfly:q=5", "--floor", "slimfly", "-o", str(path))
    assert code == 0 and "5" in out
    lines = [ln for ln in path.read_text().splitlines() if not ln.startswith("#")]
    assert len(lines) == 50
    _, fam, _ = run(capsys, "cost", "slimfly:q=5", "--json")
    _, given, _ = run(capsys, "cost", "slimfly:q=5", "--placement", str(path), "--json")
    assert json.loads(fam)["total_cable_m"] == json.loads(given)["total_cable_m"]


def test_errors_exit_2_with_the_parameter_named(capsys):
    code, _, err = run(capsys, "cost", "slimfly:q=5", "--per-cabinet", "3")
    assert code == 2 and "per_cabinet" in err
    code, _, err = run(capsys, "latency", "slimfly:q=5", "--floor", "attic")
    assert code == 2 and "floor" in err
    code, _, err = run(capsys, "reproduce", "table9")
    assert code == 2 and "table4" in err


def test_reproduce_lists_and_runs_table4(capsys):
    code, out, _ = run(capsys, "reproduce", "--list")
    assert code == 0 and "table4" in out
    code, out, _ = run(capsys, "reproduce", "table4", "--json")
    assert code == 0
    res = json.loads(out)
    rows = {(r["column"], r["quantity"]): r for r in res["rows"]}
    columns = {s["column"] for s in res["setups"]}
    assert {"T3D", "T5D", "HC", "SF", "DF (k=43)", "FBF-3 (k=43)", "FT-3 (k=43)", "DLN (k=43)"} <= columns
    # Power per node within a few percent (Besta & Hoefler, SC14, §VI-C), exact where the paper is consistent.
    for col in ("T3D", "T5D", "HC", "LH-HC", "DF (k=43)", "DF (N~10K)", "DLN (k=43)", "DLN (N~10K)"):
        assert abs(rows[(col, "power_per_node")]["rel_diff"]) < 0.006, col
    for col in ("SF", "FBF-3 (k=43)", "FBF-3 (N~10K)", "FT-3 (k=43)", "FT-3 (N~10K)"):
        assert abs(rows[(col, "power_per_node")]["rel_diff"]) < 0.05, col
    # Sizes the paper and topolab agree on; the relative difference is computed, not copied.
    r = rows[("DF (k=43)", "fiber_cables")]
    assert (r["paper"], r["topolab"]) == (29524, 243 * 242 / 2)
    assert r["rel_diff"] == pytest.approx((29403 - 29524) / 29524)
    assert rows[("SF", "radix")]["topolab"] == 44
    # LH-HC is built: 13 cube links and 5 long hops per router (Tomic's [18, 13, 3] code).
    assert (rows[("LH-HC", "radix")]["topolab"], rows[("LH-HC", "routers")]["topolab"]) == (19, 8192)
    lh = rows[("LH-HC", "electric_cables")]["topolab"] + rows[("LH-HC", "fiber_cables")]["topolab"]
    assert lh == 18 * 8192 / 2
    assert rows[("LH-HC", "cost_per_node")]["topolab"] > rows[("HC", "cost_per_node")]["topolab"]
    notes = " ".join(n for s in res["setups"] for n in s["notes"])
    for needle in ("k = k' + p = 29 + 15 = 44", "g^2/2", "floor(43^3/4)", "p + 3(p - 1) = 45"):
        assert needle in notes
    code, out, _ = run(capsys, "reproduce", "table4")
    assert code == 0 and "== SF: slimfly:q=19" in out and "diff" in out
