"""Fujiwara et al., IPDPS 2014, §III-B to §III-E: total cable length and latency of Skywalk and the networks
it is compared with, 2,048 switches in 256 cabinets (and 8,192 in 1,024 for §III-D).

Every network is built, placed on the ``skywalk`` floor (0.6 m x 2.1 m cabinets, 2 m inside a
cabinet, Manhattan distance + 4 m between cabinets, Fujiwara et al., IPDPS 2014, §III-A) with its family's
placement, its cables summed with ``topolab.cost(..., floor="skywalk")`` and its all-pairs latency computed
with ``topolab.latency`` under Fastest Routing with 60 ns switches (5 ns/m, 300 ns injection),
the setting of all of Fujiwara et al., IPDPS 2014, §III after §III-B. They give most latencies only in
figures; the rows compare the totals and the ratios its text quotes.

``quick`` leaves out the 8,192-switch networks of §III-D (about a minute of Fastest Routing
together) and the switch-delay sweep of Fig. 5.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from topolab._files import save_figure
from topolab.reproduce import Comparison, Reproduction, Setup, SetupRow, sim_params
from topolab.reproduce.cases import Execution, default_execution, run_points, scale_of, varied

ID = "skywalk-cables"
TITLE = (
    "Fujiwara et al., IPDPS 2014, §III-B–E: total cable length and latency (Fastest Routing, 60 ns switches)"
)
SOURCE = "Fujiwara et al., IPDPS 2014, §III-A–E, Figs. 5–8"

RUNS_CASES = True
SWITCH_NS = 60.0
FLOOR = "skywalk"
DELAY_SWEEP_NS = (0.0, 20.0, 60.0, 100.0, 200.0, 500.0)


@dataclass(frozen=True)
class Net:
    name: str
    spec: str
    degree: int  # Fujiwara et al.'s (IPDPS 2014) degree
    paper_km: Optional[float] = None
    large: bool = False  # 8,192 switches: left out in quick mode


NETS = (
    Net("Torus(8,256,6)", "torus:dims=8x16x16", 6, 31),
    Net("Hypercube(2048,11)", "hypercube:n=11", 11, 80),
    Net("Random(2048,11)", "jellyfish:routers=2048,degree=11", 11, 207),
    Net("Skywalk(8,256,7,4)", "skywalk:z=8,c=256,di=7,do=4", 11, 59),
    Net("Dragonfly(8,256,39)", "dragonfly:z=8,c=256", 39, 615),
    Net("HyperX(8,256,37)", "hyperx:z=8,c=256", 37, 372),
    Net("Skywalk(8,256,7,12)", "skywalk:z=8,c=256,di=7,do=12", 19),
    Net("Skywalk(8,256,7,9)", "skywalk:z=8,c=256,di=7,do=9", 16),
    Net("Skywalk(8,256,7,25)", "skywalk:z=8,c=256,di=7,do=25", 32),
    Net("Skywalk(8,1024,7,9)", "skywalk:z=8,c=1024,di=7,do=9", 16, large=True),
    Net("Skywalk(8,1024,7,57)", "skywalk:z=8,c=1024,di=7,do=57", 64, large=True),
    Net("Dragonfly(8,1024,135)", "dragonfly:z=8,c=1024", 135, large=True),
    Net("HyperX(8,1024,69)", "hyperx:z=8,c=1024", 69, large=True),
)
FIG5 = (
    "Torus(8,256,6)",
    "Hypercube(2048,11)",
    "Random(2048,11)",
    "Skywalk(8,256,7,4)",
    "Dragonfly(8,256,39)",
    "HyperX(8,256,37)",
)

NET_NOTES = {
    "Random(2048,11)": (
        "a uniformly random 11-regular graph (jellyfish); Fujiwara et al. (IPDPS 2014) builds Random(N, d) "
        "with its §II-C "
        "greedy matching, which can leave ports free; random graph, one instance (seed 0)",
    ),
    "Skywalk(8,256,7,4)": (
        "Fujiwara et al., IPDPS 2014, §II-C's algorithm, which topolab follows, completes only ~92% of the "
        "K8 inside each "
        "cabinet at di = z - 1 = 7: 57.6 km; a complete K8 and all 30 straight partners per cabinet "
        "would give 59.07 km (docs/families/skywalk.md)",
    ),
    "Skywalk(8,256,7,9)": (
        "degree 16 at 2,048 switches: the base of Fujiwara et al., IPDPS 2014, §III-D's growth to 8,192",
    ),
    "Skywalk(8,256,7,25)": (
        "'Skywalk with degree 32' of Fujiwara et al., IPDPS 2014, §III-D; Fujiwara et al. (IPDPS 2014) does "
        "not give di, topolab uses "
        "di = z - 1 = 7 as in all of Fujiwara et al.'s (IPDPS 2014) Skywalk(8, 256, 7, *)",
    ),
    "Skywalk(8,1024,7,9)": (
        "'degree 16' at 8,192 switches (Fujiwara et al., IPDPS 2014, §III-D), di = 7 as above",
    ),
    "Skywalk(8,1024,7,57)": (
        "'degree 64' at 8,192 switches (Fujiwara et al., IPDPS 2014, §III-D), di = 7 as above",
    ),
    "HyperX(8,256,37)": (
        "slot (8) x cabinet column (16) x cabinet row (16), Fujiwara et al., IPDPS 2014, §III-A",
    ),
    "Dragonfly(8,256,39)": ("one group of 8 per cabinet, every pair of the 256 groups joined once",),
}


def cases(quick: bool = False) -> list[tuple[Net, tuple[float, ...]]]:
    """The networks measured, each with the switch delays of its latency runs: every one of
    ``NETS`` at 60 ns, Fig. 5's also at ``DELAY_SWEEP_NS``; ``quick``: the 2,048-switch ones at
    60 ns. Each network is one "info" and one "cost" point, each (network, delay) one "latency"
    point of the experiment package (``run_points``)."""
    return [
        (
            net,
            (SWITCH_NS,)
            if quick or net.name not in FIG5
            else tuple(dict.fromkeys((SWITCH_NS, *DELAY_SWEEP_NS))),
        )
        for net in NETS
        if not (quick and net.large)
    ]


def setup_table(quick: bool = False) -> tuple[SetupRow, ...]:
    """The layout and latency model of Fujiwara et al. (§III-A, §III-B, §II-E) beside topolab's;
    the rows with a keyword are the "cost" and "latency" points' settings (``sim_params``)."""
    delays = (SWITCH_NS,) if quick else tuple(dict.fromkeys((SWITCH_NS, *DELAY_SWEEP_NS)))
    return (
        SetupRow(
            "networks",
            "2,048 switches in 256 cabinets (§III-A); 8,192 switches for §III-D",
            "the 2,048-switch ones" if quick else "2,048 and 8,192 switches",
            "quick: without the 8,192-switch networks" if quick else "",
        ),
        SetupRow(
            "floor",
            "cabinets 0.6 m wide and 2.1 m deep on a grid; 2 m intra-cabinet cables, 4 m overhead plus "
            "the Manhattan distance between cabinets (§III-A)",
            FLOOR,
            "",
            "floor",
        ),
        SetupRow("routing", "Fastest Routing: lowest-latency paths (§II-E)", "fastest", "", "routing"),
        SetupRow(
            "switch delay [ns]",
            "60 (§III-B on); 0 to 500 for Fig. 5",
            varied(*delays),
            "60 for every table; Fig. 5's sweep for its six networks"
            + (" (quick: 60 only)" if quick else ""),
            "switch_delay_ns",
        ),
        SetupRow(
            "cable catalog",
            "none: the paper sums lengths",
            "fdr10",
            "the cost model needs one to price the cables; the lengths do not depend on it",
            "catalog",
        ),
        SetupRow(
            "d_i of 'degree 16, 32, 64'",
            "not stated (§III-D)",
            "z - 1 = 7",
            "as in every Skywalk(8, 256, 7, ·) of the paper; the 8,192-switch degree-16 latencies confirm it",
        ),
    )


