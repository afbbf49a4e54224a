"""Koibuchi et al., 2018 (uni-directional topologies): the static parts, built and measured by topolab.

- Table 1 (§III-A, §III-C): ASPL and METIS bisection of Random, MDDP and Imase digraphs at
  n = 64, d = 6 / n = 256, d = 6 / n = 256, d = 8, with the bi-directional random graph of the
  same n and degree (the same switch ports) and the Moore lower bound on the ASPL beside them.
- §I and §III-A: bisection of 1,024-vertex graphs of degree 8, uni- and bi-directional.
- §IV-A: how close Kautz digraphs come to the directed Moore bound, against bi-directional
  graphs of the same size and degree.
- §IV-C: average cable length, cost and power of uni- and bi-directional topologies of degree
  8 and 29 on the 0.6 m x 2.1 m cabinet floor.
- Figs. 3/4 (data and plot only, Koibuchi et al. (2018) print no numbers): ASPL against size for degree 8.

Random graphs are averaged over seeds 0, 1, 2 (Koibuchi et al. (2018) show one instance). Application
performance (Figs. 9-13, SimGrid benchmarks) is not reproduced; Figs. 5-8 (hot-potato
routing, cycle-accurate) are the simulated part, ``topolab reproduce unidirectional-sim``.
``quick`` leaves out the 22,464-router Kautz comparison and the larger sizes of the ASPL sweep.
"""

from __future__ import annotations

import math
import statistics
from pathlib import Path
from typing import Any, Optional

import topolab
from topolab._files import save_figure
from topolab.families import family_sizes
from topolab.reproduce import Comparison, Reproduction, Setup, SetupRow, percent, sim_params
from topolab.reproduce.cases import Execution, default_execution, run_points, scale_of

ID = "unidirectional"
TITLE = (
    "Koibuchi et al. (2018): uni- vs bi-directional graphs: ASPL, bisection, Moore bound, cables, cost, power"
)
SOURCE = "Koibuchi et al., 2018, §I, §III-A, Table 1, §IV-A, §IV-C"

RUNS_CASES = True
SEEDS = (0, 1, 2)
BISECTION_RUNS = 5
P = 4  # endpoints per switch (Koibuchi et al., 2018, §III-B3), for the cost and power per endpoint
PER_CABINET = 8
FLOOR = "skywalk"  # Koibuchi et al., 2018, §IV-C2: 0.6 m wide, 2.1 m deep cabinets on a near-square grid

TABLE1 = (  # (case, n, d, {family: (ASPL, bisection)}) from Koibuchi et al., 2018, Table 1
    ("Case 1", 64, 6, {"Rand": (2.39, 112), "MDDP": (2.37, 120), "Imase": (2.30, 109)}),
    ("Case 2", 256, 6, {"Rand": (3.18, 467), "MDDP": (2.85, 368), "Imase": (2.95, 349)}),
    ("Case 3", 256, 8, {"Rand": (2.80, 657), "MDDP": (2.80, 678), "Imase": (2.69, 472)}),
)
SPEC = {
    "Rand": "random_directed:n={n},d={d},seed={seed}",
    "MDDP": "mddp:n={n},d={d},seed={seed}",
    "Imase": "imase:n={n},d={d}",
    "bi Random": "jellyfish:routers={n},degree={d},seed={seed},p=4",  # p as the directed families
}
RANDOM_FAMILIES = ("Rand", "MDDP", "bi Random")
# (d, k, routers Koibuchi et al. (2018) quote, % of the Moore bound they quote): their §IV-A's "97% for d = 6
# and k = 5 for 3,750 vertices" mixes two graphs, K(6,5) (9,072 vertices, 97%) and K(5,5) (3,750, 96%).
KAUTZ: tuple[tuple[int, int, Optional[int], Optional[int]], ...] = (
    (8, 4, 4608, 98),
    (12, 4, 22464, 99),
    (6, 5, None, 97),
    (5, 5, 3750, None),
)
KAUTZ_MIXED_NOTE = (
    "Koibuchi et al. (2018) quotes '97% for d = 6 and k = 5 for 3,750 vertices', which mixes two graphs: "
    "K(6,5) has "
    "9,072 vertices (97%), 3,750 is K(5,5) (96%)"
)
SWEEP_D = 8
SWEEP_N = {"quick": (64, 256, 1024), "default": (64, 128, 256, 512, 1024, 2048, 4096)}
FAMILIES = ("Rand", "MDDP", "Imase", "bi Random")
# §IV-C: (degree, routers, families, other networks (name, spec)) placed and priced.
CABLE_CASES: tuple[tuple[int, int, tuple[str, ...], tuple[tuple[str, str], ...]], ...] = (
    (8, 1190, FAMILIES, ()),
    (
        29,
        722,
        FAMILIES,
        (("bi MMS (DDP)", f"slimfly:q=19,p={P}"), ("Kautz K(29,2) (DDP)", f"kautz:d=29,k=2,p={P}")),
    ),
)


