"""Besta & Hoefler, SC14, Table III and §III-D: resilience to random cable failures.

Every network of Table III that topolab builds, at the size of each "≈ N" row, analysed with
``topolab.analyze(resilience=True, seed=0)`` (docs/analysis.md): cables fail in a uniformly random
order, in 5 % steps, until the three criteria of Besta & Hoefler, SC14, §III-D fail (disconnection, diameter +
2, average path length + 1), with samples drawn until every 95 % confidence interval is at most
2 points wide, as Besta & Hoefler (SC14) ask.

Besta & Hoefler (SC14) give no exact sizes, only "≈ N" and the balanced concentrations of §III; the sizes
below follow those rules (the setups say which). ``quick`` leaves out the networks of more than
1,400 routers (the large tori and hypercubes, about two CPU-minutes together) and keeps
every other row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import topolab
from topolab._files import save_figure
from topolab.experiment.kinds import resilience_from_results
from topolab.reproduce import Comparison, Reproduction, Setup, SetupRow, sim_params
from topolab.reproduce.cases import Execution, default_execution, run_points, scale_of

ID = "resilience"
TITLE = (
    "Besta & Hoefler, SC14, Table III, §III-D: cables that can fail before disconnection, diameter + 2, ASPL "
    "+ 1"
)
SOURCE = "Besta & Hoefler, SC14, §III-D, Table III"

RUNS_CASES = True
SEED = 0
QUICK_MAX_ROUTERS = 1400
SIZES = (256, 512, 1024, 2048, 4096, 8192)
# Besta & Hoefler, SC14, Table III, disconnection in %, one entry per row of SIZES (None: "-").
PAPER_DISCONNECT: dict[str, tuple[Optional[int], ...]] = {
    "T3D": (25, None, 15, 10, 5, 5),
    "T5D": (50, None, 40, None, 40, 35),
    "HC": (40, 40, 40, 40, 45, 45),
    "LH-HC": (55, 55, 55, 55, 55, 55),
    "FT-3": (None, 35, 40, 40, 55, 60),
    "DF": (45, None, 50, 55, 60, 65),
    "FBF-3": (50, 55, 60, 65, 70, None),
    "DLN": (None, 60, None, 65, 70, 75),
    "SF": (45, 60, None, 65, 70, 75),
}
# Besta & Hoefler, SC14, §III-D2/3 for N = 2^13: diameter + 2 and ASPL + 1 in %. "Tori survive up to 55%" of
# the ASPL criterion; for the diameter SF is only "comparable to tori".
PAPER_8192 = {
    "SF": {"diameter_plus2": 40, "aspl_plus1": 55},
    "DLN": {"diameter_plus2": 60, "aspl_plus1": 60},
    "DF": {"diameter_plus2": 25, "aspl_plus1": 45},
    "T3D": {"aspl_plus1": 55},
    "T5D": {"aspl_plus1": 55},
}
CRITERIA = (
    ("disconnect", "disconnect"),
    ("diameter_plus2", "diameter + 2"),
    ("aspl_plus1", "ASPL + 1"),
)

# Spec of each (topology, ≈ N) the paper has a value for; how each size was chosen is in RULES.
SPECS: dict[str, dict[int, str]] = {
    "T3D": {
        256: "torus:dims=4x8x8",
        1024: "torus:dims=8x8x16",
        2048: "torus:dims=8x16x16",
        4096: "torus:dims=16x16x16",
        8192: "torus:dims=16x16x32",
    },
    "T5D": {
        256: "torus:dims=3x3x3x3x3",
        1024: "torus:dims=4x4x4x4x4",
        4096: "torus:dims=4x4x4x8x8",
        8192: "torus:dims=4x4x8x8x8",
    },
    "HC": {n: f"hypercube:n={int(math.log2(n))}" for n in SIZES},
    "LH-HC": {n: f"longhop:n={int(math.log2(n))},hops=5" for n in SIZES},
    "FT-3": {
        512: "fattree:k=12",
        1024: "fattree:k=16",
        2048: "fattree:k=20",
        4096: "fattree:k=26",
        8192: "fattree:k=32",
    },
    "DF": {
        256: "dragonfly:h=3",
        1024: "dragonfly:h=4",
        2048: "dragonfly:h=5",
        4096: "dragonfly:h=6",
        8192: "dragonfly:h=7",
    },
    "FBF-3": {
        n: f"hyperx:dims={s}x{s}x{s},p={s}" for n, s in ((256, 4), (512, 5), (1024, 6), (2048, 7), (4096, 8))
    },
    "DLN": {
        512: "dln:routers=98,shortcuts=9,p=6",
        2048: "dln:routers=242,shortcuts=15,p=9",
        4096: "dln:routers=338,shortcuts=17,p=10",
        8192: "dln:routers=578,shortcuts=23,p=13",
    },
    "SF": {
        256: "slimfly:q=5",
        512: "slimfly:q=7",
        2048: "slimfly:q=11",
        4096: "slimfly:q=13",
        8192: "slimfly:q=17",
    },
}
RULES = {
    "T3D": "p = 1 (Besta & Hoefler, SC14, §III); dimensions: powers of two as near a cube as N allows "
    "(Besta & Hoefler (SC14) gives none)",
    "T5D": "p = 1; 3^5 = 243 for N ~ 256, then 4 and 8 rings (Besta & Hoefler (SC14) gives no dimensions)",
    "HC": "p = 1, 2^n routers",
    "LH-HC": "p = 1, 2^n routers, L = 5 long hops per router (radix 19 at N = 8,192, Besta & Hoefler, "
    "SC14, Table IV; Table II's diameters 4-6 for 2^8..2^13 endpoints)",
    "FT-3": "p = k/2 (Besta & Hoefler, SC14, §III), N = k^3/4; topolab builds even k only: "
    "the nearest even k to each N",
    "DF": "balanced a = 2p = 2h, g = ah + 1 (p = floor((k + 1)/4), Besta & Hoefler, SC14, §III): "
    "N = 2h^2(2h^2 + 1) = 342, "
    "1,056, 2,550, 5,256, 9,702; the 512 row has no DF because 342 is nearer 256",
    "FBF-3": "s^3 routers, p = s = floor((k + 3)/4) with k = p + 3(s - 1) (Besta & Hoefler, SC14, §III): "
    "N = s^4",
    "DLN": "DLN-2-gamma with the routers, network radix (gamma = k' - 2) and p of the Slim Fly of the "
    "same row, as Besta & Hoefler, SC14, Table IV matches its DLNs to same-size Dragonflies; Besta & Hoefler "
    "(SC14) gives no DLN sizes for "
    "Table III",
    "SF": "q = 5, 7, 11, 13, 17, p = ceil(k'/2): N = 200, 588, 2,178, 3,380, 7,514; "
    "Besta & Hoefler, SC14, §II-B1 builds "
    "MMS over the ring Z_q, a field only for prime q, and prime q explains the '-' at N ~ 1024 "
    "(the prime powers q = 8, 9 would give 768 and 1,134)",
}


@dataclass(frozen=True)
class Measured:
    topology: str
    size: int
    spec: str
    routers: int
    endpoints: int
    network_radix: int
    diameter: Optional[int]
    aspl: Optional[float]
    resilience: topolab.Resilience


QUANTILE = 0.75  # the survival share of the second summary (see run()'s notes)


def survival_step(t: topolab.Threshold, step: float, share: float) -> float:
    """The largest removed fraction at which at least ``share`` of the samples still meet the
    criterion (survival is non-increasing: each sample's failures are nested); 0.5 gives the
    median threshold."""
    return step * max((k for k, s in enumerate(t.survival) if s >= share - 1e-12), default=0)


def isolated_router_estimate(routers: int, degree: int, removed: float) -> float:
    """Expected number of routers whose every cable has failed when a fraction ``removed`` of
    the cables of a degree-regular network fails at random (independent approximation)."""
    return routers * removed**degree


def cases(quick: bool = False) -> list[tuple[str, int, str]]:
    """The networks measured, (topology, N, spec): every one of ``SPECS`` (the paper's sizes),
    ``quick`` those of at most ``QUICK_MAX_ROUTERS`` routers. Each is one point of the
    experiment kind "analyze" with the resilience section (``run_points``)."""
    return [
        (topology, size, spec)
        for topology, specs in SPECS.items()
        for size, spec in specs.items()
        if not quick or topolab.build(spec).num_routers <= QUICK_MAX_ROUTERS
    ]


def setup_table(quick: bool = False) -> tuple[SetupRow, ...]:
    """§III-D's failure analysis beside topolab's; the rows with a keyword are the "analyze"
    points' settings (``sim_params``), so the table printed is the analysis run."""
    return (
        SetupRow(
            "networks",
            "'≈ N' for N = 256 ... 8,192, balanced concentrations (Table III, §III)",
            f"the sizes of docs/reproduce.md{f', at most {QUICK_MAX_ROUTERS:,} routers' if quick else ''}",
            "the paper gives no dimensions: the balanced network nearest N"
            + ("; quick: the small ones" if quick else ""),
        ),
        SetupRow(
            "failures",
            "random cables, in 5% increments (§III-D1)",
            "a uniformly random order of the cables, removed in 5% steps",
            "",
        ),
        SetupRow(
            "criteria",
            "disconnection, diameter + 2, ASPL + 1 (§III-D1-3)",
            True,
            "all three from one analysis (docs/analysis.md)",
            "resilience",
        ),
        SetupRow(
            "samples",
            "'enough samples to guarantee a 95% confidence interval of width 2' (§III-D1)",
            "rounds of 64 until every interval is at most 2 points wide (at most 4,096)",
            "",
        ),
        SetupRow(
            "one number from the samples",
            "not stated",
            "the mean threshold and the step 75% of the samples survive",
            "the 75% step fits Table III best (docs/reproduce.md); shown because it fits",
        ),
        SetupRow("seed", "not stated", SEED, "fixed: two runs give the same numbers", "seed"),
    )


def _measure(quick: bool, execution: Optional[Execution]) -> list[Measured]:
    declared = cases(quick)
    df = run_points(
        ID,
        "analyze",
        sim_params(setup_table(quick)),
        [{"network": spec} for _, _, spec in declared],
        default_execution(scale_of(quick), execution),
    )
    return [
        Measured(
            topology,
            size,
            spec,
            int(row["routers"]),
            int(row["endpoints"]),
            int(row["network_radix"]),
            None if row["diameter"] is None else int(row["diameter"]),
            None if row["aspl"] is None else float(row["aspl"]),
            resilience_from_results(row),
        )
        for (topology, size, spec), (_, row) in zip(declared, df.iterrows())
    ]


def _record(m: Measured) -> dict[str, Any]:
    a, r = m, m.resilience
    paper = PAPER_DISCONNECT[m.topology][SIZES.index(m.size)]
    d: dict[str, Any] = {
        "topology": m.topology,
        "size": m.size,
        "spec": m.spec,
        "routers": a.routers,
        "endpoints": a.endpoints,
        "cables": r.cables,
        "network_radix": a.network_radix,
        "diameter": a.diameter,
        "aspl": a.aspl,
        "samples": r.samples,
        "converged": r.converged,
        "paper_disconnect": paper,
    }
    for key, _ in CRITERIA:
        t = getattr(r, key)
        d[f"{key}_mean"] = 100 * t.mean
        d[f"{key}_ci_low"] = 100 * t.ci_low
        d[f"{key}_ci_high"] = 100 * t.ci_high
        d[f"{key}_median"] = 100 * survival_step(t, r.step, 0.5)
        d[f"{key}_q75"] = 100 * survival_step(t, r.step, QUANTILE)
        d[f"{key}_q80"] = 100 * survival_step(t, r.step, 0.8)
        if key != "disconnect":
            d[f"paper_{key}"] = PAPER_8192.get(m.topology, {}).get(key) if m.size == 8192 else None
    return d


def run(quick: bool = False, *, full: bool = False, execution: Optional[Execution] = None) -> Reproduction:
    """``quick``: the networks of at most QUICK_MAX_ROUTERS routers; otherwise (and ``full``:
    the same) every size of the paper's Table III."""
    measured = _measure(quick, execution)
    records = [_record(m) for m in measured]
    rows: list[Comparison] = []
    setups: list[Setup] = []
    for m, rec in zip(measured, records):
        col = f"{m.topology} N~{m.size}"
        a = m
        for key, label in CRITERIA:
            paper = rec[f"paper_{key}"]
            if key != "disconnect" and paper is None and not (m.size == 8192 and m.topology in PAPER_8192):
                continue
            rows.append(Comparison(col, f"{label} (mean)", paper, rec[f"{key}_mean"], unit="%"))
            rows.append(Comparison(col, f"{label} (step 75% survive)", paper, rec[f"{key}_q75"], unit="%"))
        setups.append(
            Setup(
                col,
                m.spec,
                (
                    f"{a.routers:,} routers, {a.endpoints:,} endpoints, {rec['cables']:,} cables, k' = "
                    f"{a.network_radix}, diameter {a.diameter}; {rec['samples']} samples"
                    f"{'' if rec['converged'] else ' (not converged)'}, disconnect 95% CI "
                    f"{rec['disconnect_ci_low']:.1f}-{rec['disconnect_ci_high']:.1f}%"
                ),
            )
        )
    for topology in PAPER_DISCONNECT:
        if topology not in SPECS:
            col = f"{topology} (all sizes)"
            for size, paper in zip(SIZES, PAPER_DISCONNECT[topology]):
                rows.append(Comparison(col, f"disconnect N~{size}", paper, None, unit="%"))
            setups.append(Setup(col, None, RULES[topology]))
    return Reproduction(
        ID,
        TITLE,
        SOURCE,
        tuple(rows),
        tuple(setups),
        _notes(records, quick),
        tuple(records),
        quick,
        setup_table(quick),
    )


SUMMARIES = (
    ("mean", "mean threshold"),
    ("median", "median (step 50% survive)"),
    ("q75", "step 75% survive"),
    ("q80", "step 80% survive"),
)


def summary_fit(records: list[dict[str, Any]]) -> dict[str, tuple[float, int, int]]:
    """For each summary: (mean of topolab - Besta & Hoefler (SC14), cells equal to theirs, cells) over the
    disconnection cells of every measured network but the tori."""
    cells = [r for r in records if r["paper_disconnect"] is not None and r["topology"] not in ("T3D", "T5D")]
    out = {}
    for key, _ in SUMMARIES:
        diffs = [r[f"disconnect_{key}"] - r["paper_disconnect"] for r in cells]
        bias = sum(diffs) / len(diffs) if diffs else float("nan")
        out[key] = (bias, sum(abs(d) < 1e-9 for d in diffs), len(diffs))
    return out


def _notes(records: list[dict[str, Any]], quick: bool) -> tuple[str, ...]:
    fit = summary_fit(records)
    tori = [r["disconnect_mean"] for r in records if r["topology"] in ("T3D", "T5D")]
    t3d = {r["size"]: r for r in records if r["topology"] == "T3D"}
    notes = [f"size rule {t}: {RULES[t]}" for t in SPECS]
    notes += [
        "the failing unit is a cable (a link of width w is w cables); a sample is a random order of "
        "all cables, its threshold the largest removed fraction (5% steps) at which the criterion "
        "still holds. 'mean' is topolab's figure (mean threshold over the samples, 95% CI at most 2 "
        "points wide); 'step 75% survive' is the largest step at which at least 75% of the samples "
        "still meet the criterion. Besta & Hoefler (SC14) does not say how it turned its samples into one "
        "number",
        "how the summaries fit Besta & Hoefler's (SC14) disconnection values (every measured network but the "
        "tori): "
        + "; ".join(
            f"{label}: {fit[key][0]:+.1f} points on average, equal in {fit[key][1]} of {fit[key][2]} cells"
            for key, label in SUMMARIES
        )
        + ". The 75% step is shown because it fits Besta & Hoefler (SC14) about best (no bias on average), "
        "not because "
        "Besta & Hoefler (SC14) documents it; the mean sits about one 5% step above Besta & Hoefler (SC14)",
        "tori: Besta & Hoefler's (SC14) values (T3D 5% at N ~ 4096 and 8192) cannot come from uniformly "
        "random cable "
        "failures measured on the router graph: with 5% of the cables of a 3-D torus gone, the "
        "expected number of routers that lost all 6 cables is about N * 0.05^6 = "
        f"{isolated_router_estimate(8192, 6, 0.05):.1e} for N = 8,192, and cutting a torus into two "
        "large parts needs far more failures"
        + (
            f"; topolab's means lie between {min(tori):.0f}% and {max(tori):.0f}%"
            + (
                f" (T3D {t3d[min(t3d)]['disconnect_mean']:.0f}% at N = {min(t3d)} to "
                f"{t3d[max(t3d)]['disconnect_mean']:.0f}% at N = {max(t3d)}), falling with N as Besta & "
                "Hoefler (SC14) says"
                if len(t3d) > 1
                else ""
            )
            if tori
            else ""
        ),
        "tori, diameter + 2 and ASPL + 1: Besta & Hoefler (SC14) has tori surviving the ASPL criterion up to "
        "55% and the "
        "diameter criterion about as well as SF (40%), far beyond their own disconnection values "
        "(5-50%), which suggests that Besta & Hoefler (SC14) measured distances over the pairs that stay "
        "connected; "
        "topolab's criteria require a connected network (docs/analysis.md), and for tori it finds "
        "all three ending at the first disconnection",
        "Besta & Hoefler (SC14) quotes diameter + 2 (SF 40%, DF 25%, DLN 60%; tori 'comparable' to SF) and "
        "ASPL + 1 "
        "(SF 55%, DF 45%, DLN 60%, tori 55%) only for N = 2^13: those are the rows with a paper "
        "value; the data CSV (-o) has all three criteria with their intervals for every network",
        "docs/analysis.md's earlier Slim Fly figure (connected up to 75.5%, diameter + 2 55.3%, "
        "ASPL + 1 60.0%) is for q = 19 (10,830 endpoints); the paper's N ~ 8192 row is q = 17 (7,514)",
    ]
    if quick:
        notes.append(
            f"quick: networks with more than {QUICK_MAX_ROUTERS:,} routers are left out (the larger "
            "tori and hypercubes)"
        )
    return tuple(notes)


def plot(rep: Reproduction, path: Path) -> None:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 5.5))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, topology in enumerate(t for t in PAPER_DISCONNECT if t in SPECS):
        color = colors[i % len(colors)]
        recs = sorted((r for r in rep.data if r["topology"] == topology), key=lambda r: r["size"])
        if recs:
            ax.errorbar(
                [r["size"] for r in recs],
                [r["disconnect_mean"] for r in recs],
                yerr=[
                    [r["disconnect_mean"] - r["disconnect_ci_low"] for r in recs],
                    [r["disconnect_ci_high"] - r["disconnect_mean"] for r in recs],
                ],
                color=color,
                marker="o",
                label=f"{topology} topolab",
            )
        paper = [(n, v) for n, v in zip(SIZES, PAPER_DISCONNECT[topology]) if v is not None]
        ax.plot([n for n, _ in paper], [v for _, v in paper], color=color, linestyle=":", marker="x")
    ax.plot([], [], "k:", marker="x", label="Besta & Hoefler, SC14, Table III (dotted)")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("endpoints N (the paper's ~N rows)")
    ax.set_ylabel("cables removed before disconnection [%]")
    ax.set_title(
        "Besta & Hoefler, SC14, Table III: disconnection resilience, topolab (mean, 95% CI) vs paper"
    )
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    save_figure(fig, path, dpi=120)
    plt.close(fig)
