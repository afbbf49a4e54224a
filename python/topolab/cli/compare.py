"""``topolab compare``: which network for N endpoints with routers of K ports (docs/compare.md)."""

from __future__ import annotations

import argparse
import json
import os
import shutil

import topolab

# The numbers' types are checked here, their ranges by CompareSettings (one place for both the
# API and the command line, its messages naming the parameter).
from topolab._args import U64_MAX, cli_float, cli_int, printable, quote
from topolab._files import check_output_dir, keep_elsewhere
from topolab.cli.common import (
    add_command,
    add_deprecated_alias,
    add_floor_flag,
    add_json_flag,
    add_output_dir_flag,
    add_progress_flag,
    add_runner_flags,
    add_seed_flag,
    json_document,
    print_json,
)
from topolab.comparison import DEFAULT_FAILURE_SEEDS
from topolab.defaults import DEFAULT_CATALOG
from topolab.design.compare import (
    DEFAULT_ALLOWED_OVERSUBSCRIPTION,
    DEFAULT_ENDPOINTS,
    DEFAULT_PER_FAMILY,
    DEFAULT_RADIX,
    DEFAULT_SIM_ENDPOINTS,
    DEFAULT_SIM_PER_FAMILY,
    SHOWN_OVERSUBSCRIPTION,
    CompareSettings,
    run_comparison,
)

DEFAULT_OUTPUT = "topolab-compare"
UNITS = {
    "cost_per_endpoint": "USD/endpoint",
    "power_per_endpoint_w": "W/endpoint",
    "bisection_per_endpoint": "cables/endpoint",
    "avg_hops": "router-to-router hops",
    "diameter": "router-to-router hops",
    "enumerate_s": "s",
    "measure_s": "s",
    # the simulated saturation load's bracket (saturation_worst, saturation_failed alike)
    "saturation_uniform": "flits/sending endpoint/cycle (highest load the search carried)",
    "saturation_uniform_upper": "flits/sending endpoint/cycle (lowest load the search saturated at)",
    "sim_curve_uniform": "JSON [[offered, accepted (flits/endpoint/cycle), avg latency (cycles), "
    "accepted 95% half-width, latency 95% half-width], ...]",
}


def cmd_compare(args: argparse.Namespace) -> int:
    settings = CompareSettings(
        radix=args.radix,
        endpoints=args.endpoints,
        endpoint_tolerance=args.endpoint_tolerance,
        families=args.families,
        oversubscription=args.oversubscription,
        floor=args.floor,
        catalog=args.catalog,
        resilience=args.resilience,
        simulate=args.simulate or args.simulate_scaled,
        simulate_scaled=args.simulate_scaled,
        sim_endpoints=args.sim_endpoints,
        sim_per_family=args.sim_per_family,
        sim_precision=args.sim_precision,
        failures=args.failures,
        failure_fractions=args.failure_fractions,
        failure_seeds=args.failure_seeds,
        workload=args.workload,
        per_family=None if args.all else args.per_family,
        seed=args.seed,
    )
    if not args.no_report:
        args.output = check_output_dir("compare", "--output-dir", args.output)
    sim_results = args.sim_results
    if sim_results is not None:
        sim_results = check_output_dir("compare", "--sim-results", sim_results)
    if sim_results is None and settings.simulate and not args.no_report:
        sim_results = os.path.join(args.output, "simulations")
    result = run_comparison(
        settings,
        progress=args.progress,
        workers=args.workers,
        scheduler=args.scheduler,
        sim_results=sim_results,
    )
    files = None
    if not args.no_report:
        from topolab.report import write_report

        try:
            files = write_report(result, args.output)
        except OSError as err:
            kept = keep_elsewhere(json.dumps(result.to_dict(), default=str), "topolab-compare")
            raise topolab.FileError(
                f"{printable(quote(args.output))}: the report could not be written "
                f"({err.strerror or err}); the comparison's results are kept in {kept}"
            ) from None
    if args.json:
        data = result.to_dict()
        if files:
            data["files"] = files
        # CompareSettings is every input; the frame's columns carry their unit in their name
        # (_m, _km, _ns, _w) except cost (USD) and the per-endpoint ratios.
        data = json_document("compare", settings.to_dict(), UNITS, data)
        print_json(data)
        return 0
    from topolab.report import summary

    width = max(80, min(160, shutil.get_terminal_size((120, 40)).columns))
    print(summary(result, width=width, files=files))
    return 0