def moore_aspl(n: int, d: int, directed: bool) -> float:
    """The smallest possible ASPL of a graph with n vertices and (out-)degree d: every vertex
    has d^i (directed) or d(d - 1)^(i - 1) (undirected) vertices at distance i until all n - 1
    others are placed (the 'Ideal' curve of Koibuchi et al., 2018, Figs. 3/4)."""
    remaining, total, i = n - 1, 0, 0
    while remaining > 0:
        i += 1
        level = d**i if directed else d * (d - 1) ** (i - 1)
        if level <= 0:
            raise ValueError(f"degree {d} cannot reach {n} vertices")
        placed = min(level, remaining)
        total += i * placed
        remaining -= placed
    return total / (n - 1)


def family_specs(family: str, n: int, d: int) -> list[str]:
    """The graphs of a family averaged at (n, d): one per seed for the random ones."""
    seeds = SEEDS if family in RANDOM_FAMILIES else (0,)
    return [SPEC[family].format(n=n, d=d, seed=seed) for seed in seeds]


def kautz_cases(quick: bool) -> list[tuple[int, int, Optional[int], Optional[int]]]:
    """§IV-A's Kautz digraphs; ``quick`` leaves out the ones above 10,000 routers."""
    return [c for c in KAUTZ if not (quick and c[0] ** c[1] > 10000)]


def kautz_bi_spec(d: int, k: int) -> str:
    """The bi-directional random graph of K(d, k)'s size and degree (the size by the family's rule)."""
    return f"jellyfish:routers={family_sizes(f'kautz:d={d},k={k}').routers},degree={d}"


def sweep_specs(quick: bool) -> list[tuple[int, str, str]]:
    """Figs. 3/4's graphs, (n, family, spec), degree SWEEP_D."""
    return [
        (n, fam, SPEC[fam].format(n=n, d=SWEEP_D, seed=0))
        for n in SWEEP_N[scale_of(quick)]
        for fam in FAMILIES
    ]


def setup_table() -> tuple[SetupRow, ...]:
    """Koibuchi et al.'s measurement of the graphs beside topolab's; the rows with a keyword
    are the settings of the "analyze" and "cost" points (``sim_params``), so the table printed
    is what runs."""
    return (
        SetupRow(
            "random graphs (Rand, MDDP, bi Random)",
            "one instance each (Table 1, §I)",
            f"the mean over seeds {', '.join(map(str, SEEDS))}",
            "one instance's value depends on its seed; the notes give the spread",
        ),
        SetupRow(
            "bisection (METIS)",
            "METIS: 'the minimum number of edges between any two same-size subgraphs' (§III-A)",
            True,
            "of Table 1's and §I's graphs; a directed cut counts both directions, as the paper does",
            "bisection",
        ),
        SetupRow(
            "METIS runs per graph",
            "not stated",
            BISECTION_RUNS,
            "the best of several runs: METIS is randomized",
            "bisection_runs",
        ),
        SetupRow("floor", "0.6 m x 2.1 m cabinets on a near-square grid (§IV-C2)", FLOOR, "", "floor"),
        SetupRow(
            "switches per cabinet",
            "not stated (§IV-C2)",
            PER_CABINET,
            "Fujiwara et al.'s (IPDPS 2014) value, in index order",
            "per_cabinet",
        ),
        SetupRow("placement", "not stated (§IV-C2)", "sequential", "switches in index order", "placement"),
        SetupRow(
            "cable and switch prices",
            "'the method in [13]' (Besta & Hoefler, SC14); a bi-directional link costs two "
            "uni-directional ones (§IV-C3)",
            "fdr10",
            "Besta & Hoefler's (SC14) regressions; a uni-directional arc at half a cable",
            "catalog",
        ),
    )


