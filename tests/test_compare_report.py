"""topolab compare's report files and command line: the HTML holds the tables and the plots
embedded (the same bytes as the PNG files), the PNGs decode, CSV and Parquet read back, the
terminal names the recommendation, bad arguments exit 2 with a clear message."""

from __future__ import annotations

import base64
import io
import json
import os
import re

import numpy as np
import pandas as pd
import pytest

import topolab
from topolab.cli import main
from topolab.design.compare import MEASUREMENTS, CompareSettings, Measurement, run_comparison
from topolab.report import FILES, cable_series, write_report

SETTINGS = CompareSettings(
    radix=12, endpoints=100, families=("slimfly", "hyperx", "fattree", "jellyfish"), per_family=3
)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def result():
    return run_comparison(SETTINGS, progress=False)


@pytest.fixture(scope="module")
def report(result, tmp_path_factory):
    directory = tmp_path_factory.mktemp("report")
    return write_report(result, directory)


def test_every_file_is_written(report):
    # the latency-load, workload and degradation plots only with simulation data
    # (tests/test_compare_simulate.py, tests/test_workload.py, tests/test_compare_degradation.py)
    assert set(report) == set(FILES) - {"latency_load", "workload", "degradation", "degradation_csv"}
    for path in report.values():
        with open(path, "rb") as f:
            assert f.read(1), path


def test_pngs_are_valid_images(report):
    import matplotlib.image

    for kind in ("cost_bandwidth", "moore", "cable_lengths"):
        with open(report[kind], "rb") as f:
            assert f.read(8) == PNG_SIGNATURE
        pixels = matplotlib.image.imread(report[kind])
        assert pixels.ndim == 3 and pixels.shape[0] > 300 and pixels.shape[1] > 500
        assert pixels.std() > 0.01, "not a blank image"


