"""Speed and agreement of topolab's simulator against BookSim2, both run back to back.

For every row (configuration, offered load) of the BookSim2 reference data
(reference/booksim/results.csv in the repository), runs
BookSim2 on the configuration file at that load, then topolab on the same file (read by
``topolab.from_booksim``, single thread), and prints per row: both tools' wall and CPU
seconds, their ratios, both average packet latencies and accepted throughputs and whether they
agree (scripts/booksim_agreement.py's criteria); and the load average before and after.

    python benches/simulator.py --booksim /path/to/booksim [--only sf_q5] [--loads 0.1,0.5]
    TOPOLAB_BOOKSIM=/path/to/booksim make bench
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


def run_booksim(binary: str, ref: pathlib.Path, config: str, load: float) -> BooksimRun:
    cfg, vcs = reference.split_config(config)
    cmd = [binary, cfg, f"injection_rate={load}"] + ([f"num_vcs={vcs}"] if vcs else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ref, capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
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


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--booksim", help="BookSim2 binary (default: $TOPOLAB_BOOKSIM)")
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