def cases(quick: bool = False) -> dict[str, list[dict[str, Any]]]:
    """Every measurement, as the points of each experiment kind: "analyze" (Table 1 and §I's
    bisections with METIS, §IV-A's Kautz graphs, Figs. 3/4's ASPL sweep), "info" and "cost"
    (§IV-C's cables, sequential placement on FLOOR). A graph two parts measure alike is one
    point."""
    analyses: dict[tuple[str, bool], None] = {}
    for _, n, d, _ in TABLE1:
        analyses.update(dict.fromkeys((spec, True) for fam in FAMILIES for spec in family_specs(fam, n, d)))
    analyses.update(dict.fromkeys((spec, True) for fam in FAMILIES for spec in family_specs(fam, 1024, 8)))
    for d, k, _, _ in kautz_cases(quick):
        analyses.update(dict.fromkeys(((f"kautz:d={d},k={k}", False), (kautz_bi_spec(d, k), False))))
    analyses[("slimfly:q=19", False)] = None
    analyses.update(dict.fromkeys((spec, False) for _, _, spec in sweep_specs(quick)))
    cabled = [spec for _, _, spec in _cable_named()]
    settings = sim_params(setup_table())
    bisection = {k: settings[k] for k in ("bisection", "bisection_runs")}
    costing = {k: settings[k] for k in ("catalog", "floor", "placement", "per_cabinet")}
    return {
        "analyze": [{"network": spec, **(bisection if b else {})} for spec, b in analyses],
        "info": [{"network": spec} for spec in cabled],
        "cost": [{"network": spec, **costing} for spec in cabled],
    }


def _cable_named() -> list[tuple[int, str, str]]:
    """§IV-C's networks, (degree, name, spec)."""
    return [
        (d, name, spec)
        for d, n, fams, extra in CABLE_CASES
        for name, spec in [(fam, SPEC[fam].format(n=n, d=d, seed=0)) for fam in fams] + list(extra)
    ]


Measured = dict[str, dict[tuple[str, Any], dict[str, Any]]]


def _measure(quick: bool, execution: Execution) -> Measured:
    """The results of ``cases(quick)`` by kind and (network, bisection flag or None)."""
    out: Measured = {}
    for kind, points in cases(quick).items():
        df = run_points(ID, kind, {}, points, execution)
        out[kind] = {
            (p["network"], p.get("bisection", False) if kind == "analyze" else None): row.to_dict()
            for p, (_, row) in zip(points, df.iterrows())
        }
    return out


def _analyse(measured: Measured, family: str, n: int, d: int, bisection: bool = True) -> dict[str, Any]:
    """Mean over the seeds (one build for Imase) of diameter, ASPL and bisection."""
    specs, aspls, diameters, cuts = [], [], [], []
    directed = False
    for spec in family_specs(family, n, d):
        a = measured["analyze"][(spec, bisection)]
        if _missing(a["aspl"]) or _missing(a["diameter"]):
            raise RuntimeError(f"{spec} is not strongly connected: it has no ASPL or diameter to compare")
        specs.append(spec)
        aspls.append(float(a["aspl"]))
        diameters.append(int(a["diameter"]))
        directed = bool(a["directed"])
        if bisection:
            cuts.append(int(a["bisection_links"]))
    out = {
        "family": family,
        "n": n,
        "d": d,
        "specs": specs,
        "directed": directed,
        "aspl": statistics.fmean(aspls),
        "aspl_min": min(aspls),
        "aspl_max": max(aspls),
        "diameter": max(diameters),
        "moore_aspl": moore_aspl(n, d, directed),
    }
    if bisection:
        out.update(bisection=statistics.fmean(cuts), bisection_min=min(cuts), bisection_max=max(cuts))
    return out


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _spread(r: dict[str, Any], key: str) -> str:
    if r[f"{key}_min"] == r[f"{key}_max"]:
        return ""
    fmt = ".3f" if key == "aspl" else ".0f"
    return f"{format(r[f'{key}_min'], fmt)}-{format(r[f'{key}_max'], fmt)} over seeds"


