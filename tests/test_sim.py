"""The simulator from Python and the command line: results, sweeps, BookSim2 configs, errors."""

from __future__ import annotations

import csv
import json
import math
import pathlib

import networkx as nx
import pytest

import topolab
from topolab.cli import main

FAST = {"sample_period": 300, "warmup_periods": 1, "max_samples": 3}


@pytest.fixture
def reference(booksim_reference) -> pathlib.Path:
    return booksim_reference


def test_simulate_returns_a_typed_result():
    r = topolab.simulate("slimfly:q=5,p=2", routing="min", traffic="uniform", load=0.3, seed=3, **FAST)
    assert isinstance(r, topolab.SimResult)
    assert r.routing == "min" and r.offered_load == 0.3
    assert abs(r.accepted_throughput - 0.3) < 0.02
    assert not r.saturated and r.converged
    # Slim Fly q = 5 has diameter 2: a packet crosses 1 to 3 routers.
    assert 1.0 < r.avg_hops < 3.0
    assert r.p99_latency >= r.avg_latency > 0
    d = r.to_dict()
    assert d["cycles"] == r.cycles and set(d) >= {"avg_latency", "p99_latency", "saturated"}
    # Same seed, same numbers; another seed, others.
    again = topolab.simulate("slimfly:q=5,p=2", load=0.3, seed=3, **FAST)
    assert again.avg_latency == r.avg_latency
    other = topolab.simulate("slimfly:q=5,p=2", load=0.3, seed=4, **FAST)
    assert other.avg_latency != r.avg_latency


def test_threads_do_not_change_results():
    net = topolab.build("slimfly:q=5,p=3")
    one = topolab.simulate(net, "valiant", load=0.2, seed=5, **FAST).to_dict()
    two = topolab.simulate(net, "valiant", load=0.2, seed=5, threads=2, **FAST).to_dict()
    one.pop("wall_seconds")
    two.pop("wall_seconds")
    assert one == two


def test_sweep_load_gives_a_curve_and_a_saturation_point():
    df = topolab.sweep_load("slimfly:q=5,p=4", "min", loads=[0.2, 0.4, 0.9], load_resolution=0.05, **FAST)
    assert list(df["offered_load"]) == sorted(df["offered_load"])
    assert len(df) >= 4  # three loads and at least one bisection step
    sat = df.attrs["saturation_load"]
    assert 0.4 <= sat < 0.9
    assert bool(df.loc[df["offered_load"] == 0.9, "saturated"].iloc[0])
    assert not df[df["offered_load"] <= sat]["saturated"].any()
    # Latency grows with load below saturation.
    ok = df[~df["saturated"]]
    assert ok["avg_latency"].is_monotonic_increasing
    assert df.attrs["saturation_throughput"] >= sat * 0.97
    # The bracket: the lowest saturated run above the saturation load, no run inside it, at most
    # the tolerance wide after the bisection.
    above = df.attrs["saturated_load"]
    assert sat < above <= sat + 0.05
    assert bool(df.loc[df["offered_load"] == above, "saturated"].iloc[0])
    assert not ((df["offered_load"] > sat) & (df["offered_load"] < above)).any()


