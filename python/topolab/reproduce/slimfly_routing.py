"""Besta & Hoefler, SC14, §V (Fig. 6): Slim Fly routing under uniform, shift, bit-permutation
and worst-case traffic.

SF-MIN, SF-VAL, SF-UGAL-L and SF-UGAL-G (§IV-A..C: topolab's ``min``, ``valiant``, ``ugal_l``,
``ugal_g``, hop-indexed VCs, §IV-D) under uniform random, shift (§V-B), bit complement, bit
reversal, shuffle and the Slim Fly worst case (§V-C). For each pair: the latency-load curve and
the saturation load of topolab's simulator (``sweep_load``: 0.1 steps up to the first saturated
load, then bisection), beside the static channel-load bound of the oblivious routings on the
network run (``routing.channel_load``) and the numbers the paper gives in its text.

The router is the paper's (§V): input-queued, single-flit packets, 64 flit entries of buffering
per port in total, credit delay 2, 1-cycle channels, allocators and crossbar, internal speedup
2. ``setup_table`` lists it beside the paper's statements; the simulator keywords come from
that table (``sim_params``), so what is printed is what runs.

Scaled down: the paper simulates a Slim Fly with q = 19, p = 15 (722 routers, 10,830
endpoints); this reproduction runs q = 7 (98 routers, p = 6, 588 endpoints), ``quick`` q = 5
(50 routers, p = 4), two routings and two patterns with shorter samples. The paper reads its
curves off figures; the only numbers in its text are VAL's saturation below 50% and UGAL-L's
at 80% under uniform traffic, and 40% (VAL) and 45% (UGAL-L) under its worst case, where MIN is
limited to 1/(p + 1).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import topolab
from topolab import routing
from topolab.reproduce import Comparison, Reproduction, Setup, SetupRow
from topolab.reproduce.cases import Curve, Execution, check_scale, plot_curves, run_curves, setup_value

ID = "slimfly-routing"
TITLE = (
    "Besta & Hoefler, SC14, §V / Fig. 6: Slim Fly MIN, VAL, UGAL-L, UGAL-G under uniform, shift, "
    "bit permutations, worst case"
)
SOURCE = "Besta & Hoefler, SC14, §IV-A..D, §V-A..C, Fig. 6"

RUNS_CASES = True
# Network per scale: the paper's (§V), scaled to this machine, and the tests' subset.
SPECS = {"full": "slimfly:q=19,p=15", "default": "slimfly:q=7", "quick": "slimfly:q=5"}
ROUTINGS = {"SF-MIN": "min", "SF-VAL": "valiant", "SF-UGAL-L": "ugal_l", "SF-UGAL-G": "ugal_g"}
QUICK_ROUTINGS = ("SF-MIN", "SF-UGAL-L")
TRAFFICS = ("uniform", "shift", "bitcomp", "bitrev", "shuffle", "worst")
QUICK_TRAFFICS = ("uniform", "worst")
# Saturation loads (fraction of the injection rate) the paper states in its text.
PAPER: dict[tuple[str, str], tuple[float, str]] = {
    ("SF-VAL", "uniform"): (0.5, "§V-A: VAL 'saturates at less than 50%' (an upper value)"),
    ("SF-UGAL-L", "uniform"): (0.8, "§V-A: UGAL-L 'saturation at 80% of the injection rate'"),
    ("SF-VAL", "worst"): (0.40, "§V-C: VAL supports 'up to 40%'"),
    ("SF-UGAL-L", "worst"): (0.45, "§V-C: UGAL-L supports 'up to 45%'"),
}
# The paper's total buffering per port (§V), split evenly among the VCs.
BUFFER_PER_PORT = 64
NUM_VCS = 4


def setup_table(scale: str = "default") -> tuple[SetupRow, ...]:
    """The paper's setup (§V) beside the one run at ``scale`` (quick, default, full); rows with
    ``sim_param`` are passed to the simulator as they are."""
    quick = check_scale(scale) == "quick"
    spec = SPECS[scale]
    net = topolab.build(spec)
    # (warm-up periods, sample period, most periods, why): BookSim2's defaults, or the tests' short
    # samples.
    short = (1, 300, 4, "quick: short samples (what the tests run)")
    warmup, period, most, why = short if quick else (3, 1000, 10, "BookSim2's default")
    measure = (
        SetupRow(
            "warm-up periods", "until steady state (§V, after Kim et al. [41])", warmup, why, "warmup_periods"
        ),
        SetupRow("sample period [cycles]", "not stated", period, why, "sample_period"),
        SetupRow("most sample periods", "not stated", most, why, "max_samples"),
    )
    return (
        SetupRow(
            "network",
            "Slim Fly q = 19, p = 15: 722 routers, 10,830 endpoints (§V)",
            f"{spec}: {net.num_routers} routers, p = {max(net.endpoints)}, {net.num_endpoints} endpoints",
            "-"
            if scale == "full"
            else "scaled down to fit this machine's two cores; p is the family's balanced concentration",
        ),
        SetupRow("router", "input-queued (§V)", "iq", "", "router"),
        SetupRow("injection", "Bernoulli process (§V)", "Bernoulli", ""),
        SetupRow("packet size [flits]", "1: single-flit packets (§V)", 1, "", "packet_size"),
        SetupRow(
            "virtual channels per port",
            "3 'for each simulation' (§V); 2 for MIN, 4 for adaptive routing (§IV-D)",
            NUM_VCS,
            "§IV-D's hop-indexed VCs need one VC class per hop of the longest path: VAL and "
            "UGAL paths have up to 4 hops, and with 3 VCs they are not deadlock-free; 4 for every "
            "routing keeps one setup for the whole figure (MIN uses 2 VCs per class)",
            "num_vcs",
        ),
        SetupRow(
            "buffer per VC [flits]",
            f"{BUFFER_PER_PORT} flit entries per port in total (§V, Fig. 6)",
            BUFFER_PER_PORT // NUM_VCS,
            f"{BUFFER_PER_PORT} / {NUM_VCS} VCs: the paper's total per port",
            "vc_buf_size",
        ),
        SetupRow("credit delay [cycles]", "2 (§V)", 2, "", "credit_delay"),
        SetupRow("channel latency [cycles]", "1 (§V)", 1, "", "channel_latency"),
        SetupRow("VC allocation delay [cycles]", "1 (§V)", 1, "", "vc_alloc_delay"),
        SetupRow("switch allocation delay [cycles]", "1 (§V)", 1, "", "sw_alloc_delay"),
        SetupRow("crossbar delay [cycles]", "1 (§V)", 1, "", "st_final_delay"),
        SetupRow("internal speedup", "2 (§V)", 2.0, "", "internal_speedup"),
        SetupRow("input speedup", "1 (§V)", 1, "", "input_speedup"),
        SetupRow("output speedup", "1 (§V)", 1, "", "output_speedup"),
        *measure,
        SetupRow(
            "saturation search resolution",
            "not stated (read off Fig. 6)",
            0.05 if quick else 0.02,
            "bisection between the highest load not saturated and the lowest saturated",
        ),
    )


def _bound(net: topolab.Network, rname: str, traffic: str) -> Optional[float]:
    """Static throughput bound of an oblivious routing on this traffic (None for UGAL)."""
    if rname.startswith("ugal"):
        return None
    return routing.channel_load(net, rname, traffic=traffic).throughput_bound


def curves(scale: str = "default") -> list[Curve]:
    """Fig. 6's Slim Fly curves at ``scale``: every routing under every pattern (quick: MIN and
    UGAL-L under uniform and worst-case traffic)."""
    quick = check_scale(scale) == "quick"
    names = QUICK_ROUTINGS if quick else tuple(ROUTINGS)
    traffics = QUICK_TRAFFICS if quick else TRAFFICS
    return [Curve(label, SPECS[scale], ROUTINGS[label], t) for t in traffics for label in names]


def run(quick: bool = False, *, full: bool = False, execution: Optional[Execution] = None) -> Reproduction:
    scale = "quick" if quick else "full" if full else "default"
    table = setup_table(scale)
    spec = SPECS[scale]
    net = topolab.build(spec)
    p = max(net.endpoints)
    tolerance = setup_value(table, "saturation search resolution")
    measured = run_curves(ID, curves(scale), table, tolerance, execution or Execution())
    traffics = list(dict.fromkeys(m["curve"].traffic for m in measured))
    rows: list[Comparison] = []
    data: list[dict[str, Any]] = []
    for m in measured:
        curve = m["curve"]
        data.extend({"routing": curve.label, "traffic": curve.traffic, **pt} for pt in m["points"])
        paper, note = PAPER.get((curve.label, curve.traffic), (None, ""))
        bound = _bound(net, curve.routing, curve.traffic)
        if bound is None:
            adaptive = "adaptive: no static bound (MIN's and VAL's bound its two path sets)"
            note = f"{note}; {adaptive}" if note else adaptive
        rows.append(
            Comparison(
                curve.traffic,
                f"{curve.label} saturation load",
                paper,
                m["saturation_load"],
                note=note,
                bound=bound,
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
    details = (
        f"{net.num_routers} routers, p = {p}, {net.num_endpoints} endpoints; the paper's router (setup table)"
    )
    first_notes = (
        (
            "the paper's size"
            if scale == "full"
            else "scaled down from the paper's q = 19, p = 15 (722 routers, 10,830 endpoints) "
            "to fit this machine"
        )
        + ("; quick mode: two routings, two patterns, short samples" if scale == "quick" else ""),
        "SF-MIN is topolab's 'min' (random among minimal next hops; Slim Fly minimal paths are "
        "nearly always unique, §IV-A); UGAL-L/G take n = 4 Valiant candidates (§IV-C)",
    )
    setups = tuple(
        Setup(traffic, spec, f"traffic '{traffic}'; {details}", first_notes if i == 0 else ())
        for i, traffic in enumerate(traffics)
    )
    notes = (
        "bit permutations (bitcomp, bitrev, shuffle) and the paper's shift use the largest power-of-two "
        "prefix of the endpoints; the others are idle (§V-B), and a run counts as saturated when it "
        "accepts less than the sending endpoints offer",
        "the paper reads Fig. 6 off plots: only the saturation loads in its text are compared; the "
        "latency-load curves are in the data file and the plot",
        "bound: the routing's static channel-load throughput bound on the network run (max channel "
        "load of its paths on this traffic, no simulation)",
    )
    return Reproduction(
        id=ID,
        title=TITLE,
        source=SOURCE,
        rows=tuple(rows),
        setups=setups,
        notes=notes,
        data=tuple(data),
        quick=quick,
        setup_table=table,
    )


def plot(rep: Reproduction, path: Path) -> None:
    plot_curves(
        rep.data,
        path,
        "Slim Fly routing (Besta & Hoefler, SC14, Fig. 6)" + ("" if rep.quick else ", scaled down"),
    )
