"""Kathareios et al., SC15, §4.3.1 (Fig. 6) and §4.4 (Figs. 13, 14): Slim Fly, MLFM and OFT under oblivious
routing and under two fixed exchanges.

Fig. 6: saturation throughput of MIN (``min``) and indirect random routing (INR, Kathareios et al., SC15, §3.2
with the two-VC scheme of §3.4: ``valiant:endpoints_only=true,vcs=phase``) under uniform random
traffic and each family's worst case (Kathareios et al., SC15, §4.2: ``slimfly_worst``, ``mlfm_worst``,
``oft_worst``), from the simulator's saturation search (``sweep_load``), beside the static
throughput bound of the same routing on the same traffic (``routing.channel_load``) and the
numbers Kathareios et al., SC15, §4.3.1 gives: MIN ~96-98% uniform (SF with the higher p ~87%), MIN worst case
1/(2p), 1/h, 1/k; INR half of MIN's uniform saturation on both patterns.

Figs. 13/14: effective throughput (data / completion time, per endpoint, as a fraction of the
injection bandwidth, Kathareios et al., SC15, §4.4) of one all-to-all exchange and one 3D nearest-neighbour
exchange with the contiguous mapping (``run_exchange`` with ``alltoall`` / ``nn3d``; each
source's messages interleaved, one packet of each in turn, as an exchange posting its sends
together puts them on the wire; on the MLFM the torus h × (h + 1) × h that §4.4 aligns with a
router, a layer and a column), for MIN, INR and
UGAL-L (Kathareios et al., SC15, §3.3: the Slim Fly cost (L_I/L_M)·c·q_I, topolab's default ``ugal_l``; MLFM-A
and OFT-A the constant-c cost, ``ugal_l:hops=false,c=2`` with the two-VC scheme).

Scaled down: Kathareios et al., SC15, §4.1 simulates SF q = 13 (p = 9, 10), MLFM h = 15 and OFT k = 12 (about
3,000 to 3,600 endpoints each); this machine runs SF q = 5 (p = 3 = ⌊k'/2⌋ and p = 4 = ⌈k'/2⌉),
MLFM h = 4 and OFT k = 4 (80 to 200 endpoints). Kathareios et al.'s (SC15) 100 KB buffers per port and 200 µs
runs become 4 VCs of 100 flits (quick: 16) and BookSim2-style sample periods; packets are one flit.
Full mode runs Kathareios et al.'s (SC15) message sizes (30 packets per all-to-all message, 2,048 per
nearest-neighbour message); quick mode SF p = 3, MLFM, OFT with 4 and 64 packets and short
samples.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import topolab
from topolab import routing
from topolab.reproduce import Comparison, Reproduction, Setup, SetupRow, percent
from topolab.reproduce.cases import (
    Curve,
    Exchange,
    Execution,
    bracket,
    default_execution,
    plot_rows,
    records,
    run_curves,
    run_exchanges,
    scale_of,
    setup_value,
)

ID = "diameter-two"
RUNS_CASES = True
TITLE = "Kathareios et al., SC15, §4.3.1 / Fig. 6, §4.4 / Figs. 13-14: SF, MLFM, OFT with MIN, INR, UGAL-L"
SOURCE = "Kathareios et al., SC15, §3.2-3.4, §4.1-4.4, Figs. 6, 13, 14"

# INR (Kathareios et al., SC15, §3.2): intermediates among routers with endpoints. MLFM and OFT take §3.4's
# two VCs (VC 0 to the intermediate, VC 1 after); on the Slim Fly (a direct network) that scheme deadlocks
# (minimal SF routing within one VC has cyclic channel dependencies), so SF uses hop-indexed VCs.
INR_SF = "valiant:endpoints_only=true"
INR_SPSP = "valiant:endpoints_only=true,vcs=phase"
# (label, spec, worst-case traffic, worst-case MIN bound of Kathareios et al., SC15, §4.2 as a function of the
# net,
#  its formula, adaptive routing of Kathareios et al., SC15, §3.3)
UGAL_MLFM = "ugal_l:vcs=phase,endpoints_only=true,hops=false,c=2,n=5"
UGAL_OFT = "ugal_l:vcs=phase,endpoints_only=true,hops=false,c=2,n=1"
CONFIGS: dict[str, tuple[tuple[str, str, str, str, str], ...]] = {
    "default": (
        ("SF p=3", "slimfly:q=5,p=3", "slimfly_worst", "1/(2p)", "ugal_l"),
        ("SF p=4", "slimfly:q=5,p=4", "slimfly_worst", "1/(2p)", "ugal_l"),
        ("MLFM h=4", "mlfm:h=4", "mlfm_worst", "1/h", UGAL_MLFM),
        ("OFT k=4", "oft:k=4", "oft_worst", "1/k", UGAL_OFT),
    ),
    # Kathareios et al., SC15, §4.1's own networks: SF q = 13 with p = 9 = ⌊k'/2⌋ and 10 = ⌈k'/2⌉, MLFM h =
    # 15, OFT k = 12.
    "full": (
        ("SF p=9", "slimfly:q=13,p=9", "slimfly_worst", "1/(2p)", "ugal_l"),
        ("SF p=10", "slimfly:q=13,p=10", "slimfly_worst", "1/(2p)", "ugal_l"),
        ("MLFM h=15", "mlfm:h=15", "mlfm_worst", "1/h", UGAL_MLFM),
        ("OFT k=12", "oft:k=12", "oft_worst", "1/k", UGAL_OFT),
    ),
}
QUICK_CONFIGS = ("SF p=3", "MLFM h=4", "OFT k=4")
# The part each configuration plays in Kathareios et al.'s (SC15) text (its numbers are per part, at every
# scale).
ROLE = {
    "SF p=3": "SF lower p",
    "SF p=9": "SF lower p",
    "SF p=4": "SF higher p",
    "SF p=10": "SF higher p",
    "MLFM h=4": "MLFM",
    "MLFM h=15": "MLFM",
    "OFT k=4": "OFT",
    "OFT k=12": "OFT",
}
# Figs. 13/14's exchanges per scale; the default ones have Kathareios et al., SC15, §4.1's sizes, 30 and 2,048
# packets.
EXCHANGES = {
    "quick": {"A2A": "alltoall:packets=4", "NN": "nn3d:packets=64"},
    "default": {"A2A": "alltoall", "NN": "nn3d"},
    "full": {"A2A": "alltoall", "NN": "nn3d"},
}
# One cycle carries one single-flit packet over a link: Kathareios et al., SC15, §4.1's 256-byte packets at
# 100 Gb/s, 20.48 ns.
CYCLE_NS = 256 * 8 / 100.0


def setup_table(quick: bool = False) -> tuple[SetupRow, ...]:
    """Kathareios et al., SC15, §4.1's setup beside the one run, in cycles of one packet time (``CYCLE_NS``);
    rows with ``sim_param`` are passed to the simulator and to the exchanges as they are."""
    q = "quick: what the tests run" if quick else ""
    return (
        SetupRow(
            "router",
            "input-output-buffered VC switch (§4.1)",
            "iq",
            "topolab models input queues; internal speedup 2 lets the crossbar fill the output side "
            "(with speedup 1, head-of-line blocking caps MIN uniform near 0.7)",
            "router",
        ),
        SetupRow(
            "internal speedup",
            "not stated (output buffers, §4.1)",
            2.0,
            "stands in for the output buffers",
            "internal_speedup",
        ),
        SetupRow(
            "packet size [flits]", "256-byte packets (§4.1)", 1, "one flit carries one packet", "packet_size"
        ),
        SetupRow(
            "virtual channels per port",
            "2 (§3.4)",
            4,
            "MLFM/OFT use Kathareios et al., SC15, §3.4's two phases; the Slim Fly needs hop-indexed "
            "VCs (the phase scheme deadlocks there), up to 4 classes",
            "num_vcs",
        ),
        SetupRow(
            "buffer per VC [flits]",
            "100 KB per port per direction (§4.1): 400 packets",
            16 if quick else 100,
            q or "400 packets / 4 VCs",
            "vc_buf_size",
        ),
        SetupRow(
            "channel latency [cycles]",
            "50 ns (§4.1)",
            3,
            f"50 ns / {CYCLE_NS:.2f} ns, rounded up",
            "channel_latency",
        ),
        SetupRow(
            "crossbar delay [cycles]",
            "switch traversal 100 ns (§4.1)",
            3,
            f"with 1-cycle VC and switch allocation: 5 cycles = {5 * CYCLE_NS:.0f} ns",
            "st_final_delay",
        ),
        SetupRow(
            "warm-up periods", "20 µs (§4.1): ~980 packet times", 1, q or "1 x 1,000 cycles", "warmup_periods"
        ),
        SetupRow(
            "sample period [cycles]",
            "200 µs run (§4.1): ~9,800 packet times",
            300 if quick else 1000,
            q,
            "sample_period",
        ),
        SetupRow(
            "most sample periods",
            "200 µs run (§4.1)",
            3 if quick else 10,
            q or "up to 10,000 cycles",
            "max_samples",
        ),
        SetupRow(
            "saturation search resolution",
            "not stated (read off Fig. 6)",
            0.05 if quick else 0.02,
            "the saturation search's bracket: the highest load carried and the lowest saturated",
        ),
    )


# Kathareios et al., SC15, §4.3.1 (Fig. 6 text): MIN uniform "approximately 96 to 98%", SF with the higher p
# "87%"; INR "half the saturation point in uniform traffic" (read as 0.5 of MIN's ~0.97 -> 0.49).
PAPER_MIN_UNIFORM = {"SF lower p": 0.97, "SF higher p": 0.87, "MLFM": 0.97, "OFT": 0.97}
PAPER_INR = 0.5
# Kathareios et al., SC15, §4.4 text: A2A "close to 100%" for MIN and adaptive, "half of that" for INR; NN:
# INR "close to 70%", adaptive "close to 100%" on the MLFM; MIN "very low" (no number).
PAPER_EXCHANGE: dict[tuple[str, str, str], float] = {
    ("A2A", "MIN", "SF lower p"): 1.0,
    ("A2A", "MIN", "MLFM"): 1.0,
    ("A2A", "MIN", "OFT"): 1.0,
    ("A2A", "UGAL-L", "SF lower p"): 1.0,
    ("A2A", "UGAL-L", "MLFM"): 1.0,
    ("A2A", "UGAL-L", "OFT"): 1.0,
    ("A2A", "INR", "SF lower p"): 0.5,
    ("A2A", "INR", "MLFM"): 0.5,
    ("A2A", "INR", "OFT"): 0.5,
    ("NN", "INR", "SF lower p"): 0.7,
    ("NN", "INR", "SF higher p"): 0.7,
    ("NN", "INR", "MLFM"): 0.7,
    ("NN", "INR", "OFT"): 0.7,
    ("NN", "UGAL-L", "MLFM"): 1.0,
}


def configs(quick: bool = False, full: bool = False) -> tuple[tuple[str, str, str, str, str], ...]:
    """The networks run, (label, spec, worst-case traffic, Kathareios et al., SC15, §4.2's worst-case MIN
    bound, UGAL-L spec): ``full`` Kathareios et al., SC15, §4.1's, otherwise scaled down (``quick``: without
    SF p = 4)."""
    if full:
        return CONFIGS["full"]
    return tuple(c for c in CONFIGS["default"] if not quick or c[0] in QUICK_CONFIGS)


def _worst_bound(net: topolab.Network, formula: str) -> float:
    """Kathareios et al., SC15, §4.2's closed form for the family's worst case under MIN."""
    p = max(net.endpoints)
    return 1.0 / (2 * p) if formula == "1/(2p)" else 1.0 / p  # MLFM p = h, OFT p = k


def curves(quick: bool = False, full: bool = False) -> list[tuple[Curve, str]]:
    """Fig. 6's curves: MIN and INR under uniform and the family's worst case, per network
    (with its configuration label)."""
    out = []
    for label, spec, worst, _, _ in configs(quick, full):
        inr = _routings(spec, "")["INR"]
        for traffic in ("uniform", worst):
            for rlabel, rname in (("MIN", "min"), ("INR", inr)):
                out.append((Curve(rlabel, spec, rname, traffic, panel=f"{label} {traffic}"), label))
    return out


def _routings(spec: str, adaptive: str) -> dict[str, str]:
    return {"MIN": "min", "INR": INR_SF if spec.startswith("slimfly") else INR_SPSP, "UGAL-L": adaptive}


def _mlfm_torus(spec: str, nn: str) -> str:
    """``nn`` on the MLFM with Kathareios et al.'s (SC15, §4.4) orientation of the torus, 15×16×15
    at h = 15: x the h endpoints of a router, y the h + 1 routers of a layer, z the h layers."""
    h = max(topolab.build(spec).endpoints)
    return f"{nn}{',' if ':' in nn else ':'}dims={h}x{h + 1}x{h}"


def exchanges(quick: bool = False, full: bool = False) -> list[tuple[Exchange, str, str]]:
    """Figs. 13/14's cases: one all-to-all and one nearest-neighbour exchange per network and
    routing (MIN, INR, UGAL-L), with the configuration label and the exchange's ("A2A", "NN")."""
    sizes = EXCHANGES[scale_of(quick, full)]
    out = []
    for label, spec, _, _, adaptive in configs(quick, full):
        for xlabel, xspec in sizes.items():
            if xlabel == "NN" and spec.startswith("mlfm"):
                xspec = _mlfm_torus(spec, xspec)
            for rlabel, rname in _routings(spec, adaptive).items():
                out.append((Exchange(rlabel, spec, rname, xspec, panel=f"{label} {xlabel}"), label, xlabel))
    return out


