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
from topolab.reproduce import Comparison, Reproduction, Setup, SetupRow, sim_params

ID = "slimfly-routing"
TITLE = (
    "Besta & Hoefler SC14 §V / Fig. 6: Slim Fly MIN, VAL, UGAL-L, UGAL-G under uniform, shift, "
    "bit permutations, worst case"
)
SOURCE = "Besta & Hoefler, SC14, §IV-A..D, §V-A..C, Fig. 6"

SPEC = "slimfly:q=7"
QUICK_SPEC = "slimfly:q=5"
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


def setup_table(quick: bool = False) -> tuple[SetupRow, ...]:
    """The paper's setup (§V) beside the one run; rows with ``sim_param`` are passed to the
    simulator as they are."""
    spec = QUICK_SPEC if quick else SPEC
    net = topolab.build(spec)
    measure: tuple[SetupRow, ...]
    if quick:
        measure = (
            SetupRow(
                "warm-up periods",
                "until steady state (§V, after Kim et al. [41])",
                1,
                "quick: one period of 300 cycles (what the tests run)",
                "warmup_periods",
            ),
            SetupRow("sample period [cycles]", "not stated", 300, "quick: short samples", "sample_period"),
            SetupRow("most sample periods", "not stated", 4, "quick: short samples", "max_samples"),
        )
    else:
        measure = (
            SetupRow(
                "warm-up periods",
                "until steady state (§V, after Kim et al. [41])",
                3,
                "BookSim2's default warm-up of 3 x 1,000 cycles",
                "warmup_periods",
            ),
            SetupRow("sample period [cycles]", "not stated", 1000, "BookSim2's default", "sample_period"),
            SetupRow("most sample periods", "not stated", 10, "BookSim2's default", "max_samples"),
        )
    return (
        SetupRow(
            "network",
            "Slim Fly q = 19, p = 15: 722 routers, 10,830 endpoints (§V)",
            f"{spec}: {net.num_routers} routers, p = {max(net.endpoints)}, {net.num_endpoints} endpoints",
            "scaled down to fit this machine's two cores; p is the family's balanced concentration",
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


def run(quick: bool = False) -> Reproduction:
    table = setup_table(quick)
    spec = QUICK_SPEC if quick else SPEC
    net = topolab.build(spec)
    p = max(net.endpoints)
    names = QUICK_ROUTINGS if quick else tuple(ROUTINGS)
    traffics = QUICK_TRAFFICS if quick else TRAFFICS
    params = sim_params(table)
    tolerance = next(r.topolab for r in table if r.parameter == "saturation search resolution")
    rows: list[Comparison] = []
    data: list[dict[str, Any]] = []
    for traffic in traffics:
        for label in names:
            rname = ROUTINGS[label]
            df = topolab.sweep_load(net, rname, traffic, seed=1, tolerance=tolerance, **params)
            sat = df.attrs["saturation_load"]
            for rec in df.to_dict("records"):
                data.append(
                    {
                        "routing": label,
                        "traffic": traffic,
                        "offered_load": rec["offered_load"],
                        "accepted_throughput": rec["accepted_throughput"],
                        "avg_latency": rec["avg_latency"],
                        "avg_hops": rec["avg_hops"],
                        "saturated": rec["saturated"],
                        "saturation_reason": rec["saturation_reason"],
                    }
                )
            paper, note = PAPER.get((label, traffic), (None, ""))
            bound = _bound(net, rname, traffic)
            if bound is None:
                note = "; ".join(
                    x
                    for x in (note, "adaptive: no static bound (MIN's and VAL's bound its two path sets)")
                    if x
                )
            rows.append(Comparison(traffic, f"{label} saturation load", paper, sat, note=note, bound=bound))
        if traffic == "worst" and "SF-MIN" in names:
            rows.append(
                Comparison(
                    traffic,
                    "SF-MIN bound, 1/(2p) (Kathareios et al. §4.2's pattern) vs the paper's 1/(p + 1)",
                    1.0 / (p + 1),
                    1.0 / (2 * p),
                    note=(
                        "topolab's 'worst' is Kathareios et al. (SC15) §4.2's greedy pairing (2p flows "
                        "on a link); Besta & Hoefler §V-C state 1/(p + 1) for their Fig. 9 pattern"
                    ),
                )
            )
    details = (
        f"{net.num_routers} routers, p = {p}, {net.num_endpoints} endpoints; the paper's router (setup table)"
    )
    first_notes = (
        "scaled down from the paper's q = 19, p = 15 (722 routers, 10,830 endpoints) to fit this machine"
        + ("; quick mode: two routings, two patterns, short samples" if quick else ""),
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
    import matplotlib.pyplot as plt

    traffics = list(dict.fromkeys(d["traffic"] for d in rep.data))
    cols = min(3, len(traffics))
    rows_n = (len(traffics) + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(5 * cols, 3.8 * rows_n), squeeze=False)
    for ax, traffic in zip(axes.flat, traffics):
        for label in dict.fromkeys(d["routing"] for d in rep.data):
            pts = sorted(
                (
                    d
                    for d in rep.data
                    if d["traffic"] == traffic and d["routing"] == label and not d["saturated"]
                ),
                key=lambda d: d["offered_load"],
            )
            if pts:
                ax.plot(
                    [d["offered_load"] for d in pts], [d["avg_latency"] for d in pts], "o-", ms=3, label=label
                )
        ax.set_title(traffic)
        ax.set_xlabel("offered load [flits/endpoint/cycle]")
        ax.set_ylabel("latency [cycles]")
        ax.set_xlim(0, 1)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(traffics) :]:
        ax.set_visible(False)
    fig.suptitle("Slim Fly routing (Besta & Hoefler SC14 Fig. 6, scaled down)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
