"""Analysis commands: analyze, moore."""

from __future__ import annotations

import argparse
import json
from typing import Any

import topolab
from topolab.cli.common import network_from_argument, print_table


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, list):
        return "[" + ", ".join(_fmt(v) for v in value) + "]"
    return str(value)


def cmd_analyze(args: argparse.Namespace) -> int:
    net = network_from_argument(args.network, args.format)
    result = topolab.analyze(
        net,
        paths=args.paths,
        resilience=args.resilience,
        bisection=args.bisection,
        bisection_runs=args.bisection_runs,
        spectrum=args.spectral,
        seed=args.seed,
    )
    flat = result.to_dict()
    # One number per router is data for the Python API, not for a terminal or a JSON summary;
    # radius and diameter summarise it.
    flat.pop("eccentricities")
    if args.json:
        print(json.dumps(flat, indent=2))
        return 0
    rows = []
    for key, value in flat.items():
        if key.endswith("_interval"):
            rows[-1][1] += f"  (95% CI {_fmt(value[0])} to {_fmt(value[1])})"
            continue
        rows.append([key, _fmt(value)])
    if not result.connected:
        what = "strongly connected" if result.directed else "connected"
        rows.append(["note", f"not {what}: distances are over reachable pairs only"])
    print_table(rows, ["metric", "value"])
    return 0


def cmd_moore(args: argparse.Namespace) -> int:
    bound = topolab.moore_bound(args.degree, args.diameter, args.directed)
    if args.json:
        print(
            json.dumps(
                {
                    "degree": args.degree,
                    "diameter": args.diameter,
                    "directed": args.directed,
                    "moore_bound": bound,
                }
            )
        )
    else:
        print(bound)
    return 0


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative; allowed: an integer >= 0")
    return value


def _positive(text: str) -> int:
    value = _non_negative(text)
    if value == 0:
        raise argparse.ArgumentTypeError("0 is not allowed: an integer >= 1")
    return value


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "analyze",
        help="exact distances, Moore fraction, path diversity, resilience, bisection, spectrum",
        description="Diameter, average shortest path length (router and endpoint level), "
        "distance histogram, connectivity and Moore fraction; optionally shortest-path "
        "diversity (--paths), resilience to random cable failures (--resilience), METIS "
        "bisection (--bisection) and the adjacency spectrum (--spectral). "
        "Definitions: docs/analysis.md.",
    )
    p.add_argument("network", help="topology spec or network file")
    p.add_argument("--json", action="store_true", help="machine-readable output")
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
        "--spectral", action="store_true", help="adjacency eigenvalues and spectral gap (undirected)"
    )
    p.add_argument(
        "--seed", type=_non_negative, default=0, help="seed of failure samples and METIS runs (default 0)"
    )
    p.add_argument("--format", help="input file format when the extension does not say it")
    p.set_defaults(func=cmd_analyze)

    p = sub.add_parser("moore", help="the Moore bound for a degree and diameter")
    p.add_argument("--degree", type=_non_negative, required=True, help="router-to-router degree d")
    p.add_argument("--diameter", type=_non_negative, required=True, help="diameter D")
    p.add_argument(
        "--directed", action="store_true", help="directed bound sum_{i<=D} d^i (default undirected)"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_moore)