def _fractions(text: str) -> list[float]:
    number = cli_float(0.0, 1.0)
    values = [number(part.strip()) for part in text.split(",") if part.strip()]
    if not values:
        raise argparse.ArgumentTypeError("give failed fractions separated by commas, e.g. 0,0.01,0.05,0.1")
    return values


def _families(text: str) -> str:
    if not text.strip(","):
        raise argparse.ArgumentTypeError("give family names separated by commas, e.g. slimfly,dragonfly")
    return text


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "compare",
        help="which network for N endpoints with radix-K routers: enumerate, measure, rank, recommend",
        examples=[
            "topolab compare",
            "topolab compare --radix 36 --endpoints 4000 --families slimfly,dragonfly,fattree",
            "topolab compare -k 64 -n 20000 --oversubscription 0.25 --simulate -o report",
            "topolab compare --simulate --scheduler tcp://head:8786",
            "topolab compare --radix 12 --endpoints 100 --simulate-scaled --sim-endpoints 300",
            "topolab compare -k 12 -n 100 --simulate --failed-fraction 0.05 --failure-fractions 0,0.05,0.2",
            "topolab compare --no-report --json > compare.json",
        ],
        description="Enumerates every feasible design of every family for routers of at most K ports "
        "and about N endpoints, measures each (hops, bisection, cables, cost, power, latency), shows "
        "the Pareto front over cost, bandwidth and latency and recommends one, with the reasons. "
        "Writes an HTML report with plots and the data as CSV and Parquet. Without arguments: "
        f"radix {DEFAULT_RADIX}, {DEFAULT_ENDPOINTS:,} endpoints (Besta & Hoefler, SC14, Table IV's "
        "question).",
    )
    p.add_argument(
        "--radix",
        "-k",
        type=cli_int(0, U64_MAX),
        default=DEFAULT_RADIX,
        metavar="K",
        help=f"router ports (default {DEFAULT_RADIX})",
    )
    p.add_argument(
        "--endpoints",
        "-n",
        type=cli_int(0, U64_MAX),
        default=DEFAULT_ENDPOINTS,
        metavar="N",
        help=f"endpoints wanted (default {DEFAULT_ENDPOINTS:,})",
    )
    tolerance = p.add_argument(
        "--endpoint-tolerance",
        dest="endpoint_tolerance",
        type=cli_float(),
        default=0.15,
        metavar="T",
        help="endpoint counts within T x N of N are admitted (default 0.15)",
    )
    add_deprecated_alias(p, "--tolerance", tolerance)
    p.add_argument(
        "--families",
        type=_families,
        metavar="F1,F2",
        help="only these families (names or aliases; default: all, see topolab list)",
    )
    p.add_argument(
        "--oversubscription",
        type=cli_float(),
        default=DEFAULT_ALLOWED_OVERSUBSCRIPTION,
        metavar="X",
        help="recommend designs whose endpoints inject up to (1 + X) times what the network "
        f"carries under uniform traffic (default {DEFAULT_ALLOWED_OVERSUBSCRIPTION:g}: balanced designs "
        f"only); designs up to max(X, {SHOWN_OVERSUBSCRIPTION:g}) are measured and shown, the others "
        "marked 'not recommended'",
    )
    add_floor_flag(p, "floor model for placement, cables and latency")
    p.add_argument(
        "--catalog",
        default=DEFAULT_CATALOG,
        help=f"cost catalog: fdr10 or a TOML file (default {DEFAULT_CATALOG})",
    )
    p.add_argument(
        "--resilience", action="store_true", help="also measure resilience to random cable failures (slower)"
    )
    p.add_argument(
        "--simulate",
        action="store_true",
        help="also simulate the saturation load under uniform and the family's worst-case traffic of "
        "each family's best designs, at their size (minutes: the searches run on every core, or "
        "on a cluster with --scheduler, and resume from DIR/simulations when interrupted)",
    )
    p.add_argument(
        "--simulate-scaled",
        action="store_true",
        help="--simulate on stand-ins: each design simulated as its family's largest member with at "
        "most --sim-endpoints endpoints and the same load (quicker, less faithful)",
    )
    p.add_argument(
        "--sim-precision",
        type=cli_float(0.0, 1.0),
        default=0.0,
        metavar="X",
        help="with --simulate: the simulator's precision for every run (docs/simulator.md); a run near "
        "saturation also ends once its accepted throughput's 95%% interval lies wholly above or below "
        "the saturation line (default 0: off)",
    )
    p.add_argument(
        "--sim-per-family",
        type=cli_int(0, U64_MAX),
        default=DEFAULT_SIM_PER_FAMILY,
        metavar="M",
        help=f"simulate the best M designs of each family (default {DEFAULT_SIM_PER_FAMILY})",
    )
    p.add_argument(
        "--sim-endpoints",
        type=cli_int(0, U64_MAX),
        default=DEFAULT_SIM_ENDPOINTS,
        metavar="N",
        help=f"with --simulate-scaled: the stand-ins' most endpoints (default {DEFAULT_SIM_ENDPOINTS})",
    )
    failed_fraction = p.add_argument(
        "--failed-fraction",
        dest="failures",
        type=float,
        metavar="F",
        help="with --simulate: also the saturation load under uniform traffic with this fraction "
        "of the cables failed (e.g. 0.05), a column and an objective, and the degradation curves "
        "of the front's simulated designs in the report (docs/resilience.md)",
    )
    p.add_argument(
        "--failure-fractions",
        type=_fractions,
        metavar="F1,F2",
        help="with --failed-fraction F: the failed fractions of the degradation curves (default 0,F/2,F,2F; "
        "F is always one of them)",
    )
    p.add_argument(
        "--failure-seeds",
        type=cli_int(1, 1000),
        default=DEFAULT_FAILURE_SEEDS,
        metavar="N",
        help="with --failed-fraction: failure sets per fraction of the degradation curves, seeds SEED.."
        f"SEED+N-1 (default {DEFAULT_FAILURE_SEEDS}: each is a saturation search per design)",
    )
    add_deprecated_alias(p, "--failures", failed_fraction)
    p.add_argument(
        "--workload",
        metavar="JOB",
        help="with --simulate: also the completion time of this job on each simulated design "
        "(a workload spec, e.g. allreduce:bytes=1MiB,algorithm=rabenseifner; docs/workloads.md), "
        "a column and an objective",
    )
    add_runner_flags(p, "the simulations")
    p.add_argument(
        "--sim-results",
        metavar="DIR",
        help="where finished searches are kept; a second run resumes from them (default "
        "OUTPUT/simulations; with --no-report none)",
    )
    p.add_argument(
        "--per-family",
        type=cli_int(0, U64_MAX),
        default=DEFAULT_PER_FAMILY,
        metavar="M",
        help=f"measure at most M designs per family (default {DEFAULT_PER_FAMILY})",
    )
    p.add_argument("--all", action="store_true", help="measure every design found (slower)")
    add_seed_flag(p, "the METIS runs and failure samples")
    add_output_dir_flag(p, f"report directory (default ./{DEFAULT_OUTPUT})", default=DEFAULT_OUTPUT)
    p.add_argument("--no-report", action="store_true", help="print the summary only, write no files")
    add_json_flag(p)
    add_progress_flag(p)
    p.set_defaults(func=cmd_compare)