def _table1(measured: Measured, rows: list[Comparison], setups: list[Setup]) -> None:
    for case, n, d, paper in TABLE1:
        col = f"Table 1 {case} (n = {n}, d = {d})"
        recs = {fam: _analyse(measured, fam, n, d) for fam in FAMILIES}
        for fam in ("Rand", "MDDP", "Imase"):
            r = recs[fam]
            rows += [
                Comparison(col, f"{fam} ASPL", paper[fam][0], r["aspl"], note=_spread(r, "aspl")),
                Comparison(
                    col,
                    f"{fam} bisection (both directions)",
                    paper[fam][1],
                    r["bisection"],
                    note=_spread(r, "bisection"),
                ),
                Comparison(col, f"{fam} diameter", None, r["diameter"]),
            ]
        b = recs["bi Random"]
        rows += [
            Comparison(col, "Moore bound on the ASPL, directed", None, recs["Imase"]["moore_aspl"]),
            Comparison(col, "bi Random ASPL", None, b["aspl"], note=_spread(b, "aspl")),
            Comparison(col, "bi Random diameter", None, b["diameter"]),
            Comparison(
                col, "bi Random bisection (links)", None, b["bisection"], note=_spread(b, "bisection")
            ),
            Comparison(col, "Moore bound on the ASPL, bi-directional", None, b["moore_aspl"]),
        ]
        setups.append(
            Setup(
                col,
                SPEC["Imase"].format(n=n, d=d),
                (
                    f"random_directed, mddp, imase and jellyfish (bi) with n = {n}, degree {d}; random ones "
                    f"mean over seeds {', '.join(map(str, SEEDS))}; "
                    f"METIS bisection best of {BISECTION_RUNS} runs"
                ),
                (
                    "bi Random: the bi-directional random graph with the same switch ports (d links, each "
                    "one channel in and one out); Koibuchi et al., 2018, Table 1 has no bi-directional "
                    "column",
                ),
            )
        )


def _bisection_1024(measured: Measured, rows: list[Comparison], setups: list[Setup]) -> None:
    col = "1,024 routers, degree 8 (§I, §III-A)"
    recs = {fam: _analyse(measured, fam, 1024, 8) for fam in FAMILIES}
    rows += [
        Comparison(
            col,
            "bi Random bisection (links)",
            1016,
            recs["bi Random"]["bisection"],
            note=_spread(recs["bi Random"], "bisection"),
        ),
        Comparison(
            col,
            "Rand bisection (both directions)",
            2655,
            recs["Rand"]["bisection"],
            note=_spread(recs["Rand"], "bisection"),
        ),
        Comparison(
            col,
            "MDDP bisection (both directions)",
            2498,
            recs["MDDP"]["bisection"],
            note=_spread(recs["MDDP"], "bisection"),
        ),
        Comparison(col, "Imase bisection (both directions)", 1598, recs["Imase"]["bisection"]),
        Comparison(
            col,
            "Rand / bi Random bisection (Koibuchi et al. (2018): more than 2)",
            2655 / 1016,
            recs["Rand"]["bisection"] / recs["bi Random"]["bisection"],
        ),
    ]
    setups.append(
        Setup(
            col,
            "random_directed:n=1024,d=8",
            (
                f"random ones mean over seeds {', '.join(map(str, SEEDS))}; "
                f"METIS best of {BISECTION_RUNS} runs"
            ),
            (
                "Koibuchi et al., 2018, §III-A gives the 1,024-vertex bisections of Imase, MDDP and Random "
                "without their "
                "degree; §I's 1,024-vertex random graphs have d = 8, taken for all",
                "a directed cut counts both directions (Koibuchi et al., 2018, §I: 'in- and out-degrees are "
                "counted "
                "separately'); the bi-directional cut counts links, each carrying both directions",
            ),
        )
    )