def test_sweep_cli_prints_and_writes_the_bracket(capsys):
    args = ["sim", "slimfly:q=5,p=4", "--sweep", "--loads", "0.4,0.9", "--load-resolution", "0.1"]
    fast = ["--sample-period", "300", "--warmup-periods", "1", "--max-samples", "3", "--no-progress"]
    assert main([*args, *fast, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    lo, hi = doc["saturation_load"], doc["saturated_load"]
    verdicts = {p["offered_load"]: p["saturated"] for p in doc["points"]}
    assert verdicts[lo] is False and verdicts[hi] is True and 0 < hi - lo <= 0.1
    assert main([*args, *fast]) == 0
    assert f"saturation: load {lo:.4g} (within [{lo:.4g}, {hi:.4g}])" in capsys.readouterr().out


def test_sweep_load_stops_at_the_first_saturated_listed_load_unless_every_load():
    loads = [0.2, 0.9, 0.95, 1.0]
    stopped = topolab.sweep_load("slimfly:q=5,p=4", "min", loads=loads, load_resolution=0, **FAST)
    every = topolab.sweep_load(
        "slimfly:q=5,p=4", "min", loads=loads, load_resolution=0, every_load=True, **FAST
    )
    assert list(stopped["offered_load"]) == [0.2, 0.9]
    assert list(every["offered_load"]) == loads
    assert every["saturated"].tolist() == [False, True, True, True]
    assert stopped.attrs["saturation_load"] == every.attrs["saturation_load"] == 0.2


def test_booksim_config_reproduces_the_reference_row(reference):
    setup = topolab.from_booksim(reference / "sf_q5_p4_min.cfg")
    assert setup.routing == "min_static" and setup.params["booksim_compat"] is True
    assert setup.network.num_routers == 50 and setup.network.num_endpoints == 200
    r = setup.simulate(load=0.3)
    # results.csv: sf_q5_p4_min.cfg at 0.3: latency 14.34, accepted 0.2994, 6047 cycles.
    assert abs(r.avg_latency - 14.34) / 14.34 < 0.05
    assert abs(r.accepted_throughput - 0.2994) < 0.03
    assert abs(r.cycles - 6047) < 100


def _sim_json(args: list[str], capsys) -> tuple[dict, str]:
    assert main(["sim", *args, "--json", "--no-progress"]) == 0
    out = capsys.readouterr()
    return json.loads(out.out), out.err


def test_booksim_config_with_failures_runs_the_degraded_network(reference, capsys):
    # The intact mesh's BookSim2 config with an explicit failure list must simulate the network
    # BookSim2 ran as mesh_8x8_fail4_min.cfg (topolab's anynet export of the same degraded mesh).
    fail4 = reference / "mesh_8x8_fail4.txt"
    cfg = str(reference / "mesh_8x8_min.cfg")
    failed, err = _sim_json(["--booksim", cfg, "--failures", f"file:path={fail4}", "--load", "0.1"], capsys)
    assert "4 of 112 cables" in err
    as_file, _ = _sim_json(["--booksim", str(reference / "mesh_8x8_fail4_min.cfg"), "--load", "0.1"], capsys)
    intact, _ = _sim_json(["--booksim", cfg, "--load", "0.1"], capsys)
    keys = ("avg_latency", "accepted_throughput", "avg_hops", "cycles")
    pick = lambda doc: [doc.get("result", doc)[k] for k in keys]  # noqa: E731
    assert pick(failed) == pick(as_file)
    assert pick(failed) != pick(intact)
    # And BookSim2's row for it (results.csv: mesh_8x8_fail4_min.cfg at 0.1).
    with open(reference / "results.csv") as fh:
        row = next(
            r
            for r in csv.DictReader(fh)
            if r["config"] == "mesh_8x8_fail4_min.cfg" and r["offered_load"] == "0.1"
        )
    latency, accepted = pick(failed)[:2]
    assert abs(latency - float(row["avg_packet_latency"])) / float(row["avg_packet_latency"]) < 0.05
    assert abs(accepted - float(row["accepted_throughput"])) < 0.03


def test_booksim_link_failures_are_refused_with_the_way_to_give_them(tmp_path, reference, capsys):
    text = (reference / "mesh_8x8_min.cfg").read_text()
    text = text.replace("mesh_8x8.anynet", str(reference / "mesh_8x8.anynet"))
    zero = tmp_path / "zero.cfg"
    zero.write_text(text + "\nlink_failures = 0;\nfail_seed = 7;\n")
    assert topolab.from_booksim(zero).network.num_links == 112
    some = tmp_path / "some.cfg"
    some.write_text(text + "\nlink_failures = 3;\nfail_seed = 7;\n")
    assert main(["sim", "--booksim", str(some)]) == 2
    err = capsys.readouterr().err
    assert "link_failures" in err and "--failures file:path=" in err


def test_exchange_runs_to_completion():
    net = topolab.build("slimfly:q=5,p=1")
    n = net.num_endpoints
    per_source = [[(d, 2) for d in range(n) if d != s] for s in range(n)]
    r = topolab.run_exchange(net, per_source, routing="min", name="all-to-all")
    assert r.packets == 2 * n * (n - 1) and r.flits == r.packets
    # Every endpoint receives 2(n - 1) flits, at most one per cycle.
    assert r.completion_cycles >= 2 * (n - 1)
    assert 0 < r.effective_throughput <= 1.0


def test_interleaved_exchange_is_one_packet_of_each_message_in_turn():
    # The nn3d spec's default order against the same messages listed one packet at a time, in
    # turn: the engine must put the same packets on the wire in the same order.
    net = topolab.build("mlfm:h=2")
    spec = topolab.run_exchange(net, "nn3d:packets=6", "min", seed=3)
    assert spec.name == "nn3d:dims=2x2x3,packets=6,interleave=true"
    _, messages = topolab._core.exchange_messages(net._net, "nn3d:packets=6")
    one_at_a_time = [[(d, 1) for _ in range(6) for d, _ in msgs] for msgs in messages]
    listed = topolab.run_exchange(net, one_at_a_time, "min", seed=3)
    same = topolab.run_exchange(net, messages, "min", seed=3, interleave=True)
    for r in (listed, same):
        assert (r.completion_cycles, r.avg_latency, r.p99_latency) == (
            spec.completion_cycles,
            spec.avg_latency,
            spec.p99_latency,
        )
    whole = topolab.run_exchange(net, "nn3d:packets=6,interleave=false", "min", seed=3)
    assert whole.packets == spec.packets
    assert whole.completion_cycles != spec.completion_cycles


def test_exchange_interleave_errors_name_the_parameter():
    net = topolab.build("mlfm:h=2")
    with pytest.raises(topolab.ParameterError, match="'interleave'.*the spec's own"):
        topolab.run_exchange(net, "nn3d", interleave=True)
    with pytest.raises(topolab.ParameterError, match="source 0 with messages of 2 and 3 packets"):
        topolab.run_exchange(net, [[(1, 2), (2, 3)]], interleave=True)


def test_errors_name_the_parameter():
    with pytest.raises(topolab.ParameterError, match="num_vc.*num_vcs"):
        topolab.simulate("slimfly:q=5,p=2", num_vc=4)
    with pytest.raises(topolab.ParameterError, match="vc_buf_size"):
        topolab.simulate("slimfly:q=5,p=2", vc_buf_size=0)
    with pytest.raises(topolab.ParameterError, match="routing"):
        topolab.simulate("slimfly:q=5,p=2", routing="quickest")
    with pytest.raises(topolab.ParameterError, match="torus or mesh"):
        topolab.simulate("slimfly:q=5,p=2", routing="dor")


def test_deadlock_raises_with_the_waiting_cycle():
    g = nx.DiGraph()
    for r in range(4):
        g.add_node(r, endpoints=1)
        g.add_edge(r, (r + 1) % 4)
    ring = topolab.from_networkx(g, endpoints="endpoints")
    with pytest.raises(topolab.DeadlockError, match="waiting cycle: router"):
        topolab.simulate(
            ring,
            "min:vcs=any",
            load=1.0,
            num_vcs=1,
            vc_buf_size=2,
            packet_size=6,
            deadlock_timeout=300,
            latency_thres=-1,
            **FAST,
        )


def test_cli_json_keys(capsys):
    assert main(["sim", "slimfly:q=5,p=2", "--load", "0.2", "--json", "--sample_period", "300"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in [
        "offered_load",
        "accepted_throughput",
        "avg_latency",
        "p99_latency",
        "avg_hops",
        "saturated",
        "cycles",
    ]:
        assert key in out
    assert out["offered_load"] == 0.2 and out["saturated"] is False


def test_cli_sweep_plot(tmp_path, capsys):
    png = tmp_path / "curve.png"
    args = ["sim", "slimfly:q=5,p=4", "--routing", "min", "--sweep", "--loads", "0.3,0.95"]
    assert (
        main([*args, "--load-resolution", "0.2", "--sample_period", "300", "--plot", str(png), "--json"]) == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert png.stat().st_size > 1000
    assert 0.3 <= out["saturation_load"] < 0.95
    assert [p["offered_load"] for p in out["points"]] == sorted(p["offered_load"] for p in out["points"])


def test_cli_sweep_plot_draws_the_intervals_and_the_bracket(monkeypatch):
    from matplotlib.container import ErrorbarContainer

    import topolab.cli.sim as cli_sim

    drawn = []
    monkeypatch.setattr(cli_sim, "save_figure", lambda fig, path, dpi: drawn.append(fig))
    df = topolab.sweep_load("slimfly:q=5,p=4", "min", loads=[0.3, 0.95], load_resolution=0.2, **FAST)
    cli_sim._plot(df, "curve.png", "test")
    (ax,) = drawn[0].axes
    (bars,) = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    # one bar per carried run, as long as the run's latency interval
    carried = df[~df["saturated"]]
    lengths = [seg[1][1] - seg[0][1] for seg in bars.lines[2][0].get_segments()]
    assert lengths == pytest.approx([high - low for low, high in carried["avg_latency_ci95"]])
    # the bracket shaded from the saturation load to the lowest saturated load
    (span,) = [p for p in ax.patches if p.get_label().startswith("saturation within")]
    # a Rectangle (matplotlib >= 3.9) or a Polygon
    if hasattr(span, "get_width"):
        xs = [span.get_x(), span.get_x() + span.get_width()]
    else:
        xs = list(span.get_xy()[:, 0])
    assert (min(xs), max(xs)) == pytest.approx((df.attrs["saturation_load"], df.attrs["saturated_load"]))


def test_cli_booksim_rejects_unknown_keys(tmp_path, reference, capsys):
    text = (reference / "sf_q5_p4_min.cfg").read_text()
    text = text.replace("slimfly_q5_p4.anynet", str(reference / "slimfly_q5_p4.anynet"))
    bad = tmp_path / "bad.cfg"
    bad.write_text(text + "\nflit_magic = 3;\n")
    assert main(["sim", "--booksim", str(bad)]) == 2
    assert "flit_magic" in capsys.readouterr().err
    worse = tmp_path / "worse.cfg"
    worse.write_text(text.replace("router = iq;", "router = event;"))
    assert main(["sim", "--booksim", str(worse)]) == 2
    assert "router" in capsys.readouterr().err


def test_sim_params_and_routings_are_listed():
    names = {p.name for p in topolab.sim_params()}
    assert {"num_vcs", "vc_buf_size", "routing_delay", "vc_alloc_delay", "sw_alloc_delay"} <= names
    assert {"credit_delay", "internal_speedup", "packet_size", "warmup_periods", "sample_period"} <= names
    assert {r.name for r in topolab.routings()} >= {"min", "min_static", "valiant", "dor"}
    assert not math.isnan(topolab.simulate("torus:dims=3", "dor", load=0.1, **FAST).avg_latency)


def test_precision_ends_a_run_once_both_intervals_are_narrow_enough(capsys):
    # Near saturation BookSim2's rule measures on while the latency still changes; a loose
    # precision ends the run at the three measured periods that rule needs at least.
    kw = {**FAST, "max_samples": 24, "seed": 1}
    default = topolab.simulate("slimfly:q=5,p=4", load=0.6, **kw)
    loose = topolab.simulate("slimfly:q=5,p=4", load=0.6, precision=0.2, **kw)
    assert loose.precision_reached and not default.precision_reached
    assert loose.sample_periods == 1 + 3 < default.sample_periods and loose.cycles < default.cycles
    for figure in ("accepted_throughput", "avg_latency"):
        low, high = getattr(loose, f"{figure}_ci95")
        assert (high - low) / 2 < 0.2 * getattr(loose, figure)
    # the flag comes from the parameter table; the JSON says whether the precision was reached
    fast = ["--sample-period", "300", "--warmup-periods", "1", "--max-samples", "24", "--seed", "1"]
    args = ["sim", "slimfly:q=5,p=4", "--load", "0.6", "--precision", "0.2", "--json", "--no-progress"]
    assert main([*args, *fast]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["precision_reached"] is True and doc["inputs"]["router"]["precision"] == 0.2
    with pytest.raises(topolab.ParameterError, match="precision"):
        topolab.simulate("slimfly:q=5,p=4", precision=2)
