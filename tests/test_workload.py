"""Message-level workloads (topolab.workload): the Python API and CLI, and the flit simulator
checked against SimGrid at flow level on the same platform: the same workload replayed by SMPI
(apps/replay.c), and SMPI's own MPI_Allreduce algorithms (ring "lr", Rabenseifner "rab_rdb").
.ci/run installs SimGrid (libsimgrid-dev)."""

from __future__ import annotations

import json

import pytest

import topolab
from topolab import simgrid
from topolab.cli import main

# A complete graph of 8 routers with one endpoint each: a ring's or a pairwise exchange's
# messages each have a link of their own.
MESH = "hyperx:dims=8,p=1"
# 100 Gb/s links carrying one 256-byte flit per cycle: a cycle is 20.48 ns.
CYCLE_NS = 256 / 12.5


def _flow_latency(net: topolab.Network) -> dict[str, float]:
    """Platform latencies equal to the flit simulator's alpha, fitted through two messages
    between neighbours (completion_cycles counts the last arrival's cycle plus one)."""

    def time(size: int) -> int:
        spec = f"pipeline:bytes={size},ranks=2,microbatches=1"
        return topolab.run_workload(net, spec, progress=False).completion_cycles - 1

    small, large = 256, 256 * 64
    beta = (time(large) - time(small)) / (large - small)
    alpha = time(small) - beta * small
    return dict(injection_ns=alpha * CYCLE_NS, switch_delay_ns=0.0, cable_ns_per_m=0.0)


def test_results_count_every_packet_and_name_the_slowest_rank() -> None:
    net = topolab.build("slimfly:q=5,p=2")
    r = topolab.run_workload(net, ["allreduce:bytes=16KiB,ranks=50", "halo3d:bytes=1KiB"], progress=False)
    assert r.delivered_packets == r.packets > 0
    assert r.delivered_flits == r.flits
    ring, halo = r.jobs
    assert ring.operation == "allreduce" and ring.algorithm == "ring"
    assert [p.phase for p in ring.phases] == ["reduce-scatter", "allgather"]
    assert ring.ranks == 50 and halo.ranks == 50
    # The ring moves 2(n-1)/n of the buffer per rank, each of its 2(n-1) n messages once.
    assert ring.messages == 2 * 49 * 50
    assert ring.bytes_sent == pytest.approx(2 * 49 / 50 * 16384 * 50, rel=1e-3)
    assert ring.slowest_rank_cycles <= ring.completion_cycles <= r.completion_cycles
    df = r.to_dataframe()
    assert list(df["name"]) == [ring.name, halo.name]


def test_slowdown_compares_each_job_with_itself_alone() -> None:
    net = topolab.build("slimfly:q=5,p=3")
    jobs = ["allreduce:bytes=32KiB,ranks=75,placement=router", "alltoall:bytes=32KiB,algorithm=shift"]
    r = topolab.run_workload(net, jobs, slowdown=True, progress=False)
    alone = topolab.run_workload(net, jobs[0], progress=False)
    ring = r.jobs[0]
    assert ring.alone_cycles is not None
    assert ring.slowdown == pytest.approx(ring.completion_cycles / ring.alone_cycles)
    # Placed first, the allreduce alone sits where it sat in the mix: the same run.
    assert ring.alone_cycles == alone.jobs[0].completion_cycles
    assert ring.slowdown > 1.0


def test_bad_jobs_raise_parameter_errors() -> None:
    net = topolab.build("slimfly:q=5,p=2")
    with pytest.raises(topolab.ParameterError) as err:
        topolab.run_workload(net, "allreduce:bytes=lots", progress=False)
    assert err.value.parameter == "bytes"
    with pytest.raises(topolab.ParameterError, match="power of two"):
        topolab.run_workload(net, "allreduce:algorithm=rabenseifner,ranks=48", progress=False)
    with pytest.raises(topolab.ParameterError, match="jobs"):
        topolab.run_workload(net, [], progress=False)


