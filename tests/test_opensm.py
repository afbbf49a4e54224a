"""OpenSM on a simulated fabric (``topolab.opensm``, docs/infiniband.md): topolab's ibsim
topology stood up by the real ibsim, managed by the real OpenSM, discovered by the real
ibnetdiscover, its tables dumped by OpenSM and dump_fts and read back into a routing that static
analysis and the simulator accept. These tests need Debian's opensm, ibsim-utils and
infiniband-diags (.ci/run installs them) and fail without them."""

from __future__ import annotations

import os
import random
import shutil

import networkx as nx
import pytest

import topolab
from topolab import infiniband, opensm, routing
from topolab.network import loads

DATA = os.path.join(os.path.dirname(__file__), "data", "infiniband")


def test_tools_are_installed() -> None:
    assert opensm.missing_tools() == [], opensm.INSTALL_HINT


def _same_graph(a: topolab.Network, b: topolab.Network) -> bool:
    ga, gb = a.to_networkx(), b.to_networkx()
    for g, net in ((ga, a), (gb, b)):
        for r, e in enumerate(net.endpoints):
            g.nodes[r]["hosts"] = e
    return nx.is_isomorphic(ga, gb, node_match=lambda x, y: x["hosts"] == y["hosts"])


def test_ibnetdiscover_output_reads_and_maps_to_its_hyperx() -> None:
    # Written by ibnetdiscover on ibsim standing up hyperx:dims=3x3,p=2 (topolab.opensm.discover).
    fabric = topolab.load(os.path.join(DATA, "hyperx_3x3_p2.ibnd"))
    assert (fabric.num_routers, fabric.num_endpoints) == (9, 18)
    assert _same_graph(fabric, topolab.build("hyperx:dims=3x3,p=2"))
    mapped = topolab.map_network(fabric, "hyperx")
    assert sorted(mapped.shape) == [3, 3] and mapped.missing_cables == 0


def test_discovered_fabric_is_the_written_one() -> None:
    net = topolab.build("dragonfly:a=4,h=2")
    text = opensm.discover(net)
    assert text.count("\nSwitch\t") == net.num_routers
    back = loads(text, "ibnet")
    assert back.endpoints == net.endpoints
    assert _same_graph(back, net)


def test_file_engine_loads_exported_lfts_entry_by_entry(tmp_path) -> None:
    # topolab's tables -> OpenSM's `file` engine on ibsim -> OpenSM's dump: the same entries.
    net = topolab.build("dragonfly:a=4,h=2")
    exported = infiniband.export(net, "dragonfly_static", tmp_path / "export")
    assert exported.cdg.acyclic
    lfts = tmp_path / "export" / opensm.LFTS_FILE
    run = opensm.run_engine(net, "file", tmp_path / "file", lfts_file=str(lfts))
    assert run.routed, run.reason
    ours = set(opensm.iter_lft_entries(lfts.read_text()))
    theirs = set(opensm.iter_lft_entries((tmp_path / "file" / opensm.LFTS_FILE).read_text()))
    assert len(ours) == net.num_routers * (net.num_routers + net.num_endpoints)
    assert ours == theirs


def test_engines_tables_are_analyzed_and_simulated(tmp_path) -> None:
    net = topolab.build("slimfly:q=5,p=1")
    minhop = opensm.run_engine(net, "minhop", tmp_path / "minhop")
    dfsssp = opensm.run_engine(net, "dfsssp", tmp_path / "dfsssp")
    assert minhop.routed and dfsssp.routed
    spec = {e: f"infiniband:dir={tmp_path / e}" for e in ("minhop", "dfsssp")}
    # Minimal paths on one VL close a cycle on a Slim Fly; DFSSSP's layers do not.
    assert not routing.check(net, spec["minhop"]).acyclic
    rep = routing.check(net, spec["dfsssp"])
    assert rep.acyclic
    # OpenSM needs as many layers as topolab's DFSSSP here, and spreads paths over more VLs.
    assert dfsssp.vls_needed == routing.check(net, "dfsssp").vcs_used == 2
    assert rep.vcs_used >= dfsssp.vls_needed
    # minhop routes minimally: the total channel load equals topolab's min routing's (average
    # distance x injection); DFSSSP's balanced paths can only be as long or longer.
    ref = sum(routing.channel_load(net, "min", traffic="uniform").loads)
    assert sum(routing.channel_load(net, spec["minhop"], traffic="uniform").loads) == pytest.approx(
        ref, rel=1e-9
    )
    assert sum(routing.channel_load(net, spec["dfsssp"], traffic="uniform").loads) >= ref * (1 - 1e-9)
    from topolab.sim import simulate

    res = simulate(net, spec["dfsssp"], "uniform", load=0.2, seed=1, num_vcs=8, sample_period=300)
    assert res.accepted_throughput == pytest.approx(0.2, rel=0.15)


