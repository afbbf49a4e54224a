"""Koibuchi et al., 2018 (uni-directional topologies), the simulated part: Figs. 5-8 of §III-B3.

Koibuchi et al. (2018) simulate 256-switch uni-directional MDDP networks of degree 6 and 8 (1,024 hosts, four
per switch, 33-flit packets, virtual cut-through, four VCs) under uniform, matrix transpose and bit
reversal traffic, with minimal routing and with hot-potato routing (§III-B2), and plots latency
against accepted traffic (Figs. 5-7) and, for hot-potato, the average path length against
accepted traffic (Fig. 8). Its claims: hot-potato reaches throughput comparable to, often better
than, minimal routing; a 10x increase of accepted traffic raises the hot-potato path length by
less than 1.65x (d = 6) and 1.25x (d = 8).

topolab runs the same comparison scaled to this machine (the notes say what was scaled): MDDP
of ``ROUTERS`` switches instead of 256, and beside each uni-directional MDDP the bi-directional
random regular graph with the same switch ports (Koibuchi et al.'s (2018) Figs. 5-8 have no bi-directional
curve; Figs. 12/13 compare uni- and bi-directional networks with SimGrid, which topolab does not model).

- minimal: the ``iq`` router, ``min`` routing with hop-indexed VCs (4 VCs cover the diameter, so
  it is deadlock-free), virtual cut-through, 33-flit packets;
- hot-potato: ``router=hotpotato`` with the minimal next hops preferred, ``hotpotato_delay = 3``
  (the iq router's zero-load delay per router), flit-level deflection (docs/simulator.md).

Fig. 8 readings: §III-B2 states only the hop-counter priority; every other hot-potato policy
(priority oldest / random, deflection to the free output closest to the destination, a
packet's path counted as the mean over its flits rather than its last flit's, and the same for
worms) runs on the uni-directional MDDP under uniform traffic, with its path length growth and
routers per packet at load 0.1 beside the paper's (docs/reproduce.md). So does the buffered
reading of §III-B3's "simple implementation" (virtual cut-through switches with four VCs): the
``iq`` router routing minimally, granting VCs to the head with the most hops first, and
deflecting a packet to a non-minimal output only when no minimal output has a VC with room for
it and it has waited ``deflect_after`` cycles (``deflect``, docs/simulator.md).

``quick`` (what the test runs) simulates 16-switch networks under uniform traffic only.
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
    check_scale,
    confidence,
    default_execution,
    network_row,
    plot_curves,
    records,
    run_curves,
    scale_of,
    setup_value,
    varied,
)

ID = "unidirectional-sim"
TITLE = (
    "Koibuchi et al., 2018, Figs. 5-8: minimal vs hot-potato routing on uni-directional MDDP (and "
    "bi-directional peers)"
)
SOURCE = "Koibuchi et al., 2018, §III-B2, §III-B3, Figs. 5-8"

RUNS_CASES = True
P = 4  # hosts per switch (Koibuchi et al., 2018, §III-B3)
PACKET = 33  # flits, one of them the header (Koibuchi et al., 2018, §III-B3)
# (switches, degrees, traffic -> figure) per scale; full: the paper's 256 switches.
SIZES = {
    "quick": (16, (4,), {"uniform": "5"}),
    "default": (64, (6, 8), {"uniform": "5", "transpose": "6", "bitrev": "7"}),
    "full": (256, (6, 8), {"uniform": "5", "transpose": "6", "bitrev": "7"}),
}
LOADS = {
    "quick": (0.05, 0.3),
    "default": (0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6),
}
MEASUREMENT = {
    "quick": (1, 3, 0.0, "quick: short samples, no bisection (what the tests run)"),
    "default": (3, 8, 0.0125, "BookSim2's warm-up; two halvings of the 0.05 load step"),
    "full": (3, 8, 0.0125, "BookSim2's warm-up; two halvings of the 0.05 load step"),
}
HOP_GROWTH_PAPER = {6: 1.65, 8: 1.25}  # Koibuchi et al., 2018, §III-B3: growth over 10x accepted traffic
# Fig. 8's average path length at offered load 0.1, read off the plot (256 switches).
PATH_AT_0_1_PAPER = 3.3
# The hot-potato policies Koibuchi et al., 2018, §III-B2 leaves open: priority, deflection target and, for
# flit switching, which flits' paths a packet's path length counts (None: not applicable).
PRIORITIES = ("hops", "oldest", "random")
DEFLECTIONS = ("random", "closest")
PACKET_HOPS = ("last", "mean")
POLICY_KEYS = ("hotpotato_priority", "hotpotato_deflect", "hotpotato_packet_hops")
# The buffered reading (§III-B3's VCT switches deflecting when blocked): where a blocked packet is
# deflected, and after how many cycles of waiting for a minimal output (0: at once; 33: one packet
# time; longer: only packets stuck behind a congested output).
BUFFERED_DEFLECTIONS = ("random", "closest")
BUFFERED_WAITS = (0, 33, 100, 300)
BUFFERED_LABEL = "buffered deflection"
# Keywords of the buffered reading that the other curves leave unset.
BUFFERED_KEYS = ("deflect", "deflect_after", "vc_priority")
PAPER_POLICY = ("hops", "random", "last")  # the hop counter of §III-B2; the router's defaults
# label -> the router keywords of the routing (the setup table's varied rows list them).
ROUTINGS: dict[str, tuple[tuple[str, Any], ...]] = {
    "minimal": (
        ("router", "iq"),
        ("flow_control", "vct"),
        ("hotpotato_switching", None),
        *((k, None) for k in POLICY_KEYS),
    ),
    "hot-potato": (
        ("router", "hotpotato"),
        ("flow_control", None),
        ("hotpotato_switching", "flit"),
        *zip(POLICY_KEYS, PAPER_POLICY),
    ),
    "hot-potato worms": (
        ("router", "hotpotato"),
        ("flow_control", None),
        ("hotpotato_switching", "packet"),
        *zip(POLICY_KEYS, PAPER_POLICY[:2] + (None,)),
    ),
}


def policy_readings() -> list[tuple[str, tuple[tuple[str, Any], ...]]]:
    """(label, router keywords) of every hot-potato reading beside the two of ``ROUTINGS``:
    each priority and deflection, flits counted by their last or mean path (worms: one path),
    run on the uni-directional MDDP under uniform traffic (Fig. 8)."""
    out = []
    for switching, label in (("flit", "hot-potato"), ("packet", "hot-potato worms")):
        for priority in PRIORITIES:
            for deflect in DEFLECTIONS:
                for count in PACKET_HOPS if switching == "flit" else (None,):
                    policy = (priority, deflect, count)
                    if policy == PAPER_POLICY or (switching == "packet" and policy[:2] == PAPER_POLICY[:2]):
                        continue  # a curve of ROUTINGS
                    name = f"{label} {priority}/{deflect}" + (f"/{count}" if count else "")
                    params = (
                        ("router", "hotpotato"),
                        ("flow_control", None),
                        ("hotpotato_switching", switching),
                        *zip(POLICY_KEYS, policy),
                    )
                    out.append((name, params))
    return out


def buffered_readings() -> list[tuple[str, tuple[tuple[str, Any], ...]]]:
    """(label, router keywords) of the buffered reading of the hot-potato router: virtual
    cut-through ``iq`` routers with minimal routing and hop-counter priority in VC allocation,
    deflecting a packet blocked on every minimal output (each deflection target x wait), run on
    the uni-directional MDDP under uniform traffic (Fig. 8)."""
    return [
        (
            f"{BUFFERED_LABEL} {deflect}/after {wait}",
            (
                ("router", "iq"),
                ("flow_control", "vct"),
                ("deflect", deflect),
                ("deflect_after", wait),
                ("vc_priority", "hops"),
            ),
        )
        for deflect in BUFFERED_DEFLECTIONS
        for wait in BUFFERED_WAITS
    ]


def setup_table(scale: str = "default") -> tuple[SetupRow, ...]:
    """Koibuchi et al., 2018, §III-B3's setup beside the one run at ``scale``."""
    n, degrees, _ = SIZES[check_scale(scale)]
    # (warm-up periods, most periods, search resolution, why)
    warmup, most, resolution, why = MEASUREMENT[scale]
    return (
        network_row(
            "256-switch uni-directional MDDP, d = 6 and 8, 4 hosts per switch (§III-B3)",
            [spec for d in degrees for _, spec in _networks(n, d)],
            scale == "full",
        ),
        SetupRow("packet size [flits]", "33, one of them the header (§III-B3)", PACKET, "", "packet_size"),
        SetupRow("virtual channels per port", "4 (§III-B3)", 4, "", "num_vcs"),
        SetupRow(
            "buffer per VC [flits]", "not stated", 64, "holds a 33-flit packet (cut-through)", "vc_buf_size"
        ),
        SetupRow(
            "router",
            "virtual cut-through (minimal); hot-potato without flow control (§III-B2)",
            varied("iq", "hotpotato"),
            "minimal and the buffered reading: iq; hot-potato: the bufferless router (docs/simulator.md)",
            "router",
        ),
        SetupRow(
            "flow control",
            "virtual cut-through (§III-B3)",
            varied("vct", None),
            "None: hot-potato",
            "flow_control",
        ),
        SetupRow(
            "buffered reading: deflection target",
            "'alternate paths are used' (§III-B2) by VCT switches with four VCs (§III-B3)",
            varied(None, *BUFFERED_DEFLECTIONS),
            "a packet blocked on every minimal output (no VC with room for it) goes to a random "
            "router output with such a VC, or the one nearest its destination (Fig. 8 readings); "
            "None: minimal and the bufferless router",
            "deflect",
        ),
        SetupRow(
            "buffered reading: cycles waited before a deflection",
            "not stated",
            varied(None, *BUFFERED_WAITS),
            "0: as soon as every minimal output is blocked; 33: one packet time; 100, 300: only "
            "packets held up longer (Fig. 8 readings)",
            "deflect_after",
        ),
        SetupRow(
            "buffered reading: VC allocation priority",
            "'higher priority for packets with higher hop counts' (§III-B2)",
            varied(None, "hops"),
            "hops: an output VC asked for by several packets goes to the one with the most routers "
            "traversed (Fig. 8 readings); None: round robin (minimal)",
            "vc_priority",
        ),
        SetupRow(
            "hot-potato switching",
            "not stated for 33-flit packets",
            varied(None, "flit", "packet"),
            "both readings: every flit on its own, or whole-packet worms (None: minimal)",
            "hotpotato_switching",
        ),
        SetupRow(
            "hot-potato priority",
            "a hop counter: minimal outputs 'with higher priority for packets with higher hop counts' "
            "(§III-B2)",
            varied(None, *PRIORITIES),
            "hops: the paper's; oldest, random: the other readings, run on uni MDDP under uniform "
            "traffic only (Fig. 8 readings); None: minimal",
            "hotpotato_priority",
        ),
        SetupRow(
            "hot-potato deflection target",
            "'alternate paths are used' (§III-B2), which ones not stated",
            varied(None, *DEFLECTIONS),
            "random free output (all figures), or the free output nearest the destination (Fig. 8 "
            "readings); None: minimal",
            "hotpotato_deflect",
        ),
        SetupRow(
            "hot-potato path length of a packet",
            "'average path length' (Fig. 8); a packet's flits share one path under cut-through",
            varied(None, *PACKET_HOPS),
            "flit switching: the last flit's routers (all figures) or the mean over the packet's flits "
            "(Fig. 8 readings); None: minimal and worms (one path per packet)",
            "hotpotato_packet_hops",
        ),
        SetupRow(
            "hot-potato buffers",
            "contradictory: no flow control is needed since 'each packet moves at each clock cycle' "
            "(§III-B2), yet the switches use virtual cut-through and 'four virtual channels in all "
            "our experiments' (§III-B3)",
            "none (bufferless); buffered (Fig. 8 readings)",
            "the figures follow §III-B2, the reading that needs no feedback wire: a deflection router "
            "moves every flit every cycle, and the four VCs are the minimal router's; §III-B3's "
            "reading runs as the buffered Fig. 8 readings (iq router with deflect)",
        ),
        SetupRow(
            "hot-potato injection",
            "'each host limits the injection of packets to each switch so that we maintain the "
            "non-blocking behavior of incoming input packets' (§III-B3)",
            True,
            "a host's flit enters only through a preferred output the arriving flits left free "
            "(docs/simulator.md; the iq router ignores it)",
            "hotpotato_inject_preferred",
        ),
        SetupRow(
            "hot-potato router delay [cycles]",
            "a switch 'over 100 ns' (§III-B3)",
            3,
            "the iq router's zero-load delay, so zero-load latencies agree (iq ignores it)",
            "hotpotato_delay",
        ),
        SetupRow("warm-up periods", "not stated", warmup, why, "warmup_periods"),
        SetupRow("sample period [cycles]", "not stated", 1000, "BookSim2's default", "sample_period"),
        SetupRow("most sample periods", "not stated", most, why, "max_samples"),
        SetupRow(
            "saturated when accepted below",
            "not stated (curves end where latency grows)",
            0.1,
            "90% of the offer: the 3% default is within the noise of 33-flit packets over short periods",
            "saturation_tolerance",
        ),
        SetupRow(
            "saturation search resolution",
            "not stated",
            resolution,
            "loads up to the first saturated one, then halvings of the last step",
        ),
    )


