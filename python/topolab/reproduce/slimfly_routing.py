"""000 §V (Fig. 6): Slim Fly routing under uniform, shift, bit-permutation and worst-case traffic.

SF-MIN, SF-VAL, SF-UGAL-L and SF-UGAL-G (000 §IV-A..C: topolab's ``min``, ``valiant``,
``ugal_l``, ``ugal_g``, hop-indexed VCs: 4 VCs of 64 flits, 000 Fig. 6 and §IV-D) under uniform
random, shift (000 §V-B), bit complement, bit reversal, shuffle and the Slim Fly worst case
(000 §V-C). For each pair: the latency-load curve and the saturation load of topolab's
simulator (``sweep_load``: 0.1 steps up to the first saturated load, then bisection), beside the
static throughput bound of the oblivious routings (``routing.channel_load`` on the same traffic)
and the numbers 000 gives in the text.

Scaled down: 000 simulates a Slim Fly with q = 19, p = 15 (722 routers, 10,830 endpoints, 8,192
active under bit permutations); this machine runs q = 7 (98 routers, p = 6 (the floor-balanced
concentration of the family), 588 endpoints, 512 active under bit permutations), ``quick`` q = 5,
two routings and two patterns with short samples. 000 reads its curves off figures; the only
numbers in its text are VAL's saturation below 50% and UGAL-L's at 80% under uniform traffic,
and 40% (VAL) and 45% (UGAL-L) under its worst case, where MIN is limited to 1/(p + 1).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import topolab
from topolab import routing
from topolab.reproduce import Comparison, Reproduction, Setup

ID = "slimfly-routing"
TITLE = (
    "Besta & Hoefler, SC14, §V / Fig. 6: Slim Fly MIN, VAL, UGAL-L, UGAL-G under uniform, shift, bit "
    "permutations, worst case"
)
SOURCE = "Besta & Hoefler, SC14, §IV-A..D, §V-A..C, Fig. 6"

SPEC = "slimfly:q=7"
QUICK_SPEC = "slimfly:q=5,p=3"
ROUTINGS = {"SF-MIN": "min", "SF-VAL": "valiant", "SF-UGAL-L": "ugal_l", "SF-UGAL-G": "ugal_g"}
QUICK_ROUTINGS = ("SF-MIN", "SF-UGAL-L")
TRAFFICS = ("uniform", "shift", "bitcomp", "bitrev", "shuffle", "worst")
QUICK_TRAFFICS = ("uniform", "worst")
# 000 Fig. 6: buffers of 64 flit entries; 4 VCs (hop-indexed: 2 for MIN, 4 for VAL/UGAL, §IV-D).
PARAMS: dict[str, Any] = {"num_vcs": 4, "vc_buf_size": 64}
QUICK_PARAMS: dict[str, Any] = {
    "num_vcs": 4,
    "vc_buf_size": 16,
    "sample_period": 300,
    "warmup_periods": 1,
    "max_samples": 3,
}
# Saturation loads (fraction of the injection rate) 000 §V states in its text.
PAPER: dict[tuple[str, str], tuple[float, str]] = {
    ("SF-VAL", "uniform"): (
        0.5,
        "Besta & Hoefler, SC14, §V-A: VAL 'saturates at less than 50%' (an upper value)",
    ),
    ("SF-UGAL-L", "uniform"): (
        0.8,
        "Besta & Hoefler, SC14, §V-A: UGAL-L 'saturation at 80% of the injection rate'",
    ),
    ("SF-VAL", "worst"): (0.40, "Besta & Hoefler, SC14, §V-C: VAL supports 'up to 40%'"),
    ("SF-UGAL-L", "worst"): (0.45, "Besta & Hoefler, SC14, §V-C: UGAL-L supports 'up to 45%'"),
}


def _bound(net: topolab.Network, rname: str, traffic: str) -> Optional[float]:
    """Static throughput bound of an oblivious routing on this traffic (None for UGAL)."""
    if rname.startswith("ugal"):
        return None
    return routing.channel_load(net, rname, traffic=traffic).throughput_bound


def run(quick: bool = False) -> Reproduction:
    spec = QUICK_SPEC if quick else SPEC
    net = topolab.build(spec)
    p = max(net.endpoints)
    names = QUICK_ROUTINGS if quick else tuple(ROUTINGS)
    traffics = QUICK_TRAFFICS if quick else TRAFFICS
    params = QUICK_PARAMS if quick else PARAMS
    tolerance = 0.05 if quick else 0.02
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
                    }
                )
            paper, note = PAPER.get((label, traffic), (None, ""))
            rows.append(Comparison(traffic, f"{label} saturation load", paper, sat, note=note))
            bound = _bound(net, rname, traffic)
            if bound is not None:
                rows.append(
                    Comparison(
                        traffic,
                        f"{label} static throughput bound",
                        None,
                        bound,
                        note="max channel load of the routing's paths on this traffic (no simulation)",
                    )
                )
        if traffic == "worst" and "SF-MIN" in names:
            rows.append(
                Comparison(
                    traffic,
                    "SF-MIN bound, 1/(2p) (Kathareios et al., SC15, §4.2's pattern) vs Besta & Hoefler's "
                    "(SC14) 1/(p + 1)",
                    1.0 / (p + 1),
                    1.0 / (2 * p),
                    note=(
                        "topolab's 'worst' is Kathareios et al., SC15, §4.2's greedy pairing (2p flows on a "
                        "link); "
                        "Besta & Hoefler, SC14, §V-C states 1/(p + 1) for its Fig. 9 pattern"
                    ),
                )
            )
    details = (
        f"{net.num_routers} routers, p = {p}, {net.num_endpoints} endpoints; "
        + ", ".join(f"{k} = {v}" for k, v in params.items())
        + f"; saturation search resolution {tolerance}"
    )
    first_notes = (
        "scaled down from Besta & Hoefler's (SC14) q = 19, p = 15 (722 routers, 10,830 endpoints) to fit "
        "this machine" + ("; quick mode: two routings, two patterns, short samples" if quick else ""),
        "SF-MIN is topolab's 'min' (random among minimal next hops; Slim Fly minimal paths are "
        "nearly always unique, Besta & Hoefler, SC14, §IV-A); UGAL-L/G take n = 4 Valiant candidates (Besta "
        "& Hoefler, SC14, §IV-C)",
    )
    setups = tuple(
        Setup(traffic, spec, f"traffic '{traffic}'; {details}", first_notes if i == 0 else ())
        for i, traffic in enumerate(traffics)
    )
    notes = (
        "bit permutations (bitcomp, bitrev, shuffle) and Besta & Hoefler's (SC14) shift use the largest "
        "power-of-two prefix "
        "of the endpoints; the others are idle (Besta & Hoefler, SC14, §V-B), and a run counts as saturated "
        "when it accepts "
        "less than the sending endpoints offer",
        "Besta & Hoefler (SC14) reads Fig. 6 off plots: only the saturation loads in its text are compared; "
        "the latency-load "
        "curves are in the data file and the plot",
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
    fig.suptitle("Slim Fly routing (Besta & Hoefler, SC14, Fig. 6, scaled down)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
