"""topolab compare --simulate: the stand-ins (--simulate-scaled) keep family and load (checked
against the enumeration's own rules), the saturation search against closed forms (Kathareios et al., SC15,
§4.2: MLFM and OFT worst cases load every link of a path with p flows), determinism and the frame/report
plumbing.
Small networks only: every simulation here takes under a second."""

from __future__ import annotations

import json
import math
from html import escape

import pytest

import topolab
from topolab.design import enumerate_designs
from topolab.design import saturation as SAT
from topolab.design import simulate as S
from topolab.design.compare import MEASUREMENTS, CompareSettings, objectives_for, run_comparison
from topolab.report import interactive, plots, tables
from topolab.report.styles import family_styles


def _design(radix, endpoints, family, **params):
    found = [d for d in enumerate_designs(radix, endpoints, families=[family]) if d.params == params]
    assert found, (family, params)
    return found[0]


def _load_of(spec: str, family: str) -> float:
    """The load the enumeration gives the spec: enumerate at the spec's own size."""
    from topolab.network import build

    net = build(spec)
    for d in enumerate_designs(
        net.radix,
        net.num_endpoints,
        endpoint_tolerance=0.0,
        families=[family],
        oversubscription=10.0,
        undersubscription=0.99,
    ):
        if d.spec == spec:
            return d.load
    raise AssertionError(f"{spec} not enumerated at its own size")


@pytest.mark.parametrize(
    "radix,endpoints,family,params",
    [
        (48, 10_000, "slimfly", {"q": 17, "p": 18}),  # 38% oversubscribed
        (48, 10_000, "slimfly", {"q": 19, "p": 15}),  # Besta & Hoefler's (SC14) balanced Slim Fly
        (48, 10_000, "fattree", {"k": 32, "levels": 3, "p": 17, "pods": 32}),
        (48, 10_000, "oft", {"k": 17, "p": 16}),
        # the same global links per pair of groups, not only the same share of groups
        (48, 10_000, "dragonfly", {"a": 20, "h": 7, "p": 7, "g": 71}),
        (48, 10_000, "hyperx", {"dims": (6, 6, 6, 7), "widths": (2, 2, 2, 1), "p": 7}),
        (48, 10_000, "torus", {"dims": (13, 13, 15), "widths": (7, 7, 8), "p": 4}),
    ],
)
def test_scaled_member_is_smaller_same_family_and_about_the_same_load(radix, endpoints, family, params):
    design = _design(radix, endpoints, family, **params)
    spec, n = S.scaled_member(design, 600)
    assert spec.startswith(family + ":")
    assert n <= 600 < design.endpoints
    load = _load_of(spec, family)
    # integer p on a small network: the load can only be matched to within half a step of p
    # integer p on a small network: a fat tree k=12 has loads 6/6, 7/5, ... only
    assert abs(load - design.load) / design.load < 0.25, (spec, load, design.load)
    # balanced stays balanced, oversubscribed stays oversubscribed
    assert (load <= 1 + 1e-9) == (design.load <= 1 + 1e-9)


def test_small_design_is_simulated_as_itself_and_unknown_family_is_not():
    design = _design(12, 100, "slimfly", q=4, p=3)
    assert S.scaled_member(design, 600) == (design.spec, design.endpoints)
    kautz = enumerate_designs(48, 10_000, families=["kautz"])[0]
    assert S.scaled_member(kautz, 600) is None


def _search(spec: str, traffic: str, seed: int = 0) -> dict:
    return SAT.saturation_point(
        {"network": spec, "routing": "min", "traffic": traffic, "seed": seed, **S.SIM_PARAMS}
    )


@pytest.mark.parametrize(
    "spec,traffic,p", [("mlfm:h=2,l=2,p=3", "mlfm_worst", 3), ("oft:k=3,p=3", "oft_worst", 3)]
)
def test_worst_case_saturation_matches_one_over_p(spec, traffic, p):
    # Kathareios et al., SC15, §4.2 / docs/traffic.md: every link of a flow's single minimal path carries p
    # flows, so minimal routing delivers 1/p of the injection bandwidth
    r = _search(spec, traffic)
    delivered = max(a for a in r["accepted_throughput"] if a is not None)
    assert delivered == pytest.approx(1 / p, abs=0.02)
    # a run is carried while it accepts 97% of its load (beyond the noise of 12 endpoints), so
    # the highest load carried lies from 1/p to 3% above it
    assert 1 / p - 0.02 <= r["saturation_load"] <= (1 / p) / 0.97 + 0.02
    assert r["static_bound"] == pytest.approx(1 / p)
    assert round(r["static_bound"], 4) in r["offered_load"]  # the search starts at the bound


def test_saturation_is_deterministic_and_uniform_beats_worst_case():
    a = _search("mlfm:h=2,l=2,p=3", "uniform", 3)
    b = _search("mlfm:h=2,l=2,p=3", "uniform", 3)
    a.pop("sim_seconds"), b.pop("sim_seconds")
    assert a == b
    assert a["saturation_load"] > _search("mlfm:h=2,l=2,p=3", "mlfm_worst", 3)["saturation_load"] + 0.1