def _networks(n: int, d: int) -> list[tuple[str, str]]:
    return [
        ("uni MDDP", f"mddp:n={n},d={d},seed=0,p={P}"),
        ("bi Random", f"jellyfish:routers={n},degree={d},seed=0,p={P}"),
    ]


def curves(scale: str = "default") -> list[Curve]:
    n, degrees, traffics = SIZES[check_scale(scale)]
    loads = LOADS.get(scale, LOADS["default"])
    out = []
    for d in degrees:
        for net_name, spec in _networks(n, d):
            for traffic, fig in traffics.items():
                for label, own in ROUTINGS.items():
                    out.append(
                        Curve(
                            label,
                            spec,
                            "min",
                            traffic,
                            loads=loads,
                            params=tuple((k, v) for k, v in own if v is not None),
                            panel=f"Fig. {fig} {traffic}: {net_name} d = {d}",
                        )
                    )
        uni = _networks(n, d)[0][1]
        for label, own in policy_readings() + buffered_readings():
            out.append(
                Curve(
                    label,
                    uni,
                    "min",
                    "uniform",
                    loads=loads,
                    params=tuple((k, v) for k, v in own if v is not None),
                    panel=f"{READINGS_PANEL}: uni MDDP d = {d}",
                )
            )
    return out


READINGS_PANEL = "Fig. 8 readings (uniform)"


