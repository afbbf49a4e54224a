"""``topolab reproduce ID``: a paper's table or figure beside topolab's numbers. The
reproductions themselves live in topolab.reproduce (one module each)."""

from __future__ import annotations

import argparse
import sys

from topolab import reproduce
from topolab._files import check_output_dir
from topolab.cli.common import (
    add_command,
    add_json_flag,
    add_output_dir_flag,
    add_progress_flag,
    json_document,
    positive_workers,
    print_json,
    print_table,
    print_wrapped,
)


def _num(x: float | None) -> str:
    if x is None:
        return "-"
    if isinstance(x, int):
        return f"{x:,}"
    if float(x).is_integer() and abs(x) >= 100:
        return f"{int(x):,}"
    return f"{x:,.2f}"


def _diff(r: reproduce.Comparison) -> str:
    if r.unit == "%":
        d = r.abs_diff
        return "-" if d is None else f"{d:+.1f} pt"
    x = r.rel_diff
    return "-" if x is None else f"{100 * x:+.1f}%"


def _interval(r: reproduce.Comparison) -> str:
    """topolab's interval beside its figure: a saturation search's bracket or a 95% confidence
    interval ("-" for a figure without one)."""
    return "-" if r.interval is None else f"[{_num(r.interval[0])}, {_num(r.interval[1])}]"


def _print_setup(table: tuple[reproduce.SetupRow, ...]) -> None:
    print()
    print("setup (the paper's beside topolab's):")
    print_table(
        [[r.parameter, r.paper, str(r.topolab), r.why or "-"] for r in table],
        ["parameter", "paper", "topolab", "why different"],
    )


def _print(result: reproduce.Reproduction) -> None:
    print_wrapped(result.title)
    print_wrapped(f"source: {result.source}" + ("  [quick: scaled-down subset]" if result.quick else ""))
    if result.setup_table:
        _print_setup(result.setup_table)
    setups = {s.column: s for s in result.setups}
    note_ids: list[str] = []
    for column in dict.fromkeys(r.column for r in result.rows):
        s = setups[column]
        print()
        print_wrapped(f"== {column}: {s.spec}" if s.spec else f"== {column}")
        print_wrapped(s.details, "   ")
        mine = [r for r in result.rows if r.column == column]
        with_bound = any(r.bound is not None for r in mine)
        with_interval = any(r.interval is not None for r in mine)
        rows = [
            [r.quantity, _num(r.paper), _num(r.topolab)]
            + ([_interval(r)] if with_interval else [])
            + ([_num(r.bound)] if with_bound else [])
            + [_diff(r)]
            + ([r.note] if r.note else [])
            for r in mine
        ]
        header = (
            ["quantity", "paper", "topolab"]
            + (["interval"] if with_interval else [])
            + (["bound"] if with_bound else [])
            + ["diff"]
        )
        if any(len(r) > len(header) for r in rows):
            header.append("note")
        print_table(rows, header)
        for n in s.notes:
            note_ids.append(n)
            print_wrapped(f"[{len(note_ids)}] {n}", "   ")
    if result.notes:
        print()
        print("notes:")
        for n in result.notes:
            print_wrapped(f"- {n}", "   ")


def cmd_reproduce(args: argparse.Namespace) -> int:
    if args.list or not args.id:
        listed = [{"id": rid, "title": reproduce.title(rid)} for rid in reproduce.available()]
        if args.json:
            print_json(json_document("reproduce", {"list": True}, {}, {"reproductions": listed}))
            return 0
        print_table([[r["id"], r["title"]] for r in listed], ["id", "reproduces"])
        return 0
    if args.output:
        args.output = check_output_dir("reproduce", "--output-dir", args.output)
    execution = None
    if args.workers is not None or args.scheduler is not None or args.results is not None:
        from topolab.reproduce.cases import Execution

        execution = Execution(workers=args.workers, scheduler=args.scheduler, results=args.results)
    result = reproduce.run(
        args.id, quick=args.quick, full=args.full, execution=execution, progress=args.progress
    )
    if args.json:
        inputs = {
            "id": args.id,
            "quick": args.quick,
            "full": args.full,
            "workers": args.workers,
            "scheduler": args.scheduler,
        }
        # Each row carries its own unit ("unit"); the figure's points name theirs in their keys.
        units = {"rows": "per row: its 'unit' field"}
        print_json(json_document("reproduce", inputs, units, result.to_dict()))
    else:
        _print(result)
    sys.stdout.flush()
    if args.output:
        written, problem = reproduce.write(result, args.output)
        for path in written:
            print(f"wrote {path}", file=sys.stderr)
        if problem:
            print(problem, file=sys.stderr)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "reproduce",
        help="a paper's table or figure beside topolab's numbers (e.g. table4)",
        description="Runs one reproduction: the numbers of a paper's table or figure beside the "
        "ones topolab computes, with the difference and the setup of each column. --list shows "
        "them all; docs/reproduce.md describes each.",
        examples=[
            "topolab reproduce --list",
            "topolab reproduce table4",
            "topolab reproduce skywalk-cables --quick -o out/",
            "topolab reproduce moore --json",
        ],
    )
    p.add_argument("id", nargs="?", help=f"reproduction id: {', '.join(reproduce.available())}")
    p.add_argument("--list", action="store_true", help="list the reproductions")
    add_json_flag(p)
    add_progress_flag(p)
    p.add_argument(
        "--quick", action="store_true", help="the scaled-down subset (what the tests run), where there is one"
    )
    p.add_argument(
        "--full",
        action="store_true",
        help="the paper's own sizes (reproductions declared as cases: "
        + ", ".join(reproduce.cases_based())
        + ")",
    )
    p.add_argument(
        "--workers",
        type=positive_workers,
        metavar="N",
        help="run the cases in N local processes (default: in this process)",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the cases on a Dask cluster: its scheduler's address, or 'local'",
    )
    p.add_argument(
        "--results",
        metavar="PATH",
        help="keep each finished case here; an interrupted run resumes from it",
    )
    add_output_dir_flag(
        p, "also write <id>.csv (rows), <id>_data.csv (figure points), <id>.json and <id>.png into DIR"
    )
    p.set_defaults(func=cmd_reproduce)
