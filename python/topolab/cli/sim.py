"""The ``sim`` command: one simulation run, a latency-load sweep, or a BookSim2 configuration."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

import topolab
from topolab._args import bad
from topolab._files import save_figure
from topolab.cli.common import network_from_argument, print_table
from topolab.sim import SimResult, from_booksim, sim_params, simulate, sweep_load

RESULT_KEYS = [
    "offered_load",
    "accepted_throughput",
    "avg_latency",
    "p99_latency",
    "avg_network_latency",
    "avg_hops",
    "saturated",
    "converged",
    "cycles",
]


def _json_value(v: Any) -> Any:
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return "nan" if math.isnan(v) else f"{v:.4g}"
    return str(v)


def _params(args: argparse.Namespace) -> dict[str, Any]:
    return {
        p.name: getattr(args, p.name)
        for p in sim_params()
        if p.name != "seed" and getattr(args, p.name) is not None
    }


def _plot(df: Any, path: str, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    ok = df[~df["saturated"]]
    sat = df[df["saturated"]]
    ax.plot(ok["offered_load"], ok["avg_latency"], "o-", label="average latency")
    if len(ok):
        ax.plot(ok["offered_load"], ok["p99_latency"], "s--", alpha=0.6, label="99th percentile")
    if len(sat):
        ax.plot(sat["offered_load"], sat["avg_latency"], "x", color="grey", label="saturated runs")
    s = df.attrs.get("saturation_load", math.nan)
    if s == s and s > 0:
        ax.axvline(s, color="red", linestyle=":", label=f"saturation {s:.3f}")
    ax.set_xlabel("offered load (flits/endpoint/cycle)")
    ax.set_ylabel("packet latency (cycles)")
    ax.set_yscale("log")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    save_figure(fig, path, dpi=120)
    plt.close(fig)


def _load_list(text: str) -> list[float]:
    try:
        return [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise bad("sim", "--loads", text, "comma-separated numbers, e.g. 0.1,0.2,0.3") from None


def cmd_sim(args: argparse.Namespace) -> int:
    params = _params(args)
    if args.booksim:
        setup = from_booksim(args.booksim)
        net = setup.network
        routing = args.routing or setup.routing
        traffic = args.traffic or setup.traffic
        load = args.load if args.load is not None else setup.load
        seed = args.seed if args.seed is not None else setup.params.get("seed", 1)
        params = {**{k: v for k, v in setup.params.items() if k != "seed"}, **params}
        title = f"{args.booksim}"
    else:
        if not args.network:
            raise topolab.ParameterError("sim: give a network (spec or file) or --booksim CONFIG")
        net = network_from_argument(args.network, args.format)
        routing = args.routing or "min"
        traffic = args.traffic or "uniform"
        load = args.load if args.load is not None else 0.5
        seed = args.seed if args.seed is not None else 1
        title = args.network
    if args.sweep:
        loads = None
        if args.loads:
            loads = _load_list(args.loads)
        df = sweep_load(
            net,
            routing,
            traffic,
            loads,
            seed,
            tolerance=args.tolerance,
            show_progress=args.progress,
            **params,
        )
        if args.plot:
            _plot(df, args.plot, f"{title} {routing} {traffic}")
        if args.json:
            out = {
                "routing": routing,
                "traffic": traffic,
                "saturation_load": _json_value(df.attrs["saturation_load"]),
                "saturation_throughput": _json_value(df.attrs["saturation_throughput"]),
                "points": [
                    {k: _json_value(v) for k, v in row.items()} for row in df.to_dict(orient="records")
                ],
            }
            print(json.dumps(out, indent=2))
            return 0
        rows = [[_fmt(r[k]) for k in RESULT_KEYS] for r in df.to_dict(orient="records")]
        print_table(rows, RESULT_KEYS)
        print(
            f"saturation: load {_fmt(df.attrs['saturation_load'])}, "
            f"throughput {_fmt(df.attrs['saturation_throughput'])} flits/endpoint/cycle"
        )
        if args.plot:
            print(f"wrote {args.plot}", file=sys.stderr)
        return 0
    r: SimResult = simulate(net, routing, traffic, load, seed, show_progress=args.progress, **params)
    if args.json:
        print(json.dumps({k: _json_value(v) for k, v in r.to_dict().items()}, indent=2))
        return 0
    print_table([[k, _fmt(v)] for k, v in r.to_dict().items()], ["result", "value"])
    return 0


def _parse_value(kind: str):
    def parse(text: str) -> Any:
        if kind == "int":
            return int(text)
        if kind == "float":
            return float(text)
        if kind == "bool":
            if text.lower() in ("1", "true", "yes", "on"):
                return True
            if text.lower() in ("0", "false", "no", "off"):
                return False
            raise argparse.ArgumentTypeError(f"'{text}' is not true or false")
        return text

    return parse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sim",
        help="simulate a network: one run, a latency-load sweep, or a BookSim2 config",
        description="Cycle-accurate simulation measured the BookSim2 way. Router parameters use "
        "BookSim2's names (--num_vcs 4 --vc_buf_size 64 ...).",
    )
    p.add_argument("network", nargs="?", help="topology spec or network file (not needed with --booksim)")
    p.add_argument("--format", help="input file format when the extension does not say it")
    p.add_argument("--routing", help="min (default), min_static, valiant, dor, dragonfly_min, dragonfly_ugal")
    p.add_argument("--traffic", help="traffic pattern (default uniform)")
    p.add_argument(
        "--load",
        type=float,
        help="offered load, flits per active endpoint per cycle (default 0.5)",
    )
    p.add_argument("--seed", type=int, help="random seed (default 1)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--sweep", action="store_true", help="latency-load curve and saturation point")
    p.add_argument("--loads", help="comma-separated loads for --sweep (default 0.1, 0.2, ...)")
    p.add_argument("--tolerance", type=float, default=0.01, help="bisection tolerance of --sweep")
    p.add_argument("--plot", help="write the --sweep curve to this image file (png, pdf, svg)")
    p.add_argument(
        "--booksim", metavar="CONFIG", help="read network, routing, traffic and router from a BookSim2 config"
    )
    p.add_argument("--progress", action="store_true", help="print progress on stderr")
    group = p.add_argument_group("simulation parameters (BookSim2 names)")
    for param in sim_params():
        if param.name == "seed":
            continue
        group.add_argument(
            f"--{param.name}",
            type=_parse_value(param.kind),
            metavar=param.kind.upper(),
            help=f"{param.help} (default {param.default or 'none'})",
        )
    p.set_defaults(func=cmd_sim)