def test_dump_fts_of_the_running_fabric_is_opensms_dump(tmp_path) -> None:
    # dump_fts reads the LFTs back from the (simulated) switches: the same routing.
    net = topolab.build("hyperx:dims=3x3,p=2")
    run = opensm.run_engine(net, "minhop", tmp_path / "run")
    assert run.routed
    topo = tmp_path / "fabric.ibnet"
    opensm.write_fabric(net, topo)
    with opensm.Fabric(str(topo), str(tmp_path)) as fab:
        log = str(tmp_path / "osm.log")
        fab.run_opensm(["opensm", "-o", "-f", log, "-R", "minhop"], log, 120)
        res = fab.run(["dump_fts"])
    assert res.returncode == 0, res.stderr
    assert set(opensm.iter_lft_entries(res.stdout)) == set(
        opensm.iter_lft_entries((tmp_path / "run" / opensm.LFTS_FILE).read_text())
    )
    # ... and topolab reads dump_fts's text as the LFTs of a routing.
    shutil.copytree(tmp_path / "run", tmp_path / "fts")
    (tmp_path / "fts" / opensm.LFTS_FILE).write_text(res.stdout)
    a = routing.channel_load(net, f"infiniband:dir={tmp_path / 'run'}", traffic="uniform")
    b = routing.channel_load(net, f"infiniband:dir={tmp_path / 'fts'}", traffic="uniform")
    assert a.loads == b.loads


def test_an_engine_that_refuses_the_fabric_says_why(tmp_path) -> None:
    run = opensm.run_engine(topolab.build("slimfly:q=5,p=1"), "ftree", tmp_path / "ftree")
    assert not run.routed and "ftree" in run.reason + open(tmp_path / "ftree" / "opensm.log").read()


def test_unknown_engine_is_a_parameter_error(tmp_path) -> None:
    with pytest.raises(topolab.ParameterError, match="minhop"):
        opensm.run_engine(topolab.build("slimfly:q=5"), "fastest", tmp_path)


def test_cli_compares_engines_on_a_fat_tree(tmp_path, capsys) -> None:
    from topolab.cli import main

    out = tmp_path / "osm"
    argv = [
        "routing",
        "opensm",
        "fattree:k=4",
        "--engines",
        "minhop,ftree",
        "--routings",
        "min",
        "-o",
        str(out),
    ]
    assert main([*argv, "--json"]) == 0
    import json

    rows = {r["routing"]: r for r in json.loads(capsys.readouterr().out)["results"]}
    assert rows["ftree"]["routed"] and rows["ftree"]["deadlock_free"]
    # ftree spreads the tree's traffic as evenly as topolab's minimal routing (0.875 on k=4,
    # worst case 1: full bisection); minhop piles up on one up link (1.5).
    assert rows["ftree"]["max_load_uniform"] == pytest.approx(rows["min"]["max_load_uniform"], rel=1e-9)
    assert rows["ftree"]["max_load_worst"] == pytest.approx(1.0, rel=1e-9)
    assert rows["minhop"]["max_load_uniform"] > 1.5 * rows["ftree"]["max_load_uniform"]
    assert (out / "ftree" / opensm.LFTS_FILE).exists()


def test_cli_says_how_to_install_missing_tools(monkeypatch, capsys) -> None:
    from topolab.cli import main

    monkeypatch.setattr(opensm, "TOOLS", (*opensm.TOOLS, "no-such-ib-tool"))
    assert main(["routing", "opensm", "fattree:k=4", "-o", "unused"]) == 2
    assert "apt-get install opensm ibsim-utils infiniband-diags" in capsys.readouterr().err