def measure(
    declared: list[tuple[Net, tuple[float, ...]]], execution: Execution, table: tuple[SetupRow, ...]
) -> dict[str, dict[str, Any]]:
    """Cables and Fastest-Routing latency of each network (at 60 ns and at each delay it
    lists), by name, with the setup table's settings."""
    settings = sim_params(table)
    networks = [{"network": net.spec} for net, _ in declared]
    info = run_points(ID, "info", {}, networks, execution)
    cost_keys = ("catalog", "floor")
    costs = run_points(ID, "cost", {k: settings[k] for k in cost_keys}, networks, execution)
    latency_cases = [{"network": net.spec, "switch_delay_ns": d} for net, delays in declared for d in delays]
    latency_keys = ("routing", "floor")
    latency = run_points(ID, "latency", {k: settings[k] for k in latency_keys}, latency_cases, execution)
    by_case = {
        (c["network"], c["switch_delay_ns"]): row for c, (_, row) in zip(latency_cases, latency.iterrows())
    }
    out = {}
    for (net, delays), (_, n), (_, c) in zip(declared, info.iterrows(), costs.iterrows()):
        lat = by_case[(net.spec, SWITCH_NS)]
        rec: dict[str, Any] = {
            "name": net.name,
            "spec": net.spec,
            "switches": int(n["routers"]),
            "cabinets": int(c["cabinets"]),
            "degree": int(n["network_radix"]),
            "paper_degree": net.degree,
            "cables": int(c["electric_cables"] + c["optical_cables"]),
            "total_cable_km": float(c["total_cable_m"]) / 1000,
            "paper_total_cable_km": net.paper_km,
            "avg_cable_m": float(c["avg_cable_m"]),
            "max_latency_ns": float(lat["max_latency_ns"]),
            "avg_latency_ns": float(lat["avg_latency_ns"]),
            "avg_hops": float(lat["avg_hops"]),
            "max_hops": int(lat["max_hops"]),
        }
        if len(delays) > 1:
            for d in DELAY_SWEEP_NS:
                rec[f"max_latency_ns@{d:g}"] = float(by_case[(net.spec, d)]["max_latency_ns"])
                rec[f"avg_latency_ns@{d:g}"] = float(by_case[(net.spec, d)]["avg_latency_ns"])
        out[net.name] = rec
    return out


