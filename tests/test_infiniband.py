"""`topolab routing export|verify` and `topolab.infiniband` (Daryin & Korzh, JSFI 2014, §3):
files in OpenSM's formats, re-read and followed; a cabled fabric mapped first (§2)."""

from __future__ import annotations

import random

import networkx as nx
import pytest

import topolab
from topolab import infiniband
from topolab.cli import main


def test_mapped_fabric_exports_mixed_dor(tmp_path) -> None:
    net = topolab.build("hyperx:dims=3x4,p=4")
    g = net.to_networkx()
    ids = list(g.nodes)
    random.Random(2).shuffle(ids)
    fabric = topolab.from_networkx(nx.relabel_nodes(g, dict(zip(g.nodes, ids))), endpoints=4)
    with pytest.raises(topolab.TopolabError):
        infiniband.export(fabric, "hyperx_dor:mixed=true", tmp_path / "raw")
    mapped = topolab.map_network(fabric, "hyperx").network
    res = infiniband.export(mapped, "hyperx_dor:mixed=true", tmp_path / "ib")
    assert res.cdg.acyclic
    assert (res.vls_used, res.sls_used) == (4, 4)
    # every ordered pair of switches, once per destination host
    assert res.pairs == 12 * 11 * 4
    # DOR on a 2-D HyperX: a route corrects each differing dimension once
    assert res.max_hops == 2


def test_cli_export_verify_and_tampering(tmp_path, capsys) -> None:
    out = tmp_path / "ib"
    assert (
        main(
            [
                "routing",
                "export",
                "dragonfly:a=4,h=2",
                "--routing",
                "dragonfly_static",
                "-o",
                str(out),
                "--vl-budget",
                "2",
            ]
        )
        == 0
    )
    assert (
        main(["routing", "verify", "dragonfly:a=4,h=2", "--routing", "dragonfly_static", str(out), "--json"])
        == 0
    )
    lfts = out / infiniband.FILES[0]
    lines = lfts.read_text().splitlines()
    # Point one host LID entry of switch 0 at another port.
    i = next(k for k, line in enumerate(lines) if "Channel Adapter" in line and " 00" in line[6:11])
    lid, port = lines[i].split()[:2]
    lines[i] = lines[i].replace(f"{lid} {port}", f"{lid} {int(port) % 3 + 1:03}", 1)
    lfts.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main(["routing", "verify", "dragonfly:a=4,h=2", "--routing", "dragonfly_static", str(out)]) == 2
    assert "InfiniBand tables" in capsys.readouterr().err


def test_bad_budget_and_routing_are_named() -> None:
    with pytest.raises(topolab.ParameterError, match="vl_budget"):
        infiniband.export("hyperx:dims=3x3,p=4", "hyperx_dor:mixed=true", "/nonexistent", vl_budget=2)
    with pytest.raises(topolab.ParameterError, match="routing"):
        infiniband.export("hyperx:dims=3x3", "dfsssp", "/nonexistent")
