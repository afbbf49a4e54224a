"""MPI kernels on SimGrid/SMPI (docs/simgrid.md): the shape of Koibuchi et al. (2018) Figs. 9-13
at a size that runs on a laptop (application time normalised to the random topology, uni- vs
bi-directional), and the all-to-all cross-check against the cycle-accurate simulator.

    python examples/simgrid_apps.py            # ~1-2 minutes on one core
"""

from __future__ import annotations

import topolab
from topolab import simgrid

N, D, P, SIZE = 32, 4, 2, 65536
NETWORKS = [
    ("uni Random", f"random_directed:n={N},d={D},seed=0,p={P}"),
    ("uni Imase", f"imase:n={N},d={D},p={P}"),
    ("uni MDDP", f"mddp:n={N},d={D},seed=0,p={P}"),
    ("bi Random", f"jellyfish:routers={N},degree={D},seed=0,p={P}"),
]


def figures_9_13() -> None:
    times = {
        name: {app: simgrid.run_app(spec, app, size=SIZE).time_s for app in simgrid.APPS}
        for name, spec in NETWORKS
    }
    base = times["uni Random"]
    print(f"| network ({N} routers, degree {D}, {N * P} ranks) | " + " | ".join(simgrid.APPS) + " |")
    print("|---|" + "---|" * len(simgrid.APPS))
    for name, _ in NETWORKS:
        cells = [f"{times[name][a] * 1e6:.0f} us ({times[name][a] / base[a]:.2f})" for a in simgrid.APPS]
        print(f"| {name} | " + " | ".join(cells) + " |")


def cross_check() -> None:
    spec, packets, packet_bytes, bw = "hyperx:dims=4x4,p=2", 30, 256, 100.0
    net = topolab.build(spec)
    peers = net.num_endpoints - 1
    size = packets * packet_bytes
    sg = simgrid.run_app(net, "alltoall", size=size, link_bandwidth_gbps=bw)
    bound = peers * size * 8 / (bw * 1e9)  # one host link's serialisation time
    cyc = topolab.run_exchange(net, f"alltoall:packets={packets}", "min")
    print(f"{spec}, all-to-all of {size} B messages, min routing")
    print(f"  SimGrid/SMPI: {sg.time_s * 1e6:.1f} us = {sg.time_s / bound:.3f} x the injection bound")
    print(
        f"  run_exchange: {cyc.completion_cycles} cycles, effective throughput "
        f"{cyc.effective_throughput:.3f} (= {1 / cyc.effective_throughput:.3f} x the injection bound)"
    )


if __name__ == "__main__":
    figures_9_13()
    cross_check()
