"""``topolab apps SPEC --app NAME``: MPI kernels run with SimGrid/SMPI on a design
(Koibuchi et al., 2018, §III-C, §IV); docs/simgrid.md."""

from __future__ import annotations

import argparse

from topolab import simgrid
from topolab._args import U32_MAX, cli_float, cli_int
from topolab.cli.common import (
    add_command,
    add_floor_flag,
    add_input_format_flag,
    add_json_flag,
    json_document,
    network_from_argument,
    print_json,
    print_table,
)


def cmd_apps(args: argparse.Namespace) -> int:
    net = network_from_argument(args.network, args.format)
    results = [
        simgrid.run_app(
            net,
            app,
            size=args.size,
            routing=args.routing,
            ranks=args.ranks,
            link_bandwidth_gbps=args.link_bandwidth_gbps,
            floor=args.floor,
        )
        for app in args.app
    ]
    if args.json:
        inputs = {
            "network": args.network,
            "apps": args.app,
            "size": args.size,
            "ranks": args.ranks,
            "routing": args.routing,
            "link_bandwidth_gbps": args.link_bandwidth_gbps,
            "floor": args.floor,
        }
        units = {"size": "bytes per message", "time_s": "simulated seconds"}
        print_json(json_document("apps", inputs, units, [r.to_dict() for r in results]))
        return 0
    rows = [[r.app, str(r.ranks), str(r.size), r.routing, f"{r.time_s * 1e6:.3f}"] for r in results]
    print_table(rows, ["app", "ranks", "bytes", "routing", "simulated time (us)"])
    return 0


def add_platform_options(p: argparse.ArgumentParser) -> None:
    """The options of a SimGrid platform, shared by ``apps`` and ``build -o X.simgrid.xml``."""
    p.add_argument(
        "--routing",
        default="min",
        help="static routing of the routes (default min, as in Koibuchi et al., 2018)",
    )
    p.add_argument(
        "--link-bandwidth-gbps",
        type=cli_float(0.0, 1e6, above=True),
        default=100.0,
        help="bandwidth of one cable, Gb/s (default 100)",
    )
    add_floor_flag(p, "floor for cable lengths")


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "apps",
        help="run MPI kernels with SimGrid/SMPI on a design (simulated time)",
        description="Writes the network as a SimGrid platform (links from the floor plan's cable "
        "lengths and the latency model, routes from a static routing) and runs MPI kernels on it "
        "with SMPI, as Koibuchi et al., 2018, §III-C, §IV do; reports the simulated communication "
        "time of each. Needs SimGrid (Debian: libsimgrid-dev). docs/simgrid.md.",
        examples=[
            "topolab apps hyperx:dims=4x4,p=2 --app alltoall --app allreduce",
            "topolab apps imase:n=64,d=4 --app stencil3d --size 8192 --json",
        ],
    )
    p.add_argument("network", help="topology spec or network file")
    p.add_argument(
        "--app",
        action="append",
        required=True,
        choices=simgrid.APPS,
        help="kernel to run (repeat for several)",
    )
    p.add_argument(
        "--size", type=cli_int(1, U32_MAX), default=65536, help="message size in bytes (default 65536)"
    )
    p.add_argument("--ranks", type=cli_int(1, U32_MAX), help="MPI ranks (default: one per endpoint)")
    add_platform_options(p)
    add_input_format_flag(p)
    add_json_flag(p)
    p.set_defaults(func=cmd_apps)
