"""The parameter lists of docs/routing.md and docs/traffic.md are the core's declarations
(scripts/param_docs.py writes them): a routing or pattern whose parameters change fails here
until the docs are regenerated."""

import importlib.util
from pathlib import Path

import topolab
from topolab.sim import traffic_patterns

ROOT = Path(__file__).resolve().parent.parent


def load_script():
    spec = importlib.util.spec_from_file_location("param_docs", ROOT / "scripts" / "param_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_sections_equal_the_declarations():
    script = load_script()
    for (doc, name), body in script.sections().items():
        text = (ROOT / "docs" / doc).read_text()
        found = script.pattern(name).search(text)
        assert found is not None, f"{doc} has no section params: {name}"
        assert found.group(2) == body, (
            f"{doc} params: {name} is out of date: run python scripts/param_docs.py"
        )


def test_every_declared_parameter_is_accepted_and_unknown_ones_are_refused():
    net = topolab.build("slimfly:q=5,p=2")
    listed = {t.name: {p.name for p in t.param_defs} for t in traffic_patterns()}
    assert listed["shift"] == {"k", "active"} and listed["hotspot"] == {"fraction", "spots", "at"}
    assert (
        next(
            p for t in traffic_patterns() if t.name == "hotspot" for p in t.param_defs if p.name == "fraction"
        ).default
        == "0.1"
    )
    for r in topolab.routings():
        assert {p.name for p in r.param_defs} <= set(r.params), r.name
    by = {r.name: r for r in topolab.routings()}
    assert {p.name: p.default for p in by["updown"].param_defs} == {"root": "0"}
    try:
        topolab.simulate(
            net, "min:bogus=1", "uniform", 0.1, sample_period=100, warmup_periods=1, max_samples=1
        )
    except topolab.TopolabError as e:
        assert "bogus" in str(e) and "vcs" in str(e)
    else:
        raise AssertionError("an undeclared routing parameter was accepted")
