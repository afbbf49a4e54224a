"""Network commands: list, build, info."""

from __future__ import annotations

import argparse
import json
import sys

import topolab
from topolab._files import check_output_file, write_text
from topolab.cli import apps
from topolab.cli.common import (
    add_command,
    add_failures_flag,
    add_json_flag,
    fmt_value,
    json_document,
    network_from_argument,
    print_json,
    print_table,
)


def cmd_list(args: argparse.Namespace) -> int:
    if args.what == "routings":
        return cmd_list_routings(args)
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


def cmd_list_routings(args: argparse.Namespace) -> int:
    rows = topolab.routings()
    if args.json:
        print(json.dumps([r.to_dict() for r in rows], indent=2))
        return 0
    table = [
        [
            r.name,
            ("sim" if r.simulator else "")
            + ("+" if r.simulator and r.static else "")
            + ("static" if r.static else ""),
            ",".join(r.params) or "-",
            r.source,
        ]
        for r in rows
    ]
    print_table(table, ["routing", "readers", "parameters", "source"])
    print()
    for r in rows:
        print(f"{r.name}: {r.summary}")
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
        net.save(args.output, args.format)
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
        examples=["topolab list", "topolab list routings", "topolab list families --json"],
    )
    p.add_argument(
        "what",
        nargs="?",
        choices=["families", "routings"],
        default="families",
        help="families (default) or routings (which the simulator and the static analysis take)",
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
    p.add_argument(
        "-o",
        "--output",
        required=True,
        help="output file (.json, .edgelist, .graphml, .anynet, .ibnet; .simgrid.xml: a SimGrid platform)",
    )
    p.add_argument("--format", help="output format when the extension does not say it")
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
    p.add_argument("--format", help="input file format when the extension does not say it")
    add_failures_flag(p)
    p.set_defaults(func=cmd_info)
