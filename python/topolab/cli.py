"""The ``topolab`` command."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Callable, Sequence

import topolab
from topolab.network import Network

FILE_EXTENSIONS = (".json", ".edgelist", ".edges", ".txt", ".graphml", ".anynet")


def network_from_argument(text: str, fmt: str | None = None) -> Network:
    """A network from a file path or, when no such file exists, a spec string."""
    if os.path.isfile(text):
        return topolab.load(text, fmt)
    if text.lower().endswith(FILE_EXTENSIONS) and ":" not in text:
        raise topolab.FileError(f"{text}: no such file (and not a topology spec)")
    return topolab.build(text)


def _print_table(rows: list[list[str]], header: list[str]) -> None:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    for row in [header, *rows]:
        print("  ".join(str(x).ljust(w) for x, w in zip(row, widths)).rstrip())


def cmd_list(args: argparse.Namespace) -> int:
    fams = topolab.families()
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "name": f.name,
                        "aliases": list(f.aliases),
                        "summary": f.summary,
                        "source": f.source,
                        "directed": f.directed,
                        "example": f.example,
                        "params": [
                            {"name": p.name, "kind": p.kind, "default": p.default, "help": p.help}
                            for p in f.params
                        ],
                    }
                    for f in fams
                ],
                indent=2,
            )
        )
        return 0
    for f in fams:
        alias = f" (aliases: {', '.join(f.aliases)})" if f.aliases else ""
        print(f"{f.name}{alias}{'  [directed]' if f.directed else ''}")
        print(f"    {f.summary}")
        if f.source:
            print(f"    source: {f.source}")
        for p in f.params:
            default = "required" if p.default is None else f"default {p.default}"
            print(f"    {p.name:<10} {p.kind:<5} {default}: {p.help}")
        print(f"    example: topolab info {f.example}")
        print()
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    net = network_from_argument(args.spec)
    net.save(args.output, args.format)
    print(
        f"wrote {args.output}: {net.num_routers} routers, {net.num_endpoints} endpoints, "
        f"{net.num_links} links",
        file=sys.stderr,
    )
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    net = network_from_argument(args.network, args.format)
    info = net.info()
    if args.json:
        print(json.dumps(info, indent=2))
        return 0
    rows = [[k, _fmt(v)] for k, v in info.items()]
    _print_table(rows, ["property", "value"])
    return 0


def _fmt(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="topolab",
        description="Design, analyze, cost and simulate interconnection networks. "
        "Wherever a network is asked for, give a spec (slimfly:q=19,p=15) or a file.",
    )
    parser.add_argument("--version", action="version", version=f"topolab {topolab.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("list", help="topology families with their parameters and defaults")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("build", help="build a topology and write it to a file")
    p.add_argument("spec", help="topology spec, e.g. slimfly:q=19 (or a file to convert)")
    p.add_argument("-o", "--output", required=True, help="output file (.json, .edgelist, .graphml, .anynet)")
    p.add_argument("--format", help="output format when the extension does not say it")
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("info", help="sizes and radix of a network")
    p.add_argument("network", help="topology spec or network file")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--format", help="input file format when the extension does not say it")
    p.set_defaults(func=cmd_info)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.func
    try:
        return handler(args)
    except topolab.TopolabError as err:
        print(f"topolab: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("topolab: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
