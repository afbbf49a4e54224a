"""The compare report's PNG plots are legible: every family its own colour and marker, rank
labels that do not overlap, one far-out design that does not squash the others, a colour per
curve in the latency-load plot."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pandas as pd
from matplotlib.colors import to_rgb

from topolab.report import plots
from topolab.report.styles import MARKERS, PALETTE, family_styles


def test_every_family_has_its_own_colour_and_look():
    families = [f"family {i}" for i in range(len(PALETTE))]
    styles = family_styles(families)
    assert len({s.color for s in styles.values()}) == len(families)
    # families that share a marker (len(MARKERS) apart) have colours far apart
    for a, b in itertools.combinations(styles.values(), 2):
        if a.marker == b.marker:
            distance = np.linalg.norm(np.subtract(to_rgb(a.color), to_rgb(b.color)))
            assert distance > 0.6, (a, b, distance)
    assert len({(s.color, s.marker) for s in family_styles(range(3 * len(MARKERS))).values()}) == 3 * len(
        MARKERS
    )


def crowded_front(n: int = 24, seed: int = 3) -> pd.DataFrame:
    """``n`` front designs packed into a small cost-bandwidth region, plus one lavish torus
    far out in cost and bandwidth (the issue's $19,012 torus)."""
    rng = np.random.default_rng(seed)
    cost = np.concatenate([1100 + 450 * rng.random(n - 1), [19_012.0]])
    bandwidth = np.concatenate([0.6 + 0.45 * rng.random(n - 1), [2.67]])
    order = np.argsort(cost)
    return pd.DataFrame(
        {
            "rank": np.arange(1, n + 1),
            "name": [f"design {i}" for i in range(n)],
            "family_name": [
                ["Slim Fly", "OFT", "DLN", "Torus"][i % 4] if i < n - 1 else "Torus" for i in range(n)
            ],
            "cost_per_endpoint": cost[order],
            "bisection_per_endpoint": bandwidth[order],
            "on_front": True,
        }
    )


def _overlaps(fig, ax) -> list[tuple[str, str]]:
    renderer = fig.canvas.get_renderer()
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in ax.texts]
    return [(a, b) for (a, ba), (b, bb) in itertools.combinations(boxes, 2) if ba.overlaps(bb)]


def test_rank_labels_do_not_overlap_and_the_far_out_design_is_named_not_drawn():
    frame = crowded_front()
    fig = plots.cost_bandwidth(frame)
    overview, zoom = fig.axes[:2]
    plots.png(fig)  # lays the figure out as written
    assert len(zoom.texts) == len(frame) - 1  # every front member but the far-out one numbered
    assert _overlaps(fig, zoom) == []
    far = frame.iloc[-1]
    assert overview.get_ylim()[1] < far["bisection_per_endpoint"]
    assert zoom.get_xlim()[1] < far["cost_per_endpoint"]
    for ax in (overview, zoom):
        assert f"#{far['rank']} {far['name']}" in ax.get_xlabel()


def test_far_out_flags_only_the_outlier():
    values = np.array([1000, 1100, 1200, 1300, 1250, 1150, 19_012.0])
    assert list(plots.far_out(values, log=True)) == [False] * 6 + [True]
    assert not plots.far_out(np.array([1.0, 2.0, 3.0, 4.0, 5.0])).any()


def test_latency_load_gives_each_design_its_own_colour_and_a_legend_outside_the_panels():
    curve = json.dumps([[0.1, 0.1, 20.0], [0.5, 0.5, 30.0], [0.9, 0.8, 90.0]])
    frame = pd.DataFrame(
        {
            "rank": [1, 2, 3],
            "name": ["Torus 4x4x4 p=1", "Torus 8x8 p=1", "Slim Fly q=5 p=3"],
            "family_name": ["Torus", "Torus", "Slim Fly"],
            "on_front": [True, True, True],
            "sim_network": ["torus:dims=4x4x4", "torus:dims=8x8", "slimfly:q=5,p=3"],
            "sim_endpoints": [64, 64, 150],
            "sim_curve_uniform": [curve] * 3,
            "sim_curve_worst": [curve] * 3,
        }
    )
    fig = plots.latency_load(frame)
    plots.png(fig)
    colours = [line.get_color() for line in fig.axes[0].get_lines()]
    assert len(set(colours)) == 3  # the two tori apart
    legend = fig.legends[0].get_window_extent(fig.canvas.get_renderer())
    for ax in fig.axes[:2]:
        assert not legend.overlaps(ax.get_window_extent(fig.canvas.get_renderer()))


def test_two_far_out_designs_with_their_costs_are_named_as_written():
    # the default `compare --simulate` left two designs far out: the note under the axis named
    # both costs, and matplotlib read the text between the two dollar signs as mathematics
    frame = crowded_front()
    frame.loc[len(frame) - 2, ["cost_per_endpoint", "bisection_per_endpoint"]] = [19_092.0, 2.6]
    fig = plots.cost_bandwidth(frame)
    plots.png(fig)
    label = fig.axes[0].get_xlabel()
    assert "($19,092, 2.60)" in label and "($19,012, 2.67)" in label, label


def _tick_texts(fig) -> list[str]:
    """Every tick label of every axis as drawn (after layout)."""
    plots.png(fig)
    texts = []
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            ticks = axis.get_ticklabels(minor=False) + axis.get_ticklabels(minor=True)
            texts += [t.get_text() for t in ticks if t.get_visible() and t.get_text()]
    return texts


