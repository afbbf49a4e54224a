"""``topolab apps SPEC --app NAME``: MPI kernels run with SimGrid/SMPI on a design
(Koibuchi et al., 2018, §III-C, §IV); docs/simgrid.md."""

from __future__ import annotations

import argparse
import json

from topolab import simgrid
from topolab.cli.common import network_from_argument, print_table


def cmd_apps(args: argparse.Namespace) -> int:
    net = network_from_argument(args.network, args.format)
    results = [
        simgrid.run_app(net, app, size=args.size, routing=args.routing, ranks=args.ranks,
                        link_bandwidth_gbps=args.link_bandwidth_gbps, floor=args.floor)
        for app in args.app
    ]
    if args.json:
        print(json.dumps([r.to_dict() for r in results], indent=2))
        return 0
    rows = [[r.app, str(r.ranks), str(r.size), r.routing, f"{r.time_s * 1e6:.3f}"] for r in results]
    print_table(rows, ["app", "ranks", "bytes", "routing", "simulated time (us)"])
    return 0


def add_platform_options(p: argparse.ArgumentParser) -> None:
    """The options of a SimGrid platform, shared by ``apps`` and ``build -o X.simgrid.xml``."""
    p.add_argument("--routing", default="min", help="static routing of the routes (default min, as in 002)")
    p.add_argument("--link-bandwidth-gbps", type=float, default=100.0,
                   help="bandwidth of one cable, Gb/s (default 100)")
    p.add_argument("--floor", default="skywalk", help="floor for cable lengths (default skywalk, 004)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("apps", help="run MPI kernels with SimGrid/SMPI on a design (simulated time)")
    p.add_argument("network", help="topology spec or network file")
    p.add_argument("--app", action="append", required=True, choices=simgrid.APPS,
                   help="kernel to run (repeat for several)")
    p.add_argument("--size", type=int, default=65536, help="message size in bytes (default 65536)")
    p.add_argument("--ranks", type=int, help="MPI ranks (default: one per endpoint)")
    add_platform_options(p)
    p.add_argument("--format", help="input file format when the extension does not say it")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_apps)
