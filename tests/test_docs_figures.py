"""Numbers the README and the docs quote that the code regenerates in seconds: the designs and
families of the default question, its shortlist, the families per count, the simulated families,
the reproductions. Each number is read out of the doc's own sentence (a pattern anchored on the
words around it), so a doc left stale when the code changes fails here."""

from __future__ import annotations

import collections
import csv
import pathlib
import re

import pytest

import topolab
from topolab.comparison import CompareSettings
from topolab.design import enumerate_designs, shortlist
from topolab.design.enumerate import FAMILY_NAMES
from topolab.design.simulate import SIM_CHOICES
from topolab.reproduce import available

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
COMPARE = (ROOT / "docs" / "compare.md").read_text()
REPRODUCE = (ROOT / "docs" / "reproduce.md").read_text()


def number(text: str) -> int:
    return int(text.replace(",", ""))


def quoted(doc: str, pattern: str) -> list[int]:
    """Every number the doc gives where ``pattern`` (whose first group is the number) matches,
    across line breaks; at least one, else the sentence the test reads is gone."""
    found = [number(m.group(1)) for m in re.finditer(pattern, doc)]
    assert found, f"no match for {pattern!r}: the sentence this test checks was reworded or removed"
    return found


@pytest.fixture(scope="module")
def default_question():
    """The designs `topolab compare` considers and measures with its default settings, chosen
    the way run_comparison chooses them."""
    s = CompareSettings()
    designs = enumerate_designs(
        s.radix, s.endpoints, s.endpoint_tolerance, s.families, oversubscription=s.shown_oversubscription
    )
    return s, designs, shortlist(designs, s.per_family)


def test_readme_states_the_default_question_the_code_asks(default_question):
    s, designs, chosen = default_question
    ask = re.search(
        r"routers of at most (\d+) ports and ([\d,]+) to ([\d,]+) endpoints", README.replace("\n", " ")
    )
    assert ask, "the README's sentence on the default question was reworded"
    assert number(ask.group(1)) == s.radix
    assert number(ask.group(2)) == round(s.endpoints * (1 - s.endpoint_tolerance))
    assert number(ask.group(3)) == round(s.endpoints * (1 + s.endpoint_tolerance))
    assert quoted(README, r"\(([\d,]+)\s+designs of \d+ families") == [len(designs)]
    assert quoted(README, r"designs of (\d+) families") == [len({d.family for d in designs})]
    assert quoted(README, r"a shortlist of ([\d,]+)") == [len(chosen)]
    assert quoted(README, r"at most (\d+) per\s+family") == [s.per_family]


def test_compare_doc_counts_match_the_enumeration(default_question):
    _, designs, chosen = default_question
    for n in quoted(COMPARE, r"([\d,]+) designs\s+(?:of \d+ families|considered|\)|\(|found)"):
        assert n == len(designs)
    assert quoted(COMPARE, r"([\d,]+) designs considered, [\d,]+ measured") == [len(designs)] * 2
    for n in quoted(COMPARE, r"[\d,]+ designs considered, ([\d,]+) measured"):
        assert n == len(chosen)
    assert quoted(COMPARE, r"measuring ([\d,]+) of [\d,]+ designs") == [len(chosen)]
    assert quoted(COMPARE, r"measuring [\d,]+ of ([\d,]+) designs") == [len(designs)]
    assert quoted(COMPARE, r"(\d+) balanced\.") == [sum(d.balanced for d in designs)]


def test_compare_doc_counts_every_family_as_the_enumeration_does(default_question):
    _, designs, _ = default_question
    # The sentence "enumerate_designs(48, 10000): N designs of F families in ...: Slim Fly 8, ...".
    sentence = re.search(r"`enumerate_designs\(48, 10000\)`: (.*?); \d+ balanced", COMPARE, re.S)
    assert sentence, "docs/compare.md §1's per-family counts were reworded"
    counts = sentence.group(1).split("):", 1)[1].replace("\n", " ")
    quoted_counts = {name.strip(): number(n) for name, n in re.findall(r"([^,]+?) (\d[\d,]*)(?:,|$)", counts)}
    by_family = collections.Counter(FAMILY_NAMES[d.family] for d in designs)
    assert quoted_counts == dict(by_family)
    assert quoted(COMPARE, r"designs of (\d+) families in") == [len(by_family)]


def test_readme_family_count_is_the_registry():
    assert quoted(README, r"designs of (\d+) families") == [len(topolab.families())]


def test_compare_doc_counts_the_simulated_families():
    assert quoted(COMPARE, r"each of the (\d+) families that declare a simulation") == [len(SIM_CHOICES)]
    assert quoted(COMPARE, r"of which the (\d+) searches took") == [2 * len(SIM_CHOICES)]


def test_reproduce_doc_table_lists_every_reproduction():
    table_ids = re.findall(r"^\| `([a-z0-9-]+)` \|", REPRODUCE, re.M)
    assert table_ids == available()


def test_results_files_have_the_columns_their_readme_describes():
    results = ROOT / "benches" / "results"
    described = re.findall(r"^\| `([a-z_]+)`(?:, `([a-z_]+)`)? \|", (results / "README.md").read_text(), re.M)
    columns = [c for pair in described for c in pair if c]
    outcomes = {"kept", "not kept", "measurement", "not done"}
    for path in sorted(results.glob("*.csv")):
        with path.open(newline="") as f:
            rows = list(csv.DictReader(f))
        assert rows, path
        assert list(rows[0]) == columns, path
        for row in rows:
            assert None not in row and all(v is not None for v in row.values()), (path, row)
            assert re.fullmatch(r"2026-\d\d-\d\d", row["date"]), (path, row)
            assert row["outcome"].split(" (")[0] in outcomes, (path, row["outcome"])
