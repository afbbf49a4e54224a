"""What the terminal and a notebook show: tables through tabulate, wrapped to the terminal's
width ($COLUMNS here); no internal paper keys; --json documents with command, inputs and units;
shell completion of routing, traffic and family names; HTML reprs with units and readable
numbers."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

import topolab
from topolab.cli import main
from topolab.cli.common import _column_limits

INTERNAL_KEY = re.compile(r"\b0\d\d\b")  # the papers' internal numbers ("001", "003's L")


def output(capsys, monkeypatch, *argv: str, columns: int = 80) -> str:
    monkeypatch.setenv("COLUMNS", str(columns))
    assert main(list(argv)) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [("list",), ("list", "routings"), ("list", "slimfly"), ("reproduce", "--list")],
    ids=lambda a: " ".join(a),
)
@pytest.mark.parametrize("columns", [80, 120])
def test_tables_fit_the_terminal(argv, columns, capsys, monkeypatch):
    out = output(capsys, monkeypatch, *argv, columns=columns)
    longest = max(out.splitlines(), key=len)
    assert len(longest) <= columns, longest
    assert not INTERNAL_KEY.search(out), INTERNAL_KEY.search(out)


def test_reproduce_list_keeps_every_id_whole(capsys, monkeypatch):
    out = output(capsys, monkeypatch, "reproduce", "--list", columns=60)
    first_words = {line.split()[0] for line in out.splitlines()[2:] if line and not line.startswith(" ")}
    assert set(topolab.reproduce.available()) <= first_words, first_words


def test_reproduce_table4_fits_the_terminal(capsys, monkeypatch):
    out = output(capsys, monkeypatch, "reproduce", "table4", "--no-progress", columns=100)
    longest = max(out.splitlines(), key=len)
    assert len(longest) <= 100, longest
    assert "cost_per_node" in out and "T3D" in out


def test_without_a_terminal_lines_stay_whole(capsys, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    assert main(["reproduce", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()[2:]
    assert len(lines) == len(topolab.reproduce.available())


def test_the_widest_column_gives_way_first():
    # A 10-character name column, a 20-character one and a 300-character text in 80 columns.
    caps = _column_limits([10, 20, 300], 80)
    assert caps is not None and caps[0] is None and caps[1] is None
    assert caps[2] == 80 - 2 * 2 - 10 - 20
    assert _column_limits([10, 20, 30], 80) is None  # fits: nothing wrapped
    assert _column_limits([10, 20, 300], None) is None  # no terminal: nothing wrapped


@pytest.mark.parametrize(
    "argv, key",
    [
        (("list", "--json"), "families"),
        (("list", "routings", "--json"), "routings"),
        (("reproduce", "--list", "--json"), "reproductions"),
    ],
)
def test_json_listings_are_documents_like_every_json_output(argv, key, capsys, monkeypatch):
    doc = json.loads(output(capsys, monkeypatch, *argv))
    assert isinstance(doc, dict) and {"command", "inputs", "units", key} <= set(doc), sorted(doc)
    assert len(doc[key]) >= 10


def test_completion_offers_routing_traffic_and_family_names(capsys):
    bash = shutil.which("bash")
    assert bash, "bash is needed to run the completion script"
    assert main(["completion", "bash"]) == 0
    script = capsys.readouterr().out

    def complete(*words: str) -> list[str]:
        line = " ".join(words)
        run = subprocess.run(
            [
                bash,
                "-c",
                f"{script}\nCOMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; _shtab_topolab; "
                'printf "%s\\n" "${COMPREPLY[@]}"',
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        return run.stdout.split()

    assert complete("topolab", "sim", "x", "--routing", "dragonfly_s") == ["dragonfly_static"]
    assert complete("topolab", "sim", "x", "--traffic", "slimfly_w") == ["slimfly_worst"]
    assert "slimfly:" in complete("topolab", "info", "slim")
    assert complete("topolab", "compare", "--families", "polarf") == ["polarfly"]
    for shell in ("zsh", "tcsh"):
        assert main(["completion", shell]) == 0
        assert "dragonfly_static" in capsys.readouterr().out


def test_notebook_tables_show_units_and_readable_numbers():
    report = topolab.cost("slimfly:q=5")
    html = report._repr_html_()
    row = r"<th[^>]*>(\w+)</th><td[^>]*>([^<]*)</td><td[^>]*>([^<]*)</td>"
    cells = {name: (value, unit) for name, value, unit in re.findall(row, html)}
    assert cells["total_cost"] == (f"${report.total_cost:,.0f}", "USD"), cells["total_cost"]
    assert cells["power_w"][1] == "W" and cells["total_cable_m"][1] == "m"
    assert "e+" not in html
    latency = topolab.latency("slimfly:q=5", progress=False)._repr_html_()
    assert ">ns<" in latency