def foreign_topology(net: topolab.Network, seed: int) -> str:
    """An ibsim topology of ``net`` cabled as a vendor's fabric might be: GUIDs in another order
    than topolab's routers, each switch's ports in a shuffled order, and no LIDs (OpenSM assigns
    its own, as on a real fabric)."""
    rng = random.Random(seed)
    n = net.num_routers
    switch_guid = dict(zip(range(n), (0x0002C90000001000 + g for g in rng.sample(range(n * 4), n))))
    hosts = [(r, d) for r, e in enumerate(net.endpoints) for d in range(e)]
    host_guid = {h: 0x0002C90100000000 + 2 * i for i, h in enumerate(rng.sample(hosts, len(hosts)))}
    port_of: dict[tuple[int, object], int] = {}
    for r in range(n):
        targets: list[object] = [("switch", v) for v in net.neighbors(r)]
        targets += [("host", d) for d in range(net.endpoints[r])]
        rng.shuffle(targets)
        for p, target in enumerate(targets, start=1):
            port_of[(r, target)] = p
    lines = []
    for r in range(n):
        lines += [
            f"switchguid=0x{switch_guid[r]:016x}",
            f'Switch\t{len(net.neighbors(r)) + net.endpoints[r]} "S-{switch_guid[r]:016x}"',
        ]
        for (s, target), p in sorted(port_of.items(), key=lambda kv: kv[1]):
            if s != r:
                continue
            kind, x = target  # type: ignore[misc]
            if kind == "switch":
                lines.append(f'[{p}]\t"S-{switch_guid[x]:016x}"[{port_of[(x, ("switch", r))]}]')
            else:
                lines.append(f'[{p}]\t"H-{host_guid[(r, x)]:016x}"[1]')
        lines.append("")
    for (r, d), g in host_guid.items():
        lines += [
            f"caguid=0x{g:016x}",
            f'Ca\t1 "H-{g:016x}"',
            f'[1]\t"S-{switch_guid[r]:016x}"[{port_of[(r, ("host", d))]}]',
            "",
        ]
    return "\n".join(lines) + "\n"


def test_a_fabric_with_its_own_lids_and_ports_is_read_through_its_ibnetdiscover_output(tmp_path) -> None:
    # OpenSM's minhop on a fabric whose LIDs OpenSM chose and whose ports are cabled in no
    # particular order: its dumps are read through ibnetdiscover's report of that fabric.
    net = topolab.build("hyperx:dims=3x3,p=2")
    topo = tmp_path / "vendor.ibnet"
    topo.write_text(foreign_topology(net, seed=7))
    run = opensm.run_engine(net, "minhop", tmp_path / "minhop", topology=topo)
    assert run.routed, run.reason
    discovered = tmp_path / "minhop" / opensm.DISCOVERED_FILE
    fabric = topolab.load(str(discovered))
    assert _same_graph(fabric, net)
    # the translation is needed: topolab's own numbering does not find these switches
    with pytest.raises(topolab.TopolabError, match="not a switch of this network"):
        routing.check(fabric, f"infiniband:dir={tmp_path / 'minhop'}")
    spec = f"infiniband:dir={tmp_path / 'minhop'},fabric={discovered}"
    assert routing.check(fabric, spec).routing == spec
    # minhop routes every pair on a shortest path: the total channel load under uniform traffic
    # is the sum over endpoint pairs of their switches' distance (networkx), each pair's share of
    # a source's injection being 1 / endpoints (uniform includes the source, as BookSim2's).
    g = fabric.to_networkx()
    dist = dict(nx.all_pairs_shortest_path_length(g))
    owner = [r for r, e in enumerate(fabric.endpoints) for _ in range(e)]
    e = len(owner)
    expected = sum(dist[owner[s]][owner[t]] for s in range(e) for t in range(e)) / e
    load = routing.channel_load(fabric, spec, traffic="uniform")
    assert sum(load.loads) == pytest.approx(expected, rel=1e-9)
    # ... and the simulator delivers what is offered on those tables
    from topolab.sim import simulate

    res = simulate(fabric, spec, "uniform", load=0.2, seed=1, sample_period=300)
    assert res.accepted_throughput == pytest.approx(0.2, rel=0.15)


def test_dfsssps_layers_on_a_fabric_with_its_own_lids_are_read_with_their_path_sls(tmp_path) -> None:
    # The path SLs come from OpenSM's log in the fabric's own LIDs; read through fabric=, its
    # layers are acyclic as on topolab's numbering, and without them (every path on SL 0) the
    # same LFTs close a cycle: the SLs are what is read, not an accident of the numbering.
    net = topolab.build("slimfly:q=5,p=1")
    topo = tmp_path / "vendor.ibnet"
    topo.write_text(foreign_topology(net, seed=3))
    run = opensm.run_engine(net, "dfsssp", tmp_path / "dfsssp", topology=topo)
    assert run.routed, run.reason
    discovered = tmp_path / "dfsssp" / opensm.DISCOVERED_FILE
    fabric = topolab.load(str(discovered))
    rep = routing.check(fabric, f"infiniband:dir={tmp_path / 'dfsssp'},fabric={discovered}")
    assert rep.acyclic and rep.vcs_used >= run.vls_needed == 2
    shutil.copytree(tmp_path / "dfsssp", tmp_path / "no-sl")
    (tmp_path / "no-sl" / opensm.PATH_SL_FILE).unlink()
    assert not routing.check(fabric, f"infiniband:dir={tmp_path / 'no-sl'},fabric={discovered}").acyclic
