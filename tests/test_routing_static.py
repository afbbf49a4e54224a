import json
import re

from topolab import build, routing
from topolab.cli import main


def test_check_ring_cycle_and_slimfly_hop_vcs():
    ring = build("torus:dims=6")
    rep = routing.check(ring, "min:vcs=single")
    assert not rep.acyclic
    # consecutive channels share a router and the cycle closes
    for (_a, b, _), (c, _d, _) in zip(rep.cycle, rep.cycle[1:] + rep.cycle[:1]):
        assert b == c
    sf = build("slimfly:q=5")
    rep = routing.check(sf, "min:vcs=hop")
    assert rep.acyclic and rep.vcs_used == 2 and rep.max_hops == 2


def test_load_ring_closed_form():
    res = routing.channel_load(build("torus:dims=7,p=1"), "min:vcs=single")
    assert abs(res.max_load - 1.0) < 1e-12  # (k + 1) / 8 for k = 7


def test_cli_check_json(capsys):
    rc = main(["routing", "check", "slimfly:q=4", "--routing", "valiant", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["acyclic"] and out["vcs_used"] == 4 and out["max_hops"] == 4
    rc = main(["routing", "check", "torus:dims=5", "--routing", "min:vcs=single"])
    assert rc == 1 and "CYCLE" in capsys.readouterr().out


def test_cli_bad_routing(capsys):
    assert main(["routing", "check", "slimfly:q=4", "--routing", "bogus"]) == 2
    assert "bogus" in capsys.readouterr().err


def test_tables_text():
    text = routing.forwarding_tables(build("slimfly:q=4"), "min:vcs=hop")
    assert text.splitlines()[1].startswith("lft 0 1 ")


def test_cli_load_traffic_and_simulate(capsys):
    # Kathareios et al., SC15, §4.2: minimal routing on the h-MLFM under shift by h carries h flows on a link.
    rc = main(["routing", "load", "mlfm:h=3", "--routing", "min", "--traffic", "shift:k=3", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and abs(out["throughput_bound"] - 1 / 3) < 1e-9 and out["traffic"] == "shift:k=3"
    rc = main(
        ["routing", "load", "slimfly:q=5,p=2", "--routing", "ugal_l", "--traffic", "worst", "--simulate"]
        + ["--load-resolution", "0.1"]
    )
    text = capsys.readouterr().out
    assert rc == 0 and "n/a" in text and "saturation load (simulated)" in text
    assert re.search(r"saturation load \(simulated\) +[0-9.]+ \(within \[[0-9.]+, [0-9.]+\]\)", text)
