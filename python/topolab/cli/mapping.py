"""``topolab map FILE --as hyperx|dragonfly``: recover a cabled network's structure
(Daryin & Korzh, JSFI 2014, §2)."""

from __future__ import annotations

import argparse
import sys

from topolab._args import U32_MAX, cli_int
from topolab._files import check_output_file
from topolab.cli.common import (
    add_command,
    add_input_format_flag,
    add_json_flag,
    add_output_file_flag,
    add_output_format_flag,
    json_document,
    network_from_argument,
    print_json,
)
from topolab.mapping import map_network


def cmd_map(args: argparse.Namespace) -> int:
    if args.output:
        args.output = check_output_file("map", "--output", args.output)
    net = network_from_argument(args.network, args.format)
    m = map_network(net, args.family, args.max_missing)
    summary = m.to_dict()
    if args.output:
        m.network.save(args.output, args.output_format)
    if args.json:
        inputs = {"network": args.network, "as": args.family, "max_missing": args.max_missing}
        print_json(json_document("map", inputs, {}, summary))
    else:
        shape = "x".join(map(str, m.shape))
        what = "dimensions" if m.family == "hyperx" else "groups x routers"
        print(
            f"{m.family}: {what} {shape}, widths {list(m.widths)}, "
            f"{len(m.missing_links)} links and {m.missing_cables} cables missing"
        )
    if args.output:
        print(f"wrote {args.output}", file=sys.stderr)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "map",
        help="label a bare network as a HyperX (coordinates) or Dragonfly (groups)",
        description="Recovers the structure of a cabled network whose router ids carry none "
        "(Daryin & Korzh, JSFI 2014, §2): a HyperX's dimensions and coordinates, or a Dragonfly's "
        "groups and positions, so that the structured routings (hyperx_dor, dragonfly_static, ...) "
        "accept it. A network that is not of the family is an error naming the property that "
        "failed. docs/mapping.md.",
        examples=[
            "topolab map fabric.graphml --as hyperx -o fabric-labelled.json",
            "topolab map fabric.edgelist --as dragonfly --max-missing 2 --json",
        ],
    )
    p.add_argument("network", help="network file (or spec) whose router ids carry no structure")
    p.add_argument(
        "--as", dest="family", required=True, choices=["hyperx", "dragonfly"], help="family to recover"
    )
    add_output_file_flag(p, "write the labelled network (.json, .graphml, ...)")
    add_input_format_flag(p)
    add_output_format_flag(p)
    p.add_argument(
        "--max-missing",
        type=cli_int(0, U32_MAX),
        default=0,
        help="missing links/cables accepted as a cabling fault (default 0)",
    )
    add_json_flag(p)
    p.set_defaults(func=cmd_map)