def test_compare_simulate_fills_columns_and_ranks_by_simulated_bandwidth(tmp_path):
    settings = CompareSettings(
        radix=8, endpoints=20, families=("mlfm", "oft"), simulate=True, per_family=2, sim_per_family=2
    )
    sim = [m for m in MEASUREMENTS if m.name in ("graph", "cost", "latency", "simulation")]
    result = run_comparison(settings, measurements=sim, progress=False, workers=1)
    frame = result.frame
    assert set(objectives_for(settings)) == set(result.objectives)
    assert "saturation_worst" in result.objectives and "bisection_per_endpoint" not in result.objectives
    for _, row in frame.iterrows():
        assert 0 < row["saturation_worst"] <= row["saturation_uniform"] <= 1.0
        assert row["sim_worst"] == f"min / {row['family']}_worst"
        assert not math.isnan(row["sim_endpoints"])
        for key in ("uniform", "worst"):
            # the bracket: two loads the search ran, at most its tolerance apart
            # (or none above a full load carried)
            lower, upper = row[f"saturation_{key}"], row[f"saturation_{key}_upper"]
            curve = json.loads(row[f"sim_curve_{key}"])
            if math.isnan(upper):
                assert lower == 1.0 and tables.row_cell(row, tables.COLUMNS[f"saturation_{key}"]) == "100%"
                continue
            assert lower < upper <= lower + SAT.TOLERANCE + 1e-9
            assert {lower, upper} <= {point[0] for point in curve}
            # each run's 95% half-widths where it measured two periods or more (0 for a
            # saturated link delivering the same flits every period)
            assert all(len(point) == 5 for point in curve)
            halves = [h for point in curve for h in point[3:] if h is not None]
            assert any(h > 0 for h in halves) and all(h >= 0 for h in halves)
            assert tables.row_cell(row, tables.COLUMNS[f"saturation_{key}"]) == tables.bracket(lower, upper)
    # the report's simulated plots draw the brackets and the latency intervals as error bars
    styles = family_styles(frame["family_name"])
    chart = interactive.cost_bandwidth_data(frame, "saturation_uniform", "saturation", styles)
    rises = sorted(round(p["rise"] or 0.0, 6) for f in chart["families"] for p in f["points"])
    expected = sorted(
        round(0.0 if math.isnan(u) else u - lo, 6)
        for lo, u in zip(frame["saturation_uniform"], frame["saturation_uniform_upper"])
    )
    assert rises == expected and len(rises) == len(frame)  # a point, with its bar, per design
    from matplotlib.container import ErrorbarContainer

    for figure in (plots.cost_bandwidth(frame), plots.latency_load(frame)):
        assert any(isinstance(c, ErrorbarContainer) for ax in figure.axes for c in ax.containers)
    # the latency-load figure and section appear with simulation data
    from topolab.report import write_report

    files = write_report(result, tmp_path)
    assert "latency_load" in files
    html = (tmp_path / "report.html").read_text()
    assert "<h2>Simulation</h2>" in html and "latency against offered load" in html
    # the router the searches ran is recorded with them and stated, in the report and on the
    # terminal
    assert set(frame["sim_router"].dropna()) == {S.router_summary()}
    assert escape(S.router_summary(), quote=False) in html
    from topolab.report.text import asked_lines

    assert any(S.router_summary() in text for _, text in asked_lines(result))


def test_the_stated_router_follows_the_parameters_run(monkeypatch):
    assert "internal speedup 2 " in S.router_summary()
    monkeypatch.setitem(S.SIM_PARAMS, "internal_speedup", 3.0)
    monkeypatch.setitem(S.SIM_PARAMS, "vc_buf_size", 16)
    assert "internal speedup 3 " in S.router_summary() and "VCs of 16 flits" in S.router_summary()


def test_the_router_does_not_cap_what_the_network_carries():
    # Slim Fly q = 5 under uniform minimal routing: its busiest channel bounds the load (the
    # static bound, computed from the routes, not by simulation); compare's router must carry
    # loads up to near it. An input-queued router without speedup stops near 0.6 whatever the
    # network (0.60 on the q = 7 Slim Fly, bound 0.86), which made every network look alike.
    r = _search("slimfly:q=5", "uniform")
    assert r["static_bound"] > 0.8
    assert r["saturation_load"] >= r["static_bound"] - 0.05, r
    # and credit-based adaptive routing sees a congested link: UGAL-L under the worst case
    # carries more than minimal routing's static bound there (speedup 1: no more than it)
    worst = SAT.saturation_point(
        {
            "network": "slimfly:q=5",
            "routing": "ugal_l",
            "traffic": "slimfly_worst",
            "seed": 0,
            "num_vcs": 4,
            **S.SIM_PARAMS,
        }
    )
    minimal = SAT.static_bound(topolab.build("slimfly:q=5"), "min", "slimfly_worst")
    assert worst["saturation_load"] > 1.5 * minimal, (worst, minimal)


def test_sim_precision_reaches_every_search_and_keeps_the_brackets(monkeypatch):
    import topolab.experiment

    asked: list[dict] = []
    real = topolab.experiment.run_experiment

    def recording(spec, **kwargs):
        asked.append(spec)
        return real(spec, **kwargs)

    monkeypatch.setattr(topolab.experiment, "run_experiment", recording)
    design = _design(12, 100, "slimfly", q=4, p=3)
    columns = {}
    for precision in (0.0, 0.05):
        settings = CompareSettings(radix=12, endpoints=100, simulate=True, sim_precision=precision)
        (row,) = S.simulate_designs([design], settings, workers=1, progress=False)
        columns[precision] = {k: row[k] for k in row if k.startswith("saturation_")}
    assert all("precision" not in case for case in asked[0]["cases"])
    assert all(case["precision"] == 0.05 for case in asked[1]["cases"])
    # runs whose interval decides the verdict early end with the same verdicts here
    assert columns[0.05] == columns[0.0]
    with pytest.raises(topolab.ParameterError, match="sim_precision"):
        CompareSettings(simulate=True, sim_precision=2.0)