def run(quick: bool = False, *, full: bool = False, execution: Optional[Execution] = None) -> Reproduction:
    """``quick``: the 2,048-switch networks at 60 ns; otherwise (and ``full``: the same) every
    network of §III-B to §III-E and Fig. 5's delay sweep."""
    table = setup_table(quick)
    recs = measure(cases(quick), default_execution(scale_of(quick), execution), table)
    rows: list[Comparison] = []
    setups: list[Setup] = []
    for net in NETS:
        if net.name not in recs:
            continue
        r = recs[net.name]
        rows += [
            Comparison(net.name, "degree", net.degree, r["degree"]),
            Comparison(net.name, "total cable [km]", net.paper_km, r["total_cable_km"]),
            Comparison(net.name, "max latency [ns]", None, r["max_latency_ns"]),
            Comparison(net.name, "avg latency [ns]", None, r["avg_latency_ns"]),
        ]
        setups.append(
            Setup(
                net.name,
                net.spec,
                (
                    f"{r['switches']:,} switches in {r['cabinets']} cabinets, {r['cables']:,} cables "
                    f"(avg {r['avg_cable_m']:.1f} m); FR paths: avg {r['avg_hops']:.2f} hops, "
                    f"max {r['max_hops']}"
                ),
                NET_NOTES.get(net.name, ()),
            )
        )

    def pct(a: str, b: str, key: str) -> float:
        return 100.0 * (recs[a][key] / recs[b][key] - 1.0)

    def ratio(a: str, b: str, key: str) -> float:
        return recs[a][key] / recs[b][key]

    sky4, sky12, df, hx = (
        "Skywalk(8,256,7,4)",
        "Skywalk(8,256,7,12)",
        "Dragonfly(8,256,39)",
        "HyperX(8,256,37)",
    )
    km, mx, av = "total_cable_km", "max_latency_ns", "avg_latency_ns"
    col = "Skywalk(8,256,7,4) against the others"
    rows += [
        Comparison(col, "cable vs Dragonfly (§III-E) [%]", -90, pct(sky4, df, km), unit="%"),
        Comparison(col, "cable vs HyperX (§III-E) [%]", -84, pct(sky4, hx, km), unit="%"),
        Comparison(col, "Dragonfly cable / Skywalk's (§III-B: more than 10x)", 10, ratio(df, sky4, km)),
        Comparison(col, "HyperX cable / Skywalk's (§III-B: more than 6x)", 6, ratio(hx, sky4, km)),
        Comparison(
            col, "Random cable / Skywalk's (§III-B: more than 3x)", 3, ratio("Random(2048,11)", sky4, km)
        ),
        Comparison(col, "max latency vs Dragonfly (§III-B, §III-E) [%]", 19, pct(sky4, df, mx), unit="%"),
        Comparison(col, "max latency vs HyperX (§III-E) [%]", 17.7, pct(sky4, hx, mx), unit="%"),
        Comparison(col, "avg latency vs Dragonfly (§III-B) [%]", 17, pct(sky4, df, av), unit="%"),
        Comparison(col, "avg latency vs HyperX (§III-B) [%]", 17, pct(sky4, hx, av), unit="%"),
        Comparison(
            col, "max latency vs Hypercube (§III-C) [%]", -34, pct(sky4, "Hypercube(2048,11)", mx), unit="%"
        ),
    ]
    for other in ("Torus(8,256,6)", "Hypercube(2048,11)", "Random(2048,11)"):
        for key, label in ((mx, "max"), (av, "avg")):
            rows.append(
                Comparison(
                    col,
                    f"{label} latency vs {other} [%]",
                    None,
                    pct(sky4, other, key),
                    unit="%",
                    note="Fujiwara et al. (IPDPS 2014): lower",
                )
            )
    setups.append(
        Setup(
            col,
            None,
            "ratios from the rows above (60 ns switches, Fastest Routing)",
            (
                "Fujiwara et al., IPDPS 2014, §III-B: Skywalk's maximum latency is lower than Torus', "
                "Hypercube's and Random's "
                "(switch delays below 500 ns) and its average lower than Torus' and Hypercube's, and "
                "lower than Random's below 200 ns: the rows marked 'lower' should be negative",
                "Fujiwara et al., IPDPS 2014, §III-B says 'only 19% larger than that of Dragonfly/HyperX' "
                "and §III-E 17.7% for HyperX",
            ),
        )
    )

    col = "Skywalk(8,256,7,12) against Dragonfly and HyperX"
    rows += [
        Comparison(col, "cable vs Dragonfly (§III-E) [%]", -65, pct(sky12, df, km), unit="%"),
        Comparison(col, "cable vs HyperX (§III-E) [%]", -42, pct(sky12, hx, km), unit="%"),
        Comparison(col, "max latency vs Dragonfly (§III-E) [%]", 10, pct(sky12, df, mx), unit="%"),
        Comparison(col, "max latency vs HyperX (§III-E) [%]", 8.8, pct(sky12, hx, mx), unit="%"),
        Comparison(col, "avg latency vs Dragonfly (§III-C) [%]", 5.98, pct(sky12, df, av), unit="%"),
        Comparison(col, "avg latency vs HyperX (§III-C) [%]", 4.27, pct(sky12, hx, av), unit="%"),
    ]
    setups.append(Setup(col, None, "ratios from the rows above"))

    sky32 = "Skywalk(8,256,7,25)"
    col = "Skywalk degree 32 at 2,048 switches (§III-D)"
    rows += [
        Comparison(
            col,
            "max latency vs the worse of DF/HyperX [%] (Fujiwara et al. (IPDPS 2014): at most)",
            5.4,
            max(pct(sky32, df, mx), pct(sky32, hx, mx)),
            unit="%",
        ),
        Comparison(
            col,
            "avg latency vs the worse of DF/HyperX [%] (Fujiwara et al. (IPDPS 2014): at most)",
            1.3,
            max(pct(sky32, df, av), pct(sky32, hx, av)),
            unit="%",
        ),
    ]
    setups.append(Setup(col, None, "Skywalk(8,256,7,25) against Dragonfly(8,256,39) and HyperX(8,256,37)"))

    if not quick:
        s16, s16_8k = "Skywalk(8,256,7,9)", "Skywalk(8,1024,7,9)"
        col = "Skywalk degree 16 at 8,192 switches (§III-D)"
        rows += [
            Comparison(col, "max latency [ns]", 1149, recs[s16_8k][mx]),
            Comparison(col, "avg latency [ns]", 811, recs[s16_8k][av]),
            Comparison(col, "max latency growth from 2,048 switches [%]", 31, pct(s16_8k, s16, mx), unit="%"),
            Comparison(col, "avg latency growth from 2,048 switches [%]", 18, pct(s16_8k, s16, av), unit="%"),
        ]
        setups.append(Setup(col, None, "Skywalk(8,1024,7,9) against Skywalk(8,256,7,9)"))
        s64, df8k, hx8k = "Skywalk(8,1024,7,57)", "Dragonfly(8,1024,135)", "HyperX(8,1024,69)"
        col = "Skywalk degree 64 at 8,192 switches (§III-D)"
        rows += [
            Comparison(
                col,
                "max latency vs the worse of DF/HyperX [%] (Fujiwara et al. (IPDPS 2014): at most)",
                1.0,
                max(pct(s64, df8k, mx), pct(s64, hx8k, mx)),
                unit="%",
            ),
            Comparison(
                col,
                "avg latency vs the worse of DF/HyperX [%] (Fujiwara et al. (IPDPS 2014): at most)",
                2.3,
                max(pct(s64, df8k, av), pct(s64, hx8k, av)),
                unit="%",
            ),
        ]
        setups.append(
            Setup(col, None, "Skywalk(8,1024,7,57) against Dragonfly(8,1024,135) and HyperX(8,1024,69)")
        )
        col = "Fig. 5: latency vs switch delay"
        for d in DELAY_SWEEP_NS:
            beats = [
                o
                for o in ("Torus(8,256,6)", "Hypercube(2048,11)", "Random(2048,11)")
                if recs[sky4][f"max_latency_ns@{d:g}"] < recs[o][f"max_latency_ns@{d:g}"]
            ]
            rows.append(
                Comparison(
                    col,
                    f"networks Skywalk(8,256,7,4) beats on max latency at {d:g} ns",
                    3 if d < 500 else None,
                    len(beats),
                    note="beats " + (", ".join(b.split("(")[0] for b in beats) or "none"),
                )
            )
        for d in DELAY_SWEEP_NS:
            rows.append(
                Comparison(
                    col,
                    f"avg latency vs Random at {d:g} ns [%]",
                    None,
                    100
                    * (
                        recs[sky4][f"avg_latency_ns@{d:g}"] / recs["Random(2048,11)"][f"avg_latency_ns@{d:g}"]
                        - 1
                    ),
                    unit="%",
                    note="Fujiwara et al. (IPDPS 2014): lower below 200 ns",
                )
            )
        setups.append(
            Setup(
                col,
                None,
                "the six networks of Fujiwara et al., IPDPS 2014, Fig. 5 at switch delays "
                + ", ".join(f"{d:g}" for d in DELAY_SWEEP_NS)
                + " ns",
                (
                    "Fujiwara et al., IPDPS 2014, §III-B: Skywalk's maximum latency is below Torus', "
                    "Hypercube's and Random's "
                    "for switch delays under 500 ns",
                ),
            )
        )

    notes = [
        "floor: Fujiwara et al., IPDPS 2014, §III-A (0.6 m x 2.1 m cabinets, near-square grid, 2 m inside a "
        "cabinet, Manhattan "
        "+ 4 m between cabinets); Torus and Hypercube placed sequentially, Random arbitrarily (index "
        "order), Skywalk, Dragonfly and HyperX as built; total cable counts router-to-router cables",
        "latency = 300 ns + (hops + 1) x switch delay + 5 ns/m x cable length, over all pairs of "
        "switches, Fastest Routing (lowest latency, ties by hops), Fujiwara et al., IPDPS 2014, §II-E, "
        "§III-A",
        "Fujiwara et al. (IPDPS 2014) prints cable totals rounded to the km and most latencies only in "
        "figures: the rows with "
        "a paper value are the numbers its text quotes; ratios are topolab's over topolab's",
        "Random and Skywalk are random networks (seed 0): their totals and maxima vary with the "
        "instance; Fujiwara et al. (IPDPS 2014) shows one instance each",
    ]
    if quick:
        notes.append("quick: the 8,192-switch networks of §III-D and the Fig. 5 delay sweep are left out")
    data = tuple(recs.values())
    return Reproduction(ID, TITLE, SOURCE, tuple(rows), tuple(setups), tuple(notes), data, quick, table)


