"""002 (uni-directional topologies), the simulated part: Figs. 5-8 of §III-B3.

002 simulates 256-switch uni-directional MDDP networks of degree 6 and 8 (1,024 hosts, four per
switch, 33-flit packets, virtual cut-through, four VCs) under uniform, matrix transpose and bit
reversal traffic, with minimal routing and with hot-potato routing (§III-B2), and plots latency
against accepted traffic (Figs. 5-7) and, for hot-potato, the average path length against
accepted traffic (Fig. 8). Its claims: hot-potato reaches throughput comparable to, often better
than, minimal routing; a 10x increase of accepted traffic raises the hot-potato path length by
less than 1.65x (d = 6) and 1.25x (d = 8).

topolab runs the same comparison scaled to this machine (the notes say what was scaled): MDDP
of ``ROUTERS`` switches instead of 256, and beside each uni-directional MDDP the bi-directional
random regular graph with the same switch ports (002's Figs. 5-8 have no bi-directional curve;
Figs. 12/13 compare uni- and bi-directional networks with SimGrid, which topolab does not model).

- minimal: the ``iq`` router, ``min`` routing with hop-indexed VCs (4 VCs cover the diameter, so
  it is deadlock-free), virtual cut-through, 33-flit packets;
- hot-potato: ``router=hotpotato`` with the minimal next hops preferred, ``hotpotato_delay = 3``
  (the iq router's zero-load delay per router), flit-level deflection (docs/simulator.md).

``quick`` (what the test runs) simulates 16-switch networks under uniform traffic only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import topolab
from topolab._files import save_figure
from topolab.reproduce import Comparison, Reproduction, Setup

ID = "unidirectional-sim"
TITLE = (
    "Koibuchi et al., 2018, Figs. 5-8: minimal vs hot-potato routing on uni-directional MDDP (and "
    "bi-directional peers)"
)
SOURCE = "Koibuchi et al., 2018, §III-B2, §III-B3, Figs. 5-8"

P = 4  # hosts per switch (002 §III-B3)
PACKET = 33  # flits, one of them the header (002 §III-B3)
ROUTERS, QUICK_ROUTERS = 64, 16
DEGREES, QUICK_DEGREES = (6, 8), (4,)
TRAFFIC = {"uniform": "5", "transpose": "6", "bitrev": "7"}
QUICK_TRAFFIC = {"uniform": "5"}
LOADS = (0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6)
BISECT_STEPS, QUICK_BISECT_STEPS = 2, 0  # halvings of the load step around saturation
QUICK_LOADS = (0.05, 0.3)
SEED = 1
HOP_GROWTH_PAPER = {6: 1.65, 8: 1.25}  # 002 §III-B3: path length growth over 10x accepted traffic

HP = {"routing": "min", "router": "hotpotato", "hotpotato_delay": 3, "num_vcs": 4}
ROUTINGS = {
    "minimal": {"routing": "min", "flow_control": "vct", "num_vcs": 4},
    "hot-potato": {**HP, "hotpotato_switching": "flit"},
    "hot-potato worms": {**HP, "hotpotato_switching": "packet"},
}
COMMON = {
    "packet_size": PACKET,
    "vc_buf_size": 64,
    "sample_period": 1000,
    "warmup_periods": 3,
    "max_samples": 8,
}
QUICK_COMMON = {
    "packet_size": PACKET,
    "vc_buf_size": 64,
    "sample_period": 1000,
    "warmup_periods": 1,
    "max_samples": 3,
}


def _networks(n: int, d: int) -> list[tuple[str, str]]:
    return [
        ("uni MDDP", f"mddp:n={n},d={d},seed=0,p={P}"),
        ("bi Random", f"jellyfish:routers={n},degree={d},seed=0,p={P}"),
    ]


def _clearly_saturated(p: dict[str, Any]) -> bool:
    """Unstable, or accepting less than 90% of the offered load (the 3% tolerance of
    ``saturated`` is within the sampling noise of 33-flit packets over short periods)."""
    return p["unstable"] or p["accepted_throughput"] < 0.9 * p["offered_load"]


def _sweep(
    spec: str, traffic: str, routing: str, loads: tuple[float, ...], common: dict, bisect: int
) -> list[dict]:
    """Runs the loads in increasing order up to the first clearly saturated one (its point
    included), then halves the interval below it ``bisect`` times."""
    params = {**common, **ROUTINGS[routing]}
    name = params.pop("routing")
    net = topolab.build(spec)
    points = []

    def one(load: float) -> bool:
        p = topolab.simulate(net, name, traffic, load, seed=SEED, **params).to_dict()
        points.append(p)
        return _clearly_saturated(p)

    lo = 0.0
    hi: Optional[float] = None
    for load in loads:
        if one(load):
            hi = load
            break
        lo = load
    if hi is not None:
        for _ in range(bisect):
            mid = round((lo + hi) / 2, 6)
            if one(mid):
                hi = mid
            else:
                lo = mid
    return sorted(points, key=lambda p: p["offered_load"])


def _hop_growth(points: list[dict[str, Any]]) -> Optional[float]:
    """avg hops at the highest unsaturated accepted traffic over avg hops at (about) a tenth of
    it, interpolated linearly in accepted traffic (002 §III-B3's '10x increase')."""
    pts = sorted((p for p in points if not _clearly_saturated(p)), key=lambda p: p["accepted_throughput"])
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


def _saturation(points: list[dict[str, Any]]) -> float:
    """002's throughput: the most traffic accepted before saturation (points not clearly
    saturated; resolution: the last load step after its halvings)."""
    return max((p["accepted_throughput"] for p in points if not _clearly_saturated(p)), default=float("nan"))


def run(quick: bool = False) -> Reproduction:
    n = QUICK_ROUTERS if quick else ROUTERS
    degrees = QUICK_DEGREES if quick else DEGREES
    traffics = QUICK_TRAFFIC if quick else TRAFFIC
    loads = QUICK_LOADS if quick else LOADS
    common = QUICK_COMMON if quick else COMMON
    bisect = QUICK_BISECT_STEPS if quick else BISECT_STEPS
    rows: list[Comparison] = []
    setups: list[Setup] = []
    data: list[dict[str, Any]] = []
    for d in degrees:
        for net_name, spec in _networks(n, d):
            for traffic, fig in traffics.items():
                col = f"{net_name} d = {d}, {traffic} (Fig. {fig})"
                setups.append(
                    Setup(
                        col,
                        spec,
                        (
                            f"{n} switches x {P} hosts, {PACKET}-flit packets, {traffic}; minimal: iq "
                            "router, min routing, hop-indexed VCs (4), virtual cut-through; hot-potato: "
                            "router=hotpotato, minimal next hops preferred, hotpotato_delay 3, flit "
                            "switching (hot-potato) or packet switching (hot-potato worms); loads "
                            f"{', '.join(map(str, loads))} flit/cycle/host up to clear saturation, then "
                            f"{bisect} halvings of the last step"
                        ),
                    )
                )
                sat: dict[str, float] = {}
                for routing in ROUTINGS:
                    points = _sweep(spec, traffic, routing, loads, common, bisect)
                    sat[routing] = _saturation(points)
                    for p in points:
                        data.append(
                            {
                                "figure": fig,
                                "network": net_name,
                                "spec": spec,
                                "d": d,
                                "traffic": traffic,
                                "routing": routing,
                                "offered_load": p["offered_load"],
                                "accepted_throughput": p["accepted_throughput"],
                                "avg_latency": p["avg_latency"],
                                "avg_hops": p["avg_hops"],
                                "deflection_rate": p["deflection_rate"],
                                "saturated": p["saturated"],
                                "clearly_saturated": _clearly_saturated(p),
                            }
                        )
                    rows.append(
                        Comparison(
                            col,
                            f"{routing}: accepted traffic before saturation [flit/cycle/host]",
                            None,
                            sat[routing],
                        )
                    )
                    if routing != "minimal" and net_name == "uni MDDP":
                        growth = _hop_growth(points)
                        rows.append(
                            Comparison(
                                col,
                                f"{routing}: path length growth over 10x accepted traffic (Koibuchi et al. "
                                "(2018): below)",
                                HOP_GROWTH_PAPER.get(d),
                                growth,
                                note=""
                                if growth is not None
                                else "the sweep does not span 10x accepted traffic",
                            )
                        )
                for routing in ("hot-potato", "hot-potato worms"):
                    rows.append(
                        Comparison(
                            col,
                            f"{routing} / minimal accepted before saturation (Koibuchi et al. (2018): "
                            "comparable, often > 1)",
                            None,
                            sat[routing] / sat["minimal"] if sat["minimal"] else None,
                        )
                    )
    notes = [
        f"scaled: {n} switches instead of Koibuchi et al.'s (2018) 256 ({n * P} hosts instead of 1,024), so "
        "that the whole "
        "reproduction simulates in a few minutes; degrees, hosts per switch, packet size, VC count and "
        "traffic patterns as Koibuchi et al. (2018)",
        "latency in cycles (Koibuchi et al. (2018) plots ns: a switch costs 'over 100 ns' and link + "
        "injection 20 ns; in "
        "topolab both routers cost 3 cycles per switch plus 1 per link at zero load, so one cycle is "
        "roughly 20-35 ns of Koibuchi et al.'s (2018) setup)",
        "hot-potato with 33-flit packets: Koibuchi et al. (2018) does not say how a packet is deflected "
        "without buffers; "
        "'hot-potato' routes and deflects every flit on its own (the packet counts when its last flit "
        "arrives), 'hot-potato worms' deflects whole packets, the flits following the first as a worm "
        "that arriving worms may cut only at the injection (docs/simulator.md); minimal routing uses "
        "virtual cut-through as Koibuchi et al. (2018)",
        "Koibuchi et al.'s (2018) minimal routing: 'topology-agnostic' with four VCs, not specified further; "
        "topolab uses "
        "min with hop-indexed VCs (deadlock-free, the diameter fits in four classes)",
        "bi Random: the bi-directional random regular graph with the same switch ports (topolab has "
        "no bi-directional MDDP); Koibuchi et al.'s (2018) Figs. 5-8 show uni-directional networks only",
        "the Imase custom routing (Koibuchi et al., 2018, §III-B1) as the preferred outputs of hot-potato is "
        "not used "
        "yet: minimal next hops from the hop tables are; any core rule routing can be given instead",
        "Koibuchi et al. (2018) gives Figs. 5-8 as curves only; the one number is Fig. 8's path length "
        "growth over a "
        "10x increase of accepted traffic (below 1.65x for d = 6, 1.25x for d = 8)",
    ]
    if quick:
        notes.append(
            f"quick: {n} switches, degree {degrees[0]}, uniform traffic, loads {loads}, short samples"
        )
    return Reproduction(ID, TITLE, SOURCE, tuple(rows), tuple(setups), tuple(notes), tuple(data), quick)


def plot(rep: Reproduction, path: Path) -> None:
    """Latency against accepted traffic per pattern (Figs. 5-7) and the hot-potato path length
    under uniform traffic (Fig. 8), up to clear saturation as 002 plots them; colour = network,
    line = routing."""
    import matplotlib.pyplot as plt

    figs = [f for f in ("5", "6", "7") if any(r["figure"] == f for r in rep.data)]
    fig, axes = plt.subplots(1, len(figs) + 1, figsize=(5 * (len(figs) + 1), 4.8), squeeze=False)
    names = {"5": "uniform", "6": "matrix transpose", "7": "bit reversal"}
    nets = sorted({(r["network"], r["d"]) for r in rep.data})
    colour = {k: f"C{i}" for i, k in enumerate(nets)}
    style = {"minimal": "o--", "hot-potato": "s-", "hot-potato worms": "^:"}

    def curve(f: str, net: tuple[str, int], routing: str) -> list[dict[str, Any]]:
        pts = [
            r
            for r in rep.data
            if r["figure"] == f
            and (r["network"], r["d"]) == net
            and r["routing"] == routing
            and not r["clearly_saturated"]
        ]
        return sorted(pts, key=lambda r: r["offered_load"])

    for ax, f in zip(axes[0], figs):
        for net in nets:
            for routing in ROUTINGS:
                pts = curve(f, net, routing)
                ax.plot(
                    [r["accepted_throughput"] for r in pts],
                    [r["avg_latency"] for r in pts],
                    style[routing],
                    color=colour[net],
                    label=f"{net[0]} d={net[1]} {routing}",
                    markersize=3,
                )
        ax.set_title(f"Fig. {f}: {names[f]}")
        ax.set_xlabel("accepted traffic [flit/cycle/host]")
        ax.set_ylabel("latency [cycles]")
        ax.set_yscale("log")
        ax.grid(True, alpha=0.3)
    axes[0][0].legend(fontsize=6)
    ax = axes[0][-1]
    for net in nets:
        for routing in ROUTINGS:
            if routing == "minimal":
                continue
            pts = curve("5", net, routing)
            ax.plot(
                [r["accepted_throughput"] for r in pts],
                [r["avg_hops"] for r in pts],
                style[routing],
                color=colour[net],
                label=f"{net[0]} d={net[1]} {routing}",
                markersize=3,
            )
    ax.set_title("Fig. 8: hot-potato path length (uniform)")
    ax.set_xlabel("accepted traffic [flit/cycle/host]")
    ax.set_ylabel("routers traversed")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=6)
    fig.suptitle(f"{rep.title}{' (quick)' if rep.quick else ''}", fontsize=9)
    fig.tight_layout()
    save_figure(fig, path, dpi=110)
    plt.close(fig)
