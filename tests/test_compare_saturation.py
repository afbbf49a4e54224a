"""compare --simulate's saturation search and how it runs: within 0.02 of an exhaustive load
bisection made here with the plain simulator; the searches as points of the experiment runner,
resumed after an interruption, the same on one and two workers and on a Dask cluster."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pandas as pd
import pytest

import topolab
from topolab.cli import main
from topolab.design import saturation as SAT
from topolab.design import simulate as S
from topolab.design.compare import CompareSettings, run_comparison

# Plain runs: the simulator's own measurement (no early verdict), with compare's setup.
PLAIN = dict(S.SIM_PARAMS)


@pytest.mark.parametrize(
    "spec,routing,traffic,num_vcs",
    [
        ("slimfly:q=5", "min", "uniform", 4),
        ("mlfm:h=3", "min", "mlfm_worst", 4),
        ("torus:dims=6x6", "dor", "tornado", 4),
        # a few hot flows hold the drain near saturation (docs/simulator.md, early verdict)
        ("dln:routers=200,shortcuts=8,p=6", "min", "randperm", 4),
    ],
)
def test_fast_search_is_within_002_of_an_exhaustive_bisection(spec, routing, traffic, num_vcs):
    params = {"network": spec, "routing": routing, "traffic": traffic, "seed": 0, "num_vcs": num_vcs, **PLAIN}
    fast = SAT.saturation_point(params)
    exhaustive = SAT.exhaustive_saturation(spec, routing, traffic, seed=0, num_vcs=num_vcs, **PLAIN)
    reference = exhaustive["saturation_load"]
    assert abs(fast["saturation_load"] - reference) <= 0.02, (fast, reference)
    # few runs, each stopped as soon as its verdict was clear
    assert fast["runs"] <= 8, fast
    assert any(v for v in fast["early_verdict"]), fast
    # the bracket: the next load up saturated, within the search's tolerance
    assert fast["saturated_load"] is not None, fast
    assert fast["saturated_load"] - fast["saturation_load"] <= SAT.TOLERANCE + 1e-9


@pytest.mark.parametrize(
    "kwargs,name",
    [
        ({"step": 0.0}, "step"),
        ({"step": 1.5}, "step"),
        ({"resolution": 0.0}, "resolution"),
        ({"step": 0.05, "resolution": 0.1}, "resolution"),
    ],
)
def test_exhaustive_bisection_names_a_bad_step(kwargs, name):
    with pytest.raises(ValueError, match=name):
        SAT.exhaustive_saturation("slimfly:q=5", "min", "uniform", **kwargs)


def test_the_search_starts_at_the_static_bound_and_follows_the_overloaded_throughput():
    # a stand-in simulator whose network carries loads up to 0.43 and delivers 0.43 beyond
    class Run:
        def __init__(self, load):
            self.saturated = load > 0.43
            self.accepted_throughput = min(load, 0.43)

    loads = []

    def run(load):
        loads.append(load)
        return Run(load)

    found = SAT.search(run, start=0.5, tolerance=0.01)
    assert loads[0] == 0.5
    assert found["saturation_load"] == pytest.approx(0.43)
    assert found["saturated_load"] - found["saturation_load"] <= 0.01 + 1e-9
    assert len(loads) <= 3

    # the simulator's verdict: carried while accepting at least 97% of the offered load, so a
    # network delivering 0.43 when overloaded is judged carried up to 0.43 / 0.97 = 0.4433
    class Judged:
        def __init__(self, load):
            self.accepted_throughput = min(load, 0.43)
            self.saturated = self.accepted_throughput < 0.97 * load

    loads.clear()

    def judged(load):
        loads.append(load)
        return Judged(load)

    found = SAT.search(judged, start=0.8, tolerance=0.01, shortfall=0.03)
    flip = 0.43 / 0.97
    assert flip - 0.01 <= found["saturation_load"] < flip <= found["saturated_load"]
    assert found["saturated_load"] - found["saturation_load"] <= 0.01 + 1e-9
    assert len(loads) <= 3, loads
    # without the shortfall the guess is 0.43, three steps of 0.01 below the flip
    loads.clear()
    SAT.search(judged, start=0.8, tolerance=0.01)
    assert len(loads) > 3, loads
    # a bound the network exceeds: the search goes up to full load
    assert SAT.search(lambda load: Run(0.0), start=0.8)["saturated_load"] is None


def test_a_network_whose_throughput_collapses_past_saturation_is_found_from_below():
    # the 7x9x9x9 mesh under tornado traffic with DOR (compare's default question): it carries
    # about 0.22, and overloaded it delivers less the more it is offered, down to 0.16
    carried = 0.222

    class Collapsing:
        def __init__(self, load):
            overloaded = max(0.162, carried - 0.2 * (load - carried))
            self.accepted_throughput = load if load <= carried else overloaded
            self.saturated = self.accepted_throughput < 0.97 * load

    loads = []

    def run(load):
        loads.append(load)
        return Collapsing(load)

    found = SAT.search(run, start=None, tolerance=0.01, shortfall=0.03)
    assert found["saturation_load"] <= carried / 0.97 < found["saturated_load"]
    assert found["saturated_load"] - found["saturation_load"] <= 0.01 + 1e-9
    # bisecting down from full load took 11 runs here, four of them overloaded (above 0.3)
    assert len(loads) <= 7, loads
    assert sum(load > 0.3 for load in loads) == 1, loads  # only the first, at full load
    # the climb never passes the middle of the bracket
    loads.clear()
    found = SAT.search(run, start=0.25, tolerance=0.01, shortfall=0.03)
    assert found["saturation_load"] <= carried / 0.97 < found["saturated_load"]
    assert all(load <= 0.25 for load in loads), loads


def test_static_bound_of_minimal_routing_follows_the_closed_form():
    # Kathareios et al., SC15, §4.2: minimal routing under the h-MLFM worst case carries 1/h
    net = topolab.build("mlfm:h=3")
    assert SAT.static_bound(net, "min", "mlfm_worst") == pytest.approx(1 / 3)
    # adaptive: the larger of the minimal and Valiant bounds
    sf = topolab.build("slimfly:q=5")
    assert SAT.static_bound(sf, "ugal_l", "uniform") == pytest.approx(
        max(SAT.static_bound(sf, "min", "uniform"), SAT.static_bound(sf, "valiant", "uniform"))
    )


def test_valiant_loads_by_its_two_phases_equal_its_paths_listed():
    # the bound of adaptive routings takes Valiant's loads as the minimal loads of its two
    # phases (to an intermediate, then on), which lists no path per intermediate: the same
    # loads as Valiant's paths enumerated one by one
    sf = topolab.build("slimfly:q=5")
    for traffic in ("uniform", "slimfly_worst", "randperm"):
        listed = topolab.routing.channel_load(sf, "valiant", traffic=traffic, progress=False)
        phases = topolab.routing.channel_load(sf, "min", traffic=traffic, progress=False, valiant_phases=True)
        assert phases.loads == pytest.approx(listed.loads, abs=1e-9)
        assert SAT.static_bound(sf, "valiant", traffic) == pytest.approx(listed.throughput_bound)


def test_a_network_too_large_for_the_static_bound_starts_at_full_load(monkeypatch):
    # oversubscribed (p = 6 where 4 balances it), so that it saturates well below full load
    params = {"network": "slimfly:q=5,p=6", "routing": "min", "traffic": "uniform", "seed": 0, "num_vcs": 4}
    params.update(PLAIN)
    with_bound = SAT.saturation_point(params)
    monkeypatch.setattr(SAT, "STATIC_BOUND_MAX_PAIRS", 50 * 49 - 1)  # q = 5: 50 routers
    without = SAT.saturation_point(params)
    assert with_bound["static_bound"] is not None and without["static_bound"] is None
    assert max(without["offered_load"]) == 1.0 and 1.0 not in with_bound["offered_load"]
    # the overloaded run at full load gives the estimate: the same bracket
    assert abs(without["saturation_load"] - with_bound["saturation_load"]) <= SAT.TOLERANCE + 1e-9
    # the run at full load, and at most one more where the estimate's carried step climbs past
    assert without["runs"] <= with_bound["runs"] + 2
    sf = topolab.build("slimfly:q=5")
    # a permutation has one router pair per endpoint: its bound is computed all the same
    assert SAT.static_bound(sf, "min", "randperm") is not None
    # a routing listing more paths than the budget has none
    monkeypatch.setattr(SAT, "STATIC_BOUND_MAX_PAIRS", 10**9)
    monkeypatch.setattr(SAT, "STATIC_BOUND_MAX_PATHS", 50 * 49 - 1)  # at least one per pair
    assert SAT.static_bound(sf, "min", "uniform") is None
    # adaptive routings fall back on minimal and Valiant routing only below their own limit
    monkeypatch.setattr(SAT, "STATIC_BOUND_MAX_PATHS", 10**9)
    monkeypatch.setattr(SAT, "ADAPTIVE_BOUND_MAX_ROUTERS", 49)
    assert SAT.static_bound(sf, "ugal_l", "uniform") is None
    assert SAT.static_bound(sf, "min", "uniform") is not None


def test_channel_load_budgets_are_errors_naming_the_limit():
    net = topolab.build("torus:dims=4x4")
    full = topolab.routing.channel_load(net, "dor", traffic="tornado", progress=False)
    # 16 routers, one pair each under tornado: within 16 pairs and 16 paths, the same loads
    within = topolab.routing.channel_load(
        net, "dor", traffic="tornado", progress=False, max_pairs=16, max_paths=16
    )
    assert within.loads == full.loads
    with pytest.raises(topolab.ParameterError, match="max_pairs"):
        topolab.routing.channel_load(net, "dor", traffic="uniform", progress=False, max_pairs=239)
    with pytest.raises(topolab.ParameterError, match="max_pairs"):
        topolab.routing.channel_load(net, "dor", progress=False, max_pairs=239)  # 16 x 15 = 240
    assert topolab.routing.channel_load(net, "dor", progress=False, max_pairs=240).max_load > 0
    with pytest.raises(topolab.ParameterError, match="max_paths"):
        topolab.routing.channel_load(net, "dor", traffic="tornado", progress=False, max_paths=15)


SMALL = CompareSettings(
    radix=8, endpoints=20, families=("mlfm", "oft"), simulate=True, per_family=2, sim_per_family=2
)
SIM_COLUMNS = ["spec", "saturation_uniform", "saturation_worst", "sim_network", "sim_runs", "sim_curve_worst"]


def _sim(result):
    return result.frame.sort_values("spec")[SIM_COLUMNS].reset_index(drop=True)


def test_designs_are_simulated_at_full_size_and_stand_ins_only_on_request():
    full = run_comparison(SMALL, progress=False, workers=1).frame
    simulated = full[full["sim_network"].notna()]
    assert len(simulated) == len(full) >= 2  # at most 2 per family: all of them
    assert (simulated["sim_network"] == simulated["spec"]).all()
    assert simulated["sim_full_size"].astype(bool).all()
    for _, row in simulated.iterrows():
        assert 0 < row["saturation_worst"] <= row["saturation_uniform"] <= 1.0
        assert "simulated at full size" in row["sim_note"]
    scaled = CompareSettings(
        radix=12, endpoints=100, families=("slimfly",), simulate=True, simulate_scaled=True, sim_endpoints=60
    )
    frame = run_comparison(scaled, progress=False, workers=1).frame
    done = frame[frame["sim_network"].notna()]
    assert len(done) == 1
    assert not bool(done["sim_full_size"].iloc[0]) and done["sim_endpoints"].iloc[0] <= 60


def test_an_interrupted_comparison_resumes_without_running_finished_searches(tmp_path, monkeypatch):
    store = tmp_path / "simulations"
    reference = _sim(run_comparison(SMALL, progress=False, workers=1, sim_results=str(tmp_path / "once")))
    calls = []
    search = SAT.search

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return search(*args, **kwargs)

    monkeypatch.setattr(SAT, "search", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_comparison(SMALL, progress=False, workers=1, sim_results=str(store))
    calls.clear()
    resumed = _sim(run_comparison(SMALL, progress=False, workers=1, sim_results=str(store)))
    # every design x 2 traffic patterns, 2 finished before the interruption
    assert len(calls) == 2 * len(reference) - 2
    pd.testing.assert_frame_equal(resumed, reference)
    calls.clear()
    run_comparison(SMALL, progress=False, workers=1, sim_results=str(store))
    assert calls == []


def test_one_and_two_workers_give_the_same_simulations(tmp_path):
    one = _sim(run_comparison(SMALL, progress=False, workers=1))
    two = _sim(run_comparison(SMALL, progress=False, workers=2))
    pd.testing.assert_frame_equal(one, two)
    assert one["saturation_uniform"].notna().all()


def test_scheduler_runs_the_searches_on_a_dask_cluster(tmp_path, capsys):
    distributed = pytest.importorskip("distributed", reason="Dask distributed is not installed")
    local = _sim(run_comparison(SMALL, progress=False, workers=1))
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    )
    with cluster:
        code = main(
            [
                "compare",
                "--radix", "8", "--endpoints", "20", "--families", "mlfm,oft", "--per-family", "2",
                "--simulate", "--sim-per-family", "2", "--scheduler", cluster.scheduler_address,
                "--no-report", "--json", "--no-progress",
            ]
        )  # fmt: skip
        assert code == 0
    designs = pd.DataFrame(json.loads(capsys.readouterr().out)["designs"])
    on_dask = designs.sort_values("spec")[SIM_COLUMNS].reset_index(drop=True)
    pd.testing.assert_frame_equal(on_dask, local, check_dtype=False)


@pytest.mark.parametrize(
    "args,message",
    [
        (["--workers", "0", "--simulate"], "--workers '0' is not allowed"),
        (["--scheduler", "tcp://h:1"], "parameter 'scheduler'"),
        (["--simulate", "--scheduler", "nowhere"], "address such as 'tcp://host:8786'"),
        (["--simulate", "--sim-per-family", "0"], "parameter 'sim_per_family' = 0"),
    ],
)
def test_bad_runner_arguments_are_named_before_anything_runs(args, message, capsys):
    try:
        code = main(["compare", "--radix", "8", "--endpoints", "20", "--no-report", *args])
    except SystemExit as stop:  # argparse's own checks
        code = stop.code
    assert code == 2
    err = capsys.readouterr().err
    assert message in err
    assert "measuring" not in err  # no progress display started


def test_a_failed_search_is_reported_in_the_note(monkeypatch):
    def no_bound(*args):
        raise topolab.ParameterError("no bound here")

    monkeypatch.setattr(SAT, "static_bound", no_bound)
    frame = run_comparison(SMALL, progress=False, workers=1).frame
    done = frame[frame["sim_network"].notna()]
    assert len(done) >= 2
    assert done["saturation_uniform"].isna().all() and done["saturation_worst"].isna().all()
    assert all("no bound here" in note for note in done["sim_note"])


def test_the_dragonflys_uniform_routing_uses_every_global_link_of_a_group_pair():
    # 9 groups of 8 routers with 4 global links each: 4 links between every two groups.
    # BookSim2's dragonfly_ugal takes the first of them and saturates near 0.30 (the static
    # bound of its minimal route, dragonfly_min, is 0.34); compare's choice carries 0.5
    spec = "dragonfly:a=8,h=4,p=4,g=9"
    net = topolab.build(spec)
    assert SAT.static_bound(net, "dragonfly_min", "uniform") < 0.4 < SAT.static_bound(net, "min", "uniform")
    routing = S.SIM_CHOICES["dragonfly"].uniform_routing
    vcs = S._vcs_needed(net, routing)
    result = topolab.simulate(spec, routing, "uniform", 0.5, seed=0, num_vcs=vcs, **PLAIN)
    assert not result.saturated, result


def _stand_in_search(accepted, start):
    """The search on a stand-in network that accepts ``accepted(load)``, judged as the simulator
    judges (saturated below 97% of the offered load): the search's result and the loads run."""
    loads = []

    def run(load):
        loads.append(load)
        carried = accepted(load)
        return SimpleNamespace(accepted_throughput=carried, saturated=carried < 0.97 * load)

    return SAT.search(run, start=start, tolerance=0.01, shortfall=0.03), loads


