"""``topolab map FILE --as hyperx|dragonfly``: recover a cabled network's structure
(Daryin & Korzh, JSFI 2014, §2)."""

from __future__ import annotations

import argparse
import json
import sys

from topolab.cli.common import network_from_argument
from topolab.mapping import map_network


def cmd_map(args: argparse.Namespace) -> int:
    net = network_from_argument(args.network, args.format)
    m = map_network(net, args.family, args.max_missing)
    summary = {
        "family": m.family,
        "shape": m.shape,
        "widths": m.widths,
        "missing_links": m.missing_links,
        "missing_cables": m.missing_cables,
    }
    if args.output:
        m.network.save(args.output, args.output_format)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        shape = "x".join(map(str, m.shape))
        what = "dimensions" if m.family == "hyperx" else "groups x routers"
        print(f"{m.family}: {what} {shape}, widths {m.widths}, "
              f"{len(m.missing_links)} links and {m.missing_cables} cables missing")
    if args.output:
        print(f"wrote {args.output}", file=sys.stderr)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "map",
        help="label a bare network as a HyperX (coordinates) or Dragonfly (groups), Daryin & Korzh §2",
    )
    p.add_argument("network", help="network file (or spec) whose router ids carry no structure")
    p.add_argument("--as", dest="family", required=True, choices=["hyperx", "dragonfly"],
                   help="family to recover")
    p.add_argument("-o", "--output", help="write the labelled network (.json, .graphml, ...)")
    p.add_argument("--format", help="input file format when the extension does not say it")
    p.add_argument("--output-format", help="output format when the extension does not say it")
    p.add_argument("--max-missing", type=int, default=0,
                   help="missing links/cables accepted as a cabling fault (default 0)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_map)
