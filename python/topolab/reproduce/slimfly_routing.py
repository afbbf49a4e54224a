"""Besta & Hoefler, SC14, §V (Fig. 6): Slim Fly routing against Dragonfly and fat tree under
uniform, shuffle, shift and worst-case traffic.

SF-MIN, SF-VAL, SF-UGAL-L and SF-UGAL-G (§IV-A..C: topolab's ``min``, ``valiant``, ``ugal_l``,
``ugal_g``, hop-indexed VCs, §IV-D), DF-UGAL-L (``ugal_l`` on the Dragonfly) and FT-ANCA
(``fattree_anca`` on the three-level fat tree) under the four patterns of Fig. 6's panels: uniform
random (6a), shuffle and shift (6b, 6c; §V-B: bit reversal and complement were simulated but not
shown) and each family's worst case (6d, §V-C). For each pair: the latency-load curve and the
saturation load of topolab's simulator (``sweep_load``), beside the static channel-load bound of
the network run (``routing.channel_load``) and the numbers the paper gives in its text.

The router is the paper's (§V): input-queued, single-flit packets, 64 flit entries of buffering
per port in total, credit delay 2, 1-cycle channels, allocators and crossbar, internal speedup 2.
``setup_table`` lists it beside the paper's statements; the simulator keywords come from that
table (``sim_params``), so what is printed is what runs. ``router_rows`` is that router, shared
with Fig. 8 (``slimfly_buffers``, ``slimfly_oversubscribed``).

Scales (``cases.SCALES``): ``full`` the paper's networks (SF q = 19, p = 15; DF k = 27, p = 7;
FT-3 k = 44), ``default`` networks of 200-600 endpoints whose static bounds do not cap the
curves, ``quick`` (the tests) SF q = 5 with MIN and UGAL-L under uniform and worst case.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import topolab
from topolab import routing
from topolab.reproduce import Comparison, Reproduction, Setup, SetupRow
from topolab.reproduce.cases import (
    Curve,
    Execution,
    bracket,
    check_scale,
    default_execution,
    loads_around,
    network_row,
    plot_curves,
    records,
    run_curves,
    scale_of,
    setup_value,
    varied,
)

ID = "slimfly-routing"
TITLE = (
    "Besta & Hoefler, SC14, §V / Fig. 6: Slim Fly MIN, VAL, UGAL-L, UGAL-G, Dragonfly UGAL-L and fat-tree "
    "ANCA under uniform, shuffle, shift and worst-case traffic"
)
SOURCE = "Besta & Hoefler, SC14, §IV-A..D, §V-A..C, Fig. 6"

RUNS_CASES = True
# Fig. 6's networks per scale: the paper's (§V), scaled to this machine, and the tests' subset. The
# scaled Dragonfly (a = 2h = 2p, the balanced one of Kim et al.) and fat tree (pods = k/2 as the
# paper's k = 44 with 22 pods) have a uniform static bound of about 1.
NETWORKS = {
    "SF": {"full": "slimfly:q=19,p=15", "default": "slimfly:q=7", "quick": "slimfly:q=5"},
    "DF": {"full": "dragonfly:a=14,h=7,p=7", "default": "dragonfly:a=6,h=3,p=3"},
    "FT-3": {"full": "fattree:k=44,pods=22", "default": "fattree:k=16,pods=8"},
}
PAPER_NETWORKS = {
    "SF": "Slim Fly q = 19, k = 44, p = 15: 722 routers, 10,830 endpoints",
    "DF": "Dragonfly k = 27, p = 7: 1,386 routers, 9,702 endpoints",
    "FT-3": "FT-3 k = 44, p = 22: 1,452 routers, 10,648 endpoints",
}
# ANCA's choice among the up ports (§V does not state it): BookSim2's anca_fattree, the less occupied
# of two random up ports. Named in the routing so that results of the former default (select=queue,
# the least occupied of all) are not resumed as these.
ANCA_SELECT = "two_choices"
# label -> (network, routing)
ROUTINGS = {
    "SF-MIN": ("SF", "min"),
    "SF-VAL": ("SF", "valiant"),
    "SF-UGAL-L": ("SF", "ugal_l"),
    "SF-UGAL-G": ("SF", "ugal_g"),
    "DF-UGAL-L": ("DF", "ugal_l"),
    "FT-ANCA": ("FT-3", f"fattree_anca:select={ANCA_SELECT}"),
}
# The oblivious routing whose static bound stands beside an adaptive curve: its minimal paths.
MINIMAL = {"SF": "min", "DF": "min", "FT-3": "fattree_nca"}
# Fig. 6a, 6b/6c, 6d; the tests' subset.
# (Uniform and worst case first: the paper's text gives numbers for those two.)
TRAFFICS = {
    "full": ("uniform", "worst", "shuffle", "shift"),
    "default": ("uniform", "worst", "shuffle", "shift"),
    "quick": ("uniform", "worst"),
}
PANELS = {"uniform": "6a uniform", "shuffle": "6b shuffle", "shift": "6c shift", "worst": "6d worst case"}
# Saturation loads (fraction of the injection rate) the paper states in its text.
PAPER: dict[tuple[str, str], tuple[float, str]] = {
    ("SF-VAL", "uniform"): (0.5, "§V-A: VAL 'saturates at less than 50%' (an upper value)"),
    ("SF-UGAL-L", "uniform"): (0.8, "§V-A: UGAL-L 'saturation at 80% of the injection rate'"),
    ("SF-VAL", "worst"): (0.40, "§V-C: VAL supports 'up to 40%'"),
    ("SF-UGAL-L", "worst"): (0.45, "§V-C: UGAL-L supports 'up to 45%'"),
}
# Where the search starts its fine steps when no static bound is computed (full scale: the
# channel loads of 10,000 endpoints take longer than the curve): the default scale's results.
EXPECTED = {"uniform": 0.85, "shuffle": 0.6, "shift": 0.6, "worst": 0.45}
# The paper's total buffering per port (§V), split evenly among the VCs.
BUFFER_PER_PORT = 64
NUM_VCS = 4
DF_VCS = 6  # hop-indexed UGAL-L on a diameter-3 Dragonfly


def measurement_rows(scale: str) -> tuple[SetupRow, ...]:
    """Warm-up, sample periods and search resolution: not stated by the paper (§V: "warmed up
    ... to reach steady-state"). Full: BookSim2's defaults; default: one warm-up and up to four
    periods of 500 cycles (the periods after the first only narrow the confidence interval);
    quick: the tests' 300-cycle periods."""
    why, warmup, period, most, resolution = {
        "full": ("BookSim2's default", 3, 1000, 10, 0.02),
        "default": (
            "one warm-up period reaches steady state below saturation; a few minutes for the run",
            1,
            500,
            4,
            0.02,
        ),
        "quick": ("quick: short samples (what the tests run)", 1, 300, 4, 0.05),
    }[scale]
    return (
        SetupRow(
            "warm-up periods", "until steady state (§V, after Kim et al. [41])", warmup, why, "warmup_periods"
        ),
        SetupRow("sample period [cycles]", "not stated", period, why, "sample_period"),
        SetupRow("most sample periods", "not stated", most, why, "max_samples"),
        SetupRow(
            "saturation search resolution",
            "not stated (read off the figures)",
            resolution,
            "the saturation search's bracket: the highest load carried and the lowest saturated",
        ),
    )


def router_rows(
    num_vcs: Any = NUM_VCS,
    per_vc: Any = BUFFER_PER_PORT // NUM_VCS,
    buffer_paper: str = f"{BUFFER_PER_PORT} flit entries per port in total (§V, Fig. 6)",
    buffer_why: str = f"{BUFFER_PER_PORT} / {NUM_VCS} VCs: the paper's total per port",
) -> tuple[SetupRow, ...]:
    """The router of §V. ``num_vcs`` and ``per_vc`` are one value, or a tuple when the curves
    differ (``cases.varied``: Fig. 6's Dragonfly, Fig. 8a's buffer sizes)."""
    vc_why = (
        "§IV-D's hop-indexed VCs need one VC class per hop of the longest path: Slim Fly VAL and "
        "UGAL paths have up to 4 hops, and with 3 VCs they are not deadlock-free; 4 for every "
        "Slim Fly routing keeps one setup (MIN uses 2 VCs per class)"
    )
    if isinstance(num_vcs, tuple):
        vc_why += "; the Dragonfly's UGAL-L paths have up to 6 hops (diameter 3): 6 VCs"
    return (
        SetupRow("router", "input-queued (§V)", "iq", "", "router"),
        SetupRow("injection", "Bernoulli process (§V)", "Bernoulli", ""),
        SetupRow("packet size [flits]", "1: single-flit packets (§V)", 1, "", "packet_size"),
        SetupRow(
            "virtual channels per port",
            "3 'for each simulation' (§V); 2 for MIN, 4 for adaptive routing (§IV-D)",
            num_vcs,
            vc_why,
            "num_vcs",
        ),
        SetupRow("buffer per VC [flits]", buffer_paper, per_vc, buffer_why, "vc_buf_size"),
        SetupRow("credit delay [cycles]", "2 (§V)", 2, "", "credit_delay"),
        SetupRow("channel latency [cycles]", "1 (§V)", 1, "", "channel_latency"),
        SetupRow("VC allocation delay [cycles]", "1 (§V)", 1, "", "vc_alloc_delay"),
        SetupRow("switch allocation delay [cycles]", "1 (§V)", 1, "", "sw_alloc_delay"),
        SetupRow("crossbar delay [cycles]", "1 (§V)", 1, "", "st_final_delay"),
        SetupRow("internal speedup", "2 (§V)", 2.0, "", "internal_speedup"),
        SetupRow("input speedup", "1 (§V)", 1, "", "input_speedup"),
        SetupRow("output speedup", "1 (§V)", 1, "", "output_speedup"),
    )


def _scale_networks(scale: str) -> dict[str, str]:
    return {fam: specs[scale] for fam, specs in NETWORKS.items() if scale in specs}


def setup_table(scale: str = "default") -> tuple[SetupRow, ...]:
    """The paper's setup (§V) beside the one run at ``scale`` (quick, default, full); rows with
    ``sim_param`` are passed to the simulator as they are."""
    nets = _scale_networks(check_scale(scale))
    paper = "; ".join(PAPER_NETWORKS[f] for f in nets) + " (§V)"
    router = (
        router_rows()
        if "DF" not in nets
        else router_rows(
            varied(NUM_VCS, DF_VCS),
            varied(BUFFER_PER_PORT // NUM_VCS, BUFFER_PER_PORT // DF_VCS),
            buffer_why=f"{BUFFER_PER_PORT} / the VCs, rounded down: the paper's total per port",
        )
    )
    anca = (
        (
            SetupRow(
                "fat-tree ANCA up-port choice",
                "ANCA of Gómez et al. [33], the choice among up ports not stated (§V)",
                ANCA_SELECT,
                "BookSim2's anca_fattree: the less occupied of two random up ports. §V's router "
                "parameters are BookSim2's options and its FT-3 (k = 44, p = 22) is BookSim2's k-ary "
                "n-tree with k = 22, n = 3. The least occupied of all up ports (select=queue) herds: "
                "uniform traffic saturates at 0.79 on the k = 44 tree (docs/reproduce.md)",
            ),
        )
        if "FT-3" in nets
        else ()
    )
    return (
        network_row(paper, list(nets.values()), scale == "full"),
        *router,
        *anca,
        *measurement_rows(scale),
    )


def _labels(scale: str) -> tuple[str, ...]:
    nets = _scale_networks(scale)
    # quick: the Slim Fly's minimal and UGAL-L routing only.
    chosen = ("SF-MIN", "SF-UGAL-L") if scale == "quick" else tuple(ROUTINGS)
    return tuple(label for label in chosen if ROUTINGS[label][0] in nets)


def _bounds(scale: str, built: Optional[dict] = None) -> dict[tuple[str, str], Optional[float]]:
    """(label, traffic) -> the static bound beside the curve: the routing's own for MIN and VAL,
    the minimal routing's for the adaptive ones. At full scale Valiant's is not computed (minutes
    per pattern on 10,000 endpoints; the minimal ones take 11 CPU-s in all)."""
    if built is None:
        built = {fam: topolab.build(spec) for fam, spec in _scale_networks(scale).items()}
    out: dict[tuple[str, str], Optional[float]] = {}
    for label in _labels(scale):
        fam, rname = ROUTINGS[label]
        oblivious = rname if rname in ("min", "valiant") else MINIMAL[fam]
        skip = scale == "full" and oblivious == "valiant"
        for t in TRAFFICS[scale]:
            load = None if skip else routing.channel_load(built[fam], oblivious, traffic=t)
            out[label, t] = None if load is None else load.throughput_bound
    return out


def curves(scale: str = "default", bounds: Optional[dict] = None) -> list[Curve]:
    """Fig. 6's curves at ``scale``; the loads of each search start their fine steps 0.1 below
    the static bound (adaptive routings: the larger of the minimal and Valiant bounds of the
    network, which UGAL combines), or the default scale's saturation at full scale."""
    scale = check_scale(scale)
    bounds = _bounds(scale) if bounds is None else bounds
    nets = _scale_networks(scale)
    traffics = TRAFFICS[scale]
    out = []
    for t in traffics:
        for label in _labels(scale):
            fam, rname = ROUTINGS[label]
            # At full scale the loads start from the default scale's results whatever the bounds,
            # so that a stored full-size run resumes (its points are keyed by their loads).
            center = None if scale == "full" else bounds.get((label, t))
            if rname not in ("min", "valiant") and fam == "SF" and center is not None:
                val = bounds.get(("SF-VAL", t))
                center = max(center, val) if val is not None else center
            center = EXPECTED[t] if center is None else min(center, 1.0)
            vcs = DF_VCS if fam == "DF" else NUM_VCS
            own = (("num_vcs", vcs), ("vc_buf_size", BUFFER_PER_PORT // vcs)) if "DF" in nets else ()
            out.append(
                Curve(label, nets[fam], rname, t, loads=loads_around(center), params=own, panel=PANELS[t])
            )
    return out


def run(quick: bool = False, *, full: bool = False, execution: Optional[Execution] = None) -> Reproduction:
    scale = scale_of(quick, full)
    table = setup_table(scale)
    nets = {fam: topolab.build(spec) for fam, spec in _scale_networks(scale).items()}
    bounds = _bounds(scale, nets)
    tolerance = setup_value(table, "saturation search resolution")
    measured = run_curves(ID, curves(scale, bounds), table, tolerance, default_execution(scale, execution))
    p = max(nets["SF"].endpoints)
    rows: list[Comparison] = []
    for m in measured:
        curve = m["curve"]
        fam, rname = ROUTINGS[curve.label]
        paper, note = PAPER.get((curve.label, curve.traffic), (None, ""))
        bound = bounds.get((curve.label, curve.traffic))
        if rname not in ("min", "valiant"):
            # On the Slim Fly the MIN and VAL rows beside it show both path sets' bounds; the
            # Dragonfly's and fat tree's only row shows their minimal routing's.
            bound = None if fam == "SF" else bound
            adaptive = (
                "adaptive: no static bound" if fam == "SF" else f"bound: {MINIMAL[fam]}'s on this network"
            )
            note = f"{note}; {adaptive}" if note else adaptive
        rows.append(
            Comparison(
                curve.traffic,
                f"{curve.label} saturation load",
                paper,
                m["saturation_load"],
                note=note,
                bound=bound,
                interval=bracket(m),
            )
        )
        if curve.traffic == "worst" and curve.label == "SF-MIN":
            rows.append(
                Comparison(
                    curve.traffic,
                    "SF-MIN bound, 1/(2p) (Kathareios et al., SC15, §4.2's pattern) vs the paper's 1/(p + 1)",
                    1.0 / (p + 1),
                    1.0 / (2 * p),
                    note=(
                        "topolab's 'worst' is Kathareios et al., SC15, §4.2's greedy pairing (2p flows "
                        "on a link); Besta & Hoefler §V-C state 1/(p + 1) for their Fig. 9 pattern"
                    ),
                )
            )
    details = "; ".join(
        f"{fam} {net.num_routers} routers, p = {max(net.endpoints)}, {net.num_endpoints} endpoints"
        for fam, net in nets.items()
    )
    first_notes = (
        (
            "the paper's sizes"
            if scale == "full"
            else "scaled down from the paper's SF q = 19 (10,830 endpoints), DF k = 27 (9,702), FT-3 k = 44 "
            "(10,648) to fit this machine"
        )
        + ("; quick mode: Slim Fly MIN and UGAL-L, two patterns, short samples" if scale == "quick" else ""),
        "SF-MIN is topolab's 'min' (random among minimal next hops; Slim Fly minimal paths are "
        "nearly always unique, §IV-A); UGAL-L/G take n = 4 Valiant candidates (§IV-C)",
    )
    setups = tuple(
        Setup(
            traffic,
            NETWORKS["SF"][scale],
            f"traffic '{traffic}' (Fig. {PANELS[traffic]}); {details}",
            first_notes if i == 0 else (),
        )
        for i, traffic in enumerate(dict.fromkeys(m["curve"].traffic for m in measured))
    )
    notes = (
        "shuffle and the paper's shift use the largest power-of-two prefix of the endpoints; the "
        "others are idle (§V-B), and a run counts as saturated when it accepts less than the sending "
        "endpoints offer",
        "'worst' is each family's worst case: Slim Fly Kathareios et al., SC15, §4.2 (greedy pairing), "
        "Dragonfly Kim et al.'s group i to group i + 1, fat tree every packet through the core (§V-C)",
        "the paper reads Fig. 6 off plots: only the saturation loads in its text are compared; the "
        "latency-load curves are in the data file and the plot",
        "bound: the static channel-load throughput bound on the network run (max channel load of the "
        "oblivious routing's paths on this traffic, no simulation); for DF-UGAL-L and FT-ANCA that "
        "of the minimal routing (dragonfly min, fattree_nca)"
        + ("; at full scale Valiant's is not computed" if scale == "full" else ""),
    )
    return Reproduction(
        id=ID,
        title=TITLE,
        source=SOURCE,
        rows=tuple(rows),
        setups=setups,
        notes=notes,
        data=tuple(records(measured)),
        quick=quick,
        setup_table=table,
    )


def plot(rep: Reproduction, path: Path) -> None:
    plot_curves(
        rep.data,
        path,
        "Besta & Hoefler, SC14, Fig. 6" + ("" if rep.quick else " (scaled down)"),
    )
