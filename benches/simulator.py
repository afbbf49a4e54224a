"""Speed and agreement of topolab's simulator against BookSim2, both run back to back.

For every row (configuration, offered load) of the BookSim2 reference data
(reference/booksim/results.csv in the repository), runs
BookSim2 on the configuration file at that load, then topolab on the same file (read by
``topolab.from_booksim``, single thread), and prints per row: both tools' wall and CPU
seconds, their ratios, both average packet latencies and accepted throughputs and whether they
agree (scripts/booksim_agreement.py's criteria); and the load average before and after.

    python benches/simulator.py --booksim /path/to/booksim [--only sf_q5] [--loads 0.1,0.5]
    python benches/simulator.py --booksim /path/to/booksim --caminos ~/.cargo/bin/caminos --only torus
    TOPOLAB_BOOKSIM=/path/to/booksim TOPOLAB_CAMINOS=~/.cargo/bin/caminos make bench
    python benches/simulator.py --only sf_q5      # no binary: against the recorded figures

BookSim2 is not shipped with topolab: build it from its public source
(github.com/booksim/booksim2, ``make`` in src/) and give the binary with ``--booksim`` or the
environment variable ``TOPOLAB_BOOKSIM``. Without one the script compares with the figures
recorded in reference/booksim (BookSim2's latency and throughput in results.csv, its wall
seconds in wall_times.csv, measured on an idle machine of the same class on another day; no CPU
seconds) and says so: a ratio against those is only indicative.

The wall ratio is the claim on a quiet machine; on a shared one the CPU seconds (the process's
user + system time, BookSim2's from its child rusage) are the steadier figure. A full run
takes BookSim2 about 2.5 hours on a quiet machine; ``--only`` and ``--loads`` bound it.

CAMINOS (Camarero et al., the Rust simulator on crates.io) is the second peer: install it with
``cargo install caminos --locked`` and give the binary with ``--caminos`` or the environment
variable ``TOPOLAB_CAMINOS``. For each row whose setup CAMINOS can express (``caminos_config``
says which and why not), the script writes a CAMINOS configuration into a temporary directory,
runs it at the row's load right after topolab, and prints a second line under the row: CAMINOS's
wall and CPU seconds (child rusage), cycles, latency and accepted throughput, and the speed
ratios to topolab whole-run and per simulated cycle (CPU seconds per cycle; the runs' lengths
differ: CAMINOS runs a fixed warm-up and measurement, BookSim2 and topolab until their
estimates converge). Only the throughput is compared with BookSim2's: CAMINOS's router is its
own (``CAMINOS_DIFFERENCES``), so its latency is printed, not judged. Without a binary the
line says "not given".
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import pathlib
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass

import topolab

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _agreement_module():
    """scripts/booksim_agreement.py: the reading of the reference and the agreement criteria."""
    path = ROOT / "scripts" / "booksim_agreement.py"
    spec = importlib.util.spec_from_file_location("booksim_agreement", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


reference = _agreement_module()


@dataclass
class BooksimRun:
    latency: float
    accepted: float
    converged: bool
    cycles: int | None
    wall_s: float
    cpu_s: float | None


_LATENCY = re.compile(r"^Packet latency average = ([0-9.eE+-]+)", re.M)
_ACCEPTED = re.compile(r"^Accepted flit rate average ?= ?([0-9.eE+-]+)", re.M)
_CYCLES = re.compile(r"^Time taken is (\d+) cycles", re.M)


def parse_booksim_output(text: str) -> tuple[float, float, bool, int | None]:
    """(average packet latency, accepted flit rate, converged, cycles) from BookSim2's output:
    the overall figures when the run converged; the last sample period's when it stopped as
    unstable ("Simulation unstable"), as results.csv records them."""
    lat, acc = _LATENCY.findall(text), _ACCEPTED.findall(text)
    if not lat or not acc:
        raise ValueError("BookSim2's output has no 'Packet latency average' / 'Accepted flit rate'")
    cycles = _CYCLES.search(text)
    converged = "Simulation unstable" not in text
    return float(lat[-1]), float(acc[-1]), converged, int(cycles.group(1)) if cycles else None


def run_timed(cmd: list[str], cwd: pathlib.Path) -> tuple[subprocess.CompletedProcess, float, float]:
    """A peer's run: its completed process, wall seconds and CPU seconds (user + system, from
    the child rusage)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return proc, wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run_booksim(binary: str, ref: pathlib.Path, config: str, load: float) -> BooksimRun:
    cfg, vcs = reference.split_config(config)
    cmd = [binary, cfg, f"injection_rate={load}"] + ([f"num_vcs={vcs}"] if vcs else [])
    proc, wall, cpu = run_timed(cmd, ref)
    # BookSim2's main returns -1 after a completed simulation (`return result ? -1 : 0`), so
    # its exit status says nothing; its output does.
    try:
        lat, acc, converged, cycles = parse_booksim_output(proc.stdout)
    except ValueError as e:
        raise RuntimeError(
            f"{' '.join(cmd)} (exit status {proc.returncode}): {e}; stderr: {proc.stderr[-500:]}"
        ) from None
    return BooksimRun(lat, acc, converged, cycles, wall, cpu)