def plot(rep: Reproduction, path: Path) -> None:
    """Latency against total cable length of the 2,048-switch networks: Skywalk variants as red
    circles, the other topologies as blue squares, each labelled (labels moved apart by
    adjustText when installed), the paper's cable totals as grey lines."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.ticker import FixedLocator, NullFormatter, ScalarFormatter

    from topolab._labels import spread_labels

    small = sorted((r for r in rep.data if r["switches"] == 2048), key=lambda r: r["total_cable_km"])
    fig, axes = plt.subplots(1, 2, figsize=(13, 6.2))
    for ax, key, label in zip(axes, ("max_latency_ns", "avg_latency_ns"), ("maximum", "average")):
        texts = []
        for r in small:
            sky = r["name"].startswith("Skywalk")
            ax.plot(r["total_cable_km"], r[key], "o" if sky else "s", color="tab:red" if sky else "tab:blue")
            texts.append(ax.text(r["total_cable_km"], r[key], f"{r['name']} d={r['degree']}", fontsize=7))
            if r.get("paper_total_cable_km"):
                ax.axvline(r["paper_total_cable_km"], color="grey", alpha=0.25, linewidth=0.8)
        ax.set_xscale("log")
        ax.xaxis.set_major_locator(FixedLocator([30, 60, 100, 200, 400, 700]))
        ax.xaxis.set_major_formatter(ScalarFormatter())
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlim(20, 1000)
        ax.set_xlabel("total cable length [km]")
        ax.set_ylabel(f"{label} latency [ns]")
        ax.set_title(f"{label} latency against cable length", fontsize=10)
        ax.grid(True, which="major", alpha=0.3)
        low, high = ax.get_ylim()
        ax.set_ylim(low - 0.12 * (high - low), high)  # room under the crowded cheap-latency corner
        spread_labels(
            texts,
            ax,
            [r["total_cable_km"] for r in small],
            [r[key] for r in small],
            expand=(1.3, 1.9),
            arrowprops={"arrowstyle": "-", "color": "0.5", "lw": 0.5},
        )
    legend = [
        Line2D([], [], linestyle="", marker="o", color="tab:red", label="Skywalk (d: degree)"),
        Line2D(
            [],
            [],
            linestyle="",
            marker="s",
            color="tab:blue",
            label="Torus, Hypercube, Random, Dragonfly, HyperX",
        ),
        Line2D(
            [], [], color="grey", alpha=0.5, label="total cable length that Fujiwara et al. (IPDPS 2014) give"
        ),
    ]
    fig.legend(handles=legend, loc="lower center", ncol=3, fontsize=8, frameon=False)
    fig.suptitle(
        "2,048 switches, 60 ns per switch, Fastest Routing (Fujiwara et al., IPDPS 2014, Fig. 8)", fontsize=11
    )
    fig.tight_layout(rect=(0, 0.05, 1, 0.97))
    save_figure(fig, path, dpi=120)
    plt.close(fig)