def _reading(c: Curve) -> str:
    """The hot-potato policy of a curve: switching/priority/deflection[/path count], or for the
    buffered reading buffered/hops/deflection/after cycles waited."""
    p = dict(c.params)
    if "deflect" in p:
        return f"buffered/{p['vc_priority']}/{p['deflect']}/after {p['deflect_after']}"
    parts = [p["hotpotato_switching"], p["hotpotato_priority"], p["hotpotato_deflect"]]
    if "hotpotato_packet_hops" in p:
        parts.append(p["hotpotato_packet_hops"])
    return "/".join(parts)


def _accepted(points: list[dict[str, Any]]) -> float:
    """The most traffic accepted before saturation (Koibuchi et al.'s throughput)."""
    return max((p["accepted_throughput"] for p in points if not p["saturated"]), default=float("nan"))


def _accepted_interval(points: list[dict[str, Any]]) -> Optional[tuple[float, float]]:
    """The 95% confidence interval of the run ``_accepted`` takes its figure from."""
    carried = [p for p in points if not p["saturated"]]
    if not carried:
        return None
    return confidence(max(carried, key=lambda p: p["accepted_throughput"]), "accepted_throughput")


def _at_load(points: list[dict[str, Any]], load: float) -> Optional[dict[str, Any]]:
    return next((p for p in points if abs(p["offered_load"] - load) < 1e-9 and not p["saturated"]), None)


