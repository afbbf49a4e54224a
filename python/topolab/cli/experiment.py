"""Experiment commands: run (sweeps from an experiment file, locally or on a Dask cluster)."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any

from topolab.cli.common import add_command, add_json_flag, add_progress_flag, add_runner_flags, print_table
from topolab.experiment import TIMING_COLUMNS, get_kind, load_experiment, run_experiment

# The terminal table stops here; the results store has every row.
MAX_ROWS_SHOWN = 60


def cmd_run(args: argparse.Namespace) -> int:
    exp = load_experiment(args.experiment)
    results = args.results if args.results is not None else exp.results
    if args.dry_run:
        return _dry_run(args, exp, results)
    try:
        frame = run_experiment(
            exp,
            results=results,
            workers=args.workers,
            scheduler=args.scheduler,
            retry_failed=args.retry_failed,
            progress=args.progress,
        )
    except KeyboardInterrupt:
        print(
            f"topolab: stopped; finished points are kept in {results}: run the same command to resume",
            file=sys.stderr,
        )
        raise
    shown = frame.drop(columns=["kind", *TIMING_COLUMNS])
    if args.json:
        print(frame.to_json(orient="records", indent=2))
    else:
        _print_frame(shown)
    failed = frame[frame["status"] != "ok"]
    print(
        f"{exp.name}: {len(frame)} points, {len(frame) - len(failed)} ok, {len(failed)} failed; "
        f"results in {results}",
        file=sys.stderr,
    )
    for _, row in failed.iterrows():
        print(f"  point {row['point']} ({row['point_id']}) failed: {row['error']}", file=sys.stderr)
    if len(failed) and not args.retry_failed:
        print("  (failed points are kept as failed; --retry-failed runs them again)", file=sys.stderr)
    return 1 if len(failed) else 0


def _dry_run(args: argparse.Namespace, exp: Any, results: Any) -> int:
    frame = run_experiment(exp, results=results, dry_run=True)
    if args.json:
        print(frame.to_json(orient="records", indent=2))
        return 0
    kind = get_kind(exp.kind)
    counts = frame["status"].value_counts()
    print(
        f"{exp.name}: kind '{kind.name}'{f' ({kind.summary})' if kind.summary else ''}, {len(frame)} points: "
        f"{counts.get('done', 0)} done, {counts.get('failed', 0)} failed, {counts.get('pending', 0)} to run; "
        f"results in {results}",
        file=sys.stderr,
    )
    _print_frame(frame.drop(columns=["kind"]))
    return 0


def _print_frame(frame: Any) -> None:
    rows = [[_cell(v) for v in row] for row in frame.head(MAX_ROWS_SHOWN).itertuples(index=False)]
    print_table(rows, [str(c) for c in frame.columns])
    if len(frame) > MAX_ROWS_SHOWN:
        print(f"... {len(frame) - MAX_ROWS_SHOWN} more rows (--json for all of them)")


def _cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "run",
        help="run an experiment file: a sweep over a grid of parameters, resumable",
        description="Runs every point of an experiment file (see docs/experiments.md) not already in its "
        "results store, appending each finished point as it completes: an interrupted run resumes. "
        "--json prints one record per point: its parameters (the inputs) beside its results.",
        examples=[
            "topolab run examples/experiments/slimfly_vs_dragonfly.toml",
            "topolab run sweep.toml --dry-run",
            "topolab run sweep.toml --workers 2 --json > results.json",
            "topolab run sweep.toml --scheduler tcp://scheduler:8786",
        ],
    )
    p.add_argument("experiment", help="experiment file (.toml, or .yaml with PyYAML)")
    p.add_argument("--dry-run", action="store_true", help="list the points and their status; run nothing")
    add_runner_flags(p, "the points")
    p.add_argument("--results", metavar="PATH", help="results directory (default: <experiment>.results)")
    p.add_argument("--retry-failed", action="store_true", help="run the points that failed earlier again")
    add_json_flag(p)
    add_progress_flag(p)
    p.set_defaults(func=cmd_run)
