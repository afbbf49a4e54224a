"""``topolab routing check|load|tables``: static routing analysis."""

from __future__ import annotations

import argparse
import json

import topolab
from topolab import routing
from topolab._files import write_text
from topolab.cli.common import network_from_argument, print_table


def cmd_check(args: argparse.Namespace) -> int:
    net = network_from_argument(args.network, args.format)
    rep = routing.check(net, args.routing, show_progress=args.progress)
    if args.json:
        print(json.dumps(rep.to_dict(), indent=2))
        return 0 if rep.acyclic else 1
    rows = [
        ["routing", rep.routing],
        ["VCs used", str(rep.vcs_used)],
        ["max path length", str(rep.max_hops)],
        ["channels", str(rep.num_channels)],
        ["dependencies", str(rep.num_dependencies)],
        ["verdict", "deadlock-free (acyclic CDG)" if rep.acyclic else "CYCLE in the CDG"],
    ]
    print_table(rows, ["property", "value"])
    if rep.cycle:
        print("cycle: " + " -> ".join(f"{a}->{b}@vc{v}" for a, b, v in rep.cycle))
    return 0 if rep.acyclic else 1


def cmd_load(args: argparse.Namespace) -> int:
    net = network_from_argument(args.network, args.format)
    res, static_error = None, None
    try:
        res = routing.channel_load(net, args.routing, show_progress=args.progress, traffic=args.traffic)
    except topolab.TopolabError as e:
        # Adaptive routings have no static load; with --simulate the simulation still runs.
        if not args.simulate:
            raise
        static_error = str(e)
    sim = None
    if args.simulate:
        from topolab.sim import sweep_load

        df = sweep_load(
            net,
            args.routing,
            args.traffic,
            seed=args.seed,
            tolerance=args.tolerance,
            show_progress=args.progress,
        )
        sim = {
            "saturation_load": df.attrs["saturation_load"],
            "saturation_throughput": df.attrs["saturation_throughput"],
        }
    if args.json:
        out = res.to_dict() if res is not None else {"routing": args.routing, "static_error": static_error}
        out["traffic"] = args.traffic
        if sim is not None:
            out["simulated"] = sim
        print(json.dumps(out, indent=2))
        return 0
    rows = [["routing", res.routing if res else args.routing], ["traffic", args.traffic]]
    if res is not None:
        rows += [
            ["max channel load", f"{res.max_load:.6g}"],
            ["most loaded link", f"{res.max_link[0]} -> {res.max_link[1]}"],
            ["throughput bound (static)", f"{res.throughput_bound:.6g}"],
        ]
    else:
        rows.append(["throughput bound (static)", f"n/a: {static_error}"])
    if sim is not None:
        rows.append(["saturation load (simulated)", f"{sim['saturation_load']:.4g}"])
        rows.append(["saturation throughput (simulated)", f"{sim['saturation_throughput']:.4g}"])
    print_table(rows, ["property", "value"])
    return 0


def cmd_tables(args: argparse.Namespace) -> int:
    net = network_from_argument(args.network, args.format)
    text = routing.forwarding_tables(net, args.routing, args.vl_budget)
    if args.output:
        write_text(args.output, text)
    else:
        print(text, end="")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("routing", help="static routing analysis: deadlock check, channel load, tables")
    rsub = p.add_subparsers(dest="routing_command", metavar="ACTION")
    rsub.required = True

    def common(q: argparse.ArgumentParser) -> None:
        q.add_argument("network", help="topology spec or network file")
        q.add_argument(
            "--routing", required=True, help="routing spec, e.g. min:vcs=hop, valiant, updown, dfsssp"
        )
        q.add_argument("--format", help="input file format when the extension does not say it")

    q = rsub.add_parser("check", help="CDG deadlock check: VCs used, max path length, verdict")
    common(q)
    q.add_argument("--json", action="store_true", help="machine-readable output")
    q.add_argument("--progress", action="store_true", help="show progress on stderr")
    q.set_defaults(func=cmd_check)

    q = rsub.add_parser("load", help="maximum channel load for a traffic pattern (throughput bound)")
    common(q)
    q.add_argument("--traffic", default="uniform", help="traffic spec (docs/traffic.md), default uniform")
    q.add_argument(
        "--simulate",
        action="store_true",
        help="also run the simulator's saturation search and print both figures",
    )
    q.add_argument("--seed", type=int, default=1, help="simulation seed (with --simulate)")
    q.add_argument(
        "--tolerance", type=float, default=0.02, help="saturation search resolution (with --simulate)"
    )
    q.add_argument("--json", action="store_true", help="machine-readable output")
    q.add_argument("--progress", action="store_true", help="show progress on stderr")
    q.set_defaults(func=cmd_load)

    q = rsub.add_parser("tables", help="forwarding (LFT) and VL tables, text format of docs/routing.md")
    common(q)
    q.add_argument("--vl-budget", type=int, default=8, help="VLs available (default 8, 003 §3)")
    q.add_argument("-o", "--output", help="write to this file instead of stdout")
    q.set_defaults(func=cmd_tables)
