"""Machine-room commands: place, cost, latency."""

from __future__ import annotations

import argparse
from typing import Any

import topolab
from topolab._args import U32_MAX, cli_int
from topolab._files import atomic_write, check_output_file
from topolab.cli.common import (
    add_command,
    add_floor_flag,
    add_input_format_flag,
    add_json_flag,
    add_output_file_flag,
    add_progress_flag,
    json_document,
    network_from_argument,
    print_json,
    print_table,
)
from topolab.defaults import DEFAULT_CATALOG
from topolab.physical import CostReport, LatencyReport


def _float(text: str) -> float:
    """A number; 'inf' allowed (e.g. --max-electric inf: every cable electric)."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None


def _add_placement_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("network", help="topology spec or network file")
    add_floor_flag(p)
    p.add_argument(
        "--per-cabinet",
        type=cli_int(1, U32_MAX),
        metavar="Z",
        help="routers per cabinet for networks placed sequentially or arbitrarily",
    )
    p.add_argument(
        "--placement",
        metavar="RULE|FILE",
        help="family (default), sequential, or a file of 'router cabinet' lines",
    )
    add_input_format_flag(p)
    add_json_flag(p)


def _placement_inputs(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "network": args.network,
        "floor": args.floor,
        "placement": args.placement,
        "per_cabinet": args.per_cabinet,
    }


def _fmt(x: Any, digits: int = 2) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:,.{digits}f}"
    if isinstance(x, int):
        return f"{x:,}"
    return str(x)


def cmd_place(args: argparse.Namespace) -> int:
    if args.output:
        args.output = check_output_file("place", "--output", args.output)
    net = network_from_argument(args.network, args.format)
    pl = topolab.place(net, args.floor, placement=args.placement, per_cabinet=args.per_cabinet)
    if args.output:
        with atomic_write(args.output) as out:
            out.write(f"# router cabinet; {pl.cabinets} cabinets on a {pl.rows}x{pl.cols} grid\n")
            out.write(f"# {net.spec or net.family}: {pl.method}\n")
            for r, c in enumerate(pl.cabinet_of):
                out.write(f"{r} {c}\n")
    if args.json:
        print_json(json_document("place", _placement_inputs(args), {}, pl.to_dict()))
        return 0
    per = [0] * pl.cabinets
    for c in pl.cabinet_of:
        per[c] += 1
    rows = [
        ["floor", pl.floor],
        ["method", pl.method],
        ["cabinets", _fmt(pl.cabinets)],
        ["grid", f"{pl.rows} rows x {pl.cols} columns"],
        ["routers per cabinet", f"{min(per)} to {max(per)}"],
    ]
    print_table(rows, ["property", "value"])
    return 0


def cmd_cost(args: argparse.Namespace) -> int:
    net = network_from_argument(args.network, args.format)
    rep = topolab.cost(
        net,
        args.catalog,
        args.floor,
        placement=args.placement,
        per_cabinet=args.per_cabinet,
        max_electric_m=args.max_electric,
        router_radix=args.router_radix,
    )
    if args.json:
        inputs = {
            **_placement_inputs(args),
            "catalog": args.catalog,
            "max_electric_m": args.max_electric,
            "router_radix": args.router_radix,
        }
        print_json(json_document("cost", inputs, CostReport.UNITS, rep.to_dict()))
        return 0
    summary = [
        ["network", net.spec or net.family],
        ["floor / catalog", f"{rep.floor} / {rep.catalog}"],
        ["placement", rep.placement],
        ["cabinets", f"{rep.cabinets:,} ({rep.grid_rows} x {rep.grid_cols})"],
        ["routers x radix", f"{rep.routers:,} x {rep.router_radix}"],
        ["endpoints", _fmt(rep.endpoints)],
        ["electric / optical cables", f"{rep.electric_cables:,} / {rep.optical_cables:,}"],
        ["total cable (m)", f"{rep.total_cable_m:,.1f} (avg {rep.avg_cable_m:.2f})"],
        ["endpoint cables", f"{rep.endpoint_cables:,} ({rep.endpoint_cable_m:,.1f} m)"],
        ["cable / router cost ($)", f"{rep.cable_cost:,.0f} / {rep.router_cost:,.0f}"],
        ["total cost ($)", f"{rep.total_cost:,.0f}"],
        ["cost per endpoint ($)", _fmt(rep.cost_per_endpoint)],
        ["power (W)", f"{rep.power_w:,.1f}"],
        ["power per endpoint (W)", _fmt(rep.power_per_endpoint_w, 3)],
    ]
    print_table(summary, ["property", "value"])
    print()
    rows = [
        [
            c.link_class,
            f"{c.cables:,}",
            f"{c.electric:,}",
            f"{c.optical:,}",
            f"{c.total_m:,.1f}",
            f"{c.avg_m:.2f}",
            f"{c.cost:,.0f}",
        ]
        for c in rep.by_class
    ]
    print_table(rows, ["class", "cables", "electric", "optical", "length_m", "avg_m", "cost_$"])
    return 0


def cmd_latency(args: argparse.Namespace) -> int:
    net = network_from_argument(args.network, args.format)
    rep = topolab.latency(
        net,
        switch_delay_ns=args.switch_delay,
        routing=args.routing,
        floor=args.floor,
        cable_ns_per_m=args.cable_delay,
        injection_ns=args.injection,
        placement=args.placement,
        per_cabinet=args.per_cabinet,
        progress=args.progress,
    )
    if args.json:
        inputs = {
            **_placement_inputs(args),
            "routing": args.routing,
            "switch_delay_ns": args.switch_delay,
            "cable_ns_per_m": args.cable_delay,
            "injection_ns": args.injection,
        }
        print_json(json_document("latency", inputs, LatencyReport.UNITS, rep.to_dict()))
        return 0
    rows = [
        ["network", net.spec or net.family],
        ["routing", rep.routing],
        [
            "model",
            f"{rep.switch_delay_ns:g} ns/switch, {rep.cable_ns_per_m:g} ns/m, "
            f"{rep.injection_ns:g} ns injection+ejection",
        ],
        ["floor / placement", f"{rep.floor} / {rep.placement}"],
        ["router pairs", _fmt(rep.pairs)],
        ["max latency (ns)", _fmt(rep.max_latency_ns, 1)],
        ["avg latency (ns)", _fmt(rep.avg_latency_ns, 1)],
        ["min latency (ns)", _fmt(rep.min_latency_ns, 1)],
        ["avg hops", _fmt(rep.avg_hops, 3)],
        ["max hops", _fmt(rep.max_hops)],
    ]
    print_table(rows, ["property", "value"])
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "place",
        help="place routers into cabinets on a floor",
        description="Places the routers into cabinets on a floor grid: by the family's rule "
        "(Slim Fly racks, Dragonfly groups, fat tree pods, ...), sequentially, or from a file. "
        "docs/physical.md describes the floors and the rules.",
        examples=[
            "topolab place slimfly:q=19",
            "topolab place skywalk:z=8,c=256,di=7,do=4 --floor skywalk -o placement.txt",
            "topolab place jellyfish:n=200,k=16,p=8 --placement sequential --per-cabinet 4 --json",
        ],
    )
    _add_placement_args(p)
    add_output_file_flag(p, "write the placement as 'router cabinet' lines")
    p.set_defaults(func=cmd_place)

    p = add_command(
        sub,
        "cost",
        help="cables, cost and power of a network (Besta & Hoefler, SC14, §VI-B, §VI-C)",
        description="Places the network on a floor, measures every cable, prices cables and "
        "routers with a catalog and adds up the power; totals, per endpoint and per link class.",
        examples=[
            "topolab cost slimfly:q=19",
            "topolab cost dragonfly:a=8,h=4 --catalog my_prices.toml --json",
            "topolab cost torus:dims=8x8x8 --max-electric inf",
        ],
    )
    _add_placement_args(p)
    p.add_argument(
        "--catalog",
        default=DEFAULT_CATALOG,
        help=f"cost catalog: fdr10 or a TOML file (default {DEFAULT_CATALOG})",
    )
    p.add_argument(
        "--max-electric",
        type=_float,
        metavar="M",
        help="longest electric cable in m (default: the floor's; inf: all electric)",
    )
    p.add_argument(
        "--router-radix", type=cli_int(1, U32_MAX), metavar="K", help="radix of the routers bought"
    )
    p.set_defaults(func=cmd_cost)

    p = add_command(
        sub,
        "latency",
        help="all-pairs latency, Nearest or Fastest Routing (Fujiwara et al., IPDPS 2014, §II-E)",
        description="Maximum, average and minimum latency between routers that carry endpoints: "
        "injection + (hops + 1) x switch delay + cable delay x cable length, with the cables "
        "measured on the floor, under Fastest (lowest latency) or Nearest (fewest hops) routing.",
        examples=[
            "topolab latency slimfly:q=19",
            "topolab latency skywalk:z=8,c=256,di=7,do=4 --floor skywalk --switch-delay 100",
            "topolab latency torus:dims=8x8x8 --routing nearest --json",
        ],
    )
    _add_placement_args(p)
    p.add_argument("--switch-delay", type=_float, default=60.0, metavar="NS", help="default 60")
    p.add_argument(
        "--routing",
        choices=["nearest", "fastest"],
        default="fastest",
        help="the routing whose paths are timed: fastest (lowest latency, default) or nearest (fewest "
        "hops), Fujiwara et al., IPDPS 2014, §II-E",
    )
    p.add_argument("--cable-delay", type=_float, default=5.0, metavar="NS_PER_M", help="default 5")
    p.add_argument(
        "--injection", type=_float, default=300.0, metavar="NS", help="injection + ejection, default 300"
    )
    add_progress_flag(p)
    p.set_defaults(func=cmd_latency)
