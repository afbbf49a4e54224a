"""topolab reproduce slimfly-buffers (Besta & Hoefler, SC14, §V-D, Fig. 8a) and
slimfly-oversubscribed (§V-E, Figs. 8b-e), quick mode: every curve runs the buffer it is
labelled with, bigger buffers carry more of the worst case (§V-D's claim), and an oversubscribed
Slim Fly's minimal routing is capped by a bound that scales with p as uniform traffic does."""

from __future__ import annotations

import pytest

import topolab
from topolab import reproduce
from topolab import routing as static_routing


@pytest.fixture(scope="module")
def buffers():
    return reproduce.run("slimfly-buffers", quick=True)


@pytest.fixture(scope="module")
def oversubscribed():
    return reproduce.run("slimfly-oversubscribed", quick=True)


def test_each_curve_runs_its_buffer_and_bigger_buffers_carry_more(buffers):
    per_vc = {d["label"]: d["vc_buf_size"] for d in buffers.data}
    # The label's per-port total over the router's 4 VCs.
    assert per_vc == {"8 flits/port": 2, "64 flits/port": 16, "256 flits/port": 64}
    sat = {r.column: r.topolab for r in buffers.rows if r.quantity == "saturation load"}
    assert sat["256 flits/port"] > sat["8 flits/port"]
    # UGAL-L under the worst case stays below what the network carries at all (1) and above
    # minimal routing's static bound on it (1/(2p)).
    p = max(topolab.build("slimfly:q=5").endpoints)
    assert all(1 / (2 * p) < s < 1.0 for s in sat.values())


def test_oversubscribed_min_capped_by_a_bound_scaling_with_p(oversubscribed):
    row = next(r for r in oversubscribed.rows if r.quantity == "SF-MIN uniform saturation load")
    assert row.paper == 0.80  # §V-E: p = 16 accepts up to 80%
    balanced = static_routing.channel_load(topolab.build("slimfly:q=5"), "min").throughput_bound
    # Uniform traffic's channel loads grow with the endpoints per router: p = 5 instead of 4.
    assert row.bound == pytest.approx(balanced * 4 / 5, rel=0.03)
    assert 0.75 * row.bound <= row.topolab <= row.bound + 0.02


def test_the_papers_figures_are_its_networks_minimal_bounds(oversubscribed):
    # §V-E: the full-bandwidth q = 19 Slim Fly (p = 15) "can accept up to 87.5%": its minimal
    # routing's static bound, to the paper's rounding. Uniform channel loads grow as p (a router
    # pair's demand is p^2 / N, N being p times the routers), so p = 16 has 15/16 of it.
    from topolab.reproduce.slimfly_oversubscribed import paper_network_bound

    balanced = paper_network_bound(15)
    assert abs(balanced - 0.875) < 0.005
    row = next(r for r in oversubscribed.rows if r.quantity.startswith("minimal routing's uniform bound"))
    assert row.paper == 0.80 and row.topolab == pytest.approx(balanced * 15 / 16, rel=1e-9)


def test_each_simulated_figure_carries_its_interval(buffers, capsys):
    from topolab.cli.reproduce import _print

    tolerance = next(r.topolab for r in buffers.setup_table if r.parameter == "saturation search resolution")
    for row in buffers.rows:
        runs = [d for d in buffers.data if d["label"] == row.column]
        if row.quantity == "saturation load":
            # the bracket: the figure, and the lowest load above it that a run of the curve
            # saturated at, no run of the curve between them
            low, high = row.interval
            assert low == row.topolab and 0 < high - low <= tolerance + 1e-9
            verdict = {d["offered_load"]: d["saturated"] for d in runs}
            assert verdict[low] is False and verdict[high] is True
            assert not [x for x in verdict if low < x < high]
        elif row.quantity.startswith("latency at load"):
            # the run's 95% interval by batch means, centred on its figure
            low, high = row.interval
            assert low < row.topolab < high and (low + high) / 2 == pytest.approx(row.topolab)
        else:  # the claim: the ratio's range over the two brackets holds the ratio
            low, high = row.interval
            assert low <= row.topolab <= high
    _print(buffers)
    printed = capsys.readouterr().out
    saturation = next(r for r in buffers.rows if r.quantity == "saturation load")
    assert f"[{saturation.interval[0]:,.2f}, {saturation.interval[1]:,.2f}]" in printed
