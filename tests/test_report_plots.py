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