def _moore(measured: Measured, rows: list[Comparison], setups: list[Setup], quick: bool) -> None:
    analyses = measured["analyze"]
    for d, k, paper_n, paper_pct in kautz_cases(quick):
        a = analyses[(f"kautz:d={d},k={k}", False)]
        bi_spec = kautz_bi_spec(d, k)
        bi = analyses[(bi_spec, False)]
        col = f"Kautz K({d},{k}) (§IV-A)"
        rows += [
            Comparison(col, "routers", paper_n, int(a["routers"])),
            Comparison(col, "diameter", k, int(a["diameter"])),
            Comparison(col, "directed Moore bound", None, int(a["moore_bound"])),
            Comparison(
                col, "% of the directed Moore bound", paper_pct, percent(float(a["moore_fraction"])), unit="%"
            ),
            Comparison(col, "bi Random of the same size and degree: diameter", None, int(bi["diameter"])),
            Comparison(
                col,
                "bi Random: % of the bi-directional Moore bound",
                None,
                percent(float(bi["moore_fraction"])),
                unit="%",
            ),
            Comparison(
                col,
                "directed / bi-directional Moore bound at this d, k",
                None,
                topolab.moore_bound(d, k, True) / topolab.moore_bound(d, k),
            ),
        ]
        notes = (KAUTZ_MIXED_NOTE,) if k == 5 else ()
        setups.append(
            Setup(col, f"kautz:d={d},k={k}", f"Kautz digraph, analysed; bi Random: {bi_spec}", notes)
        )
    sf_moore_fraction = float(analyses[("slimfly:q=19", False)]["moore_fraction"])
    col = "bi-directional DDP solution, k = 2 (§IV-A)"
    rows.append(
        Comparison(
            col,
            "MMS q = 19 (d = 29): % of the Moore bound (Koibuchi et al. (2018): e.g. 90%)",
            90,
            percent(sf_moore_fraction),
            unit="%",
        )
    )
    setups.append(
        Setup(
            col,
            "slimfly:q=19",
            "the MMS graph of Koibuchi et al., 2018, Fig. 14 (d = 29)",
            (
                "Koibuchi et al. (2018): 'most best known solutions for d > 7 and k > 7 achieve less than "
                "10% of the bound' "
                "refers to the table of best known graphs [3], which topolab does not have",
            ),
        )
    )