def recorded_booksim(row: dict, wall_times: dict[tuple[str, str], float]) -> BooksimRun:
    return BooksimRun(
        float(row["avg_packet_latency"]),
        float(row["accepted_throughput"]),
        row["converged"] == "true",
        int(row["cycles"]),
        wall_times[(row["config"], row["offered_load"])],
        None,
    )


# CAMINOS runs a fixed number of cycles: BookSim2's three warm-up periods of 1,000 cycles,
# then as many measured cycles as BookSim2's shortest converged run measures.
CAMINOS_WARMUP_CYCLES = 3000
CAMINOS_MEASURED_CYCLES = 3000
# BookSim2's source queues are unbounded; CAMINOS drops a generation when its queue is full.
CAMINOS_SOURCE_QUEUE = 100_000

CAMINOS_DIFFERENCES = (
    "CAMINOS's InputOutput router with one-iteration iSLIP and a random choice among the free "
    "candidate VCs stands in for BookSim2's separable input-first allocators; BookSim2's "
    "router stages (routing, VC allocation, switch allocation, switch traversal) become one "
    "crossbar delay of the same number of cycles, with an output buffer of one more flit; a "
    "head requests its output port and VC together in one allocation (BookSim2 allocates the "
    "VC in a stage of its own: with one VC their saturation differs); credits return over the "
    "link (BookSim2: credit_delay); uniform traffic never picks the source itself (BookSim2's "
    "may); runs last a fixed 3,000 + 3,000 cycles"
)


class NotExpressible(ValueError):
    """A setup CAMINOS cannot run faithfully; the message says what is missing."""


@dataclass
class CaminosRun:
    latency: float
    accepted: float
    hops: float
    cycles: int
    wall_s: float
    cpu_s: float


def _router_params(setup: topolab.BooksimSetup) -> dict[str, str]:
    """The setup's router parameters, topolab's defaults filled in, as lower-case text."""
    params = {p.name: str(p.default) for p in topolab.sim_params()}
    params.update({k: str(v) for k, v in setup.params.items()})
    return {k: v.lower() for k, v in params.items()}


def caminos_topology(setup: topolab.BooksimSetup, workdir: pathlib.Path) -> tuple[str, int, str]:
    """(CAMINOS topology, number of link classes, routing) for the setup's network and routing;
    an imported network is written to ``workdir`` as a CAMINOS neighbour-list file."""
    net, routing = setup.network, setup.routing
    per_router = set(net.endpoints)
    if len(per_router) != 1:
        raise NotExpressible("routers with different numbers of endpoints")
    servers = per_router.pop()
    if routing == "dor" and net.family == "torus":
        sides = [int(x) for x in net.spec.partition("dims=")[2].split(",")[0].split("x")]
        # Any VC on every hop, deadlock avoided by bubble flow control on the rings, where
        # BookSim2's dim_order_torus splits the VCs into two dateline classes.
        topology = f"Torus {{ sides: [{', '.join(map(str, sides))}], servers_per_router: {servers} }}"
        return topology, len(sides) + 1, f"DOR {{ order: [{', '.join(map(str, range(len(sides))))}] }}"
    if routing == "min_static" and net.family == "imported":
        degrees = {net.degree(r) for r in range(net.num_routers)}
        if len(degrees) != 1:
            # On an irregular network (a mesh) most pairs have several minimal paths: CAMINOS's
            # Shortest would route adaptively among them without an escape VC.
            raise NotExpressible(
                "irregular network: CAMINOS's Shortest offers every minimal next hop, where "
                "BookSim2's min follows one path per pair"
            )
        lines = [f"NODOS {net.num_routers}", f"GRADO {degrees.pop()}"]
        for r in range(net.num_routers):
            lines += [f"N {r}", " ".join(map(str, net.neighbors(r)))]
        path = workdir / "topology.txt"
        path.write_text("\n".join(lines) + "\n")
        topology = f'File {{ filename: "{path}", format: 0, servers_per_router: {servers} }}'
        return topology, 2, "Shortest"
    if routing.startswith("dragonfly"):
        raise NotExpressible(
            "CAMINOS's Dragonfly has palm-tree or random global links, not BookSim2's dragonflynew "
            "arrangement, and no UGAL (its source-adaptive routing is a sum of routings with a VC "
            "policy, another decision rule)"
        )
    raise NotExpressible(f"routing {routing} on {net.family or 'this'} network")