def test_a_start_far_below_the_saturation_load_is_left_in_a_few_runs():
    # the default question's DLN under randperm: static bound 0.205 (its busiest channel),
    # carried up to about 0.38 as a whole; climbing by 10% of the load each run took 10 runs
    found, loads = _stand_in_search(lambda load: min(load, 0.37), start=0.205)
    assert found["saturation_load"] <= 0.37 / 0.97 < found["saturated_load"]
    assert found["saturated_load"] - found["saturation_load"] <= 0.01 + 1e-9
    assert len(loads) <= 7, loads


def test_a_network_that_delivers_nearly_what_it_is_offered_past_saturation_is_bisected():
    # the default question's DLN under randperm: carried up to about 0.38, and overloaded it
    # still accepts about 97% of the offered load, so each saturated run's estimate lies only
    # a little below its load; following the estimates crept down 0.01 a run (19 runs here)
    found, loads = _stand_in_search(lambda load: load if load <= 0.38 else 0.965 * load, start=0.205)
    assert found["saturation_load"] <= 0.38 < found["saturated_load"]
    assert found["saturated_load"] - found["saturation_load"] <= 0.01 + 1e-9
    assert len(loads) <= 11, loads
    # an estimate that saturated and estimated less again is followed by bisection: a few
    # overloaded runs, not fourteen
    assert sum(load > 0.38 for load in loads) <= 5, loads