def _hop_growth(points: list[dict[str, Any]]) -> Optional[float]:
    """avg hops at the highest unsaturated accepted traffic over avg hops at (about) a tenth of
    it, interpolated linearly in accepted traffic (Koibuchi et al., 2018, §III-B3's '10x increase')."""
    pts = sorted((p for p in points if not p["saturated"]), key=lambda p: p["accepted_throughput"])
    if len(pts) < 2:
        return None
    top = pts[-1]
    low_acc = top["accepted_throughput"] / 10
    if low_acc < pts[0]["accepted_throughput"]:
        return None
    for a, b in zip(pts, pts[1:]):
        if a["accepted_throughput"] <= low_acc <= b["accepted_throughput"]:
            span = b["accepted_throughput"] - a["accepted_throughput"]
            w = 0.0 if span == 0 else (low_acc - a["accepted_throughput"]) / span
            low_hops = a["avg_hops"] + w * (b["avg_hops"] - a["avg_hops"])
            return top["avg_hops"] / low_hops
    return None


def run(quick: bool = False, *, full: bool = False, execution: Optional[Execution] = None) -> Reproduction:
    scale = scale_of(quick, full)
    table = setup_table(scale)
    declared = curves(scale)
    measured = run_curves(
        ID,
        declared,
        table,
        setup_value(table, "saturation search resolution"),
        default_execution(scale, execution),
    )
    n = SIZES[scale][0]
    rows: list[Comparison] = []
    setups: list[Setup] = []
    sat: dict[tuple[str, str], float] = {}
    # (network, traffic) -> minimal routing's static channel-load bound on the network run
    bounds: dict[tuple[str, str], float] = {}
    readings: list[tuple[int, str, dict[str, Any]]] = []
    for m in measured:
        c = m["curve"]
        col = c.panel
        d = int(c.network.split("d=")[1].split(",")[0])
        if c.label != "minimal" and c.network.startswith("mddp") and c.traffic == "uniform":
            readings.append((d, _reading(c), m))
        if c.panel.startswith(READINGS_PANEL):
            continue
        accepted = _accepted(m["points"])
        sat[col, c.label] = accepted
        if not any(s.column == col for s in setups):
            setups.append(Setup(col, c.network, f"{n} switches x {P} hosts; the router: the setup table"))
        if (c.network, c.traffic) not in bounds:
            net = topolab.build(c.network)
            bounds[c.network, c.traffic] = routing.channel_load(
                net, "min", traffic=c.traffic
            ).throughput_bound
        rows.append(
            Comparison(
                col,
                f"{c.label}: accepted traffic before saturation [flit/cycle/host]",
                None,
                accepted,
                note="" if c.label == "minimal" else "bound: minimal routing's (deflections may exceed it)",
                bound=bounds[c.network, c.traffic],
                interval=_accepted_interval(m["points"]),
            )
        )
        if c.label != "minimal" and c.network.startswith("mddp"):
            growth = _hop_growth(m["points"])
            rows.append(
                Comparison(
                    col,
                    f"{c.label}: path length growth over 10x accepted traffic "
                    "(Koibuchi et al. (2018): below)",
                    HOP_GROWTH_PAPER.get(d),
                    growth,
                    note="" if growth is not None else "the sweep does not span 10x accepted traffic",
                )
            )
        if c.label == "hot-potato worms":
            for label in ("hot-potato", "hot-potato worms"):
                base = sat.get((col, "minimal"))
                rows.append(
                    Comparison(
                        col,
                        f"{label} / minimal accepted before saturation "
                        "(Koibuchi et al. (2018): comparable, often > 1)",
                        None,
                        sat[col, label] / base if base else None,
                    )
                )
    rows.extend(_reading_rows(readings, n))
    for d in dict.fromkeys(d for d, _, _ in readings):
        setups.append(
            Setup(
                f"{READINGS_PANEL}: uni MDDP d = {d}",
                _networks(n, d)[0][1],
                "hot-potato readings of Koibuchi et al., 2018, §III-B2: switching/priority/deflection"
                "[/path count of a packet's flits]; flit/hops/random/last and packet/hops/random are the "
                "curves of the figures; buffered/hops/deflection/after N: §III-B3's VCT switches "
                "deflecting a packet blocked on every minimal output after N cycles",
            )
        )
    notes = [
        f"{n} switches ({n * P} hosts)"
        + (
            ""
            if scale == "full"
            else ": scaled from Koibuchi et al.'s (2018) 256 (1,024 hosts), so that the run fits this machine"
        ),
        "latency in cycles (Koibuchi et al. (2018) plots ns: a switch costs 'over 100 ns' and link + "
        "injection 20 ns; in topolab both routers cost 3 cycles per switch plus 1 per link at zero load)",
        "hot-potato with 33-flit packets: Koibuchi et al. (2018) does not say how a packet is deflected "
        "without buffers; 'hot-potato' routes and deflects every flit on its own (the packet counts when "
        "its last flit arrives), 'hot-potato worms' deflects whole packets (docs/simulator.md)",
        "Koibuchi et al.'s (2018) minimal routing: 'topology-agnostic' with four VCs, not specified further; "
        "topolab uses min with hop-indexed VCs (deadlock-free, the diameter fits in four classes)",
        "bi Random: the bi-directional random regular graph with the same switch ports (topolab has "
        "no bi-directional MDDP); Koibuchi et al.'s (2018) Figs. 5-8 show uni-directional networks only",
        "Koibuchi et al. (2018) gives Figs. 5-8 as curves only; the one number is Fig. 8's path length "
        "growth over a 10x increase of accepted traffic (below 1.65x for d = 6, 1.25x for d = 8)",
    ]
    return Reproduction(
        ID, TITLE, SOURCE, tuple(rows), tuple(setups), tuple(notes), tuple(records(measured)), quick, table
    )


