"""Daryin & Korzh, JSFI 2014, §4: relative saturation bandwidth of direct topologies under the routings of §3
(torus DOR, FlatFly DOR/ADOR/Mixed/Twisted, hypercube DOR and turn models, Dragonfly Static
and G/S/I/D), for uniform traffic and the bit permutations complement, reverse, rotation,
shuffle and transpose.

SCALED DOWN. Daryin & Korzh (JSFI 2014) simulate 2,048 switches with 8 hosts each (16,384 nodes) on a parallel
simulator; this machine simulates networks of 32 to 64 switches in the time a reproduction may
take. The networks keep each family's shape (FlatFly 4D with a doubled first dimension,
hypercube with double links, Dragonfly with K·G groups, Daryin & Korzh, JSFI 2014, §1) but not its size,
concentration or bisection, so the numbers are not expected to match the paper's: what can be compared is the
ranking of the routings within a topology and pattern. Saturation bandwidth here = the saturation
load of a load sweep (the highest offered load the network carries unsaturated, in % of the
injection bandwidth: the saturation throughput of Dally & Towles, whom Daryin & Korzh, JSFI 2014, §4 cites for
it), with 8 VCs (Daryin & Korzh's (JSFI 2014) 8 VLs) and short sample periods. The highest accepted throughput
of any run (what an overloaded network still delivers, which under a permutation keeps growing with the offer
on the flows that miss the hot links) is kept in the data. The paper's adaptive routings
prefer minimal hops (two priorities); topolab's rules choose by output queue among all
candidates (docs/routing.md). Distance Based / Deflection rows are left out (other rules).
``quick`` runs two routings on two patterns of the FlatFly only.
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
    plot_rows,
    records,
    run_curves,
    scale_of,
)

ID = "infiniband"
TITLE = (
    "Daryin & Korzh, JSFI 2014, §4: saturation bandwidth of direct InfiniBand topologies by routing (scaled "
    "down)"
)
SOURCE = "Daryin & Korzh, JSFI 2014, §4 table (routings of Daryin & Korzh, JSFI 2014, §3)"
RUNS_CASES = True

PATTERNS = ("uniform", "bitcomp", "bitrev", "rotation", "shuffle", "transpose")
PATTERN_NAMES = ("Uniform", "Cmpl", "Rvrs", "Rotn", "Shuf", "Trns")

# topology -> (spec per scale, Daryin & Korzh, JSFI 2014, §1's configuration). Full: the paper's
# 2,048 switches x 8 hosts.
TOPOLOGIES: dict[str, tuple[dict[str, str], str]] = {
    "Torus 3D": (
        {"default": "torus:dims=4x4x4,p=2", "full": "torus:dims=8x16x16,widths=3x5x5,p=8"},
        "8x16x16 torus, widths 3,5,5, C = 8",
    ),
    "Torus 4D": (
        {"default": "torus:dims=4x4x2x2,p=2", "full": "torus:dims=4x8x8x8,widths=2x4x4x4,p=8"},
        "4x8x8x8 torus, widths 2,4,4,4, C = 8",
    ),
    # Daryin & Korzh's (JSFI 2014) 4x8x8x8 with widths 2,1,1,1 and C = 8 has size x width = C in every
    # dimension (uniform DOR bound 1); scaled to 2x4x4x2 with p = 4 the last dimension needs width 2 to keep
    # it (widths 2,1,1,1 would cap uniform DOR at 0.5: the scaled network, not the routing). The
    # quick subset keeps single links on a 4-cube (the tests check its complement load in closed
    # form); its uniform DOR bound, 0.5, is shown beside the figure.
    "FlatFly": (
        {
            "quick": "hyperx:dims=2x2x2x2,p=4",
            "default": "hyperx:dims=2x4x4x2,widths=2x1x1x2,p=4",
            "full": "hyperx:dims=4x8x8x8,widths=2x1x1x1,p=8",
        },
        "4x8x8x8 FlatFly, widths 2,1,1,1, C = 8",
    ),
    "Hypercube": (
        {"default": "hypercube:n=6,width=2,p=4", "full": "hypercube:n=11,width=2,p=8"},
        "11D hypercube, double links, C = 8",
    ),
    "Dragonfly": (
        {"default": "dragonfly:a=4,h=2,g=8,p=2", "full": "dragonfly:a=16,h=8,g=128,p=8"},
        "K = 16, G = 8: KG groups of 16, C = 8",
    ),
}

# (topology, routing row of Daryin & Korzh (JSFI 2014), topolab routing, their % for the six patterns)
TABLE: tuple[tuple[str, str, str, tuple[float, ...]], ...] = (
    ("Torus 3D", "DOR 3D", "torus_dor", (26.5, 15.6, 7.6, 7.0, 7.6, 7.1)),
    ("Torus 4D", "DOR 4D", "torus_dor", (48.2, 25.0, 2.9, 17.0, 12.2, 2.9)),
    ("FlatFly", "DOR", "hyperx_dor", (81.3, 11.7, 1.6, 12.5, 7.8, 2.3)),
    ("FlatFly", "Mixed DOR", "hyperx_dor:mixed=true", (89.8, 11.7, 5.5, 7.8, 5.5, 2.3)),
    ("FlatFly", "Twisted DOR", "hyperx_dor:twisted=true", (24.2, 11.7, 11.7, 11.7, 12.5, 5.5)),
    (
        "FlatFly",
        "Twisted Mixed DOR",
        "hyperx_dor:mixed=true,twisted=true",
        (46.9, 12.5, 11.7, 9.0, 10.9, 2.3),
    ),
    ("FlatFly", "ADOR", "hyperx_ador", (52.3, 50.0, 3.1, 25.0, 24.2, 2.3)),
    ("FlatFly", "Mixed ADOR", "hyperx_ador:mixed=true", (56.3, 50.0, 10.2, 24.2, 24.2, 5.5)),
    ("FlatFly", "Twisted ADOR", "hyperx_ador:twisted=true", (24.2, 50.0, 21.1, 24.2, 24.2, 11.7)),
    (
        "FlatFly",
        "Twisted Mixed ADOR",
        "hyperx_ador:mixed=true,twisted=true",
        (53.1, 28.1, 22.7, 24.2, 24.2, 5.5),
    ),
    ("Hypercube", "DOR", "hyperx_dor", (24.2, 24.2, 0.8, 24.2, 11.7, 0.8)),
    ("Hypercube", "Mixed DOR", "hyperx_dor:mixed=true", (24.2, 24.2, 2.3, 11.7, 11.7, 0.8)),
    ("Hypercube", "Negative First", "hypercube_nf", (2.3, 0.0, 0.8, 0.8, 0.8, 0.8)),
    ("Hypercube", "ABO Negative First", "hypercube_abo_nf", (5.5, 0.0, 0.8, 0.8, 0.8, 0.8)),
    ("Hypercube", "ABO Positive Last", "hypercube_abo_pl", (5.5, 0.0, 0.8, 0.8, 0.8, 0.8)),
    ("Dragonfly", "Static", "dragonfly_static", (24.2, 5.5, 5.5, 5.5, 5.5, 5.5)),
    ("Dragonfly", "S", "dragonfly_adaptive:extra=S", (64.8, 0.0, 11.7, 0.8, 0.8, 9.4)),
    ("Dragonfly", "D", "dragonfly_adaptive:extra=D", (68.8, 0.0, 11.7, 0.8, 0.8, 10.9)),
    ("Dragonfly", "SD", "dragonfly_adaptive:extra=SD", (50.8, 0.0, 11.7, 0.8, 0.8, 11.7)),
    ("Dragonfly", "G", "dragonfly_adaptive:extra=G", (11.7, 5.5, 5.5, 5.5, 5.5, 5.5)),
    ("Dragonfly", "GS", "dragonfly_adaptive:extra=GS", (11.7, 5.5, 11.7, 5.5, 5.5, 9.4)),
    ("Dragonfly", "GI", "dragonfly_adaptive:extra=GI", (11.7, 11.7, 5.5, 10.9, 11.7, 5.5)),
    ("Dragonfly", "GD", "dragonfly_adaptive:extra=GD", (11.7, 11.7, 5.5, 11.7, 21.9, 5.5)),
)

QUICK_TABLE = (("FlatFly", "DOR"), ("FlatFly", "ADOR"))
QUICK_PATTERNS = ("uniform", "bitcomp")

LOADS = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
TOLERANCE = 0.025

SETUP_TABLE: tuple[SetupRow, ...] = (
    SetupRow(
        "simulator",
        "parallel event-driven, verified against BookSim (§4)",
        "topolab's cycle-accurate iq router",
        "BookSim2's measurement method (docs/simulator.md)",
    ),
    SetupRow(
        "virtual channels (VLs) per port", "8, 'a common value for modern hardware' (§2)", 8, "", "num_vcs"
    ),
    SetupRow(
        "selection",
        "two priorities: minimal first (§3)",
        "by output queue among all candidates",
        "topolab's adaptive rules have no priority levels (docs/routing.md)",
    ),
    SetupRow(
        "buffers, packet size, delays",
        "not stated",
        "64-flit VCs, 1-flit packets, 1-cycle stages",
        "topolab's defaults (BookSim2's reference setup)",
    ),
    SetupRow(
        "network size",
        "2,048 switches x 8 hosts (§1)",
        "16-64 switches, p = 2-4",
        "scaled to this machine; each shape keeps size x width = p per FlatFly dimension (uniform "
        "DOR bound 1)",
    ),
    SetupRow("warm-up periods", "not stated", 1, "short samples: a sweep in seconds", "warmup_periods"),
    SetupRow("sample period [cycles]", "not stated", 500, "short samples", "sample_period"),
    SetupRow("most sample periods", "not stated", 4, "short samples", "max_samples"),
    SetupRow(
        "saturation search resolution",
        "not stated",
        TOLERANCE,
        f"loads {LOADS[0]}..{LOADS[-1]} up to the first saturated one, then the saturation search",
    ),
)


def static_bound(spec: str, routing_name: str, traffic: str) -> Optional[float]:
    """The channel-load throughput bound of an oblivious routing, in % (None for adaptive)."""
    try:
        return 100 * routing.channel_load(topolab.build(spec), routing_name, traffic=traffic).throughput_bound
    except topolab.ParameterError:
        return None


def curves(scale: str = "default") -> list[tuple[Curve, str, str, float]]:
    """(curve, topology, Daryin & Korzh's (JSFI 2014) row, their %) for every row and pattern of the table at
    ``scale`` (quick: FlatFly DOR and ADOR, uniform and complement)."""
    quick = check_scale(scale) == "quick"
    out = []
    for topo, row, rname, paper in TABLE:
        if quick and (topo, row) not in QUICK_TABLE:
            continue
        specs = TOPOLOGIES[topo][0]
        spec = specs.get(scale, specs["default"])
        for traffic, short, value in zip(PATTERNS, PATTERN_NAMES, paper):
            if quick and traffic not in QUICK_PATTERNS:
                continue
            out.append(
                (Curve(f"{row}: {short}", spec, rname, traffic, loads=LOADS, panel=topo), topo, row, value)
            )
    return out


def run(quick: bool = False, *, full: bool = False, execution: Optional[Execution] = None) -> Reproduction:
    scale = scale_of(quick, full)
    declared = curves(scale)
    measured = run_curves(
        ID, [c for c, _, _, _ in declared], SETUP_TABLE, TOLERANCE, default_execution(scale, execution)
    )
    rows: list[Comparison] = []
    data: list[dict[str, Any]] = []
    bounds: dict[tuple[str, str, str], Optional[float]] = {}
    for (curve, topo, row, value), m, record in zip(declared, measured, _per_curve(measured)):
        key = (curve.network, curve.routing, curve.traffic)
        if key not in bounds:
            bounds[key] = None if scale == "full" else static_bound(*key)
        saturation = 100 * m["saturation_load"]
        rows.append(
            Comparison(
                topo,
                curve.label,
                value,
                saturation,
                note=curve.routing,
                unit="%",
                bound=bounds[key],
                interval=bracket(m, 100),
            )
        )
        overload = 100 * m["saturation_throughput"]
        data.extend(
            {**r, "topology": topo, "row": row, "paper_percent": value, "most_accepted_percent": overload}
            for r in record
        )
    setups = []
    for topo in dict.fromkeys(t for _, t, _, _ in declared):
        specs, paper_config = TOPOLOGIES[topo]
        setups.append(
            Setup(
                topo,
                specs.get(scale, specs["default"]),
                f"Daryin & Korzh, JSFI 2014, §1's {paper_config}"
                + ("" if scale == "full" else " (scaled)")
                + "; router: the setup table",
            )
        )
    notes = [
        "SCALED DOWN: Daryin & Korzh (JSFI 2014) simulates 2,048 switches x 8 hosts; these networks have "
        "16-64 switches, so only the ranking of routings within a topology and pattern is comparable, "
        "not the values"
        if scale != "full"
        else "the paper's 2,048 switches x 8 hosts",
        "adaptive rules choose by output queue among all candidates; Daryin & Korzh (JSFI 2014) gives "
        "minimal hops priority",
        "Distance Based / Deflection rows of Daryin & Korzh (JSFI 2014) are not part of this reproduction",
        "topolab's figure: the saturation load of the load sweep (the highest offered load carried "
        "unsaturated, Dally & Towles' saturation throughput, which Daryin & Korzh (JSFI 2014), §4 cite), "
        "in % of the injection bandwidth; the data's most_accepted_percent is the most any run "
        "accepted (overloaded)",
        "bound: the static channel-load throughput bound of the oblivious routings on the network run",
    ]
    if quick:
        notes.append("quick: FlatFly DOR and ADOR on a 16-switch FlatFly, uniform and complement only")
    return Reproduction(
        ID,
        TITLE,
        SOURCE,
        tuple(rows),
        tuple(setups),
        tuple(notes),
        tuple(data),
        quick,
        setup_table=SETUP_TABLE,
    )


def _per_curve(measured: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    return [records([m]) for m in measured]


def plot(rep: Reproduction, path: Path) -> None:
    plot_rows(
        rep,
        path,
        "Daryin & Korzh (JSFI 2014) (2,048 switches)",
        "topolab" + ("" if rep.quick else " (scaled)"),
    )
