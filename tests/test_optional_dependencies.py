"""The heavy dependencies are optional extras, and what needs them falls back or says which extra
to install: pyarrow (topolab[parquet]) for Parquet files, adjustText with scipy (topolab[labels])
for moving plot labels apart. Each test hides the module as an install without the extra would."""

import os
import pathlib
import subprocess
import sys
import textwrap

import pandas as pd
import pytest

import topolab
from topolab.design.compare import CompareSettings, run_comparison
from topolab.report import write_report

try:
    import tomllib
except ImportError:  # Python < 3.11
    import tomli as tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
SMALL = {"radix": 12, "endpoints": 100, "families": ("slimfly", "hyperx"), "per_family": 2}


def without(monkeypatch, *modules):
    """Makes ``import module`` fail as it does when the module is not installed."""
    for name in modules:
        for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            monkeypatch.delitem(sys.modules, loaded)
        monkeypatch.setitem(sys.modules, name, None)


def test_the_heavy_dependencies_are_extras_not_requirements():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    required = " ".join(project["dependencies"]).lower()
    extras = project["optional-dependencies"]
    for module, extra in (("pyarrow", "parquet"), ("adjusttext", "labels")):
        assert module not in required, module
        assert any(d.lower().startswith(module) for d in extras[extra]), (module, extra)
        # the test suite runs with them, so both paths are exercised
        assert any(d.lower().startswith(module) for d in extras["test"]), module


@pytest.fixture(scope="module")
def small_comparison():
    return run_comparison(CompareSettings(**SMALL), progress=False)


def run_without(modules, code, tmp_path):
    """Runs ``code`` in a fresh interpreter where importing any of ``modules`` fails from the
    start (pandas notices pyarrow at its own import, so hiding it later is not the same)."""
    script = tmp_path / "without.py"
    script.write_text(
        "import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in modules) + textwrap.dedent(code)
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), *sys.path])}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_compare_and_a_transient_experiment_run_without_pyarrow(tmp_path):
    out = run_without(
        ["pyarrow"],
        f"""
        import pathlib, pandas as pd
        from experiment_kinds import expected
        from topolab.design.compare import CompareSettings, run_comparison
        from topolab.experiment import register_kind, run_experiment
        from topolab.report import write_report

        report = pathlib.Path({str(tmp_path / "report")!r})
        files = write_report(run_comparison(CompareSettings(**{SMALL!r}), progress=False), report)
        assert "parquet" not in files and "designs_parquet" not in files, files
        assert not list(report.glob("*.parquet"))
        assert "compare.parquet" not in pathlib.Path(files["html"]).read_text()
        print(len(pd.read_csv(files["designs_csv"])))

        # an experiment that keeps no results directory (as compare --simulate runs its searches)
        register_kind("probe", "experiment_kinds:probe")
        exp = {{"name": "probe", "kind": "probe", "axes": {{"x": [0, 1, 2]}}, "fixed": {{"seed": 3}}}}
        frame = run_experiment(exp, workers=1, progress=False)
        assert (frame["status"] == "ok").all(), frame
        assert list(frame["square"]) == [expected(x, 3)["square"] for x in (0, 1, 2)]
        """,
        tmp_path,
    )
    with_pyarrow = run_comparison(CompareSettings(**SMALL), progress=False)
    assert int(out.split()[0]) == len(with_pyarrow.designs)


def test_compare_report_with_pyarrow_writes_parquet_too(small_comparison, tmp_path):
    files = write_report(small_comparison, tmp_path)
    assert pd.read_parquet(files["designs_parquet"]).shape == small_comparison.designs.shape


def test_labels_without_adjusttext_sit_beside_their_points(monkeypatch):
    without(monkeypatch, "adjustText")
    topolab._files.import_matplotlib()
    import matplotlib.pyplot as plt

    from topolab._labels import FALLBACK_OFFSET_POINTS, spread_labels

    fig, ax = plt.subplots(figsize=(4, 3), dpi=100)
    xs, ys = [1.0, 2.0, 3.0], [1.0, 4.0, 9.0]
    ax.plot(xs, ys, "o")
    texts = [ax.text(x, y, str(i)) for i, (x, y) in enumerate(zip(xs, ys))]
    spread_labels(texts, ax, xs, ys, expand=(1.3, 1.5))
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    shift_px = FALLBACK_OFFSET_POINTS / 72 * fig.dpi
    for text, x, y in zip(texts, xs, ys):
        point = ax.transData.transform((x, y))
        box = text.get_window_extent(renderer)
        # lower-left corner of the label up and right of its point by the offset
        assert box.x0 == pytest.approx(point[0] + shift_px, abs=1.0)
        assert box.y0 == pytest.approx(point[1] + shift_px, abs=3.0)
    plt.close(fig)


def test_a_results_directory_without_pyarrow_names_the_extra(tmp_path):
    out = run_without(
        ["pyarrow"],
        f"""
        import pathlib, topolab
        from topolab.experiment import run_experiment
        try:
            run_experiment({{"kind": "info", "axes": {{"network": ["slimfly:q=5"]}}}},
                           results={str(tmp_path / "results")!r}, progress=False)
        except topolab.TopolabError as err:
            print(err)
        assert not pathlib.Path({str(tmp_path / "results")!r}).exists()
        """,
        tmp_path,
    )
    assert "pip install 'topolab[parquet]'" in out, out
