"""topolab reproduce: --list, --quick, -o DIR (CSV, data CSV, JSON, PNG), percentage rows read in
points, and the Comparison arithmetic."""

from __future__ import annotations

import csv
import json

import pytest

from topolab import reproduce
from topolab.cli import main
from topolab.reproduce import Comparison


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_names_every_reproduction(capsys):
    code, out, _ = run(capsys, "reproduce", "--list")
    assert code == 0
    for rid in ("table4", "moore", "resilience", "skywalk-cables", "unidirectional"):
        assert rid in out and rid in reproduce.available()


def test_output_directory(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    out_dir = tmp_path / "out"
    code, out, err = run(capsys, "reproduce", "unidirectional", "--quick", "-o", str(out_dir))
    assert code == 0
    assert "quick: scaled-down subset" in out
    assert " pt" in out  # percentage rows: differences in points
    assert "reproduce unidirectional:" in err and "wrote" in err
    files = {p.name for p in out_dir.iterdir()}
    assert files == {
        "unidirectional.csv",
        "unidirectional_data.csv",
        "unidirectional_setup.csv",
        "unidirectional.json",
        "unidirectional.png",
    }
    with (out_dir / "unidirectional.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert set(rows[0]) == {
        "column",
        "quantity",
        "paper",
        "topolab",
        "interval",
        "bound",
        "rel_diff",
        "abs_diff",
        "unit",
        "note",
    }
    imase = next(r for r in rows if r["quantity"] == "Imase ASPL" and "Case 3" in r["column"])
    assert float(imase["paper"]) == 2.69 and abs(float(imase["topolab"]) - 2.6952) < 1e-3
    missing = next(r for r in rows if r["quantity"] == "Imase diameter")
    assert missing["paper"] == "" and missing["rel_diff"] == ""
    saved = json.loads((out_dir / "unidirectional.json").read_text())
    assert saved["quick"] is True and saved["data"]


def test_json(capsys):
    code, out, _ = run(capsys, "reproduce", "unidirectional", "--json")
    assert code == 0
    res = json.loads(out)
    assert res["id"] == "unidirectional" and res["quick"] is False
    r = next(
        r for r in res["rows"] if r["column"].startswith("Kautz K(8,4)") and r["quantity"].startswith("%")
    )
    assert r["unit"] == "%" and r["paper"] == 98 and r["abs_diff"] == pytest.approx(r["topolab"] - 98)
    assert any(r["column"].startswith("Kautz K(12,4)") for r in res["rows"])  # not left out without --quick


def test_a_note_is_printed_beside_rows_without_one(capsys):
    from topolab.cli.reproduce import _print
    from topolab.reproduce import Reproduction, Setup

    rows = (Comparison("c", "first", 1.0, 1.0), Comparison("c", "second", 1.0, 2.0, note="why it differs"))
    _print(Reproduction("x", "title", "source", rows, (Setup("c", None, "details"),)))
    out = capsys.readouterr().out
    assert "why it differs" in out and "note" in out


def test_comparison_arithmetic():
    c = Comparison("c", "q", 40, 52.5, unit="%")
    assert c.abs_diff == 12.5 and c.rel_diff == pytest.approx(12.5 / 40)
    assert Comparison("c", "q", None, 1.0).abs_diff is None
    assert Comparison("c", "q", 0, 1.0).rel_diff is None and Comparison("c", "q", 0, 1.0).abs_diff == 1.0


def test_unknown_id(capsys):
    code, _, err = run(capsys, "reproduce", "moor")
    assert code == 2 and "skywalk-cables" in err
