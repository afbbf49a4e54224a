"""003 §4: relative saturation bandwidth of direct topologies under the routings of 003 §3
(torus DOR, FlatFly DOR/ADOR/Mixed/Twisted, hypercube DOR and turn models, Dragonfly Static
and G/S/I/D), for uniform traffic and the bit permutations complement, reverse, rotation,
shuffle and transpose.

SCALED DOWN. 003 simulates 2,048 switches with 8 hosts each (16,384 nodes) on a parallel
simulator; this machine simulates networks of 32 to 64 switches in the time a reproduction may
take. The networks keep each family's shape (FlatFly 4D with a doubled first dimension,
hypercube with double links, Dragonfly with K·G groups, 003 §1) but not its size, concentration
or bisection, so the numbers are not expected to match the paper's: what can be compared is the
ranking of the routings within a topology and pattern. Saturation bandwidth here = highest
accepted throughput of a load sweep (flits per endpoint per cycle, in % of the injection
bandwidth), with 8 VCs (003's 8 VLs) and short sample periods. The paper's adaptive routings
prefer minimal hops (two priorities); topolab's rules choose by output queue among all
candidates (docs/routing.md). Distance Based / Deflection rows are left out (other rules).
``quick`` runs two routings on two patterns of the FlatFly only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import topolab
from topolab import routing
from topolab._files import save_figure
from topolab.reproduce import Comparison, Reproduction, Setup, SetupRow, sim_params

ID = "infiniband"
TITLE = (
    "Daryin & Korzh, JSFI 2014, §4: saturation bandwidth of direct InfiniBand topologies by routing (scaled "
    "down)"
)
SOURCE = "Daryin & Korzh, JSFI 2014, §4 table (routings of Daryin & Korzh, JSFI 2014, §3)"

PATTERNS = ("uniform", "bitcomp", "bitrev", "rotation", "shuffle", "transpose")
PATTERN_NAMES = ("Uniform", "Cmpl", "Rvrs", "Rotn", "Shuf", "Trns")

# (topology, scaled spec, 003 §1 configuration)
TOPOLOGIES = {
    "Torus 3D": ("torus:dims=4x4x4,p=2", "8x16x16 torus, widths 3,5,5, C = 8"),
    "Torus 4D": ("torus:dims=4x4x2x2,p=2", "4x8x8x8 torus, widths 2,4,4,4, C = 8"),
    # 003's 4x8x8x8 with widths 2,1,1,1 and C = 8 has size x width = C in every dimension (uniform
    # DOR bound 1); scaled to 2x4x4x2 with p = 4 the last dimension needs width 2 to keep it
    # (widths 2,1,1,1 would cap uniform DOR at 0.5: the scaled network, not the routing).
    "FlatFly": ("hyperx:dims=2x4x4x2,widths=2x1x1x2,p=4", "4x8x8x8 FlatFly, widths 2,1,1,1, C = 8"),
    "Hypercube": ("hypercube:n=6,width=2,p=4", "11D hypercube, double links, C = 8"),
    "Dragonfly": ("dragonfly:a=4,h=2,g=8,p=2", "K = 16, G = 8: KG groups of 16, C = 8"),
}

# (topology, routing row of 003, topolab routing, 003's % for the six patterns)
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
# The quick subset keeps single links (the tests check its complement load in closed form); its
# uniform DOR bound is 0.5, shown beside the figure.
QUICK_SPEC = {"FlatFly": ("hyperx:dims=2x2x2x2,p=4", "4x8x8x8 FlatFly (quick: 2x2x2x2, where ADOR = DOR)")}

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
        "saturation search resolution", "not stated", TOLERANCE, f"loads {LOADS[0]}..{LOADS[-1]}, bisected"
    ),
)


def saturation(spec: str, routing: str, traffic: str) -> tuple[float, float]:
    """(highest accepted throughput, highest load not saturated) of a load sweep, in %."""
    df = topolab.sweep_load(
        spec, routing, traffic, loads=LOADS, tolerance=TOLERANCE, seed=1, **sim_params(SETUP_TABLE)
    )
    return 100 * float(df.attrs["saturation_throughput"]), 100 * float(df.attrs["saturation_load"])


def static_bound(spec: str, routing_name: str, traffic: str) -> Optional[float]:
    """The channel-load throughput bound of an oblivious routing, in % (None for adaptive)."""
    try:
        return 100 * routing.channel_load(topolab.build(spec), routing_name, traffic=traffic).throughput_bound
    except topolab.ParameterError:
        return None


def run(quick: bool = False) -> Reproduction:
    rows: list[Comparison] = []
    setups: list[Setup] = []
    data: list[dict[str, Any]] = []
    specs = {**TOPOLOGIES, **QUICK_SPEC} if quick else TOPOLOGIES
    table = [r for r in TABLE if (r[0], r[1]) in QUICK_TABLE] if quick else list(TABLE)
    patterns = [(p, n) for p, n in zip(PATTERNS, PATTERN_NAMES) if not quick or p in QUICK_PATTERNS]
    for topo, row, rname, paper in table:
        spec = specs[topo][0]
        for (traffic, short), value in zip(zip(PATTERNS, PATTERN_NAMES), paper):
            if (traffic, short) not in patterns:
                continue
            accepted, load = saturation(spec, rname, traffic)
            bound = static_bound(spec, rname, traffic)
            rows.append(
                Comparison(topo, f"{row}: {short}", value, accepted, note=rname, unit="%", bound=bound)
            )
            data.append(
                {
                    "topology": topo,
                    "row": row,
                    "routing": rname,
                    "spec": spec,
                    "traffic": traffic,
                    "paper_percent": value,
                    "saturation_throughput_percent": accepted,
                    "saturation_load_percent": load,
                    "static_bound_percent": bound,
                }
            )
    for topo in dict.fromkeys(r[0] for r in table):
        spec, paper_config = specs[topo]
        setups.append(
            Setup(
                topo,
                spec,
                f"scaled from Daryin & Korzh, JSFI 2014, §1's {paper_config}; router: the setup table",
            )
        )
    notes = [
        "SCALED DOWN: Daryin & Korzh (JSFI 2014) simulates 2,048 switches x 8 hosts; these networks have "
        "16-64 switches, so "
        "only the ranking of routings within a topology and pattern is comparable, not the values",
        "adaptive rules choose by output queue among all candidates; Daryin & Korzh (JSFI 2014) gives "
        "minimal hops priority",
        "Distance Based / Deflection rows of Daryin & Korzh (JSFI 2014) are not part of this reproduction",
    ]
    if quick:
        notes.append("quick: FlatFly DOR and ADOR on a 16-switch FlatFly, uniform and complement only")
    notes.append(
        "bound: the static channel-load throughput bound of the oblivious routings on the network run"
    )
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


def plot(rep: Reproduction, path: Path) -> None:
    """Paper vs topolab saturation bandwidth, one panel per topology."""
    import matplotlib.pyplot as plt

    topos = list(dict.fromkeys(d["topology"] for d in rep.data))
    fig, axes = plt.subplots(len(topos), 1, figsize=(9, 2.6 * len(topos)), squeeze=False)
    for ax, topo in zip(axes[:, 0], topos):
        recs = [d for d in rep.data if d["topology"] == topo]
        labels = [f"{d['row']}\n{d['traffic']}" for d in recs]
        x = range(len(recs))
        ax.bar(
            [i - 0.2 for i in x],
            [d["paper_percent"] for d in recs],
            0.4,
            label="Daryin & Korzh (JSFI 2014) (2,048 switches)",
        )
        ax.bar(
            [i + 0.2 for i in x],
            [d["saturation_throughput_percent"] for d in recs],
            0.4,
            label="topolab (scaled)",
        )
        ax.set_xticks(list(x))
        ax.set_xticklabels(labels, fontsize=5, rotation=90)
        ax.set_ylabel("saturation %")
        ax.set_title(topo, fontsize=9)
        ax.legend(fontsize=6)
    fig.tight_layout()
    save_figure(fig, path, dpi=120)
    plt.close(fig)