def caminos_config(setup: topolab.BooksimSetup, load: float, workdir: pathlib.Path) -> str:
    """A CAMINOS configuration (its file syntax) of a BookSim2 setup at ``load`` flits per
    endpoint per cycle, or NotExpressible naming what CAMINOS lacks."""
    p = _router_params(setup)
    if setup.traffic != "uniform":
        raise NotExpressible(f"traffic {setup.traffic}")
    if p["injection_process"] != "bernoulli":
        raise NotExpressible(f"{p['injection_process']} injection (BookSim2's on/off Markov source)")
    if p["use_read_write"] != "false":
        raise NotExpressible("request-reply traffic")
    if p["router"] != "iq" or p["flow_control"] != "wormhole":
        raise NotExpressible(f"router {p['router']} with {p['flow_control']} flow control")
    for key in ("internal_speedup", "input_speedup", "output_speedup"):
        if float(p[key]) != 1.0:
            raise NotExpressible(f"{key} = {p[key]}")
    topology, link_classes, routing = caminos_topology(setup, workdir)
    if p["link_latency"] or int(p["channel_latency"]) != 1 or int(p["endpoint_latency"]) != 1:
        raise NotExpressible("channel latencies other than one cycle")
    packet = int(p["packet_size"])
    # The crossbar delay stands for BookSim2's router stages; CAMINOS counts flits crossing the
    # crossbar against the output buffer, which must hold one more than the delay for a port to
    # send a flit every cycle (BookSim2's router has no output buffer to speak of).
    stages = sum(int(p[k]) for k in ("routing_delay", "vc_alloc_delay", "sw_alloc_delay", "st_final_delay"))
    servers = setup.network.num_endpoints
    links = ", ".join(["LinkClass { delay: 1 }"] * link_classes)
    return f"""Configuration
{{
	random_seed: {int(p["seed"])},
	warmup: {CAMINOS_WARMUP_CYCLES},
	measured: {CAMINOS_MEASURED_CYCLES},
	topology: {topology},
	traffic: HomogeneousTraffic
	{{
		pattern: Uniform,
		servers: {servers},
		load: {load},
		message_size: {packet},
	}},
	maximum_packet_size: {packet},
	server_queue_size: {CAMINOS_SOURCE_QUEUE},
	router: InputOutput
	{{
		virtual_channels: {int(p["num_vcs"])},
		virtual_channel_policies: [EnforceFlowControl, Random],
		crossbar_delay: {stages},
		buffer_size: {int(p["vc_buf_size"])},
		output_buffer_size: {stages + 1},
		bubble: {"true" if routing.startswith("DOR") else "false"},
		flit_size: 1,
		intransit_priority: false,
		allow_request_busy_port: true,
		allocator: Islip {{ num_iter: 1 }},
	}},
	routing: {routing},
	link_classes: [{links}],
}}
"""


_CAMINOS_NUMBER = r"\s*:\s*([-+0-9.eE]+|NaN|inf)"


def parse_caminos_output(text: str) -> tuple[float, float, float, int]:
    """(average message latency, accepted load, average router-to-router hops, cycles
    simulated) from the Result record CAMINOS writes (``--results FILE``)."""
    start = text.find("Result")
    figures = []
    for key in ("average_message_delay", "accepted_load", "average_packet_hops", "cycle"):
        m = re.search(rf"\b{key}{_CAMINOS_NUMBER}", text[start:]) if start >= 0 else None
        if m is None:
            raise ValueError(f"CAMINOS's result has no {key!r}")
        figures.append(float(m.group(1)))
    return figures[0], figures[1], figures[2], int(figures[3])


def run_caminos(binary: str, setup: topolab.BooksimSetup, load: float) -> CaminosRun:
    with tempfile.TemporaryDirectory(prefix="topolab-caminos-") as tmp:
        workdir = pathlib.Path(tmp)
        (workdir / "run.cfg").write_text(caminos_config(setup, load, workdir))
        cmd = [binary, "run.cfg", "--results=result.txt"]
        proc, wall, cpu = run_timed(cmd, workdir)
        result = workdir / "result.txt"
        try:
            lat, acc, hops, cycles = parse_caminos_output(result.read_text() if result.exists() else "")
        except ValueError as e:
            raise RuntimeError(
                f"{' '.join(cmd)} (exit status {proc.returncode}): {e}; stderr: {proc.stderr[-500:]}"
            ) from None
    return CaminosRun(lat, acc, hops, cycles, wall, cpu)


