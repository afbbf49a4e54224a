"""The saturation search of ``topolab compare --simulate`` (docs/compare.md §5): the highest
offered load a network carries under a routing and a traffic pattern, found in a few runs.

1. **Start at the static bound.** For an oblivious routing no load above the channel-load bound
   (the load at which the busiest channel carries one flit per cycle, ``routing.channel_load``)
   can be carried, and the simulated saturation lies just below it. Adaptive routings have no
   static load; they start at the larger bound of minimal and Valiant routing, between which
   UGAL chooses (Valiant's loads as the minimal loads of its two phases, docs/routing.md,
   "Channel load": under adversarial traffic the minimal bound alone started the Xpander's
   and the Dragonfly+'s searches at 0.06 and 0.04, six cheap runs below where they saturate).
   The first run is at that bound (at most 1). Where the bound would cost more
   than a run (more than ``STATIC_BOUND_MAX_PAIRS`` router pairs with traffic, more than
   ``STATIC_BOUND_MAX_PATHS`` paths, or the adaptive fallback on more than
   ``ADAPTIVE_BOUND_MAX_ROUTERS`` routers) the search starts at full load instead. Under a
   permutation the busiest channel's few flows saturate long before the whole network falls
   short of the offered load (a DLN under ``randperm``: bound 0.205, 0.380 carried): a start
   that is carried climbs by 10% of the load and then twice as far each run.
2. **Stop each run once its verdict is clear** (the simulator's ``early_verdict`` option,
   docs/simulator.md: clearly saturated or clearly stable after a measured period, stated in
   the run's ``early_verdict``); runs whose verdict is not clear go on by the usual rules.
3. **Estimate, then bracket** (topolab-sim's ``saturation.rs``, the one saturation search,
   which ``topolab sim --sweep`` also runs past its list of loads). A saturated run's accepted
   throughput A is what the network delivers when overloaded. A run counts as carried while
   it accepts at least (1 - saturation_tolerance) x the offered load, so a network that keeps
   delivering A past its saturation is judged carried up to A / (1 - saturation_tolerance):
   the next run is there (kept inside the bracket), then the bracket [highest load not
   saturated, lowest load saturated] is closed until it is ``tolerance`` wide. What each
   rule of that file cost or saved on the default question:

   - a carried run that accepted less than (1 - ``saturation_tolerance`` / 2) x its load
     starts the climb again from one step of ``tolerance``: the default question's torus
     under ``tornado`` was carried at 0.3297 accepting 97.8%, saturated at 0.3397, and the
     doubled step had gone to 0.4897 and bisected back down in four overloaded runs;
   - estimates creeping down (each overloaded run's estimate a little below its load) are
     bisected instead of followed: following them, the default question's DLN under
     ``randperm`` (97% of the offered load delivered) took nine saturated runs from 0.51 down
     to 0.38. Before any load was carried the next run is at ``CREEPING_RESTART`` = 0.9
     (saturation.rs) of the new estimate instead: the default question's five such searches
     (HammingMesh and BDF under ``randperm``, the mesh and the Dragonfly under uniform
     traffic, the Dragonfly under its worst case) saturated at 0.91-0.99 of that estimate,
     where the middle of [0, saturated load] was 0.52-0.61 of it and climbing back cost 3-5
     runs;
   - a network whose throughput collapses past saturation delivers less than it carried, so
     every estimate from a far overloaded run undershoots: bisecting down from such a run
     cost the default question's 7x9x9x9 mesh under tornado traffic 11 runs, four of them
     overloaded (accepting 0.16-0.21 against 0.22 carried), where the climb needs no
     overloaded run but the first.

4. **Warm starts, on request** (``warm_start = true``). A run above the highest load carried
   so far starts from the network that run left (``_core.SearchSession``; docs/simulator.md,
   "Warm starts"), warmed up for ``warm_start_periods`` = 1 sample period instead of
   ``warmup_periods`` = 3. Off by default: in the default question they saved 3% of the CPU
   time and, measuring networks nearer their steady state than a cold run's 600-cycle warm-up
   does, judged the Xpander and the Jellyfish under uniform traffic saturated 0.026 and 0.015
   lower than runs from an empty network, past what the exhaustive bisection of cold runs can
   be compared with. Either way the network is wired once per search.

Each search is one point of the experiment kind ``saturation`` (``saturation_point``), so that
``topolab compare`` runs its searches through the experiment runner (every local core, or a
Dask cluster) and a results store resumes them.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from topolab import _core
from topolab.defaults import DEFAULT_SEED

# The search stops when the highest load not saturated and the lowest saturated are this close;
# the saturation load is then known to within this.
TOLERANCE = 0.01
# Routings without a static channel load (decided from queue occupancy at run time) start at the
# larger bound of these two, the routes UGAL chooses between.
ADAPTIVE_BOUNDS = ("min", "valiant")
# A point's parameters other than these are simulator parameters (docs/simulator.md).
SEARCH_KEYS = ("network", "routing", "traffic", "seed", "tolerance", "warm_start", "failures")
# The static bound lists the paths of every router pair with traffic (uniform traffic: every
# pair; a permutation: one per endpoint), Valiant's over every intermediate. Past these limits
# it would cost more than the run it may save (an overloaded run of 800 cycles at 10,000
# endpoints costs 15-60 CPU-s), so the search starts at full load, whose overloaded run gives
# the estimate all the same. Uniform traffic on 2,000 routers is 4 million pairs (28 CPU-s for
# minimal routing on a 2,448-router SpectralFly); tornado traffic on the default question's
# 5,103-router mesh is 5,103 pairs, one path each with `dor` (its bound, 0.75, took 0.05 CPU-s
# where the run at full load it replaces took about 30).
STATIC_BOUND_MAX_PAIRS = 4_000_000
STATIC_BOUND_MAX_PATHS = 10_000_000
# The fallback of adaptive routings: Valiant's two phases load every router pair (n^2 pairs).
ADAPTIVE_BOUND_MAX_ROUTERS = 1000

Run = Callable[[float], Any]


def static_bound(net: Any, routing: str, traffic: str) -> float | None:
    """The channel-load throughput bound of ``routing`` under ``traffic`` (flits per endpoint
    per cycle), the larger one of minimal and Valiant routing for a routing without a static
    load, None when neither can be computed or it would cost more than a run
    (``STATIC_BOUND_MAX_PAIRS``, ``STATIC_BOUND_MAX_PATHS``, ``ADAPTIVE_BOUND_MAX_ROUTERS``)."""
    from topolab.routing import channel_load

    def bound(name: str) -> float | None:
        # Valiant's loads are the minimal loads of its two phases: the same figure without a
        # path per intermediate and pair (more than STATIC_BOUND_MAX_PATHS on compare's designs)
        phases = name == "valiant"
        try:
            found = channel_load(
                net,
                "min" if phases else name,
                traffic=traffic,
                progress=False,
                max_pairs=STATIC_BOUND_MAX_PAIRS,
                max_paths=STATIC_BOUND_MAX_PATHS,
                valiant_phases=phases,
            )
        except (_core.ParameterError, _core.TopolabError):
            return None
        return float(found.throughput_bound)

    own = bound(routing)
    if own is not None or net.num_routers > ADAPTIVE_BOUND_MAX_ROUTERS:
        return own
    found = [b for b in map(bound, ADAPTIVE_BOUNDS) if b is not None]
    return max(found) if found else None


def search(
    run: Run, start: float | None, tolerance: float = TOLERANCE, shortfall: float = 0.0
) -> dict[str, Any]:
    """The saturation load by the runs of ``run(load)`` (a result with ``saturated`` and
    ``accepted_throughput``), starting at ``start`` (the static bound; None: 1), by the one
    saturation search (topolab-sim ``saturation.rs``, module docstring step 3). ``shortfall`` is
    the relative shortfall of the accepted throughput a carried run may have (the simulator's
    ``saturation_tolerance``). Returns ``saturation_load`` (highest load not saturated, 0 when
    even ``tolerance`` saturates), ``saturated_load`` (lowest load saturated, None when 1 is
    carried) and ``runs``: (load, result) by increasing load, one per load."""
    results: dict[float, Any] = {}

    def judged(load: float) -> Any:
        result = results[load] = run(load)
        return result

    saturation_load, saturated_load = _core.saturation_search(judged, start, tolerance, shortfall)
    return {
        "saturation_load": saturation_load,
        "saturated_load": saturated_load,
        "runs": sorted(results.items()),
    }


def exhaustive_saturation(
    network: str,
    routing: str,
    traffic: str,
    seed: int = DEFAULT_SEED,
    step: float = 0.05,
    resolution: float = 0.005,
    **router_params: Any,
) -> dict[str, Any]:
    """The reference the search is checked against (tests/test_compare_saturation.py,
    scripts/saturation_sample.py): plain runs of the simulator (its own measurement, no early
    verdict, each from an empty network) at every load from ``step`` in steps of ``step`` up to
    the first saturated one, then bisection of that step down to ``resolution``. Returns
    ``saturation_load`` (the highest load carried, 0 when the first step saturates),
    ``saturated_load`` (the lowest saturated, None when full load is carried) and ``runs``."""
    from topolab.sim import simulate

    if not 0.0 < step <= 1.0:
        raise ValueError(f"step = {step!r}: the load step must be above 0 and at most 1")
    if not 0.0 < resolution <= step:
        raise ValueError(f"resolution = {resolution!r}: must be above 0 and at most step = {step!r}")
    runs = 0

    def saturated(load: float) -> bool:
        nonlocal runs
        runs += 1
        return bool(simulate(network, routing, traffic, load, seed=seed, **router_params).saturated)

    lo, hi = 0.0, None
    for i in range(1, math.floor(1.0 / step + 1e-9) + 1):
        load = round(step * i, 6)
        if saturated(load):
            hi = load
            break
        lo = load
    while hi is not None and hi - lo > resolution:
        mid = (lo + hi) / 2
        if saturated(mid):
            hi = mid
        else:
            lo = mid
    return {"saturation_load": lo, "saturated_load": hi, "runs": runs}


def saturation_point(params: dict[str, Any]) -> dict[str, Any]:
    """One experiment point of kind "saturation": the search above on ``network`` (a spec) with
    ``routing``, ``traffic``, ``seed``, ``tolerance``, ``warm_start`` (default false: every
    run from an empty network; true: step 4) and ``failures`` (a failure spec: the search runs on
    the network that survives it, docs/resilience.md); every other key is a simulator parameter
    (``early_verdict`` is always on). Results: ``saturation_load``, ``saturated_load``,
    ``static_bound``, ``runs``, ``sim_cycles``, ``sim_seconds`` and per run by increasing load
    ``offered_load``, ``run_cycles``, ``accepted_throughput``, ``avg_latency``, ``early_verdict``,
    ``accepted_throughput_halfwidth`` and ``avg_latency_halfwidth`` (the 95% half-widths by batch
    means, None for a run that measured fewer than two periods);
    with ``failures`` also ``failed_cables``, ``failed_routers``, ``surviving_endpoints``,
    ``endpoints_before``, ``excluded_pair_fraction``."""
    from topolab.network import build
    from topolab.sim import SimResult, half_width

    net = build(str(params["network"]))
    lost = None
    if params.get("failures") is not None:
        from topolab.failures import apply_failures

        lost = apply_failures(net, params["failures"])
        net = lost.network
    if lost is not None and "num_vcs" not in params:
        from topolab.design.simulate import _vcs_needed

        # failures lengthen paths: hop-indexed VCs need one class per hop of the degraded graph
        params = {**params, "num_vcs": _vcs_needed(net, str(params.get("routing", "min")))}
    routing = str(params.get("routing", "min"))
    traffic = str(params.get("traffic", "uniform"))
    seed = params.get("seed", DEFAULT_SEED)
    sim_params = {k: v for k, v in params.items() if k not in SEARCH_KEYS}
    sim_params["early_verdict"] = True
    bound = static_bound(net, routing, traffic)
    shortfall = float(sim_params.get("saturation_tolerance", _sim_default("saturation_tolerance")))

    warm = params.get("warm_start", False)
    session = _core.SearchSession(net._net, routing, traffic, seed=seed, params=sim_params, warm_starts=warm)

    def run(load: float) -> Any:
        return SimResult._from_core(session.run(load))

    found = search(run, bound, params.get("tolerance", TOLERANCE), shortfall)
    results = [r for _, r in found["runs"]]
    lost_columns = (
        {}
        if lost is None
        else {
            "failed_cables": lost.failed_cables,
            "failed_routers": len(lost.failed_routers),
            "surviving_endpoints": lost.surviving_endpoints,
            "endpoints_before": lost.endpoints_before,
            "excluded_pair_fraction": lost.excluded_pair_fraction,
            "num_vcs": sim_params["num_vcs"] if "num_vcs" in sim_params else None,
        }
    )
    return {
        **lost_columns,
        "saturation_load": found["saturation_load"],
        "saturated_load": found["saturated_load"],
        "static_bound": bound,
        "runs": len(results),
        "sim_cycles": sum(r.cycles for r in results),
        "run_cycles": [r.cycles for r in results],
        "sim_seconds": sum(r.wall_seconds for r in results),
        "offered_load": [load for load, _ in found["runs"]],
        "accepted_throughput": [_finite(r.accepted_throughput) for r in results],
        "avg_latency": [_finite(r.avg_latency) for r in results],
        "early_verdict": [r.early_verdict for r in results],
        "accepted_throughput_halfwidth": [half_width(r.accepted_throughput_ci95) for r in results],
        "avg_latency_halfwidth": [half_width(r.avg_latency_ci95) for r in results],
    }


def check_saturation_point(params: dict[str, Any]) -> None:
    """Before any point runs: the tolerance, the seed, warm_start and the simulator parameters."""
    from topolab._args import bool_arg

    # warm_start's type; the core checks it again when the point runs
    bool_arg("saturation", "warm_start", params.get("warm_start", False))
    _core.check_sim_params(
        {k: v for k, v in params.items() if k not in SEARCH_KEYS},
        seed=params.get("seed", DEFAULT_SEED),
        tolerance=params.get("tolerance", TOLERANCE),
    )


def _sim_default(name: str) -> str:
    return next(p["default"] for p in _core.sim_params() if p["name"] == name)


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None