def run(quick: bool = False, *, full: bool = False, execution: Optional[Execution] = None) -> Reproduction:
    """``quick``: the tests' subset; ``full``: Kathareios et al., SC15, §4.1's networks (3,042 to
    3,600 endpoints), otherwise scaled down to 80-200 endpoints; the setup table is the same
    for both but ``quick``'s."""
    run_configs = configs(quick, full)
    table = setup_table(quick)
    tolerance = setup_value(table, "saturation search resolution")
    declared = curves(quick, full)
    where = default_execution(scale_of(quick, full), execution)
    measured = run_curves(ID, [c for c, _ in declared], table, tolerance, where)
    declared_exchanges = exchanges(quick, full)
    finished = run_exchanges(ID, [x for x, _, _ in declared_exchanges], table, where)
    rows: list[Comparison] = []
    data: list[dict[str, Any]] = []
    setups: list[Setup] = []
    nets = {spec: topolab.build(spec) for _, spec, _, _, _ in run_configs}
    formulas = {label: formula for label, _, _, formula, _ in run_configs}
    for (curve, label), m in zip(declared, measured):
        net = nets[curve.network]
        kind = "uniform" if curve.traffic == "uniform" else "worst case"
        sat = m["saturation_load"]
        bound = routing.channel_load(net, curve.routing, traffic=curve.traffic).throughput_bound
        data.extend({**r, "figure": "6", "config": label, "workload": kind} for r in records([m]))
        if curve.label == "MIN" and kind == "uniform":
            paper, note = (
                PAPER_MIN_UNIFORM[ROLE[label]],
                "Kathareios et al., SC15, §4.3.1: 96-98%; SF with higher p ~87%",
            )
        elif curve.label == "MIN":
            paper = _worst_bound(net, formulas[label])
            note = (
                f"Kathareios et al., SC15, §4.2: {formulas[label]} of this configuration (paper's sizes: 5%, "
                "6.6%, 8.3%)"
            )
        else:
            paper, note = PAPER_INR, "Kathareios et al., SC15, §4.3.1: INR saturates at half of uniform MIN"
        rows.append(
            Comparison(
                label,
                f"Fig. 6 {curve.label} {kind} saturation",
                percent(paper),
                percent(sat),
                note + "; bound: max channel load of the routing's paths (no simulation)",
                "%",
                bound=percent(bound),
                interval=bracket(m, 100),
            )
        )
    # Figs. 13/14: one exchange run to completion.
    for (x, label, xlabel), res in zip(declared_exchanges, finished):
        figure = "13" if xlabel == "A2A" else "14"
        eff = res["effective_throughput"]
        data.append(
            {
                "figure": figure,
                "config": label,
                "label": x.label,
                "routing": x.routing,
                "workload": res["name"],
                "effective_throughput": eff,
            }
        )
        paper_eff = PAPER_EXCHANGE.get((xlabel, x.label, ROLE[label]))
        rows.append(
            Comparison(
                label,
                f"Fig. {figure} {xlabel} {x.label} effective throughput",
                percent(paper_eff),
                percent(eff),
                f"{res['name']}; {res['completion_cycles']} cycles"
                + ("" if paper_eff is not None else "; Kathareios et al. (SC15) gives no number"),
                "%",
            )
        )
    for label, spec, worst, _, adaptive in run_configs:
        net = nets[spec]
        inr = _routings(spec, adaptive)["INR"]
        setups.append(
            Setup(
                label,
                spec,
                f"{net.num_routers} routers, {net.num_endpoints} endpoints; worst case '{worst}'; "
                f"INR = '{inr}'; UGAL-L = '{adaptive}'; router: the setup table",
            )
        )
    sizes_note = (
        "Kathareios et al., SC15, §4.1's networks: SF q = 13 (p = 9, 10), MLFM h = 15, OFT k = 12 (3,042 to "
        "3,600 endpoints)"
        if full
        else "scaled down from Kathareios et al., SC15, §4.1's SF q = 13 (p = 9, 10), MLFM h = 15, "
        "OFT k = 12 (about 3,000-3,600 "
        "endpoints) to SF q = 5 (p = 3, 4), MLFM h = 4, OFT k = 4; Kathareios et al.'s (SC15) closed forms "
        "1/(2p), 1/h, 1/k are "
        "compared for the scaled sizes"
    )
    notes = (
        sizes_note
        + (
            "; quick mode: SF p = 4 left out, short samples, exchanges of 4 and 64 packets per message"
            if quick
            else ""
        ),
        "INR is valiant with intermediates among routers with endpoints (Kathareios et al., SC15, §3.2); "
        "MLFM and OFT use "
        "VC 0 before / VC 1 after the intermediate (Kathareios et al., SC15, §3.4), the Slim Fly hop-indexed "
        "VCs (the phase "
        "scheme deadlocks there: minimal SF paths within one VC form cycles); "
        "UGAL-L's MLFM-A n = 5 and OFT-A n = 1 candidates follow the fixed "
        "n of Kathareios et al., SC15, Figs. 9b/10b, c = 2; Kathareios et al., SC15, §3.3's threshold "
        "variant (ATh) is not run",
        "Kathareios et al. (SC15) reads its figures off plots: the compared paper values are the numbers in "
        "its text "
        "(rounded where it says 'close to'); exchanges run one flit per packet, effective throughput = "
        "flits / (endpoints x completion cycles)",
    )
    return Reproduction(
        id=ID,
        title=TITLE,
        source=SOURCE,
        rows=tuple(rows),
        setups=tuple(setups),
        notes=notes,
        data=tuple(data),
        quick=quick,
        setup_table=table,
    )


def plot(rep: Reproduction, path: Path) -> None:
    plot_rows(rep, path, "Kathareios et al. (SC15)", "topolab (scaled down)")