def _cables(measured: Measured, rows: list[Comparison], setups: list[Setup]) -> list[dict[str, Any]]:
    out = []
    for d, n, _, _ in CABLE_CASES:
        recs: dict[str, dict[str, Any]] = {}
        named = [(name, spec) for dd, name, spec in _cable_named() if dd == d]
        for name, spec in named:
            info, c = measured["info"][(spec, None)], measured["cost"][(spec, None)]
            router_cable_cost = c["cable_cost"] - c["endpoint_cost"]
            cost = c["total_cost"] - (0.5 * router_cable_cost if info["directed"] else 0.0)
            rec: dict[str, Any] = {
                "d": d,
                "name": name,
                "spec": spec,
                "routers": int(info["routers"]),
                "directed": bool(info["directed"]),
                "cables": int(c["electric_cables"] + c["optical_cables"]),
                "avg_cable_m": float(c["avg_cable_m"]),
                "total_cable_km": float(c["total_cable_m"]) / 1000,
                "cost_per_endpoint": float(cost / c["endpoints"]),
                "power_per_endpoint_w": float(c["power_per_endpoint_w"]),
            }
            recs[name] = rec
            out.append(rec)
        col = f"cables, cost, power, d = {d}, n = {n} (§IV-C)"
        uni_r, bi_r = recs["Rand"], recs["bi Random"]
        rows += [Comparison(col, f"{name} avg cable [m]", None, r["avg_cable_m"]) for name, r in recs.items()]
        rows += [
            Comparison(
                col,
                "uni Random vs bi Random avg cable [%] (Koibuchi et al. (2018): similar)",
                None,
                100 * (uni_r["avg_cable_m"] / bi_r["avg_cable_m"] - 1),
                unit="%",
            ),
            Comparison(
                col,
                "uni MDDP vs bi Random avg cable [%]",
                None,
                100 * (recs["MDDP"]["avg_cable_m"] / bi_r["avg_cable_m"] - 1),
                unit="%",
            ),
        ]
        if d == 8:
            rows.append(
                Comparison(col, "uni MDDP vs bi MDDP avg cable [%]", 15, None, note="bi MDDP not built")
            )
        rows += [
            Comparison(col, f"{name} cost per endpoint [$]", None, r["cost_per_endpoint"])
            for name, r in recs.items()
        ] + [
            Comparison(
                col,
                "uni Random vs bi Random cost [%] (Koibuchi et al. (2018): similar)",
                None,
                100 * (uni_r["cost_per_endpoint"] / bi_r["cost_per_endpoint"] - 1),
                unit="%",
            ),
            Comparison(
                col,
                "uni Random vs bi Random power [%] (Koibuchi et al. (2018): similar)",
                None,
                100 * (uni_r["power_per_endpoint_w"] / bi_r["power_per_endpoint_w"] - 1),
                unit="%",
            ),
        ]
        setups.append(
            Setup(
                col,
                None,
                (
                    f"{', '.join(f'{nm}: {sp}' for nm, sp in named)}; {PER_CABINET} switches per cabinet in "
                    f"index order on the '{FLOOR}' floor, {P} endpoints per switch, fdr10 prices"
                ),
                (
                    (
                        "Koibuchi et al. (2018) compares uni-directional MDDP with bi-directional MDDP (+15% "
                        "at n = 1,190); "
                        "topolab has no bi-directional MDDP, so the bi-directional random graph stands in",
                    )
                    if d == 8
                    else (
                        "the DDP solutions differ in size (MMS 722, Kautz 870 routers), as in Koibuchi et "
                        "al., 2018, Fig. 14",
                    )
                ),
            )
        )
    return out


def _sweep(measured: Measured, quick: bool) -> list[dict[str, Any]]:
    out = []
    specs = sweep_specs(quick)
    for n in dict.fromkeys(n for n, _, _ in specs):
        for _, fam, spec in (x for x in specs if x[0] == n):
            a = measured["analyze"][(spec, False)]
            out.append(
                {
                    "figure": "3/4",
                    "family": fam,
                    "n": n,
                    "d": SWEEP_D,
                    "spec": spec,
                    "aspl": None if _missing(a["aspl"]) else float(a["aspl"]),
                    "diameter": None if _missing(a["diameter"]) else int(a["diameter"]),
                }
            )
        for directed, fam in ((True, "Ideal (directed Moore)"), (False, "Ideal (bi-directional Moore)")):
            out.append(
                {
                    "figure": "3/4",
                    "family": fam,
                    "n": n,
                    "d": SWEEP_D,
                    "spec": None,
                    "aspl": moore_aspl(n, SWEEP_D, directed),
                    "diameter": None,
                }
            )
    return out