def test_html_is_self_contained_with_tables_and_the_same_images(result, report):
    import markupsafe

    with open(report["html"], encoding="utf-8") as f:
        page = f.read()
    embedded = re.findall(r'<img src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    files = []
    # the cost-bandwidth plot is interactive in the page; its PNG is the file beside it
    for kind in ("moore", "cable_lengths"):
        with open(report[kind], "rb") as f:
            files.append(f.read())
    assert [base64.b64decode(x) for x in embedded] == files
    # nothing loaded from elsewhere: every src is inline, no stylesheet or script link; the
    # scripts (the chart's, DataTables) are in the page
    markup = re.sub(r"(<script\b[^>]*>).*?</script>", r"\1</script>", page, flags=re.S)
    assert re.findall(r'src="(?!data:)', markup) == []
    assert "<link" not in markup and re.findall(r"<script[^>]*\bsrc=", markup) == []
    assert 'id="cost-bandwidth-data"' in page and "DataTable" in page
    # tables: the front, the best of each family, every measured design, the families
    assert page.count("<table id=") >= 4
    for name in result.frame["name"]:
        assert name in page
    for sentence in result.recommendation:
        assert str(markupsafe.escape(sentence)) in page
    assert "Pareto front (" in page and "All measured designs" in page
    # the answer, then the chart and the Pareto table, before the reasons and the method
    assert (
        page.index("Recommended:")
        < page.index('id="cost-bandwidth-chart"')
        < page.index('id="front-table"')
        < page.index("How this was measured")
    )
    # no simulation results, so no latency-load section
    assert "<h2>Simulation</h2>" not in page and "Latency-load" not in page


def test_the_first_screen_names_the_answer_its_alternatives_and_the_rule(result, report):
    import markupsafe

    from topolab.report import answer

    with open(report["html"], encoding="utf-8") as f:
        page = f.read()
    block = page[page.index('<section id="recommendation"') : page.index("</section>")]
    frame = result.frame
    best, second = frame.iloc[0], frame.iloc[1]
    assert bool(second["on_front"])
    for name in (best["name"], second["name"]):
        assert str(markupsafe.escape(name)) in block
    assert f"${best['cost_per_endpoint']:,.0f}" in block
    assert f"at most {answer.COST_FACTOR:g}x the recommended design per endpoint" in block
    for o in answer.objectives(frame, result.objectives):
        if o.alternative is not None:
            assert str(markupsafe.escape(o.alternative["name"])) in block
            cost = float(o.alternative["cost_per_endpoint"])
            assert cost <= answer.COST_FACTOR * float(best["cost_per_endpoint"])
    for anchor in ("#cost-bandwidth", "#front", "#why"):
        assert f'href="{anchor}"' in block
        assert f'id="{anchor[1:]}"' in page


def test_the_chart_and_the_pngs_draw_each_family_alike(result, report):
    from matplotlib.colors import to_hex

    from topolab.report import plots
    from topolab.report.styles import family_styles

    with open(report["html"], encoding="utf-8") as f:
        page = f.read()
    text = re.search(r'<script type="application/json" id="cost-bandwidth-data">(.*?)</script>', page, re.S)
    chart = json.loads(text.group(1).replace("<\\/", "</"))
    styles = family_styles(result.designs["family_name"])
    drawn = {f["name"]: (f["color"], f["symbol"]) for f in chart["families"]}
    assert drawn == {
        family: (styles[family].color, styles[family].symbol)
        for family in dict.fromkeys(result.frame.dropna(subset=["bisection_per_endpoint"])["family_name"])
    }
    assert len(set(drawn.values())) == len(drawn)
    # the PNG's points of a family are in the chart's colour
    fig = plots.cost_bandwidth(result.frame, styles=styles)
    colours = {to_hex(c) for ax in fig.axes for col in ax.collections for c in col.get_facecolors()}
    assert {styles[f].color for f in drawn} <= colours


def test_the_report_carries_no_script_it_does_not_use(report):
    """plotly.js alone was 4.8 MB of a 6.3 MB report for one scatter chart; the chart is now
    the report's own script. The page's scripts and the whole page stay within these bounds."""
    with open(report["html"], encoding="utf-8") as f:
        page = f.read()
    scripts = re.findall(r"<script\b[^>]*>(.*?)</script>", page, flags=re.S)
    assert "plotly" not in page.lower()
    assert sum(len(s) for s in scripts) < 1_000_000
    assert len(page.encode("utf-8")) < 1_500_000


def test_csv_and_parquet_round_trip(result, report):
    back = pd.read_parquet(report["parquet"])
    pd.testing.assert_frame_equal(back, result.frame, check_dtype=False)
    csv = pd.read_csv(report["csv"], keep_default_na=False, na_values=[""])
    assert list(csv.columns) == list(result.frame.columns)
    assert list(csv["spec"]) == list(result.frame["spec"])
    for column in (
        "rank",
        "routers",
        "endpoints",
        "cost_per_endpoint",
        "bisection_per_endpoint",
        "avg_latency_ns",
        "avg_hops",
        "cable_length_km",
    ):
        np.testing.assert_allclose(
            csv[column].to_numpy(float), result.frame[column].to_numpy(float), rtol=1e-12
        )
    assert list(csv["on_front"]) == list(result.frame["on_front"])
    designs = pd.read_parquet(report["designs_parquet"])
    assert len(designs) == len(result.designs) and designs["measured"].sum() == len(result.frame)
    with open(report["summary"], encoding="utf-8") as f:
        summary = json.load(f)
    assert summary["recommended"] == result.frame["spec"].iloc[0]
    assert summary["measured"] == len(result.frame)


def test_cable_histogram_data_are_the_costed_cables(result):
    """The histogram's lengths, weighted by link width, add up to the cable length that
    topolab.cost reports for the same design and floor."""
    series = cable_series(result)
    assert series[0][0].startswith(result.frame["name"].iloc[0])
    for label, lengths, widths in series:
        name = label.split(" and ")[0]
        row = result.frame[result.frame["name"] == name].iloc[0]
        cost = topolab.cost(row["spec"], SETTINGS.catalog, SETTINGS.floor)
        assert float(np.dot(lengths, widths)) == pytest.approx(cost.total_cable_m, rel=1e-12)
        assert int(widths.sum()) == cost.electric_cables + cost.optical_cables
        assert bool(row["on_front"])


def test_cable_lengths_parallel_to_links():
    net = topolab.build("hyperx:dims=3x4,widths=2x1,p=2")
    lengths = topolab.cable_lengths(net, "slimfly")
    links = net.links
    assert len(lengths) == len(links)
    cost = topolab.cost(net, "fdr10", "slimfly")
    assert sum(length * w for length, (_, _, w, _) in zip(lengths, links)) == pytest.approx(
        cost.total_cable_m
    )
    max_electric = topolab.load_floor("slimfly").max_electric_m
    electric = sum(w for length, (_, _, w, _) in zip(lengths, links) if length <= max_electric)
    assert electric == cost.electric_cables


def test_simulation_section_only_with_results(result, tmp_path):
    settings = CompareSettings(radix=12, endpoints=100, families=("slimfly", "hyperx"), per_family=2)
    sim = Measurement(
        "saturation", ("saturation_uniform",), lambda design, net, s: {"saturation_uniform": 0.5}, "test"
    )
    with_sim = run_comparison(
        settings, measurements=[*[m for m in MEASUREMENTS if m.enabled(settings)], sim], progress=False
    )
    paths = write_report(with_sim, tmp_path)
    with open(paths["html"], encoding="utf-8") as f:
        page = f.read()
    assert "<h2>Simulation</h2>" in page and "sat. unif." in page


def test_cli_compare_prints_the_question_front_and_recommendation(tmp_path, capsys, result):
    out_dir = tmp_path / "out"
    code = main(
        [
            "compare",
            "--radix",
            "12",
            "--endpoints",
            "100",
            "--families",
            "slimfly,hyperx,fattree,jellyfish",
            "--per-family",
            "3",
            "-o",
            str(out_dir),
        ]
    )
    assert code == 0
    captured = capsys.readouterr()
    out = captured.out
    best = result.frame["name"].iloc[0]
    assert "Which network for 100 endpoints with routers of 12 ports?" in out
    assert f"{len(result.designs)} feasible designs" in out
    assert f"Pareto front ({int(result.frame['on_front'].sum())} designs" in out
    assert f"Recommended: {best}:" in out
    assert str(out_dir / "report.html") in out
    # progress on stderr: off a terminal, one final line with the designs measured
    assert len(captured.err.splitlines()) == 1
    assert f"{len(result.frame)}/{len(result.frame)}" in captured.err
    # the same data as the API call with the same settings
    back = pd.read_parquet(out_dir / "compare.parquet")
    pd.testing.assert_frame_equal(
        back.drop(columns="measure_s"), result.frame.drop(columns="measure_s"), check_dtype=False
    )


def test_cli_json(capsys):
    code = main(
        ["compare", "-k", "12", "-n", "100", "--families", "slimfly", "--no-report", "--json", "--quiet"]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["recommended"] == data["designs"][0]["spec"]
    assert data["measured"] == len(data["designs"])


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--radix", "2"], ["'radix'", "2"]),
        (["--endpoints", "0"], ["'endpoints'", "0"]),
        (["--endpoint-tolerance", "2"], ["'endpoint_tolerance'", "2"]),
        (["--per-family", "0"], ["'per_family'", "0"]),
        (["--families", "slimfly,nosuch"], ["'families'", "nosuch"]),
        (["--floor", "nosuch"], ["nosuch"]),
        (["--radix", "4", "--endpoints", "1000000"], ["no design", "'radix'"]),
    ],
)
def test_cli_bad_arguments_exit_2_with_a_message(argv, words, capsys, tmp_path):
    code = main(["compare", *argv, "--quiet", "-o", str(tmp_path / "x")])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("topolab: error:")
    for w in words:
        assert w in err
    assert not (tmp_path / "x").exists()


