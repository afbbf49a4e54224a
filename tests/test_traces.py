"""Chakra execution traces (topolab.traces) on a real trace from Chakra's own test data
(tests/data/chakra/README.md): read as Chakra wrote it, turned into messages, and run flit by
flit and at flow level."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import networkx as nx
import pytest

import topolab
from topolab import simgrid
from topolab.traces import COMP_NODE, chakra_messages, read_chakra

TRACE = Path(__file__).parent / "data" / "chakra" / "chakra.0.et.gz"


@pytest.fixture(scope="module")
def trace(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("chakra") / "chakra.0.et"
    path.write_bytes(gzip.decompress(TRACE.read_bytes()))
    return path


def _records(data: bytes) -> int:
    """Length-prefixed records in ``data``, counted by reading the varints directly."""
    count = at = 0
    while at < len(data):
        length = shift = 0
        while True:
            byte = data[at]
            at += 1
            length |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        at += length
        count += 1
    assert at == len(data)
    return count


def test_the_trace_reads_as_chakra_wrote_it(trace: Path) -> None:
    version, nodes = read_chakra(trace)
    assert version == "1.0.1"
    assert len(nodes) + 1 == _records(trace.read_bytes())  # the metadata, then one record a node
    ids = {n.id for n in nodes}
    assert len(ids) == len(nodes)
    # its data dependencies name nodes of the trace and form a graph to follow
    assert all(d in ids for n in nodes for d in n.deps)
    assert nx.is_directed_acyclic_graph(nx.DiGraph((d, n.id) for n in nodes for d in n.deps))
    allreduces = sorted(n.comm_size for n in nodes if n.type == 7 and n.comm_type == 0)
    assert allreduces == [8196000, 9724160, 26255360, 26550272, 31502336]
    with pytest.raises(topolab.FormatError):
        read_chakra(io.BytesIO(b"\x05abc"))
    with pytest.raises(topolab.FileError):
        read_chakra(trace.parent / "missing.et")


def test_the_messages_keep_every_collective_and_compute_time(trace: Path) -> None:
    _, nodes = read_chakra(trace)
    ranks, cycle_ns = 4, 20.48
    text = chakra_messages(trace, ranks, cycle_ns=cycle_ns)
    header = [line for line in text.splitlines() if line.startswith("#")]
    lines = [line.split() for line in text.splitlines() if not line.startswith("#")]
    assert header[1].startswith("# 5 collectives replayed")
    assert "BROADCAST x2" in header[1] and "collectives without a kind or size x14" in header[1]
    data = [f for f in lines if f[0] != f[1]]
    # five ring allreduces of 2(n-1) steps of n messages, moving 2(n-1)/n of each buffer per rank
    assert len(data) == 5 * 2 * (ranks - 1) * ranks
    sizes = [26255360, 26550272, 31502336, 8196000, 9724160]
    assert sum(int(f[2]) for f in data) == pytest.approx(sum(2 * (ranks - 1) * s for s in sizes), abs=5 * 24)
    # every compute node's time, on every rank
    delays = sum(int(f[3]) for f in lines if f[0] == f[1])
    expected = ranks * sum(round(n.duration_micros * 1000 / cycle_ns) for n in nodes if n.type == COMP_NODE)
    assert delays == expected


def test_the_trace_runs_flit_by_flit_and_at_flow_level(trace: Path) -> None:
    """Two ranks on neighbouring routers: the run takes at least each rank's compute, one node at
    a time, and at least the allreduces' bytes at one flit per cycle; SMPI's replay of the same
    messages agrees within 5%."""
    _, nodes = read_chakra(trace)
    cycle_ns = 20.48
    compute = sum(round(n.duration_micros * 1000 / cycle_ns) for n in nodes if n.type == COMP_NODE)
    net = topolab.build("hyperx:dims=2,p=1")
    job = f"chakra:path={trace},ranks=2,cycle_ns={cycle_ns}"
    r = topolab.run_workload(net, job, progress=False)
    assert r.delivered_packets == r.packets
    allreduce_bytes = 26255360 + 26550272 + 31502336 + 8196000 + 9724160
    assert r.completion_cycles >= compute
    assert r.completion_cycles >= allreduce_bytes / 256
    flow = simgrid.run_workload(net, job, injection_ns=9 * cycle_ns, switch_delay_ns=0.0, cable_ns_per_m=0.0)
    assert flow.cycles == pytest.approx(r.completion_cycles, rel=0.05)