def test_cli_prints_jobs_and_json(capsys) -> None:
    assert main(["workload", MESH, "allreduce:bytes=8KiB", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "allreduce:bytes=8KiB,ranks=8,algorithm=ring" in out and "reduce-scatter" in out
    assert main(["workload", MESH, "alltoall:bytes=8KiB", "--json", "--no-progress"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["command"] == "workload" and doc["jobs"][0]["operation"] == "alltoall"
    assert doc["delivered_packets"] == doc["packets"]
    assert main(["workload", MESH, "allreduce:ranks=99", "--no-progress"]) == 2


@pytest.mark.parametrize(
    "spec",
    [
        "allreduce:bytes=2KiB",
        "allreduce:bytes=1MiB",
        "allreduce:bytes=64KiB,algorithm=rabenseifner",
        "allreduce:bytes=64KiB,algorithm=tree",
        "alltoall:bytes=64KiB",
        "alltoall:bytes=64KiB,algorithm=shift",
        "halo3d:bytes=16KiB,iterations=2,compute=50",
    ],
)
def test_flit_and_flow_level_agree_without_contention(spec: str) -> None:
    """The same workload at flit level and replayed by SMPI at flow level (SimGrid's fair-sharing
    model, latencies set to the flit simulator's alpha): within 8%, the remainder the per-message
    latency the two models count differently (a packet's pipeline against one latency term)."""
    net = topolab.build(MESH)
    flit = topolab.run_workload(net, spec, progress=False)
    flow = simgrid.run_workload(net, spec, **_flow_latency(net))
    gates = 8 if "iterations" in spec else 0  # one per rank between two iterations
    assert flow.messages == sum(j.messages for j in flit.jobs) + gates
    assert flow.cycles == pytest.approx(flit.completion_cycles, rel=0.08)


def test_concurrent_sends_explain_the_tree_gap() -> None:
    """A binomial broadcast's root sends to its children one after another in the flit
    simulator; letting SMPI post them at once shares the root's link and the tree takes far
    longer: the sends, not the network model, make the difference."""
    net = topolab.build(MESH)
    spec = "allreduce:bytes=64KiB,algorithm=tree"
    serial = simgrid.run_workload(net, spec, **_flow_latency(net))
    concurrent = simgrid.run_workload(net, spec, sends="concurrent", **_flow_latency(net))
    assert concurrent.cycles > 1.3 * serial.cycles
    # A ring sends one message per rank at a time anyway: the same either way.
    ring_serial = simgrid.run_workload(net, "allreduce:bytes=64KiB", **_flow_latency(net))
    ring_concurrent = simgrid.run_workload(
        net, "allreduce:bytes=64KiB", sends="concurrent", **_flow_latency(net)
    )
    assert ring_concurrent.cycles == pytest.approx(ring_serial.cycles, rel=1e-6)


@pytest.mark.parametrize(
    "smpi_algorithm,spec",
    [("lr", "allreduce:bytes=64KiB"), ("rab_rdb", "allreduce:bytes=64KiB,algorithm=rabenseifner")],
)
def test_smpi_own_allreduce_agrees_with_the_flit_simulation(smpi_algorithm: str, spec: str) -> None:
    """SMPI's own MPI_Allreduce implementations (SimGrid's collective selection: "lr" the
    logical ring, "rab_rdb" Rabenseifner's) on the same platform take the time topolab's
    workload of the same algorithm takes in the flit simulator, within 3%."""
    net = topolab.build(MESH)
    flit = topolab.run_workload(net, spec, progress=False)
    r = simgrid.run_app(
        net,
        "allreduce",
        size=65536,
        config=(*simgrid.FAIR_MODEL, f"--cfg=smpi/allreduce:{smpi_algorithm}"),
        **_flow_latency(net),
    )
    assert r.time_s / (CYCLE_NS * 1e-9) == pytest.approx(flit.completion_cycles, rel=0.03)


def test_flow_level_options_are_checked() -> None:
    with pytest.raises(topolab.ParameterError, match="model"):
        simgrid.run_workload(MESH, "allreduce", model="exact")
    with pytest.raises(topolab.ParameterError, match="sends"):
        simgrid.run_workload(MESH, "allreduce", sends="sometimes")
    with pytest.raises(topolab.ParameterError, match="config"):
        simgrid.run_app(MESH, "allreduce", config=("smpi/allreduce:lr",))


def test_experiment_kind_runs_the_same_workload() -> None:
    from topolab.experiment import run_experiment

    jobs = ["allreduce:bytes=8KiB,ranks=50", "halo3d:bytes=1KiB"]
    case = {"network": "slimfly:q=5,p=2", "jobs": jobs, "seed": 3}
    frame = run_experiment({"name": "workload", "kind": "workload", "cases": [case]}, progress=False)
    row = frame.iloc[0]
    assert row["status"] == "ok"
    direct = topolab.run_workload(case["network"], case["jobs"], seed=3, progress=False)
    assert row["completion_cycles"] == direct.completion_cycles
    assert list(row["job_cycles"]) == [j.completion_cycles for j in direct.jobs]
    with pytest.raises(topolab.ParameterError, match="jobs"):
        run_experiment({"name": "bad", "kind": "workload", "cases": [{"network": "slimfly:q=5", "jobs": 3}]})


def test_compare_adds_the_workload_as_a_column_and_an_objective(tmp_path) -> None:
    job = "allreduce:bytes=16KiB,algorithm=rabenseifner,ranks=32"
    frame = topolab.compare(
        radix=16,
        endpoints=200,
        families="slimfly,dragonfly",
        simulate_scaled=True,
        sim_endpoints=150,
        workload=job,
        output=str(tmp_path / "report"),
        progress=False,
    )
    simulated = frame.dropna(subset=["workload_cycles"])
    assert len(simulated) >= 2
    assert all(s.startswith(job) for s in simulated["sim_workload"])
    # Each row's figure is its own network's: the same job run by hand on the network simulated,
    # with compare's router and VCs and the routing the column names, takes the cycles shown.
    from topolab.design.simulate import WORKLOAD_PARAMS, _vcs_needed

    for _, row in simulated.iterrows():
        routing = row["sim_workload"].split(" / ")[1]
        net = topolab.build(row["sim_network"])
        vcs = _vcs_needed(net, routing)
        r = topolab.run_workload(net, job, routing, num_vcs=vcs, progress=False, **WORKLOAD_PARAMS)
        assert r.jobs[0].completion_cycles == row["workload_cycles"], row["name"]
    assert (tmp_path / "report" / "workload.png").is_file()
    assert "Workload" in (tmp_path / "report" / "report.html").read_text()
    with pytest.raises(topolab.ParameterError, match="workload"):
        topolab.compare(radix=16, endpoints=200, workload=job, progress=False)


def test_ring_placement_keeps_consecutive_ranks_close() -> None:
    """Hop distance (networkx, on the router graph) between consecutive ranks of a ring: the
    depth-first ring placement keeps them closer than random placement and than the endpoint
    order."""
    import networkx as nx

    net = topolab.build("slimfly:q=5,p=1")
    g = net.to_networkx()
    router = [r for r, count in enumerate(net.endpoints) for _ in range(count)]
    hops = dict(nx.all_pairs_shortest_path_length(g))

    def mean_ring_hops(placement: str) -> float:
        (job,) = topolab.workload.workload_messages(net, f"allgather:bytes=64,placement={placement},seed=1")
        ends = job["endpoints"]
        pairs = zip(ends, ends[1:] + ends[:1])
        return sum(hops[router[a]][router[b]] for a, b in pairs) / len(ends)

    ring = mean_ring_hops("ring")
    assert ring < mean_ring_hops("contiguous") and ring < mean_ring_hops("random")
    assert ring < 1.5  # most consecutive ranks on neighbouring routers