def test_every_plot_of_the_report_labels_its_ticks_with_plain_numbers():
    # Math text was turned off for the whole figure while the log axes kept matplotlib's math
    # labels, which then printed as the literal text "$\\mathdefault{10^{5}}$".
    from topolab.design.compare import CompareSettings, run_comparison
    from topolab.report import cable_series

    c = run_comparison(
        CompareSettings(radix=12, endpoints=100, families=("slimfly", "hyperx", "torus"), per_family=3)
    )
    figures = {
        "moore": plots.moore(c.frame),
        "cable_lengths": plots.cable_lengths(cable_series(c), c.settings.floor),
        "cost_bandwidth": plots.cost_bandwidth(c.frame),
    }
    for name, fig in figures.items():
        texts = _tick_texts(fig)
        assert texts, name
        for text in texts:
            assert "$" not in text and "mathdefault" not in text, (name, text)
            float(text.replace(",", "").replace("\u2212", "-"))  # a number as a reader writes it


def _simulated(curves: dict[str, tuple[list[list[float]], float]]) -> pd.DataFrame:
    """A ranked front of simulated designs, one per entry: name -> (uniform curve, the uniform
    search's highest carried load); the worst case the same."""
    names = list(curves)
    return pd.DataFrame(
        {
            "rank": range(1, len(names) + 1),
            "name": names,
            "family_name": names,
            "on_front": True,
            "sim_network": [f"net{i}" for i in range(len(names))],
            "sim_endpoints": 100,
            "sim_curve_uniform": [json.dumps(curves[n][0]) for n in names],
            "sim_curve_worst": [json.dumps(curves[n][0]) for n in names],
            "saturation_uniform": [curves[n][1] for n in names],
            "saturation_worst": [curves[n][1] for n in names],
        }
    )


def test_latency_load_joins_only_carried_runs_and_names_single_runs_apart():
    # The small `compare --simulate`: four designs carried full load in their one run, at nearly
    # the same latency (piled up at load 1.0), and one whose latency fell past its saturation
    # load (a saturated run reports the packets delivered before it ended).
    single = {f"Single {i}": ([[1.0, 0.99, 40.0 + i]], 1.0) for i in range(4)}
    falling = [
        [0.74, 0.73, 13.0],
        [0.81, 0.80, 18.2],
        [0.87, 0.86, 25.6],
        [0.92, 0.87, 36.5],
        [0.96, 0.89, 29.3],
    ]
    frame = _simulated({"Falling": (falling, 0.87), **single})
    fig = plots.latency_load(frame)
    plots.png(fig)
    ax = fig.axes[0]
    joined = [line for line in ax.get_lines() if line.get_linestyle() not in ("None", "none", "")]
    assert len(joined) == 1  # the single runs are markers, not lines
    x, y = joined[0].get_data()
    assert list(x) == [0.74, 0.81, 0.87]  # up to the saturation load, not past it
    assert all(np.diff(y) > 0)
    hollow = [line for line in ax.get_lines() if line.get_markerfacecolor() == "none"]
    assert sorted(float(v) for line in hollow for v in line.get_xdata()) == [0.92, 0.96]
    # each single run is a marker of its own look, named beside it, the names apart
    markers = [
        line for line in ax.get_lines() if list(line.get_xdata()) == [1.0] and line.get_marker() != "_"
    ]
    assert len({(m.get_color(), m.get_marker()) for m in markers}) == 4
    from matplotlib.text import Text

    names = {t.get_text(): t for t in ax.texts}
    assert set(single) <= set(names)
    renderer = fig.canvas.get_renderer()
    boxes = {n: Text.get_window_extent(names[n], renderer) for n in single}  # the text, not its line
    assert [(a, b) for a, b in itertools.combinations(single, 2) if boxes[a].overlaps(boxes[b])] == []
    # named in order of latency, bottom to top, as the points are
    heights = [boxes[n].y0 for n in sorted(single)]
    assert heights == sorted(heights)
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any(label.startswith("hollow") for label in labels)


def test_latency_load_without_a_verdict_joins_every_run():
    curve = [[0.1, 0.1, 20.0], [0.5, 0.5, 30.0], [0.9, 0.8, 90.0]]
    frame = _simulated({"A": (curve, float("nan"))})
    fig = plots.latency_load(frame)
    line = next(line for line in fig.axes[0].get_lines() if line.get_linestyle() not in ("None", "none"))
    assert list(line.get_xdata()) == [0.1, 0.5, 0.9]
    assert not any(line.get_markerfacecolor() == "none" for line in fig.axes[0].get_lines())


def test_the_catalogue_families_each_have_a_colour_and_a_colour_and_marker_of_their_own():
    from topolab.design.enumerate import FAMILY_NAMES

    families = list(dict.fromkeys(FAMILY_NAMES.values()))
    assert len(families) >= 29
    styles = family_styles(families)
    assert len({s.color.lower() for s in styles.values()}) == len(families)
    assert len({(s.color.lower(), s.marker) for s in styles.values()}) == len(families)
    assert len({(s.color.lower(), s.symbol) for s in styles.values()}) == len(families)
    # the star is the recommendation's alone
    assert all(s.marker != "*" and s.symbol != "star" for s in styles.values())