def run(quick: bool = False, *, full: bool = False, execution: Optional[Execution] = None) -> Reproduction:
    """``quick``: without the Kautz graphs above 10,000 routers and Figs. 3/4's larger sizes;
    otherwise (and ``full``: the same) every graph."""
    measured = _measure(quick, default_execution(scale_of(quick), execution))
    rows: list[Comparison] = []
    setups: list[Setup] = []
    _table1(measured, rows, setups)
    _bisection_1024(measured, rows, setups)
    _moore(measured, rows, setups, quick)
    cable_data = _cables(measured, rows, setups)
    data = [{"figure": "14-16", **r} for r in cable_data] + _sweep(measured, quick)
    notes = [
        "bisection: METIS, endpoint-balanced halves, best of 5 seeded runs (docs/bisection.md); a "
        "directed cut counts the arcs of both directions, as Koibuchi et al. (2018) counts in- and "
        "out-degrees "
        "separately; Koibuchi et al. (2018) estimates with METIS too, so both are upper bounds on the "
        "minimum",
        "Random and MDDP are random: Koibuchi et al. (2018) shows one instance, topolab the mean of seeds 0, "
        "1, 2 (the "
        "note column gives the spread); MDDP starts from the nearest Kautz digraph and inserts or "
        "removes random vertices (docs/families/mddp.md: Koibuchi et al. (2018) does not specify its "
        "heuristics)",
        "Moore bound on the ASPL: the ASPL of a graph in which every router has d^i (directed) or "
        "d(d - 1)^(i - 1) (bi-directional) routers at distance i until all are placed, the 'Ideal' "
        "curve of Koibuchi et al., 2018, Figs. 3/4",
        "cables: Koibuchi et al., 2018, §IV-C2 gives the 0.6 m x 2.1 m floor and 'the method in [13]' (Besta "
        "& Hoefler, SC14) but not the "
        f"switches per cabinet; topolab puts {PER_CABINET} per cabinet in index order (Fujiwara et al.'s "
        "(IPDPS 2014) value) "
        "with Fujiwara et al.'s (IPDPS 2014) lengths (2 m inside a cabinet, Manhattan + 4 m between "
        "cabinets)",
        "cost: Besta & Hoefler's (SC14) fdr10 model (cable and router regressions); a uni-directional arc "
        "costs half a "
        "bi-directional cable (Koibuchi et al., 2018, §IV-C3: 'the cost for one bi-directional link is the "
        "same as that "
        "for two uni-directional links'); power: Besta & Hoefler's (SC14) 4 x 0.7 W per router port, the "
        "same for a "
        "uni-directional switch of degree d (d ports in, d out) as for a bi-directional one",
        "Koibuchi et al. (2018) gives §IV-C's cable, cost and power results only as curves (Figs. 14-16) "
        "with the one "
        "number 'for network size 1,190 the average cable length of the uni-directional MDDP topology "
        "is 15% higher than that of the bi-directional MDDP topology'",
        "Figs. 5-8 (cycle-accurate latency/throughput, minimal vs hot-potato routing) are the "
        "simulated part: `topolab reproduce unidirectional-sim`; not reproduced: Figs. 9-13 (SimGrid "
        "application benchmarks); Fig. 1 and the best-known DDP tables need the degree/diameter "
        "table of [3]",
        "-o writes the data of Figs. 3/4 (ASPL against size, degree 8, seed 0) and of §IV-C",
    ]
    if quick:
        notes.append("quick: K(12,4) (22,464 routers) and the ASPL sweep beyond 1,024 routers are left out")
    return Reproduction(
        ID, TITLE, SOURCE, tuple(rows), tuple(setups), tuple(notes), tuple(data), quick, setup_table()
    )


def plot(rep: Reproduction, path: Path) -> None:
    import matplotlib.pyplot as plt

    pts = [r for r in rep.data if r["figure"] == "3/4"]
    fig, ax = plt.subplots(figsize=(8, 5))
    styles = {
        "Rand": "o-",
        "MDDP": "s-",
        "Imase": "^-",
        "bi Random": "o--",
        "Ideal (directed Moore)": "k-",
        "Ideal (bi-directional Moore)": "k--",
    }
    for fam in dict.fromkeys(p["family"] for p in pts):
        fp = sorted((p for p in pts if p["family"] == fam), key=lambda p: p["n"])
        ax.plot([p["n"] for p in fp], [p["aspl"] for p in fp], styles.get(fam, "x-"), label=fam, markersize=4)
    for _case, n, d, paper in TABLE1:
        if d == SWEEP_D:
            for fam, (aspl, _) in paper.items():
                ax.plot(
                    n,
                    aspl,
                    "r*",
                    markersize=9,
                    label="Koibuchi et al., 2018, Table 1 (d = 8)" if fam == "Rand" else None,
                )
    ax.set_xscale("log", base=2)
    ax.set_xlabel("switches n")
    ax.set_ylabel("ASPL [hops]")
    ax.set_title(
        f"ASPL vs size, degree {SWEEP_D} (Koibuchi et al., 2018, Figs. 3/4; uni-directional unless 'bi')"
    )
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, path, dpi=120)
    plt.close(fig)