def _reading_rows(readings: list[tuple[int, str, dict[str, Any]]], n: int) -> list[Comparison]:
    """Per hot-potato reading (uni MDDP, uniform): Fig. 8's path length growth over 10x
    accepted traffic, and the routers per packet at offered load 0.1 beside minimal routing's
    (Koibuchi et al.'s figures are for 256 switches; the stretch over minimal compares across
    sizes)."""
    rows = []
    minimal_routers: dict[int, float] = {}
    for d, reading, m in readings:
        col = f"{READINGS_PANEL}: uni MDDP d = {d}"
        if d not in minimal_routers:
            net = topolab.build(_networks(n, d)[0][1])
            aspl = topolab.analyze(net).aspl  # None only for a network not strongly connected
            minimal_routers[d] = float("nan") if aspl is None else 1 + aspl
        growth = _hop_growth(m["points"])
        rows.append(
            Comparison(
                col,
                f"{reading}: path length growth over 10x accepted traffic",
                HOP_GROWTH_PAPER.get(d),
                growth,
                note="Koibuchi et al. (2018), §III-B3: below"
                if growth is not None
                else "the sweep does not span 10x",
            )
        )
        rows.append(
            Comparison(
                col,
                f"{reading}: accepted traffic before saturation [flit/cycle/host]",
                None,
                _accepted(m["points"]),
            )
        )
        at = _at_load(m["points"], 0.1)
        rows.append(
            Comparison(
                col,
                f"{reading}: routers per packet at offered load 0.1",
                PATH_AT_0_1_PAPER,
                None if at is None else at["avg_hops"],
                note=f"minimal paths: {minimal_routers[d]:.2f} routers here (ASPL + 1); paper: read off "
                "Koibuchi et al.'s (2018) Fig. 8, 256 switches",
            )
        )
    return rows


def plot(rep: Reproduction, path: Path) -> None:
    """Latency against accepted traffic per pattern and network (Figs. 5-7) and the hot-potato
    path length under uniform traffic (Fig. 8), up to saturation as Koibuchi et al. plot them."""
    shown = [{**r, "y": r["avg_latency"]} for r in rep.data]
    shown += [
        {**r, "y": r["avg_hops"], "panel": "Fig. 8 routers traversed: " + r["panel"].split(": ", 1)[1]}
        for r in rep.data
        if r["traffic"] == "uniform" and r["label"] != "minimal"
    ]
    plot_curves(
        shown,
        path,
        f"{rep.title}{' (quick)' if rep.quick else ''}",
        x="accepted_throughput",
        y="y",
        xlabel="accepted traffic [flit/cycle/host]",
        ylabel="latency [cycles] / Fig. 8: routers",
    )
