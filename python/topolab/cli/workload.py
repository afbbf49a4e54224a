"""The ``workload`` command: collectives, pipelines and halos, one job or several, run flit by
flit on one network (topolab.workload)."""

from __future__ import annotations

import argparse
import textwrap

from topolab._args import U32_MAX, cli_float, cli_int
from topolab.cli.common import (
    add_command,
    add_failures_flag,
    add_input_format_flag,
    add_json_flag,
    add_progress_flag,
    add_seed_flag,
    json_document,
    network_from_argument,
    print_json,
    print_table,
)
from topolab.cli.sim import _params, add_router_flags
from topolab.workload import WorkloadResult, run_workload, workload_patterns

UNITS = {
    "completion_cycles": "cycles",
    "iteration_cycles": "cycles",
    "alone_cycles": "cycles",
    "slowest_rank_cycles": "cycles",
    "mean_rank_cycles": "cycles",
    "bytes": "bytes per rank buffer (NCCL's size)",
    "algbw_bytes_per_cycle": "bytes/cycle",
    "busbw_bytes_per_cycle": "bytes/cycle",
    "busbw_link_fraction": "bus bandwidth / one link's bandwidth",
    "avg_latency": "cycles",
    "p99_latency": "cycles",
    "wall_seconds": "s",
}


def _table(r: WorkloadResult) -> None:
    slowdown = any(j.slowdown is not None for j in r.jobs)
    header = ["job", "ranks", "completion", "busbw/link", "slowest rank"]
    if slowdown:
        header += ["alone", "slowdown"]
    rows = []
    for j in r.jobs:
        row = [
            j.name,
            str(j.ranks),
            f"{j.completion_cycles:,}",
            f"{j.busbw_link_fraction:.3f}",
            f"{j.slowest_rank} ({j.slowest_rank_cycles:,})",
        ]
        if slowdown:
            row += [f"{j.alone_cycles:,}", f"{j.slowdown:.3f}"]
        rows.append(row)
    print_table(rows, header)
    for j in r.jobs:
        phases = ", ".join(f"{p.phase} {p.cycles:,}" for p in j.phases)
        print(f"  {j.name}: phases (cycles): {phases}")
    print(
        f"{r.delivered_packets:,} of {r.packets:,} packets delivered in {r.completion_cycles:,} cycles; "
        f"packet latency {r.avg_latency:.1f} cycles (99th percentile {r.p99_latency:.0f}), "
        f"{r.packet_bytes}-byte packets"
        + (f"; {r.background_packets:,} background packets delivered meanwhile" * bool(r.background_packets))
    )


def cmd_workload(args: argparse.Namespace) -> int:
    net = network_from_argument(args.network, args.format, args.failures)
    params = _params(args)
    r = run_workload(
        net,
        args.jobs,
        args.routing,
        args.seed,
        packet_bytes=args.packet_bytes,
        slowdown=args.slowdown,
        background=args.background,
        background_load=args.background_load,
        progress=args.progress,
        **params,
    )
    if args.json:
        inputs = {
            "network": args.network,
            "spec": net.spec,
            "jobs": args.jobs,
            "routing": args.routing,
            "seed": args.seed,
            "packet_bytes": args.packet_bytes,
            "background": args.background,
            "background_load": args.background_load if args.background else None,
            "router": params,
        }
        print_json(json_document("workload", inputs, UNITS, r.to_dict()))
        return 0
    _table(r)
    return 0


def _notes() -> str:
    lines = []
    for w in workload_patterns():
        own = [p for p in w.param_defs if p.name not in _COMMON]
        shown = ", ".join(
            p.name if p.default is None or " " in p.default else f"{p.name}={p.default}" for p in own
        )
        lines.append(f"  {w.name}({shown})")
    common = ", ".join(sorted(_COMMON))
    return (
        "workloads (docs/workloads.md; each also takes "
        + common
        + "):\n"
        + "\n".join(lines)
        + "\n\n"
        + textwrap.fill(
            "Jobs are placed in order, each on the endpoints the jobs before it left free; ranks "
            "defaults to all of them. Sizes: 64KiB, 1MiB, 1G are powers of 1024.",
            100,
            initial_indent="  ",
            subsequent_indent="  ",
        )
    )


_COMMON = {"bytes", "ranks", "iterations", "compute", "placement", "mapping", "seed"}


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "workload",
        help="run collectives, pipelines and halos (one job or several) on a network, flit by flit",
        description="Runs message-level workloads in the cycle-accurate simulator until every message "
        "has arrived: per job its completion time, NCCL's bus bandwidth (as a fraction of one link's), "
        "the time of each phase and the slowest rank; --slowdown also runs each job alone on the same "
        "endpoints.",
        examples=[
            "topolab workload slimfly:q=5 allreduce:bytes=1MiB",
            "topolab workload dragonfly:a=4,h=2 allreduce:algorithm=hierarchical,bytes=256KiB",
            "topolab workload slimfly:q=5 allreduce:ranks=100,placement=random alltoall:skew=1 --slowdown",
        ],
        notes=_notes(),
    )
    p.add_argument("network", help="topology spec or network file")
    p.add_argument("jobs", nargs="+", metavar="JOB", help="workload spec, one per job (list below)")
    add_input_format_flag(p)
    add_failures_flag(p)
    p.add_argument("--routing", default="min", help="routing (default min; topolab sim --help lists them)")
    p.add_argument(
        "--packet-bytes",
        type=cli_int(1, U32_MAX),
        default=256,
        help="bytes per packet (default 256); a packet is --packet-size flits",
    )
    p.add_argument("--slowdown", action="store_true", help="also run each job alone on the same endpoints")
    p.add_argument(
        "--background",
        metavar="PATTERN",
        help="traffic pattern the endpoints no job uses send meanwhile (docs/traffic.md), at "
        "--background-load",
    )
    p.add_argument(
        "--background-load",
        type=cli_float(0.0, 1.0),
        default=0.1,
        help="flits per endpoint per cycle of --background (default 0.1)",
    )
    add_seed_flag(p, "every random stream of the run")
    add_json_flag(p)
    add_progress_flag(p)
    group = p.add_argument_group("router parameters (BookSim2's names, kebab case; topolab sim --help)")
    add_router_flags(group, shown=False)
    p.set_defaults(func=cmd_workload)
