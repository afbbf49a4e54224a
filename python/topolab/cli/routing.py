"""``topolab routing check|load|tables|export|verify``: static routing analysis and the
InfiniBand export."""

from __future__ import annotations

import argparse
import sys

import topolab
from topolab import infiniband, routing
from topolab._args import cli_int
from topolab._files import check_output_dir, check_output_file, write_text
from topolab.cli.common import (
    add_command,
    add_deprecated_alias,
    add_failures_flag,
    add_input_format_flag,
    add_json_flag,
    add_load_resolution_flag,
    add_output_dir_flag,
    add_output_file_flag,
    add_progress_flag,
    add_seed_flag,
    json_document,
    network_from_argument,
    print_json,
    print_table,
)


def cmd_check(args: argparse.Namespace) -> int:
    net = network_from_argument(args.network, args.format, args.failures)
    rep = routing.check(net, args.routing, progress=args.progress)
    if args.json:
        inputs = {"network": args.network, "routing": args.routing}
        units = {"max_hops": "router-to-router hops"}
        print_json(json_document("routing check", inputs, units, rep.to_dict()))
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
    net = network_from_argument(args.network, args.format, args.failures)
    res, static_error = None, None
    try:
        res = routing.channel_load(net, args.routing, progress=args.progress, traffic=args.traffic)
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
            load_resolution=args.load_resolution,
            progress=args.progress,
        )
        sim = {
            "saturation_load": df.attrs["saturation_load"],
            "saturated_load": df.attrs["saturated_load"],
            "saturation_throughput": df.attrs["saturation_throughput"],
        }
    if args.json:
        out = res.to_dict() if res is not None else {"routing": args.routing, "static_error": static_error}
        out["traffic"] = args.traffic
        if sim is not None:
            out["simulated"] = sim
        inputs = {"network": args.network, "routing": args.routing, "traffic": args.traffic}
        if args.simulate:
            inputs.update(seed=args.seed, load_resolution=args.load_resolution)
        units = {
            **routing.ChannelLoad.UNITS,
            "saturation_load": "flits/endpoint/cycle (highest load the sweep carried)",
            "saturated_load": "flits/endpoint/cycle (lowest load above it the sweep saturated at)",
            "saturation_throughput": "flits/endpoint/cycle",
        }
        print_json(json_document("routing load", inputs, units, out))
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
        from topolab.cli.sim import saturation_bracket

        bracket = saturation_bracket(sim["saturation_load"], sim["saturated_load"])
        rows.append(["saturation load (simulated)", bracket])
        rows.append(["saturation throughput (simulated)", f"{sim['saturation_throughput']:.4g}"])
    print_table(rows, ["property", "value"])
    return 0


def print_infiniband(res: infiniband.InfinibandCheck, args: argparse.Namespace) -> int:
    if args.json:
        inputs = {"network": args.network, "routing": args.routing}
        inputs.update({k: getattr(args, k) for k in ("output", "directory", "vl_budget") if hasattr(args, k)})
        print_json(json_document(f"routing {args.routing_command}", inputs, {}, res.to_dict()))
    else:
        rows = [
            ["routing", res.routing],
            ["switches / hosts", f"{res.switches} / {res.hosts}"],
            ["pairs followed", str(res.pairs)],
            ["max hops", str(res.max_hops)],
            ["VLs / SLs used", f"{res.vls_used} / {res.sls_used}"],
            ["verdict", "deadlock-free (acyclic CDG)" if res.cdg.acyclic else "CYCLE in the CDG"],
        ]
        print_table(rows, ["property", "value"])
    return 0 if res.cdg.acyclic else 1


def cmd_export(args: argparse.Namespace) -> int:
    args.output = check_output_dir("routing export", "--output-dir", args.output)
    net = network_from_argument(args.network, args.format, args.failures)
    res = infiniband.export(net, args.routing, args.output, args.vl_budget, progress=args.progress)
    print(f"wrote {', '.join(infiniband.FILES)} to {args.output}", file=sys.stderr)
    return print_infiniband(res, args)


def cmd_verify(args: argparse.Namespace) -> int:
    net = network_from_argument(args.network, args.format, args.failures)
    return print_infiniband(infiniband.check(net, args.routing, args.directory), args)


def cmd_tables(args: argparse.Namespace) -> int:
    if args.output:
        args.output = check_output_file("routing tables", "--output", args.output)
    net = network_from_argument(args.network, args.format, args.failures)
    text = routing.forwarding_tables(net, args.routing, args.vl_budget)
    if args.output:
        write_text(args.output, text)
    else:
        print(text, end="")
    return 0


