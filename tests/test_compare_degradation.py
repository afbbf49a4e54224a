"""``compare --failures F``: the degradation curves of the front's simulated designs (saturation
load against the share of cables failed, beside each degraded graph's static bound), in the
comparison, its figure, its report section and its terminal summary (docs/resilience.md)."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

import topolab
from topolab.comparison.result import simulated_front
from topolab.design import simulate as S
from topolab.design.compare import CompareSettings, run_comparison
from topolab.design.measurements import MEASUREMENTS
from topolab.report import plots

FAILURES = 0.1
FRACTIONS = (0.0, 0.2)  # F = 0.1 joins them


@pytest.fixture(scope="module")
def comparison(tmp_path_factory):
    """A small comparison whose front has two simulated designs (a 3x3 torus and a 2x3 HyperX
    at radix 8, 18 endpoints): 2 x (1 + 2 + 2) searches of a few hundred cycles each."""
    settings = CompareSettings(
        radix=8,
        endpoints=20,
        families=("mlfm", "torus", "hyperx", "slimfly"),
        simulate=True,
        per_family=2,
        sim_per_family=1,
        failures=FAILURES,
        failure_fractions=FRACTIONS,
        failure_seeds=2,
    )
    measurements = [m for m in MEASUREMENTS if m.name in ("graph", "cost", "latency", "simulation")]
    store = tmp_path_factory.mktemp("store")
    c = run_comparison(settings, measurements=measurements, progress=False, workers=1, sim_results=str(store))
    return c, str(store)


def test_the_curves_are_of_the_fronts_simulated_designs_at_each_fraction_and_seed(comparison):
    c, _ = comparison
    curves = c.degradation
    designs = simulated_front(c.frame)
    assert len(designs) >= 2, "the fixture's front should have two simulated designs"
    assert list(dict.fromkeys(curves["sim_network"])) == [row["sim_network"] for row in designs]
    assert (curves["status"] == "ok").all(), curves["error"].tolist()
    for row in designs:
        mine = curves[curves["sim_network"] == row["sim_network"]]
        assert (mine["rank"] == row["rank"]).all() and (mine["name"] == row["name"]).all()
        # fraction 0 fails nothing whatever the seed: one search; the others one per seed
        pairs = sorted(zip(mine["failed_fraction"], mine["failure_seed"]))
        seed = c.settings.seed
        assert pairs == [(0.0, seed), (0.1, seed), (0.1, seed + 1), (0.2, seed), (0.2, seed + 1)]
        assert (mine["routing"] == S.degraded_routing(S.SIM_CHOICES[row["family"]].uniform_routing)).all()
        # the search at F with the comparison's seed is the saturation_failed column's own
        at_f = mine[(mine["failed_fraction"] == FAILURES) & (mine["failure_seed"] == seed)].iloc[0]
        assert at_f["saturation_load"] == row["saturation_failed"]
        # what is lost at 20% is more than at 10% (the sets are drawn independently, so per seed)
        intact = mine[mine["failed_fraction"] == 0].iloc[0]
        assert intact["failed_cables"] == 0 and intact["surviving_endpoints"] == row["sim_endpoints"]
        for s in (seed, seed + 1):
            cables = {
                f: int(
                    mine[(mine["failed_fraction"] == f) & (mine["failure_seed"] == s)]["failed_cables"].iloc[
                        0
                    ]
                )
                for f in (0.1, 0.2)
            }
            assert 0 < cables[0.1] < cables[0.2]


def test_the_curves_are_the_degradation_searches_and_resume_from_the_store(comparison):
    c, store = comparison
    from topolab.degradation import degradation

    first = simulated_front(c.frame)[0]
    mine = c.degradation[c.degradation["sim_network"] == first["sim_network"]].reset_index(drop=True)
    # the same searches through topolab.degradation, found in the comparison's store
    again = degradation(
        first["sim_network"],
        c.settings.curve_fractions,
        2,
        routing=mine["routing"].iloc[0],
        seed=c.settings.seed,
        first_seed=c.settings.seed,
        results=store,
        workers=1,
        progress=False,
        **S.SIM_PARAMS,
    )
    for key in ("failed_fraction", "failure_seed", "static_bound", "saturation_load", "failed_cables"):
        assert again[key].tolist() == mine[key].tolist(), key
    # the static bound of the degraded graph, from networkx distances alone (tests/test_failures.py)
    from test_failures import minimal_loads

    assert set(mine["routing"]) == {"min"}
    for _, point in mine[mine["failed_fraction"] > 0].iterrows():
        net = topolab.apply_failures(first["sim_network"], point["failures"]).network
        loads = minimal_loads(net.to_networkx(), dict(enumerate(net.endpoints)))
        # the simulator's uniform traffic draws among all N endpoints, the source included
        # (docs/traffic.md, BookSim2's), so each other endpoint gets 1/N, not 1/(N - 1)
        n = net.num_endpoints
        assert point["static_bound"] == pytest.approx(n / (n - 1) / max(loads.values()), rel=1e-9)


def _errorbars(ax):
    """(line, lowest ends, highest ends) of each errorbar drawn on ``ax``, in order."""
    out = []
    for container in ax.containers:
        line, _caps, (bars,) = container.lines
        segments = bars.get_segments()
        out.append(
            (line, np.array([min(s[:, 1]) for s in segments]), np.array([max(s[:, 1]) for s in segments]))
        )
    return out


def test_the_figure_draws_one_curve_per_design_with_the_frames_values(comparison):
    c, _ = comparison
    fig = plots.degradation(c.degradation)
    png = plots.png(fig)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    ax = fig.axes[0]
    designs = simulated_front(c.frame)
    drawn = _errorbars(ax)
    assert len(drawn) == 2 * len(designs)  # the simulated load and the static bound of each
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    colours = set()
    for i, row in enumerate(designs):
        mine = c.degradation[c.degradation["sim_network"] == row["sim_network"]]
        fractions = sorted(set(mine["failed_fraction"]))
        for (line, low, high), key, style in zip(
            drawn[2 * i : 2 * i + 2], ("saturation_load", "static_bound"), ("-", "--")
        ):
            assert line.get_linestyle() == style
            by = mine.groupby("failed_fraction")[key]
            assert np.allclose(line.get_xdata(), fractions)
            assert np.allclose(line.get_ydata(), by.mean().to_numpy())
            assert np.allclose(low, by.min().to_numpy()) and np.allclose(high, by.max().to_numpy())
        assert drawn[2 * i][0].get_color() == drawn[2 * i + 1][0].get_color()
        colours.add(drawn[2 * i][0].get_color())
        assert any(str(row["name"]) in text for text in legend)
    assert len(colours) == len(designs)


def test_the_figure_labels_its_ticks_readably(comparison):
    c, _ = comparison
    fig = plots.degradation(c.degradation)
    plots.png(fig)
    ax = fig.axes[0]
    labels = [t for t in ax.get_xticklabels() if t.get_visible() and t.get_text()]
    assert [t.get_text() for t in labels] == ["0%", "10%", "20%"]
    renderer = fig.canvas.get_renderer()
    ticks = labels + [t for t in ax.get_yticklabels() if t.get_visible() and t.get_text()]
    for a, b in itertools.combinations(ticks, 2):
        assert not a.get_window_extent(renderer).overlaps(b.get_window_extent(renderer)), (a, b)
    for t in ax.get_yticklabels():
        if t.get_visible() and t.get_text():
            float(t.get_text().replace("\u2212", "-"))
    legend = fig.legends[0].get_window_extent(renderer)
    assert not legend.overlaps(ax.get_window_extent(renderer))


def test_the_report_has_the_figure_the_data_and_a_section(comparison, tmp_path):
    c, _ = comparison
    from topolab.report import summary, write_report

    files = write_report(c, tmp_path)
    assert {"degradation", "degradation_csv"} <= set(files)
    from matplotlib.image import imread

    image = imread(files["degradation"])
    assert image.shape[0] > 400 and image.shape[1] > 800
    import pandas as pd

    data = pd.read_csv(files["degradation_csv"])
    assert data["saturation_load"].tolist() == pytest.approx(c.degradation["saturation_load"].tolist())
    html = open(files["html"], encoding="utf-8").read()
    assert 'id="degradation"' in html and "Degradation as cables fail" in html
    assert html.count('id="degradation-table"') == 1
    assert "degradation.png" in html and "degradation.csv" in html
    text = summary(c)
    for row in simulated_front(c.frame):
        line = next(x for x in text.splitlines() if x.startswith(f"#{int(row['rank'])} {row['name']} @"))
        assert "0% " in line and "10% " in line and "20% " in line
    document = c.to_dict()
    assert len(document["degradation"]) == len(c.degradation)
    json.dumps(document, default=str)


def test_without_failures_there_are_no_curves(tmp_path):
    c = run_comparison(
        CompareSettings(radix=8, endpoints=20, families=("torus",), per_family=1), progress=False
    )
    assert c.degradation is None
    from topolab.report import write_report

    files = write_report(c, tmp_path)
    assert "degradation" not in files and not (tmp_path / "degradation.png").exists()


def test_the_fractions_of_the_curves():
    s = CompareSettings(radix=8, endpoints=20, simulate=True, failures=0.05)
    assert s.curve_fractions == (0.0, 0.025, 0.05, 0.1)
    s = CompareSettings(radix=8, endpoints=20, simulate=True, failures=0.05, failure_fractions=[0.1, 0.01])
    assert s.curve_fractions == (0.01, 0.05, 0.1) and s.failure_fractions == (0.1, 0.01)
    assert CompareSettings(radix=8, endpoints=20, simulate=True, failures=0.8).curve_fractions[-1] == 1.0
    with pytest.raises(topolab.ParameterError, match="failure_fractions"):
        CompareSettings(radix=8, endpoints=20, simulate=True, failure_fractions=(0.1,))
    with pytest.raises(topolab.ParameterError, match="failure_fractions.*1.5"):
        CompareSettings(radix=8, endpoints=20, simulate=True, failures=0.1, failure_fractions=(0.1, 1.5))
    with pytest.raises(topolab.ParameterError, match="failure_fractions"):
        CompareSettings(radix=8, endpoints=20, simulate=True, failures=0.1, failure_fractions="0.1")
    with pytest.raises(topolab.ParameterError, match="failure_seeds"):
        CompareSettings(radix=8, endpoints=20, simulate=True, failures=0.1, failure_seeds=0)


def test_the_command_line_refuses_bad_fractions(capsys):
    from topolab.cli import main

    with pytest.raises(SystemExit):
        main(["compare", "--simulate", "--failures", "0.1", "--failure-fractions", "0,2", "--no-report"])
    assert "--failure-fractions" in capsys.readouterr().err