def test_cli_non_numbers_are_rejected_by_the_parser(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["compare", "--radix", "many"])
    assert exit_info.value.code == 2
    assert "--radix" in capsys.readouterr().err


def test_report_bytes_are_reproducible(result, report, tmp_path):
    """Writing the same comparison again gives the same PNG, CSV-of-designs and HTML bytes
    (the HTML's last line carries the timings, which are the same object's here)."""
    again = write_report(result, tmp_path)
    for kind in ("cost_bandwidth", "moore", "cable_lengths", "html", "designs_csv", "parquet"):
        with open(report[kind], "rb") as a, open(again[kind], "rb") as b:
            assert a.read() == b.read(), kind


def _write_half_then_raise(error: BaseException, original):
    """A DataFrame writer that writes the first half of what ``original`` would, then fails:
    a full disk (OSError) or Ctrl-C (KeyboardInterrupt) in the middle of a file."""

    def writer(frame, target, *args, **kwargs):
        buffer = io.BytesIO()
        original(frame, buffer, *args, **kwargs)
        half = buffer.getvalue()[: len(buffer.getvalue()) // 2]
        if isinstance(target, (str, os.PathLike)):
            with open(target, "wb") as f:
                f.write(half)
        else:
            target.write(half if "b" in getattr(target, "mode", "b") else half.decode("utf-8", "ignore"))
            target.flush()
        raise error

    return writer


@pytest.mark.parametrize(
    "method, error, interrupted",
    [
        ("to_parquet", OSError(28, "No space left on device"), "compare.parquet"),
        ("to_csv", KeyboardInterrupt(), "compare.csv"),
    ],
)
def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(
    result, report, tmp_path, monkeypatch, method, error, interrupted
):
    """Each file is the old one or the whole new one; the one being written when the writer
    failed is the old one."""
    old = {name: f"old {name}\n".encode() for name in FILES.values()}
    for name, data in old.items():
        (tmp_path / name).write_bytes(data)
    monkeypatch.setattr(pd.DataFrame, method, _write_half_then_raise(error, getattr(pd.DataFrame, method)))
    with pytest.raises(type(error)):
        write_report(result, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(old)
    assert (tmp_path / interrupted).read_bytes() == old[interrupted]
    new = {os.path.basename(path): path for path in report.values()}
    for name, data in old.items():
        now = (tmp_path / name).read_bytes()
        if now != data:
            with open(new[name], "rb") as f:
                assert now == f.read(), name
