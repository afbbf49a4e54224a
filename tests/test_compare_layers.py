"""The comparison's layers: ``topolab.comparison`` (the result types) imports neither the
computation (``topolab.design``) nor the report; the report imports no computation; the
computation writes no report. Checked on the source, so lazy imports inside functions count."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import topolab

PACKAGE = Path(topolab.__file__).parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize(
    "layer, forbidden",
    [
        ("comparison", ("topolab.design", "topolab.report", "topolab.workflows", "topolab.cli")),
        ("report", ("topolab.design", "topolab.workflows", "topolab.cli")),
        ("design", ("topolab.report", "topolab.workflows", "topolab.cli")),
    ],
)
def test_layer_imports_nothing_above_it(layer, forbidden):
    files = sorted((PACKAGE / layer).glob("*.py"))
    assert files, layer
    for path in files:
        bad = {m for m in imported_modules(path) if m.startswith(forbidden)}
        assert not bad, f"{path.relative_to(PACKAGE)} imports {sorted(bad)}"


def test_the_checker_sees_lazy_imports(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("def f():\n    from topolab.design.compare import run_comparison\n")
    assert "topolab.design.compare" in imported_modules(source)
