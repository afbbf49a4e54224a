"""SimGrid platforms and SMPI kernels (Koibuchi et al., 2018, §III-C, §IV). Needs the Debian
packages libsimgrid-dev and python3-simgrid (.ci/run installs them); skipped without them."""

from __future__ import annotations

import shutil
import sys

import networkx as nx
import pytest

import topolab
from topolab import simgrid
from topolab.cli import main

pytestmark = pytest.mark.skipif(shutil.which("smpirun") is None, reason="SimGrid (smpirun) not installed")

SPEC = "hyperx:dims=4x4,p=2"


def engine_with(path: str):
    """SimGrid's own loader (python3-simgrid lives in Debian's dist-packages)."""
    try:
        import simgrid as sg  # type: ignore[import-not-found]
    except ImportError:
        sys.path.append("/usr/lib/python3/dist-packages")
        sg = pytest.importorskip("simgrid")
    e = sg.Engine(["topolab-test", "--log=root.thres:critical"])
    e.load_platform(path)
    return sg, e


def test_platform_loads_with_minimal_routes_and_004_latencies(tmp_path) -> None:
    net = topolab.build(SPEC)
    path = tmp_path / "net.simgrid.xml"
    assert main(["build", SPEC, "-o", str(path), "--floor", "skywalk"]) == 0
    sg, e = engine_with(str(path))
    assert len(e.all_hosts) == net.num_endpoints
    g = net.to_networkx()
    dist = dict(nx.all_pairs_shortest_path_length(g))
    router = [r for r, c in enumerate(net.endpoints) for _ in range(c)]
    hops, lat = [], []
    for a in range(0, net.num_endpoints, 2):  # one host per router
        for b in range(0, net.num_endpoints, 2):
            if router[a] == router[b]:
                continue
            links, latency = sg.Host.by_name(f"h{a}").route_to(sg.Host.by_name(f"h{b}"))
            assert len(links) - 2 == dist[router[a]][router[b]]  # minimal, as in Koibuchi et al. (2018)
            hops.append(len(links) - 2)
            lat.append(latency * 1e9)
    # topolab.latency computes Fujiwara et al.'s (IPDPS 2014) model on its own (Nearest: fewest hops, then
    # lowest latency).
    ref = topolab.latency(net, routing="nearest", floor="skywalk")
    assert sum(hops) / len(hops) == pytest.approx(ref.avg_hops)
    assert min(lat) >= ref.min_latency_ns - 1e-6
    assert sum(lat) / len(lat) >= ref.avg_latency_ns - 1e-6


def test_alltoall_time_grows_as_links_slow_down() -> None:
    net = topolab.build(SPEC)
    size = 65536
    times = [
        simgrid.run_app(net, "alltoall", size=size, link_bandwidth_gbps=bw).time_s
        for bw in (100.0, 25.0, 10.0)
    ]
    assert times[0] < times[1] < times[2]
    # Every rank pushes (P - 1) * size bytes through its one host link.
    p = net.num_endpoints
    for t, bw in zip(times, (100.0, 25.0, 10.0)):
        assert t >= (p - 1) * size * 8 / (bw * 1e9)


def test_kernels_run_and_bad_input_is_named(capsys) -> None:
    assert (
        main(
            [
                "apps",
                SPEC,
                "--app",
                "allreduce",
                "--app",
                "stencil3d",
                "--app",
                "matmul",
                "--size",
                "4096",
                "--json",
            ]
        )
        == 0
    )
    assert "stencil3d" in capsys.readouterr().out
    with pytest.raises(topolab.ParameterError, match="ranks"):
        simgrid.run_app(SPEC, "alltoall", ranks=1000)
    with pytest.raises(topolab.ParameterError, match="'app'"):
        simgrid.run_app(SPEC, "graph500")
    with pytest.raises(topolab.ParameterError, match="link_bandwidth_gbps"):
        simgrid.platform(SPEC, link_bandwidth_gbps=0)