def cmd_opensm(args: argparse.Namespace) -> int:
    from topolab import opensm

    gone = opensm.missing_tools()
    if gone:
        print(f"topolab routing opensm: {', '.join(gone)} not found; {opensm.INSTALL_HINT}", file=sys.stderr)
        return 2
    net = network_from_argument(args.network, args.format)
    engines = args.engines.split(",") if args.engines else list(opensm.DEFAULT_ENGINES)
    ours = args.routings.split(",") if args.routings else list(opensm.DEFAULT_ROUTINGS)
    rows = opensm.compare(
        net, args.output, engines=engines, routings=ours, simulate=args.simulate, seed=args.seed
    )
    if args.json:
        inputs = {"network": args.network, "engines": engines, "routings": ours, "simulate": args.simulate}
        units = {
            "max_load_uniform": "endpoint injection bandwidths per link",
            "saturation_uniform": "flits/endpoint/cycle",
            "seconds": "s (wall clock, OpenSM run and analysis)",
        }
        print_json(json_document("routing opensm", inputs, units, [r.to_dict() for r in rows]))
        return 0

    def num(x: float | None) -> str:
        return "-" if x is None else f"{x:.3g}"

    table = []
    for r in rows:
        if not r.routed:
            table.append([r.routing, r.source, "refused: " + r.reason[:60], "", "", "", "", "", ""])
            continue
        free = {True: "yes", False: "NO (cycle)", None: "-"}[r.deadlock_free]
        table.append(
            [
                r.routing,
                r.source,
                free,
                "-" if r.vls_used is None else str(r.vls_used),
                "-" if r.vls_needed is None else str(r.vls_needed),
                num(r.max_load_uniform),
                num(r.max_load_worst),
                num(r.saturation_uniform),
                f"{r.seconds:.1f}",
            ]
        )
    print_table(
        table,
        [
            "routing",
            "from",
            "deadlock-free",
            "VLs used",
            "VLs needed",
            "max load uniform",
            "max load worst",
            "saturation",
            "s",
        ],
    )
    print(f"tables and OpenSM logs in {args.output}/<engine>", file=sys.stderr)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "routing",
        help="static routing analysis: deadlock check, channel load, tables",
        description="Static analysis of a routing on a network: the channel dependency graph "
        "(deadlock freedom), the load of the busiest channel under a traffic pattern (a bound "
        "on throughput) and InfiniBand-style forwarding tables. docs/routing.md.",
        examples=[
            "topolab routing check slimfly:q=5 --routing min:vcs=hop",
            "topolab routing load slimfly:q=5 --routing valiant --traffic worst",
            "topolab routing tables torus:dims=4x4 --routing dor -o tables.txt",
        ],
        notes="routings: see 'topolab list routings'",
    )
    rsub = p.add_subparsers(dest="routing_command", metavar="ACTION")
    rsub.required = True

    def common(q: argparse.ArgumentParser) -> None:
        q.add_argument("network", help="topology spec or network file")
        q.add_argument(
            "--routing", required=True, help="routing spec, e.g. min:vcs=hop, valiant, updown, dfsssp"
        )
        add_input_format_flag(q)
        add_failures_flag(q)

    q = add_command(
        rsub,
        "check",
        help="CDG deadlock check: VCs used, max path length, verdict",
        description="Builds the channel dependency graph of the routing on the network and looks "
        "for a cycle; exits 1 when there is one (and prints it).",
        examples=["topolab routing check slimfly:q=5 --routing min:vcs=hop"],
    )
    common(q)
    add_json_flag(q)
    add_progress_flag(q)
    q.set_defaults(func=cmd_check)

    q = add_command(
        rsub,
        "load",
        help="maximum channel load for a traffic pattern (throughput bound)",
        description="Expected load of every directed link when every endpoint injects 1 flit per "
        "cycle under the traffic pattern; the busiest link bounds throughput. With --simulate "
        "the simulator's saturation search runs too, for comparison.",
        examples=[
            "topolab routing load slimfly:q=5 --routing min --traffic uniform",
            "topolab routing load dragonfly:a=4,h=2 --routing dragonfly_ugal --traffic worst --simulate",
        ],
    )
    common(q)
    q.add_argument("--traffic", default="uniform", help="traffic spec (docs/traffic.md), default uniform")
    q.add_argument(
        "--simulate",
        action="store_true",
        help="also run the simulator's saturation search and print both figures",
    )
    add_seed_flag(q, "the simulation (with --simulate)")
    add_deprecated_alias(
        q,
        "--tolerance",
        add_load_resolution_flag(q, 0.02, "with --simulate"),
    )
    add_json_flag(q)
    add_progress_flag(q)
    q.set_defaults(func=cmd_load)

    q = add_command(
        rsub,
        "export",
        help="InfiniBand LFT/SL2VL/path-SL files (OpenSM formats), re-read and checked",
        description="Programs InfiniBand's routing function for the routing (Daryin & Korzh, JSFI "
        "2014, §3): linear forwarding tables per switch in the dump format OpenSM's 'file' routing "
        "engine loads, SL2VL tables and path service levels, with deterministic LIDs; then reads "
        "the files back and checks that they route every pair along the routing's paths without a "
        "cycle in the channel dependency graph. docs/routing.md, 'InfiniBand export'.",
        examples=[
            "topolab routing export hyperx:dims=3x3x3,p=4 --routing hyperx_dor:mixed=true -o ib/",
            "topolab routing export dragonfly:a=4,h=2 --routing dragonfly_static -o ib/ --vl-budget 4",
        ],
    )
    common(q)
    add_output_dir_flag(q, "directory for the three files", required=True)
    q.add_argument(
        "--vl-budget", type=cli_int(1, 15), default=8, help="data VLs per port: 1, 2, 4, 8 or 15 (default 8)"
    )
    add_json_flag(q)
    add_progress_flag(q)
    q.set_defaults(func=cmd_export)

    q = add_command(
        rsub,
        "verify",
        help="re-read an InfiniBand export and check it against the routing",
        description="Reads the files 'topolab routing export' wrote and follows every (switch, host) "
        "pair through the forwarding and SL2VL tables: each route must be a path of the routing and "
        "the routes together must be deadlock-free.",
        examples=["topolab routing verify hyperx:dims=3x3x3,p=4 --routing hyperx_dor:mixed=true ib/"],
    )
    common(q)
    q.add_argument("directory", help="directory written by 'topolab routing export'")
    add_json_flag(q)
    q.set_defaults(func=cmd_verify)

    q = add_command(
        rsub,
        "opensm",
        help="OpenSM's routing engines on the design (ibsim), beside topolab's routings",
        description="Stands the design up as a simulated InfiniBand fabric (ibsim), runs each of "
        "OpenSM's routing engines on it, reads back the tables it computed (LFTs, SL2VL, path SLs) and "
        "reports per engine: VLs used, deadlock freedom (topolab's CDG check over (link, VL)), the "
        "maximum channel load under uniform and worst-case traffic and, with --simulate, the "
        "simulated saturation throughput; topolab's own routings on the same design below. Needs "
        "Debian's opensm, ibsim-utils and infiniband-diags. docs/infiniband.md.",
        examples=[
            "topolab routing opensm slimfly:q=5,p=3 -o osm/",
            "topolab routing opensm fattree:k=4 --engines minhop,ftree,updn -o osm/ --simulate",
        ],
    )
    q.add_argument("network", help="topology spec or network file")
    add_input_format_flag(q)
    add_output_dir_flag(q, "directory for each engine's tables and log", required=True)
    q.add_argument("--engines", help="comma-separated OpenSM engines (default: every one but sssp)")
    q.add_argument(
        "--routings", help="comma-separated topolab routings to compare (default min,updown,dfsssp)"
    )
    q.add_argument(
        "--simulate", action="store_true", help="also simulate each routing's saturation throughput"
    )
    add_seed_flag(q, "the simulation (with --simulate)")
    add_json_flag(q)
    q.set_defaults(func=cmd_opensm)

    q = add_command(
        rsub,
        "tables",
        help="forwarding (LFT) and VL tables, text format of docs/routing.md",
        description="InfiniBand-style linear forwarding tables and VL assignments for the routing, "
        "in the text format of docs/routing.md.",
        examples=["topolab routing tables torus:dims=4x4 --routing dor --vl-budget 4"],
    )
    common(q)
    q.add_argument(
        "--vl-budget",
        type=cli_int(1, 15),
        default=8,
        help="VLs available (default 8, Daryin & Korzh, JSFI 2014, §3)",
    )
    add_output_file_flag(q, "write to this file instead of stdout")
    q.set_defaults(func=cmd_tables)
