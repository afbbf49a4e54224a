"""The worked comparison of docs/workloads.md: five designs of about 1,000 accelerators under a
ring allreduce, a mixture-of-experts all-to-all and a two-job mix, in the flit simulator with
the router of ``topolab compare --simulate`` (internal speedup 2) and each family's routing for
its worst case. Every figure is the mean over seeds with its 95% interval (Student's t over the
seeds: placement, routing and skew draw from the seed). Prints a Markdown table.

    python scripts/workload_comparison.py [--seeds 3] [--bytes 1MiB]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import topolab
from topolab.design.simulate import SIM_CHOICES, WORKLOAD_PARAMS, _vcs_needed

DESIGNS = [
    ("Slim Fly", "slimfly:q=9"),
    ("Dragonfly", "dragonfly:a=8,h=4"),
    ("fat tree", "fattree:k=16"),
    ("PolarFly", "polarfly:q=13,p=6"),
    ("HammingMesh", "hammingmesh:a=4,x=8"),
]
RANKS = 1000
# Student's t, 0.975 quantile, by degrees of freedom (seeds - 1).
T_975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}


def interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:,.0f}"
    half = T_975[len(values) - 1] * statistics.stdev(values) / len(values) ** 0.5
    return f"{mean:,.0f} ± {half:,.0f}"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seeds", type=int, choices=range(1, 11), default=3)
    parser.add_argument("--bytes", default="1MiB")
    args = parser.parse_args()
    size = args.bytes
    half = RANKS // 2
    workloads = [
        ("ring allreduce", [f"allreduce:bytes={size},ranks={RANKS},placement=random"]),
        ("MoE all-to-all", [f"alltoall:bytes={size},ranks={RANKS},skew=1,placement=random"]),
        (
            "mix: allreduce + all-to-all",
            [
                f"allreduce:bytes={size},ranks={half},placement=random",
                f"alltoall:bytes={size},ranks={RANKS - half},algorithm=shift,placement=random",
            ],
        ),
    ]
    header = (
        ["design", "endpoints", "routing"]
        + [name for name, _ in workloads]
        + ["slowdown (allreduce / all-to-all)"]
    )
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    started = time.perf_counter()
    for label, spec in DESIGNS:
        net = topolab.build(spec)
        routing = SIM_CHOICES[spec.split(":")[0]].worst_routing
        vcs = _vcs_needed(net, routing)
        cells = [f"{label} `{spec}`", f"{net.num_endpoints:,}", f"{routing} ({vcs} VCs)"]
        slowdowns: list[list[float]] = [[], []]
        for name, jobs in workloads:
            times = []
            for seed in range(args.seeds):
                # the placement (and the skew's popularity order) follow the run's seed
                seeded = [f"{j},seed={seed}" for j in jobs]
                r = topolab.run_workload(
                    net,
                    seeded,
                    routing,
                    seed=seed,
                    slowdown=len(jobs) > 1,
                    progress=False,
                    num_vcs=vcs,
                    **WORKLOAD_PARAMS,
                )
                assert r.delivered_packets == r.packets
                times.append(float(r.completion_cycles))
                if len(jobs) > 1:
                    for k, job in enumerate(r.jobs):
                        slowdowns[k].append(float(job.slowdown or 0.0))
            cells.append(interval(times))
            print(f"  {label} {name}: {time.perf_counter() - started:.0f} s", file=sys.stderr)
        cells.append(" / ".join(f"{statistics.fmean(s):.2f}" for s in slowdowns))
        print("| " + " | ".join(cells) + " |", flush=True)
    print(f"\n{time.perf_counter() - started:.0f} s in all", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
