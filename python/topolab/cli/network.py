"""Network commands: list, build, info."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import topolab
from topolab._args import bad
from topolab._files import check_output_file, write_text
from topolab.cli import apps
from topolab.cli.common import (
    add_command,
    add_deprecated_alias,
    add_failures_flag,
    add_input_format_flag,
    add_json_flag,
    add_output_file_flag,
    add_output_format_flag,
    fmt_value,
    json_document,
    network_from_argument,
    print_json,
    print_table,
    print_wrapped,
)


def _family_dict(f: Any) -> dict[str, Any]:
    return {
        "name": f.name,
        "aliases": list(f.aliases),
        "summary": f.summary,
        "source": f.source,
        "directed": f.directed,
        "example": f.example,
        "params": [{"name": p.name, "kind": p.kind, "default": p.default, "help": p.help} for p in f.params],
    }


def cmd_list(args: argparse.Namespace) -> int:
    if args.what == "routings":
        return cmd_list_routings(args)
    fams = topolab.families()
    if args.what != "families":
        return cmd_list_family(args, fams)
    if args.json:
        results = {"families": [_family_dict(f) for f in fams]}
        print_json(json_document("list families", {"what": "families"}, {}, results))
        return 0
    print_table(
        [
            [
                f.name,
                ", ".join(f.aliases) or "-",
                ", ".join(p.name + ("*" if p.default is None else "") for p in f.params),
                ("directed: " if f.directed else "")
                + (f"{f.summary} ({f.source})" if f.source else f.summary),
            ]
            for f in fams
        ],
        ["family", "aliases", "parameters", "what it is (source)"],
    )
    print()
    print_wrapped(
        "* required. 'topolab list FAMILY': each parameter's meaning and default, and an example; "
        "docs/families/: each family."
    )
    return 0


def cmd_list_family(args: argparse.Namespace, fams: list[Any]) -> int:
    """One family's parameters (``topolab list slimfly``), its name read as specs read it."""
    wanted = topolab._core.canonical_name(args.what)
    found = [f for f in fams if wanted == f.name or wanted in f.aliases]
    if not found:
        raise bad(
            "list",
            "what",
            args.what,
            "families, routings or a family name: " + ", ".join(f.name for f in fams),
        )
    f = found[0]
    if args.json:
        print_json(json_document("list", {"what": args.what}, {}, {"families": [_family_dict(f)]}))
        return 0
    print_wrapped(f"{f.name}{' (directed)' if f.directed else ''}: {f.summary}")
    if f.aliases:
        print_wrapped(f"aliases: {', '.join(f.aliases)}")
    if f.source:
        print_wrapped(f"source: {f.source}")
    print()
    print_table(
        [[p.name, p.kind, "required" if p.default is None else p.default, p.help] for p in f.params],
        ["parameter", "kind", "default", "meaning"],
    )
    print()
    print(f"example: topolab info {f.example}")
    return 0


def cmd_list_routings(args: argparse.Namespace) -> int:
    rows = topolab.routings()
    if args.json:
        results = {"routings": [r.to_dict() for r in rows]}
        print_json(json_document("list routings", {"what": "routings"}, {}, results))
        return 0
    table = [
        [
            r.name,
            ("sim" if r.simulator else "")
            + ("+" if r.simulator and r.static else "")
            + ("static" if r.static else ""),
            ", ".join(r.params) or "-",
            f"{r.summary} ({r.source})",
        ]
        for r in rows
    ]
    print_table(table, ["routing", "readers", "parameters", "what it does (source)"])
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    args.output = check_output_file("build", "--output", args.output)
    net = network_from_argument(args.spec)
    if args.output.endswith(".simgrid.xml"):
        from topolab import simgrid

        xml = simgrid.platform(
            net, args.routing, link_bandwidth_gbps=args.link_bandwidth_gbps, floor=args.floor
        )
        write_text(args.output, xml)
    else:
        net.save(args.output, args.output_format)
    print(
        f"wrote {args.output}: {net.num_routers} routers, {net.num_endpoints} endpoints, "
        f"{net.num_links} links",
        file=sys.stderr,
    )
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    net = network_from_argument(args.network, args.format, args.failures)
    info = net.info()
    if args.json:
        units = {"links": "cables (parallel cables counted)", "radix": "ports", "network_radix": "ports"}
        print_json(json_document("info", {"network": args.network}, units, info))
        return 0
    rows = [[k, fmt_value(v)] for k, v in info.items()]
    print_table(rows, ["property", "value"])
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "list",
        help="topology families (default) or routings, with their parameters",
        description="The topology families topolab builds, with their parameters, defaults and "
        "an example spec; or the routings, with the readers that take them (the simulator, the "
        "static analysis) and their parameters.",
        examples=[
            "topolab list",
            "topolab list slimfly",
            "topolab list routings",
            "topolab list families --json",
        ],
    )
    p.add_argument(
        "what",
        nargs="?",
        default="families",
        help="families (default), routings (which the simulator and the static analysis take), or "
        "a family name: its parameters with their meanings and defaults",
    )
    add_json_flag(p)
    p.set_defaults(func=cmd_list)

    p = add_command(
        sub,
        "build",
        help="build a topology and write it to a file",
        description="Builds a network from a spec (or reads a file) and writes it in the format "
        "the output's extension names: .json, .edgelist, .graphml (readable by networkx) or "
        ".anynet (BookSim2) or .ibnet (an ibsim fabric, ibnetdiscover's format). docs/file-formats.md "
        "describes each.",
        examples=[
            "topolab build slimfly:q=19 -o sf19.json",
            "topolab build dragonfly:a=8,h=4 -o df.anynet",
            "topolab build sf19.json -o sf19.graphml",
        ],
    )
    p.add_argument("spec", help="topology spec, e.g. slimfly:q=19 (or a file to convert)")
    add_output_file_flag(
        p,
        "output file (.json, .edgelist, .graphml, .anynet, .ibnet; .simgrid.xml: a SimGrid platform)",
        required=True,
    )
    add_deprecated_alias(p, "--format", add_output_format_flag(p))
    apps.add_platform_options(p)
    p.set_defaults(func=cmd_build)

    p = add_command(
        sub,
        "info",
        help="sizes and radix of a network",
        description="Routers, endpoints, links, radix, label fields and link classes of a network "
        "given as a spec or a file.",
        examples=["topolab info slimfly:q=19", "topolab info my_network.graphml --json"],
    )
    p.add_argument("network", help="topology spec or network file")
    add_json_flag(p)
    add_input_format_flag(p)
    add_failures_flag(p)
    p.set_defaults(func=cmd_info)
