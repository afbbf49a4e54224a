"""benches/simulator.py: BookSim2's output read as results.csv records it, and a bounded run of the
benchmark without a BookSim2 binary (against the recorded figures), as CI runs it."""

from __future__ import annotations

import importlib.util
import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUTPUTS = pathlib.Path(__file__).with_name("booksim_output")


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_simulator", ROOT / "benches" / "simulator.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_converged_output_gives_the_overall_figures_not_the_last_period(bench):
    # Real BookSim2 output; results.csv's row for it: latency 14.34, accepted 0.2994, 6047 cycles.
    lat, acc, converged, cycles = bench.parse_booksim_output((OUTPUTS / "converged.txt").read_text())
    assert (lat, acc, converged, cycles) == (14.3419, 0.299442, True, 6047)


def test_unstable_output_gives_the_last_period_and_no_convergence(bench):
    # results.csv: sf_q5_p4_min.cfg num_vcs=1 at 0.4: latency 705.2, accepted 0.2887, false.
    lat, acc, converged, cycles = bench.parse_booksim_output((OUTPUTS / "unstable.txt").read_text())
    assert (round(lat, 1), round(acc, 4), converged, cycles) == (705.1, 0.2887, False, None)


def test_output_without_figures_is_an_error(bench):
    with pytest.raises(ValueError, match="Packet latency average"):
        bench.parse_booksim_output("Error: can't open file\n")