def per_cycle(cpu_s: float | None, cycles: int | None) -> float | None:
    """CPU milliseconds per simulated cycle."""
    return 1000.0 * cpu_s / cycles if cpu_s is not None and cycles else None


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def caminos_row(
    binary: str | None, setup: topolab.BooksimSetup, load: float, row: dict, bs: BooksimRun
) -> dict:
    """CAMINOS's run of a row, its speed against topolab's and BookSim2's, or why there is none."""
    try:
        with tempfile.TemporaryDirectory() as tmp:
            caminos_config(setup, load, pathlib.Path(tmp))
    except NotExpressible as e:
        return {"status": "not expressible", "reason": str(e)}
    if not binary:
        return {"status": "not given"}
    cm = run_caminos(binary, setup, load)
    tl = row["topolab"]
    tl_ms, bs_ms, cm_ms = (
        per_cycle(tl["cpu_s"], tl["cycles"]),
        per_cycle(bs.cpu_s, bs.cycles),
        per_cycle(cm.cpu_s, cm.cycles),
    )
    return {
        "status": "run",
        **asdict(cm),
        "cpu_ms_per_cycle": cm_ms,
        "booksim_cpu_ms_per_cycle": bs_ms,
        "topolab_cpu_ms_per_cycle": tl_ms,
        "wall_ratio": cm.wall_s / tl["wall_s"],
        "cpu_ratio": cm.cpu_s / tl["cpu_s"],
        "cycle_cpu_ratio": cm_ms / tl_ms,
        "booksim_cycle_cpu_ratio": bs_ms / tl_ms if bs_ms is not None else None,
        "accepted_error": abs(cm.accepted - bs.accepted),
        "accepted_ok": abs(cm.accepted - bs.accepted) <= reference.ACCEPTED_TOLERANCE,
    }


