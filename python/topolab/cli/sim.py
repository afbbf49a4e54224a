"""The ``sim`` command: one simulation run, a latency-load sweep, or a BookSim2 configuration."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any, Sequence

import topolab
from topolab._args import U64_MAX, bad, cli_float, cli_int, printable
from topolab._files import check_output_file, figure_extensions, import_matplotlib, save_figure
from topolab.cli.common import (
    add_command,
    add_deprecated_alias,
    add_failures_flag,
    add_input_format_flag,
    add_json_flag,
    add_load_resolution_flag,
    add_progress_flag,
    add_seed_flag,
    json_document,
    network_from_argument,
    network_surviving,
    print_json,
    print_table,
)
from topolab.defaults import DEFAULT_SEED
from topolab.families import Param
from topolab.sim import (
    SimResult,
    SweepResult,
    Timeline,
    from_booksim,
    half_width,
    sim_params,
    simulate,
    sweep_load,
    timeline,
    traffic_patterns,
)

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


def _inputs(
    args: argparse.Namespace,
    net: topolab.Network,
    routing: str,
    traffic: str,
    load: float | None,
    seed: int,
    params: dict[str, Any],
) -> dict[str, Any]:
    """What the run was: the network (spec or file), routing, traffic, load, seed and every
    router parameter with the value used (given or default)."""
    router = {
        p.name: _parse_value(p.kind)(p.default) if p.default else None
        for p in sim_params()
        if p.name != "seed"
    }
    router.update(params)
    out: dict[str, Any] = {
        "network": args.network or args.booksim,
        "spec": net.spec,
        "routing": routing,
        "traffic": traffic,
    }
    if load is not None:
        out["load"] = load
    out.update(seed=seed, router=router)
    return out


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return "nan" if math.isnan(v) else f"{v:.4g}"
    return str(v)


def _with_interval(result: dict[str, Any], key: str) -> str:
    """The figure, with its 95% confidence half-width where the run gives one."""
    half = half_width(result.get(f"{key}_ci95"))
    return _fmt(result[key]) if half is None else f"{_fmt(result[key])} ± {_fmt(half)}"


def saturation_bracket(carried: float, saturated: float | None) -> str:
    """The saturation load with the search's bracket: "0.62 (within [0.62, 0.63])", or
    "at least 1" when no run saturated."""
    if saturated is None:
        return f"at least {_fmt(carried)} (no run saturated)"
    return f"{_fmt(carried)} (within [{_fmt(carried)}, {_fmt(saturated)}])"


def _params(args: argparse.Namespace) -> dict[str, Any]:
    return {
        p.name: getattr(args, p.name)
        for p in sim_params()
        if p.name != "seed" and getattr(args, p.name) is not None
    }


def _plot(df: Any, path: str, title: str) -> None:
    matplotlib = import_matplotlib()
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    ok = df[~df["saturated"]]
    sat = df[df["saturated"]]
    # each run's 95% confidence interval of its average latency (0: none, a single period)
    halves = [half_width(v) or 0.0 for v in ok["avg_latency_ci95"]]
    ax.errorbar(
        ok["offered_load"], ok["avg_latency"], yerr=halves, fmt="o-", capsize=2, label="average latency"
    )
    if len(ok):
        ax.plot(ok["offered_load"], ok["p99_latency"], "s--", alpha=0.6, label="99th percentile")
    if len(sat):
        ax.plot(sat["offered_load"], sat["avg_latency"], "x", color="grey", label="saturated runs")
    s = df.attrs.get("saturation_load", math.nan)
    upper = df.attrs.get("saturated_load")
    if s == s and s > 0:
        ax.axvline(s, color="red", linestyle=":", label=f"saturation {s:.3f}")
    if s == s and upper is not None:
        # the search's bracket: the saturation load lies between these two runs
        ax.axvspan(s, upper, color="red", alpha=0.12, label=f"saturation within [{s:.3f}, {upper:.3f}]")
    ax.set_xlabel("offered load (flits/endpoint/cycle)")
    ax.set_ylabel("packet latency (cycles)")
    ax.set_yscale("log")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    save_figure(fig, path, dpi=120)
    plt.close(fig)


def _plot_timeline(t: topolab.Timeline, path: str, title: str) -> None:
    matplotlib = import_matplotlib()
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    w = t.to_dataframe()
    middle = w["start"] + w["cycles"] / 2
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 5), sharex=True)
    top.plot(middle, w["accepted"], "o-", ms=3, label="accepted")
    top.axhline(t.load, color="grey", linestyle=":", label=f"offered {t.load:g}")
    if t.dropped_flits:
        # in the unit of the accepted throughput: flits per sending endpoint per cycle
        top.bar(
            middle,
            w["dropped"] / w["cycles"] / t.senders,
            width=w["cycles"] * 0.8,
            color="red",
            alpha=0.4,
            label="dropped",
        )
    top.set_ylabel("flits/endpoint/cycle")
    bottom.plot(middle, w["avg_latency"], "o-", ms=3, label="average")
    bottom.plot(middle, w["p99_latency"], "s--", ms=3, alpha=0.6, label="99th percentile")
    bottom.set_ylabel("packet latency (cycles)")
    bottom.set_xlabel("cycle")
    for ax in (top, bottom):
        if t.failure_cycle is not None:
            ax.axvline(t.failure_cycle, color="red", linestyle="--", label="cables die")
            ax.axvline(t.reroute_cycle, color="green", linestyle="--", label="rerouted")
        ax.legend(fontsize=8, loc="best")
    top.set_title(title)
    fig.tight_layout()
    save_figure(fig, path, dpi=120)
    plt.close(fig)


def _run_timeline(
    args: argparse.Namespace,
    net: topolab.Network,
    routing: str,
    traffic: str,
    load: float,
    seed: int,
    params: dict[str, Any],
    title: str,
) -> int:
    window = 200 if args.window is None else args.window
    t = timeline(
        net, routing, traffic, load, seed, window=window, cycles=args.cycles, progress=args.progress, **params
    )
    if args.json:
        inputs = _inputs(args, net, routing, traffic, load, seed, params)
        inputs.update(window=window, cycles=t.cycles)
        print_json(json_document("sim --timeline", inputs, Timeline.UNITS, t.to_dict()))
    else:
        columns = ["start", "accepted", "avg_latency", "p99_latency", "dropped", "in_flight"]
        rows = [[_fmt(r[c]) for c in columns] for r in t.to_dataframe().to_dict(orient="records")]
        print_table(rows, columns)
        print(_timeline_summary(t))
    if args.plot:
        sys.stdout.flush()
        _plot_timeline(t, args.plot, f"{title} {routing} {traffic} load {load:g}")
        print(f"wrote {printable(args.plot)}", file=sys.stderr)
    return 0


def _timeline_summary(t: topolab.Timeline) -> str:
    def figure(value: float | None, interval: tuple[float, float] | None) -> str:
        if value is None:
            return "n/a"
        half = half_width(interval)
        return _fmt(value) + ("" if half is None else f" ± {_fmt(half)}")

    lines = [
        f"before the failure: accepted {figure(t.accepted_before, t.accepted_before_ci95)}, "
        f"latency {figure(t.latency_before, t.latency_before_ci95)} cycles (95% intervals over the windows)"
    ]
    if t.failure_cycle is None:
        return lines[0].replace("before the failure", "intact network")
    lines.insert(
        0,
        f"failures {t.failures}: {t.failed_cables} of {t.cables_before} cables die at cycle "
        f"{t.failure_cycle}, rerouted at cycle {t.reroute_cycle}",
    )
    lines.append(
        f"dropped {t.dropped_flits} flits ({t.dropped_on_wire} on the wire, {t.dropped_at_dead_port} "
        f"sent to a dead port); created {t.created_flits} = delivered {t.delivered_flits} + dropped "
        f"{t.dropped_flits} + in flight {t.in_flight_flits}"
    )
    if t.recovery_cycles is None:
        lines.append(
            "not recovered within the run (throughput below the level before, or flits still dropped)"
        )
    else:
        lines.append(
            f"recovered {t.recovery_cycles} cycles after the failure: accepted "
            f"{figure(t.accepted_after, t.accepted_after_ci95)}, latency "
            f"{figure(t.latency_after, t.latency_after_ci95)} cycles"
        )
    return "\n".join(lines)


def _load_list(text: str) -> list[float]:
    try:
        return [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise bad("sim", "--loads", text, "comma-separated numbers, e.g. 0.1,0.2,0.3") from None


def cmd_sim(args: argparse.Namespace) -> int:
    params = _params(args)
    if args.timeline and args.sweep:
        raise bad("sim", "--timeline", True, "either --timeline or --sweep")
    if (args.window is not None or args.cycles is not None) and not args.timeline:
        flag, value = ("--window", args.window) if args.window is not None else ("--cycles", args.cycles)
        raise bad("sim", flag, value, "a value together with --timeline")
    if args.plot is not None:
        # Checked before the runs: a sweep's work must not end in a path it cannot write.
        if not (args.sweep or args.timeline):
            raise bad(
                "sim",
                "--plot",
                args.plot,
                "a file together with --sweep or --timeline (a single run draws no curve)",
            )
        args.plot = check_output_file("sim", "--plot", args.plot, figure_extensions())
    if args.booksim:
        setup = from_booksim(args.booksim)
        net = network_surviving(setup.network, args.failures)
        routing = args.routing or setup.routing
        traffic = args.traffic or setup.traffic
        load = args.load if args.load is not None else setup.load
        seed = args.seed if args.seed is not None else setup.params.get("seed", DEFAULT_SEED)
        params = {**{k: v for k, v in setup.params.items() if k != "seed"}, **params}
        title = f"{args.booksim}"
    else:
        if not args.network:
            raise bad(
                "sim",
                "network",
                args.network,
                "a network (spec or file) or --booksim CONFIG",
                message="sim: give a network (spec or file) or --booksim CONFIG",
            )
        net = network_from_argument(args.network, args.format, args.failures)
        routing = args.routing or "min"
        traffic = args.traffic or "uniform"
        load = args.load if args.load is not None else 0.5
        seed = args.seed if args.seed is not None else DEFAULT_SEED
        title = args.network
    if args.timeline:
        return _run_timeline(args, net, routing, traffic, load, seed, params, title)
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
            load_resolution=args.load_resolution,
            # Loads listed by hand are a latency-load curve: every one runs, the saturated ones
            # plotted and printed as such.
            every_load=loads is not None,
            progress=args.progress,
            **params,
        )
        # The results are printed first: a plot that cannot be written then loses nothing.
        if args.json:
            inputs = _inputs(args, net, routing, traffic, None, seed, params)
            inputs.update(loads=loads, load_resolution=args.load_resolution)
            out = {
                "saturation_load": df.attrs["saturation_load"],
                "saturated_load": df.attrs["saturated_load"],
                "saturation_throughput": df.attrs["saturation_throughput"],
                "points": df.to_dict(orient="records"),
            }
            print_json(json_document("sim --sweep", inputs, {**SimResult.UNITS, **SweepResult.UNITS}, out))
        else:
            rows = [[_with_interval(r, k) for k in RESULT_KEYS] for r in df.to_dict(orient="records")]
            print_table(rows, RESULT_KEYS)
            print(
                "saturation: load "
                + saturation_bracket(df.attrs["saturation_load"], df.attrs["saturated_load"])
                + f", throughput {_fmt(df.attrs['saturation_throughput'])} flits/endpoint/cycle"
            )
        if args.plot:
            sys.stdout.flush()
            try:
                _plot(df, args.plot, f"{title} {routing} {traffic}")
            except OSError as err:
                raise topolab.FileError(
                    f"{printable(args.plot)}: the plot could not be written ({err.strerror or err}); "
                    "the sweep's results are on standard output above"
                ) from None
            print(f"wrote {printable(args.plot)}", file=sys.stderr)
        return 0
    r: SimResult = simulate(net, routing, traffic, load, seed, progress=args.progress, **params)
    if args.json:
        inputs = _inputs(args, net, routing, traffic, load, seed, params)
        print_json(json_document("sim", inputs, SimResult.UNITS, r.to_dict()))
        return 0
    d = r.to_dict()
    rows = [[k, _with_interval(d, k)] for k in d if not k.endswith("_ci95")]
    print_table(rows, ["result", "value"])
    return 0


def add_router_flags(group: Any, shown: bool = True) -> None:
    """A flag per simulation parameter (``sim_params()`` but the seed), kebab case, into
    ``group``; with ``shown`` False they work but ``--help`` leaves them out."""
    for param in sim_params():
        if param.name == "seed":
            continue
        group.add_argument(
            "--" + param.name.replace("_", "-"),
            dest=param.name,
            type=_parse_value(param.kind),
            metavar=param.kind.upper(),
            # argparse expands "%" in help texts ("95% confidence intervals")
            help=f"{param.help} (default {param.default or 'none'})".replace("%", "%%")
            if shown
            else argparse.SUPPRESS,
        )


def _parse_value(kind: str):
    def parse(text: str) -> Any:
        if kind == "int":
            return cli_int(0, U64_MAX)(text)
        if kind == "float":
            return cli_float(allow_inf=True)(text)
        if kind == "bool":
            if text.lower() in ("1", "true", "yes", "on"):
                return True
            if text.lower() in ("0", "false", "no", "off"):
                return False
            raise argparse.ArgumentTypeError(f"'{text}' is not true or false")
        return text

    return parse


ROUTING_NAMES_NOTE = (
    "BookSim2 users: topolab's 'min' picks a random minimal next hop at every router; "
    "BookSim2's anynet 'min' (one fixed shortest path per router and destination) is "
    "topolab's 'min_static'."
)


def _catalog_notes() -> str:
    """The routings and traffic patterns the simulator takes, from the catalogs."""
    import textwrap

    def with_params(name: str, params: Sequence[Param]) -> str:
        # name(param=default, ...) from the declarations; a default that is a phrase is left out.
        shown = [p.name if p.default is None or " " in p.default else f"{p.name}={p.default}" for p in params]
        return name + (f"({', '.join(shown)})" if shown else "")

    routings = [with_params(r.name, r.param_defs) for r in topolab.routings() if r.simulator]
    patterns = [with_params(t.name, t.param_defs) for t in traffic_patterns()]
    # Names are never split (at their hyphens: "oft_worst"), so the list can be searched.
    wrap = lambda text: textwrap.fill(  # noqa: E731
        text, 100, initial_indent="  ", subsequent_indent="  ", break_on_hyphens=False
    )
    return (
        "routings (--routing NAME or NAME:param=value, defaults shown; rules also take select, ports "
        "and vc_split; 'topolab list routings' describes each):\n"
        + wrap(", ".join(routings))
        + "\n"
        + wrap(ROUTING_NAMES_NOTE)
        + "\n\ntraffic patterns (--traffic NAME or NAME:param=value, defaults shown; docs/traffic.md):\n"
        + wrap(", ".join(patterns))
    )


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "sim",
        help="simulate a network: one run, a latency-load sweep, or a BookSim2 config",
        description="Cycle-accurate simulation measured the BookSim2 way (warm-up, sample periods, "
        "convergence, latency threshold). Router parameters take BookSim2's names in kebab case "
        "(--num-vcs 4 --vc-buf-size 64); BookSim2's own spelling (--num_vcs) works too. "
        + ROUTING_NAMES_NOTE,
        examples=[
            "topolab sim slimfly:q=5 --routing min --traffic uniform --load 0.5",
            "topolab sim slimfly:q=5 --sweep --plot sweep.png",
            "topolab sim dragonfly:a=4,h=2 --routing ugal_l --traffic worst --num-vcs 4 --json",
            "topolab sim --booksim sf_q5_p4_min.cfg",
        ],
        notes=_catalog_notes(),
    )
    p.add_argument("network", nargs="?", help="topology spec or network file (not needed with --booksim)")
    add_input_format_flag(p)
    add_failures_flag(p)
    p.add_argument("--routing", help="routing (default min; list below)")
    p.add_argument("--traffic", help="traffic pattern (default uniform; list below)")
    p.add_argument(
        "--load",
        type=cli_float(0.0),
        help="offered load, flits per active endpoint per cycle (default 0.5)",
    )
    add_seed_flag(p, "every random stream of the run")
    p.set_defaults(seed=None)  # None: the BookSim2 file's seed with --booksim, else the default
    add_json_flag(p)
    p.add_argument("--sweep", action="store_true", help="latency-load curve and saturation point")
    p.add_argument(
        "--loads",
        help="comma-separated loads for --sweep, every one run (default 0.1, 0.2, ... up to the first "
        "saturated one)",
    )
    add_deprecated_alias(p, "--tolerance", add_load_resolution_flag(p, 0.01, "of --sweep"))
    p.add_argument(
        "--plot", help="write the --sweep curve or the --timeline to this image file (png, pdf, svg)"
    )
    p.add_argument(
        "--timeline",
        action="store_true",
        help="throughput and latency over time in windows, through the cables --dynamic-failures fails at "
        "--failure-cycle and the routing recomputed --reaction-delay cycles later (docs/resilience.md)",
    )
    p.add_argument(
        "--window", type=cli_int(1, 2**32 - 1), help="cycles per window of --timeline (default 200)"
    )
    p.add_argument(
        "--cycles",
        type=cli_int(1, 2**32 - 1),
        help="length of the --timeline run (default twice the failure cycle plus the reaction delay)",
    )
    p.add_argument(
        "--booksim", metavar="CONFIG", help="read network, routing, traffic and router from a BookSim2 config"
    )
    add_progress_flag(p)
    add_router_flags(p.add_argument_group("router and measurement parameters (BookSim2's names, kebab case)"))
    p.set_defaults(func=cmd_sim)