def test_a_carried_run_short_of_its_load_climbs_by_one_step():
    # the default question's torus under tornado: carried up to about 0.33 but accepting 1-3%
    # less than offered just below, collapsing past it; the doubled climb step overshot to
    # 0.4853 and four overloaded runs bisected back down (11 runs in all)
    def accepted(load):
        if load <= 0.31:
            return load
        if load <= 0.335:
            return load * (1 - 1.2 * (load - 0.31))
        return max(0.17, 0.3248 - 0.8 * (load - 0.335))

    found, loads = _stand_in_search(accepted, start=1.0)
    flip = 0.335  # past it, accepted falls under 97% of the load
    assert found["saturation_load"] <= flip < found["saturated_load"]
    assert found["saturated_load"] - found["saturation_load"] <= 0.01 + 1e-9
    assert len(loads) <= 7, loads
    assert sum(load > 0.34 for load in loads) == 1, loads  # only the first, at full load


def test_estimates_creeping_down_from_full_load_restart_near_the_last_estimate():
    # the default question's HammingMesh under randperm (UGAL-L): no static bound, so the
    # search starts at full load; carried up to about 0.458, overloaded it still delivers a
    # little more the more it is offered. The first two estimates crept down, and bisecting
    # [0, 0.52] went to 0.26 and climbed back in five carried runs (10 runs in all)
    def accepted(load):
        return load if load <= 0.458 else 0.445 + 0.11 * (load - 0.458)

    found, loads = _stand_in_search(accepted, start=None)
    assert found["saturation_load"] <= 0.458 < found["saturated_load"]
    assert found["saturated_load"] - found["saturation_load"] <= 0.01 + 1e-9
    assert min(loads) > 0.4, loads  # no run at half the saturated load
    assert len(loads) <= 6, loads


def test_warm_runs_find_the_saturation_of_runs_from_an_empty_network_in_fewer_cycles():
    # on request, each run above the highest carried load starts from the network that run
    # left (warmed up one period instead of three); the DLN under randperm climbs through five
    # carried loads
    point = {
        "network": "dln:routers=200,shortcuts=8,p=6",
        "routing": "min",
        "traffic": "randperm",
        "seed": 0,
        "num_vcs": 4,
        **PLAIN,
    }
    warm = SAT.saturation_point({**point, "warm_start": True})
    cold = SAT.saturation_point(point)
    assert abs(warm["saturation_load"] - cold["saturation_load"]) <= SAT.TOLERANCE, (warm, cold)
    assert warm["sim_cycles"] < 0.9 * cold["sim_cycles"], (warm["run_cycles"], cold["run_cycles"])
    # the first run starts from an empty network either way
    assert warm["run_cycles"][0] == cold["run_cycles"][0]


def test_warm_start_is_a_checked_search_parameter():
    with pytest.raises(topolab.ParameterError, match="warm_start"):
        SAT.check_saturation_point({"network": "slimfly:q=5", "warm_start": "no"})
