"""topolab reproduce diameter-two (Kathareios et al., SC15, §4.3.1 Fig. 6, §4.4 Figs. 13/14), quick mode: MIN
saturates at Kathareios et al., SC15, §4.2's closed forms 1/h and 1/k on the scaled MLFM and OFT worst cases
(and 1/(2p) on the Slim Fly), INR near half of the injection rate, MIN's all-to-all faster than
INR's; the exchange spec is expanded as docs/traffic.md says; the files are written."""

from __future__ import annotations

import pytest

import topolab
from topolab import reproduce
from topolab.cli.reproduce import _print


@pytest.fixture(scope="module")
def rep():
    return reproduce.run("diameter-two", quick=True)


def _value(rep, column, quantity):
    return next(r for r in rep.rows if r.column == column and r.quantity == quantity).topolab / 100


def test_min_worst_case_at_closed_forms(rep):
    # Kathareios et al., SC15, §4.2: h flows share one LR-GR link (MLFM), k flows one L0-L1 link (OFT), 2p on
    # SF.
    for column, closed_form in (("MLFM h=4", 1 / 4), ("OFT k=4", 1 / 4), ("SF p=3", 1 / 6)):
        sat = _value(rep, column, "Fig. 6 MIN worst case saturation")
        assert abs(sat - closed_form) <= 0.05, (column, sat)
        row = next(
            r for r in rep.rows if r.column == column and r.quantity == "Fig. 6 MIN worst case saturation"
        )
        assert abs(row.bound / 100 - closed_form) < 1e-9


def test_inr_near_half_and_better_than_min_on_worst_case(rep):
    for column in ("SF p=3", "MLFM h=4", "OFT k=4"):
        for kind in ("uniform", "worst case"):
            sat = _value(rep, column, f"Fig. 6 INR {kind} saturation")
            assert abs(sat - 0.5) <= 0.1 + 1e-9, (column, kind, sat)
        # Kathareios et al., SC15, §4.3.1: MIN carries 96-98% of uniform traffic (input-output-buffered
        # switches).
        assert _value(rep, column, "Fig. 6 MIN uniform saturation") >= 0.9
        assert _value(rep, column, "Fig. 6 INR worst case saturation") > _value(
            rep, column, "Fig. 6 MIN worst case saturation"
        )
        # Indirect paths are twice as long: MIN carries more uniform traffic than INR.
        assert _value(rep, column, "Fig. 6 MIN uniform saturation") > _value(
            rep, column, "Fig. 6 INR uniform saturation"
        )


def test_all_to_all_min_above_inr(rep):
    for column in ("SF p=3", "MLFM h=4", "OFT k=4"):
        min_eff = _value(rep, column, "Fig. 13 A2A MIN effective throughput")
        inr_eff = _value(rep, column, "Fig. 13 A2A INR effective throughput")
        assert min_eff > inr_eff > 0, (column, min_eff, inr_eff)


def test_exchange_spec_expanded():
    net = topolab.build("mlfm:h=2")  # 6 LRs x 2 endpoints = 12 endpoints
    res = topolab.run_exchange(net, "alltoall:packets=3", "min", seed=1)
    assert res.name.startswith("alltoall:packets=3")
    assert res.packets == 12 * 11 * 3
    # nn3d on 12 endpoints: 2x2x3 torus, 6 messages per process (size-2 dims send +1 and -1).
    res = topolab.run_exchange(net, "nn3d:packets=5", "min", seed=1)
    assert res.name == "nn3d:dims=2x2x3,packets=5,interleave=true" and res.packets == 12 * 6 * 5
    with pytest.raises(topolab.TopolabError, match="exchange"):
        topolab.run_exchange(net, "alltoone", "min")


def test_files_written(rep, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    files, _ = reproduce.write(rep, tmp_path)
    assert {"diameter-two.csv", "diameter-two_data.csv", "diameter-two.png"} <= {f.name for f in files}
    _print(rep)
    out = capsys.readouterr().out
    assert "== MLFM h=4: mlfm:h=4" in out and "Fig. 14 NN UGAL-L effective throughput" in out


def test_full_declares_the_papers_networks():
    from topolab.reproduce import diameter_two

    # Kathareios et al., SC15, §4.1: SF q = 13 (2q^2 = 338 routers) with p = 9 and 10, MLFM h = 15
    # (h(h + 1) = 240 endpoint routers of h endpoints), OFT k = 12 (2(k^2 - k + 1) = 266 leaves of k).
    endpoints = {
        spec: topolab.build(spec).num_endpoints for _, spec, _, _, _ in diameter_two.configs(full=True)
    }
    assert list(endpoints.values()) == [338 * 9, 338 * 10, 240 * 15, 266 * 12]
    curves = diameter_two.curves(full=True)
    exchanges = diameter_two.exchanges(full=True)
    assert {c.network for c, _ in curves} == {x.network for x, _, _ in exchanges} == set(endpoints)
    assert len(curves) == 4 * 2 * 2 and len(exchanges) == 4 * 2 * 3
    # The full exchanges have Kathareios et al., SC15, §4.1's message sizes, the defaults of the specs;
    # the MLFM's torus is §4.4's 15x16x15 (x in a router, y in a layer, z across layers).
    assert {x.exchange for x, _, _ in exchanges} == {"alltoall", "nn3d", "nn3d:dims=15x16x15"}
    assert {x.network for x, _, _ in exchanges if x.exchange == "nn3d:dims=15x16x15"} == {"mlfm:h=15"}


def test_nearest_neighbour_adaptive_near_full_bandwidth_on_the_mlfm(rep):
    # Kathareios et al., SC15, §4.4: with the torus aligned to the MLFM (x in a router, y in a layer,
    # z across layers) and the six messages sent together, UGAL-L routes x and z minimally and y
    # indirectly, "close to 100%", well above INR's ~70%.
    ugal = _value(rep, "MLFM h=4", "Fig. 14 NN UGAL-L effective throughput")
    inr = _value(rep, "MLFM h=4", "Fig. 14 NN INR effective throughput")
    assert ugal >= 0.85 and ugal > inr + 0.15, (ugal, inr)
