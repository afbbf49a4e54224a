"""The routing catalogue (``topolab list routings``, ``topolab.routings()``): one entry per name,
and the reader flags are true: every routing marked for the simulator runs there, every one
marked static is accepted by the static analysis, and the others are refused."""

import json

import pytest

import topolab
from topolab import build, routing
from topolab.cli import main

FAST = {"sample_period": 200, "warmup_periods": 1, "max_samples": 2, "num_vcs": 4}
# Networks the topology-specific routings need; everything else runs on a small Slim Fly.
NETWORK_FOR = {
    "dor": "torus:dims=4x4",
    "dim_order": "torus:dims=4x4",
    "dragonfly_min": "dragonfly:a=4,h=2,p=2",
    "dragonfly_ugal": "dragonfly:a=4,h=2,p=2",
    "dragonfly_ugal_safe": "dragonfly:a=4,h=2,p=2",
    "dragonfly_static": "dragonfly:a=4,h=2,p=2",
    "dragonfly_adaptive": "dragonfly:a=4,h=2,p=2",
    "fattree_nca": "fattree:k=6",
    "fattree_anca": "fattree:k=6",
    "hypercube_nf": "hypercube:n=4,p=2",
    "hypercube_abo_nf": "hypercube:n=4,p=2",
    "hypercube_abo_pl": "hypercube:n=4,p=2",
    "hyperx_dor": "hyperx:dims=3x3,p=2",
    "hyperx_ador": "hyperx:dims=3x3,p=2",
    "torus_dor": "torus:dims=4x4",
    "fastest": "torus:dims=4x4",
    "imase": "imase:n=20,d=3",
    "dragonflyplus_min": "dragonflyplus:h=2",
    "dragonflyplus_valiant": "dragonflyplus:h=2",
    "dragonflyplus_adaptive": "dragonflyplus:h=2",
    "ugal_pf": "polarfly:q=5,p=2",
    "hammingmesh_min": "hammingmesh:a=2,x=3",
    "infiniband": "hyperx:dims=3x3,p=2",
}


def test_catalogue_has_one_entry_per_name_with_sources():
    rows = topolab.routings()
    names = [r.name for r in rows]
    assert len(names) == len(set(names))
    assert {"min", "min_static", "valiant", "ugal_l", "ugal_g", "updown", "dfsssp"} <= set(names)
    by = {r.name: r for r in rows}
    assert by["ugal_l"].simulator and by["ugal_l"].static and "n" in by["ugal_l"].params
    assert not by["ugal"].simulator and by["ugal"].static
    assert by["min_static"].simulator and not by["min_static"].static
    assert all(r.source and r.summary for r in rows)


@pytest.mark.parametrize("info", topolab.routings(), ids=lambda r: r.name)
def test_reader_flags_are_true(info, tmp_path):
    net = build(NETWORK_FOR.get(info.name, "slimfly:q=5,p=2"))
    spec = info.name
    if info.name == "infiniband":
        # The tables a fabric runs: here topolab's own export of DOR.
        topolab.infiniband.export(net, "hyperx_dor", tmp_path)
        spec = f"infiniband:dir={tmp_path}"
    if info.simulator:
        r = topolab.simulate(net, spec, "uniform", 0.05, **FAST)
        assert r.measured_packets > 0
    else:
        with pytest.raises(Exception, match=info.name):
            topolab.simulate(net, info.name, "uniform", 0.05, **FAST)
    if info.static:
        assert routing.check(net, spec).max_hops >= 1
    else:
        with pytest.raises(Exception, match=info.name):
            routing.check(net, info.name)


def test_cli_list_routings(capsys):
    assert main(["list", "routings"]) == 0
    out = capsys.readouterr().out
    assert "ugal_l" in out and "Besta & Hoefler, SC14, §IV-C2" in out and "sim+static" in out
    assert main(["list", "routings", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["routings"]
    assert [r["name"] for r in listed] == [r.name for r in topolab.routings()]
