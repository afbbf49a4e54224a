"""Analysis commands: analyze, moore."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import topolab
from topolab._args import U32_MAX, U64_MAX, bad, cli_int
from topolab.analysis import Analysis
from topolab.cli.common import (
    add_command,
    add_deprecated_alias,
    add_failures_flag,
    add_input_format_flag,
    add_json_flag,
    add_load_resolution_flag,
    add_progress_flag,
    add_runner_flags,
    json_document,
    network_from_argument,
    print_json,
    print_table,
)
from topolab.defaults import DEFAULT_SEED


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, list):
        return "[" + ", ".join(_fmt(v) for v in value) + "]"
    return str(value)


def cmd_analyze(args: argparse.Namespace) -> int:
    if args.simulate:
        return _degradation(args)
    net = network_from_argument(args.network, args.format, args.failures)
    result = topolab.analyze(
        net,
        paths=args.paths,
        resilience=args.resilience,
        bisection=args.bisection,
        bisection_runs=args.bisection_runs,
        spectrum=args.spectrum,
        seed=args.seed,
        progress=args.progress,
    )
    flat = result.to_dict()
    # One number per router is data for the Python API, not for a terminal or a JSON summary;
    # radius and diameter summarise it.
    flat.pop("eccentricities")
    if args.json:
        inputs = {
            "network": args.network,
            "spec": net.spec,
            "paths": args.paths,
            "resilience": args.resilience,
            "bisection": args.bisection,
            "bisection_runs": args.bisection_runs,
            "spectrum": args.spectrum,
            "seed": args.seed,
        }
        print_json(json_document("analyze", inputs, Analysis.UNITS, flat))
        return 0
    rows: list[list[str]] = []
    for key, value in flat.items():
        if key.endswith("_interval"):
            rows[-1][1] += f"  (95% CI {_fmt(value[0])} to {_fmt(value[1])})"
            continue
        rows.append([key, _fmt(value)])
    if result.bisection is not None:
        bound = result.bisection.lower_bound
        between = f"between {bound} and {result.bisection.links_cut}" if bound is not None else "at most that"
        rows.append(
            ["note", f"bisection_links is METIS's best cut, an upper bound: the minimum is {between}"]
        )
    if not result.connected:
        what = "strongly connected" if result.directed else "connected"
        rows.append(["note", f"not {what}: distances are over reachable pairs only"])
    print_table(rows, ["metric", "value"])
    return 0


DEGRADATION_UNITS = {
    "failed_fraction": "fraction of the cables (or routers) failed",
    "static_bound": "flits per surviving endpoint per cycle (channel load bound)",
    "saturation_load": "flits per surviving endpoint per cycle (highest offered load carried)",
    "latency_at_saturation": "cycles (average packet latency of that run)",
    "surviving_endpoints": "endpoints still connected",
    "num_vcs": "VCs the routing needs on the degraded graph (hop-indexed: one per hop)",
}


def _degradation(args: argparse.Namespace) -> int:
    """``analyze --resilience --simulate``: the degradation curve (topolab.degradation)."""
    from topolab.degradation import degradation

    if not args.resilience:
        raise bad(
            "analyze",
            "resilience",
            False,
            "--resilience with --simulate",
            message="analyze: --simulate measures the degradation curve; give it with --resilience",
        )
    if args.failures:
        raise bad(
            "analyze",
            "failures",
            args.failures,
            "no --failures with --resilience --simulate",
            message="analyze: --failures names one failure set; --resilience --simulate draws its own "
            "(--failure-fractions, --failure-seeds, --failure-kind)",
        )
    fractions = [float(x) for x in args.failure_fractions.split(",") if x.strip()]
    df = degradation(
        args.network,
        fractions,
        args.failure_seeds,
        kind=args.failure_kind,
        routing=args.routing,
        traffic=args.traffic,
        seed=args.seed,
        load_resolution=args.load_resolution,
        results=args.results,
        workers=args.workers,
        scheduler=args.scheduler,
        progress=args.progress,
    )
    summary = df.attrs["summary"]
    if args.json:
        inputs = {
            "network": args.network,
            "fractions": fractions,
            "failure_seeds": args.failure_seeds,
            "failure_kind": args.failure_kind,
            "routing": args.routing,
            "traffic": args.traffic,
            "seed": args.seed,
            "load_resolution": args.load_resolution,
        }
        results = {"summary": summary.to_dict("records"), "searches": df.to_dict("records")}
        print_json(json_document("analyze --resilience --simulate", inputs, DEGRADATION_UNITS, results))
        return 0

    def span(row: Any, key: str, digits: int) -> str:
        mean, lo, hi = row[f"{key}_mean"], row[f"{key}_min"], row[f"{key}_max"]
        if mean is None or mean != mean:
            return "-"
        if lo == hi:
            return f"{mean:.{digits}f}"
        return f"{mean:.{digits}f} ({lo:.{digits}f}-{hi:.{digits}f})"

    rows = [
        [
            f"{row['failed_fraction']:.0%}"
            if row["failed_fraction"] >= 0.01
            else f"{row['failed_fraction']:.1%}",
            str(int(row["seeds"])),
            span(row, "surviving_endpoints", 0),
            span(row, "static_bound", 3),
            span(row, "saturation_load", 3),
            span(row, "latency_at_saturation", 1),
            "-" if row["num_vcs_max"] is None else str(int(row["num_vcs_max"])),
        ]
        for row in summary.to_dict("records")
    ]
    print(
        f"{args.network}, {args.routing} routing, {args.traffic} traffic, random {args.failure_kind} failed"
    )
    print_table(rows, ["failed", "seeds", "endpoints", "static bound", "saturation", "latency", "VCs"])
    print("mean over the failure seeds (lowest-highest); loads in flits per surviving endpoint per cycle")
    failed = df[df["status"] != "ok"]
    for row in failed.to_dict("records"):
        print(f"{row['failures']}: {row['error']}", file=sys.stderr)
    return 1 if len(failed) else 0


def cmd_moore(args: argparse.Namespace) -> int:
    bound = topolab.moore_bound(args.degree, args.diameter, args.directed)
    if args.json:
        inputs = {"degree": args.degree, "diameter": args.diameter, "directed": args.directed}
        units = {"moore_bound": "routers"}
        print_json(json_document("moore", inputs, units, {**inputs, "moore_bound": bound}))
    else:
        print(bound)
    return 0


_non_negative = cli_int(0, U32_MAX)
_positive = cli_int(1, U32_MAX)


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "analyze",
        help="exact distances, Moore fraction, path diversity, resilience, bisection, spectrum",
        description="Diameter, average shortest path length (router and endpoint level), "
        "distance histogram, connectivity and Moore fraction; optionally shortest-path "
        "diversity (--paths), resilience to random cable failures (--resilience), METIS "
        "bisection (--bisection) and the adjacency spectrum (--spectrum). "
        "Definitions: docs/analysis.md.",
        examples=[
            "topolab analyze slimfly:q=19",
            "topolab analyze dragonfly:a=8,h=4 --bisection --paths --json",
            "topolab analyze my_network.graphml --resilience --seed 3",
            "topolab analyze slimfly:q=5,p=3 --failures links:fraction=0.1,seed=1",
            "topolab analyze slimfly:q=5,p=3 --resilience --simulate --failure-fractions 0,0.05,0.1",
        ],
    )
    p.add_argument("network", help="topology spec or network file")
    add_json_flag(p)
    p.add_argument(
        "--paths", action="store_true", help="shortest-path diversity (Kathareios et al., SC15, §2.3.3)"
    )
    p.add_argument(
        "--resilience",
        action="store_true",
        help="random cable failure thresholds (Besta & Hoefler, SC14, §III-D)",
    )
    p.add_argument(
        "--bisection",
        action="store_true",
        help="endpoint-balanced METIS bisection (Besta & Hoefler, SC14, §III-C)",
    )
    p.add_argument("--bisection-runs", type=_positive, default=5, help="METIS runs, best kept (default 5)")
    p.add_argument(
        "--spectrum",
        action="store_true",
        help="adjacency eigenvalues and spectral gap (undirected; Python: spectrum=True)",
    )
    # Former name of --spectrum.
    p.add_argument("--spectral", dest="spectrum", action="store_true", help=argparse.SUPPRESS)
    p.add_argument(
        "--seed",
        type=cli_int(0, U64_MAX),
        default=DEFAULT_SEED,
        help=f"seed of failure samples and METIS runs (default {DEFAULT_SEED}, the same for every command)",
    )
    add_input_format_flag(p)
    add_failures_flag(p)
    p.add_argument(
        "--simulate",
        action="store_true",
        help="with --resilience: the degradation curve, saturation throughput and latency "
        "simulated with random failures beside each degraded graph's static bound (docs/resilience.md)",
    )
    fractions = p.add_argument(
        "--failure-fractions",
        default="0,0.01,0.05,0.1,0.2",
        metavar="F,F,...",
        help="with --simulate: failed fractions (default 0,0.01,0.05,0.1,0.2)",
    )
    add_deprecated_alias(p, "--fractions", fractions)
    p.add_argument(
        "--failure-seeds",
        type=_positive,
        default=3,
        metavar="N",
        help="with --simulate: failure sets drawn per fraction (seeds 1..N, default 3)",
    )
    p.add_argument(
        "--failure-kind",
        choices=("links", "routers"),
        default="links",
        help="with --simulate: what fails at random (default links: cables)",
    )
    add_load_resolution_flag(p, 0.01, "with --simulate, one per failure set; 0.02 takes about one run fewer")
    p.add_argument("--routing", default="min", help="with --simulate: routing (default min)")
    p.add_argument("--traffic", default="uniform", help="with --simulate: traffic (default uniform)")
    p.add_argument(
        "--results",
        metavar="DIR",
        help="with --simulate: keep the searches in DIR; a second run resumes from it",
    )
    add_runner_flags(p, "the saturation searches")
    add_progress_flag(p)
    p.set_defaults(func=cmd_analyze)

    p = add_command(
        sub,
        "moore",
        help="the Moore bound for a degree and diameter",
        description="The largest number of routers a network of router degree d and diameter D "
        "can have: undirected 1 + d·Σ_{i<D}(d−1)^i (Besta & Hoefler, SC14, §II-A), directed "
        "Σ_{i≤D} d^i (Koibuchi et al., 2018, §I). Exact integers.",
        examples=[
            "topolab moore --degree 29 --diameter 2",
            "topolab moore --degree 4 --diameter 5 --directed",
        ],
    )
    p.add_argument("--degree", type=_non_negative, required=True, help="router-to-router degree d")
    p.add_argument("--diameter", type=_non_negative, required=True, help="diameter D")
    p.add_argument(
        "--directed", action="store_true", help="directed bound sum_{i<=D} d^i (default undirected)"
    )
    add_json_flag(p)
    p.set_defaults(func=cmd_moore)