def format_caminos(c: dict) -> str:
    if c["status"] == "not given":
        return "not given"
    if c["status"] == "not expressible":
        return f"not expressible: {c['reason']}"
    bs_ms = f"{c['booksim_cpu_ms_per_cycle']:.3f}" if c["booksim_cpu_ms_per_cycle"] is not None else "-"
    bs_x = f"{c['booksim_cycle_cpu_ratio']:.1f}x" if c["booksim_cycle_cpu_ratio"] is not None else "-"
    return (
        f"wall {c['wall_s']:.2f} s, CPU {c['cpu_s']:.2f} s, {c['cycles']} cycles; whole run "
        f"{c['cpu_ratio']:.1f}x topolab's CPU; CPU ms per cycle {c['cpu_ms_per_cycle']:.3f} / {bs_ms} "
        f"/ {c['topolab_cpu_ms_per_cycle']:.3f} (CAMINOS / BookSim2 / topolab): per cycle "
        f"{c['cycle_cpu_ratio']:.1f}x and {bs_x} topolab's; latency {c['latency']:.2f}, "
        f"accepted {c['accepted']:.4f} ({'within' if c['accepted_ok'] else 'NOT within'} 0.03 of BookSim2's)"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--booksim", help="BookSim2 binary (default: $TOPOLAB_BOOKSIM)")
    ap.add_argument("--caminos", help="CAMINOS binary (default: $TOPOLAB_CAMINOS)")
    ap.add_argument("--only", default="", help="only configurations containing this text")
    ap.add_argument("--loads", help="only these offered loads, comma-separated (e.g. 0.1,0.5)")
    ap.add_argument("--reference", type=pathlib.Path, help="directory of results.csv")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = ap.parse_args(argv)
    ref = args.reference or reference.find_reference()
    binary = args.booksim or os.environ.get("TOPOLAB_BOOKSIM")
    if binary and shutil.which(binary) is None:
        print(f"--booksim / TOPOLAB_BOOKSIM: {binary!r} is not an executable file", file=sys.stderr)
        return 2
    caminos = args.caminos or os.environ.get("TOPOLAB_CAMINOS")
    if caminos and shutil.which(caminos) is None:
        print(f"--caminos / TOPOLAB_CAMINOS: {caminos!r} is not an executable file", file=sys.stderr)
        return 2
    all_rows = reference.read_rows(ref)
    saturation = reference.saturation_loads(all_rows)
    wall_times = reference.read_wall_times(ref)
    rows = [r for r in all_rows if args.only in r["config"]]
    if args.loads:
        try:
            loads = [float(x) for x in args.loads.split(",")]
        except ValueError:
            print(f"--loads: {args.loads!r} is not a comma-separated list of numbers", file=sys.stderr)
            return 2
        rows = [r for r in rows if any(abs(float(r["offered_load"]) - x) < 1e-9 for x in loads)]
    if not rows:
        print(f"no reference row matches --only {args.only!r} --loads {args.loads!r}", file=sys.stderr)
        return 2

    source = (
        f"BookSim2 {binary} run here, back to back with topolab"
        if binary
        else "no BookSim2 binary (--booksim / TOPOLAB_BOOKSIM): BookSim2's figures are those "
        "recorded in reference/booksim (wall seconds of an idle machine of the same class, another "
        "day; no CPU seconds), so the ratios are only indicative"
    )
    start_load = load_average()
    if not args.json:
        print(f"# {source}")
        print(f"# topolab {topolab.__version__}, single thread; load average before: {start_load}")
        print(
            f"# CAMINOS {caminos} run after topolab on each row it can express ({CAMINOS_DIFFERENCES}); "
            "its line: wall and CPU s, cycles (topolab's), whole-run CPU ratio to topolab, CPU ms "
            "per cycle of CAMINOS / BookSim2 / topolab and the per-cycle ratios, latency (not "
            "judged), accepted throughput and whether it is within 0.03 of BookSim2's"
            if caminos
            else "# no CAMINOS binary (--caminos / TOPOLAB_CAMINOS): its lines say 'not given'"
        )
        print(
            f"{'config':<28} {'load':>5} {'bs_wall':>8} {'tl_wall':>7} {'wall_x':>7} "
            f"{'bs_cpu':>7} {'tl_cpu':>6} {'cpu_x':>6} {'bs_lat':>8} {'tl_lat':>8} "
            f"{'bs_acc':>7} {'tl_acc':>7}  agree"
        )
    setups: dict[str, topolab.BooksimSetup] = {}
    out = []
    failures = 0
    for r in rows:
        name, load = r["config"], float(r["offered_load"])
        bs = run_booksim(binary, ref, name, load) if binary else recorded_booksim(r, wall_times)
        if name not in setups:
            setups[name] = reference.setup_for(ref, name)
        c, t = time.process_time(), time.perf_counter()
        ours = setups[name].simulate(load=load, threads=1, progress=False)
        tl_wall, tl_cpu = time.perf_counter() - t, time.process_time() - c
        verdict = reference.agreement(
            load,
            ours.avg_latency,
            ours.accepted_throughput,
            bs.latency,
            bs.accepted,
            bs.converged,
            saturation.get(name, 0.0),
        )
        failures += not verdict["ok"]
        o = {
            "config": name,
            "load": load,
            "booksim": asdict(bs),
            "topolab": {
                "latency": ours.avg_latency,
                "accepted": ours.accepted_throughput,
                "converged": ours.converged,
                "cycles": ours.cycles,
                "wall_s": tl_wall,
                "cpu_s": tl_cpu,
            },
            "wall_ratio": bs.wall_s / tl_wall,
            "cpu_ratio": bs.cpu_s / tl_cpu if bs.cpu_s is not None else None,
            **verdict,
        }
        o["caminos"] = caminos_row(caminos, setups[name], load, o, bs)
        out.append(o)
        if not args.json:
            bs_cpu = f"{bs.cpu_s:7.2f}" if bs.cpu_s is not None else f"{'-':>7}"
            cpu_x = f"{o['cpu_ratio']:5.1f}x" if o["cpu_ratio"] is not None else f"{'-':>6}"
            mark = "" if verdict["latency_checked"] else " (latency not checked: near/past saturation)"
            print(
                f"{name:<28} {load:>5} {bs.wall_s:>8.2f} {tl_wall:>7.2f} {o['wall_ratio']:>6.1f}x "
                f"{bs_cpu} {tl_cpu:>6.2f} {cpu_x} {bs.latency:>8.2f} {ours.avg_latency:>8.2f} "
                f"{bs.accepted:>7.4f} {ours.accepted_throughput:>7.4f}  "
                f"{'yes' if verdict['ok'] else 'NO'}{mark}",
                flush=True,
            )
            print(f"  caminos: {format_caminos(o['caminos'])}", flush=True)
    end_load = load_average()
    if args.json:
        print(
            json.dumps(
                {
                    "source": source,
                    "load_average_before": start_load,
                    "load_average_after": end_load,
                    "rows": out,
                },
                indent=2,
            )
        )
    else:
        print(f"# load average after: {end_load}; {failures} row(s) outside the agreement criteria")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
