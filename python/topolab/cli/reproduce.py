"""``topolab reproduce ID``: a paper's table or figure beside topolab's numbers. The
reproductions themselves live in topolab.reproduce (one module each)."""

from __future__ import annotations

import argparse
import json
import sys

from topolab import reproduce
from topolab.cli.common import print_table


def _num(x: float | None) -> str:
    if x is None:
        return "-"
    if float(x).is_integer() and abs(x) >= 100:
        return f"{int(x):,}"
    return f"{x:,.2f}"


def _diff(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:+.1f}%"


def cmd_reproduce(args: argparse.Namespace) -> int:
    if args.list or not args.id:
        for rid in reproduce.available():
            print(f"{rid:<10} {reproduce.title(rid)}")
        return 0
    result = reproduce.run(args.id)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0
    print(result.title)
    print(f"source: {result.source}")
    setups = {s.column: s for s in result.setups}
    note_ids: list[str] = []
    for column in dict.fromkeys(r.column for r in result.rows):
        s = setups[column]
        print()
        print(f"== {column}: {s.spec or '(not built)'}")
        print(f"   {s.details}")
        rows = [
            [r.quantity, _num(r.paper), _num(r.topolab), _diff(r.rel_diff)]
            for r in result.rows
            if r.column == column
        ]
        print_table(rows, ["quantity", "paper", "topolab", "diff"])
        for n in s.notes:
            note_ids.append(n)
            print(f"   [{len(note_ids)}] {n}")
    if result.notes:
        print()
        print("notes:")
        for n in result.notes:
            print(f"   - {n}")
    sys.stdout.flush()
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("reproduce", help="a paper's table beside topolab's numbers (e.g. table4)")
    p.add_argument("id", nargs="?", help=f"reproduction id: {', '.join(reproduce.available())}")
    p.add_argument("--list", action="store_true", help="list the reproductions")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_reproduce)