def test_bounded_run_without_binary_compares_with_recorded_figures(bench, capsys, monkeypatch):
    monkeypatch.delenv("TOPOLAB_BOOKSIM", raising=False)
    status = bench.main(["--only", "sf_q5_p4_min.cfg num_vcs=2", "--loads", "0.4,0.5"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "no BookSim2 binary" in out and "load average before" in out
    rows = [line for line in out.splitlines() if line.startswith("sf_q5_p4_min.cfg num_vcs=2")]
    assert len(rows) == 2
    # Agreement with BookSim2's recorded figures, independently of the script's verdict.
    recorded = {0.4: (15.90, 0.3999), 0.5: (22.02, 0.5000)}
    for line in rows:
        fields = line.split()
        load = float(fields[2])
        bs_lat, tl_lat, bs_acc, tl_acc = map(float, fields[9:13])
        assert bs_lat == pytest.approx(recorded[load][0], abs=0.1)
        assert tl_lat == pytest.approx(bs_lat, rel=0.05)
        assert tl_acc == pytest.approx(bs_acc, abs=0.03)
        assert fields[13] == "yes"


def test_missing_binary_is_refused_by_name(bench, capsys):
    assert bench.main(["--booksim", "/nonexistent/booksim", "--only", "sf_q5"]) == 2
    assert "--booksim" in capsys.readouterr().err


# --- CAMINOS, the second peer ------------------------------------------------------------------

CAMINOS_OUTPUTS = pathlib.Path(__file__).with_name("caminos_output")
REFERENCE = ROOT / "reference" / "booksim"


def _cfg_value(text: str, key: str) -> str:
    """A key's value in a BookSim2 configuration file (`key = value;`)."""
    m = re.search(rf"^\s*{key}\s*=\s*([^;]+);", text, re.M)
    assert m, key
    return m.group(1).strip()


def _caminos_value(text: str, key: str) -> str:
    """A key's value in a CAMINOS configuration (`key: value,`), the first occurrence."""
    m = re.search(rf"\b{key}\s*:\s*([^,\n}}]+)", text)
    assert m, key
    return m.group(1).strip()


def _setup(bench, name):
    return bench.reference.setup_for(REFERENCE, name)


def test_caminos_result_gives_its_figures(bench):
    # Real CAMINOS 0.6.3 output of tests/caminos_output/sf_q5_p4_min_0.3.cfg (`caminos
    # sf_q5_p4_min_0.3.cfg --results=FILE` in that directory): its Result record's figures as
    # written there, the top-level ones (the record nests other averages after them).
    text = (CAMINOS_OUTPUTS / "sf_q5_p4_min_0.3.result").read_text()
    lat, acc, hops, cycles = bench.parse_caminos_output(text)
    assert (lat, acc, hops, cycles) == (12.897290946173628, 0.30072, 1.8281291566906093, 6000)


def test_caminos_result_without_figures_is_an_error(bench):
    with pytest.raises(ValueError, match="average_message_delay"):
        bench.parse_caminos_output("thread 'main' panicked at src/router/input_output.rs\n")


def test_recorded_caminos_config_is_what_the_writer_writes(bench, tmp_path):
    # The fixture's result came from the configuration the bench writes today for that row.
    recorded = (CAMINOS_OUTPUTS / "sf_q5_p4_min_0.3.cfg").read_text()
    written = bench.caminos_config(_setup(bench, "sf_q5_p4_min.cfg"), 0.3, tmp_path)
    path = re.compile(r'filename: "[^"]*"')
    assert path.sub("filename: F", written) == path.sub("filename: F", recorded)


@pytest.mark.parametrize(
    "name, anynet",
    [("sf_q5_p4_min.cfg", "slimfly_q5_p4.anynet"), ("sf_q13_p10_min.cfg", "slimfly_q13_p10.anynet")],
)
def test_caminos_config_of_a_slim_fly_row_is_that_row(bench, tmp_path, name, anynet):
    booksim = (REFERENCE / name).read_text()
    written = bench.caminos_config(_setup(bench, name), 0.45, tmp_path)
    # The network: BookSim2's anynet file read independently, router by router.
    links, nodes = {}, {}
    for line in (REFERENCE / anynet).read_text().splitlines():
        words = line.split()
        r = int(words[1])
        links[r] = sorted(int(words[i + 1]) for i in range(2, len(words), 2) if words[i] == "router")
        nodes[r] = sum(1 for i in range(2, len(words), 2) if words[i] == "node")
    topology = (tmp_path / "topology.txt").read_text().split("\n")
    assert topology[0] == f"NODOS {len(links)}" and topology[1] == f"GRADO {len(links[0])}"
    written_links = {
        int(topology[i][2:]): sorted(map(int, topology[i + 1].split()))
        for i in range(2, len(topology) - 1, 2)
    }
    assert written_links == links
    assert f'filename: "{tmp_path / "topology.txt"}"' in written
    assert int(_caminos_value(written, "servers_per_router")) == nodes[0] == min(nodes.values())
    assert int(_caminos_value(written, "servers")) == sum(nodes.values())
    # Router, packet and load as the BookSim2 file says.
    assert _caminos_value(written, "virtual_channels") == _cfg_value(booksim, "num_vcs")
    assert _caminos_value(written, "buffer_size") == _cfg_value(booksim, "vc_buf_size")
    assert _caminos_value(written, "message_size") == _cfg_value(booksim, "packet_size")
    assert _caminos_value(written, "maximum_packet_size") == _cfg_value(booksim, "packet_size")
    stages = sum(
        int(_cfg_value(booksim, k))
        for k in ("routing_delay", "vc_alloc_delay", "sw_alloc_delay", "st_final_delay")
    )
    assert int(_caminos_value(written, "crossbar_delay")) == stages
    assert float(_caminos_value(written, "load")) == 0.45
    assert _caminos_value(written, "routing") == "Shortest"
    assert _caminos_value(written, "random_seed") == _cfg_value(booksim, "seed")


def test_caminos_config_of_the_torus_row_is_that_row(bench, tmp_path):
    booksim = (REFERENCE / "torus_8x8x8_dor.cfg").read_text()
    written = bench.caminos_config(_setup(bench, "torus_8x8x8_dor.cfg"), 0.3, tmp_path)
    k, n = int(_cfg_value(booksim, "k")), int(_cfg_value(booksim, "n"))
    assert re.search(r"sides:\s*\[([^\]]*)\]", written).group(1).replace(" ", "") == ",".join([str(k)] * n)
    assert int(_caminos_value(written, "servers")) == k**n
    assert _caminos_value(written, "virtual_channels") == _cfg_value(booksim, "num_vcs")
    assert _caminos_value(written, "buffer_size") == _cfg_value(booksim, "vc_buf_size")
    assert re.search(r"routing:\s*DOR", written)
    assert _caminos_value(written, "bubble") == "true"
    # One link class per dimension and one to the servers, all of BookSim2's one cycle.
    assert written.count("LinkClass { delay: 1 }") == n + 1


def test_num_vcs_override_reaches_the_caminos_config(bench, tmp_path):
    written = bench.caminos_config(_setup(bench, "sf_q5_p4_min.cfg num_vcs=2"), 0.3, tmp_path)
    assert _caminos_value(written, "virtual_channels") == "2"


@pytest.mark.parametrize(
    "name, reason",
    [
        ("dfly_p4_ugal.cfg", "UGAL"),
        ("dfly_p4_min.cfg", "dragonflynew"),
        ("sf_q5_p4_onoff.cfg", "on_off"),
        ("sf_q5_p4_rw.cfg", "request-reply"),
        ("mesh_8x8_min.cfg", "irregular"),
    ],
)
def test_setups_caminos_cannot_express_are_refused_with_the_reason(bench, tmp_path, name, reason):
    with pytest.raises(bench.NotExpressible, match=reason):
        bench.caminos_config(_setup(bench, name), 0.3, tmp_path)


def test_without_caminos_binary_its_line_says_not_given_or_not_expressible(bench, capsys, monkeypatch):
    monkeypatch.delenv("TOPOLAB_BOOKSIM", raising=False)
    monkeypatch.delenv("TOPOLAB_CAMINOS", raising=False)
    assert bench.main(["--only", "sf_q5_p4", "--loads", "0.1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # Each row's line is followed by its CAMINOS line.
    caminos = {
        lines[i - 1][:28].strip(): line for i, line in enumerate(lines) if line.startswith("  caminos: ")
    }
    assert caminos["sf_q5_p4_min.cfg"] == "  caminos: not given"
    assert caminos["sf_q5_p4_onoff.cfg"].startswith("  caminos: not expressible: on_off injection")
    assert caminos["sf_q5_p4_rw.cfg"].startswith("  caminos: not expressible: request-reply")


def test_missing_caminos_binary_is_refused_by_name(bench, capsys):
    assert bench.main(["--caminos", "/nonexistent/caminos", "--only", "sf_q5"]) == 2
    assert "--caminos" in capsys.readouterr().err


def test_caminos_line_compares_per_simulated_cycle(bench, monkeypatch):
    # A CAMINOS run of the recorded output with chosen times (no binary), against a topolab and
    # a BookSim2 run of other lengths: the per-cycle ratios are those of CPU seconds per cycle.
    lat, acc, hops, cycles = bench.parse_caminos_output(
        (CAMINOS_OUTPUTS / "sf_q5_p4_min_0.3.result").read_text()
    )
    monkeypatch.setattr(bench, "run_caminos", lambda *_: bench.CaminosRun(lat, acc, hops, cycles, 9.0, 6.0))
    row = {"topolab": {"cpu_s": 0.5, "wall_s": 0.6, "cycles": 3000}}
    booksim = bench.BooksimRun(14.34, 0.2994, True, 6047, 40.0, 30.235)
    c = bench.caminos_row("caminos", _setup(bench, "sf_q5_p4_min.cfg"), 0.3, row, booksim)
    assert c["cycle_cpu_ratio"] == pytest.approx((6.0 / 6000) / (0.5 / 3000))  # 6x, not 12x whole-run
    assert c["cpu_ratio"] == pytest.approx(12.0)
    assert c["booksim_cycle_cpu_ratio"] == pytest.approx((30.235 / 6047) / (0.5 / 3000))
    assert c["accepted_ok"] and c["accepted_error"] == pytest.approx(abs(0.30072 - 0.2994))
    line = bench.format_caminos(c)
    assert "6000 cycles" in line and "per cycle 6.0x and 30.0x topolab's" in line
