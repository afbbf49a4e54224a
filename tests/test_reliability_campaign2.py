"""Regression tests of issue 44, the second campaign (docs/reliability.md): the Python API with
wrong types, outputs, hangs and unbounded work, silent wrong answers, messages, the environment
and terminal safety. Each input here once hung, raised a raw Python error, answered wrongly or
printed what it should not. Commands that could hang or crash run in a subprocess with a
timeout, so that the failure fails the test instead of stopping pytest."""

from __future__ import annotations

import copy
import json
import math
import os
import pathlib
import pickle
import socket
import stat
import subprocess
import sys
import threading

import networkx as nx
import pytest

import topolab
import topolab.experiment
from topolab._args import QUOTE_MAX_CHARS
from topolab._files import atomic_write, check_output_dir, check_output_file
from topolab.cli import main

SHORT_MESSAGE = 2000
TORUS = "torus:dims=3x3"


def run_cli(*argv: str, env: dict | None = None, timeout: float = 120, preexec=None, cwd=None):
    """``python -m topolab argv`` in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-m", "topolab", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
        preexec_fn=preexec,
        cwd=cwd,
    )


def clean_error(result: subprocess.CompletedProcess, *words: str) -> str:
    """The error of a command that failed as topolab fails: exit status 2, one short message
    naming ``words``, no traceback."""
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    for word in words:
        assert word in result.stderr, result.stderr[-2000:]
    assert len(result.stderr) < SHORT_MESSAGE + 1000, len(result.stderr)
    return result.stderr


# --- the Python API raised raw errors ---------------------------------------------------------

graph = nx.path_graph(3)


def graph_with(node=None, edge=None):
    g = nx.path_graph(3)
    if node is not None:
        g.nodes[0]["endpoints"] = node
    if edge is not None:
        g.edges[0, 1]["width"] = edge
    return g


API_CASES = [
    ("build None", lambda: topolab.build(None), "spec"),
    ("build 5", lambda: topolab.build(5), "spec"),
    ("build bytes", lambda: topolab.build(b"torus:dims=3x3"), "spec"),
    ("build list", lambda: topolab.build(["torus"]), "spec"),
    ("load 5", lambda: topolab.load(5), "path"),
    ("load None", lambda: topolab.load(None), "path"),
    ("load bytes", lambda: topolab.load(b"x.json"), "path"),
    ("loads bytes", lambda: topolab.loads(b"{}"), "text"),
    ("loads None", lambda: topolab.loads(None), "text"),
    ("loads surrogate", lambda: topolab.loads("\ud800"), "text"),
    ("from_networkx None", lambda: topolab.from_networkx(None), "graph"),
    ("endpoints NaN", lambda: topolab.from_networkx(graph_with(node=math.nan)), "endpoints"),
    ("endpoints 'x'", lambda: topolab.from_networkx(graph_with(node="x")), "endpoints"),
    ("endpoints 2**40", lambda: topolab.from_networkx(graph_with(node=2**40)), "endpoints"),
    ("exchange negative", lambda: topolab.run_exchange(TORUS, [[(1, -1)]]), "per_source"),
    ("exchange string", lambda: topolab.run_exchange(TORUS, [[(1, "x")]]), "per_source"),
    ("exchange 2**40", lambda: topolab.run_exchange(TORUS, [[(1, 2**40)]]), "per_source"),
    ("compare families=5", lambda: topolab.compare(families=5), "families"),
    ("compare output=5", lambda: topolab.compare(output=5), "output"),
    ("compare radix=2**64", lambda: topolab.compare(radix=2**64), "radix"),
    ("run_experiment None", lambda: topolab.run_experiment(None), "experiment"),
    ("save None", lambda: topolab.build(TORUS).save(None), "path"),
    ("save format=5", lambda: topolab.build(TORUS).save("x.json", format=5), "format"),
]


@pytest.mark.parametrize("case, call, parameter", API_CASES, ids=[c[0] for c in API_CASES])
def test_the_api_raises_a_parameter_error_naming_the_argument(case, call, parameter, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(topolab.ParameterError) as err:
        call()
    assert err.value.parameter == parameter
    assert isinstance(err.value.value, str) and len(err.value.value) <= QUOTE_MAX_CHARS + 40
    assert err.value.allowed and err.value.allowed in str(err.value)
    assert not list(tmp_path.iterdir())  # nothing written


def test_a_network_pickles_and_deep_copies():
    net = topolab.build("slimfly:q=5")
    for twin in (pickle.loads(pickle.dumps(net)), copy.deepcopy(net), copy.copy(net)):
        assert twin == net
        assert twin.spec == net.spec and twin.labels == net.labels and twin.links == net.links
    imported = topolab.from_networkx(graph_with(edge=3), endpoints=2)
    assert pickle.loads(pickle.dumps(imported)).links == imported.links


# --- hangs and unbounded work -----------------------------------------------------------------


def test_an_exchange_of_a_billion_packets_is_refused_with_its_bound():
    # 10**9 packets from one endpoint ran for hours (the issue: "never returns").
    with pytest.raises(topolab.ParameterError, match="at most 100000000 packets in all"):
        topolab.run_exchange(TORUS, [[(0, 10**9)]] + [[]] * 8)
    with pytest.raises(topolab.ParameterError, match="destination"):
        topolab.run_exchange(TORUS, [[(9, 1)]])


def test_bisection_runs_have_a_stated_bound():
    net = topolab.build(TORUS)
    with pytest.raises(topolab.ParameterError, match="from 1 to 1000 METIS runs"):
        topolab.analyze(net, bisection=True, bisection_runs=10**9)
    assert topolab.analyze(net, bisection=True, bisection_runs=3).bisection.runs == 3


@pytest.mark.parametrize("tolerance", ["1e-17", "1e-320", "5e-7"])
def test_a_sweep_tolerance_below_the_bound_is_refused(tolerance):
    # 1e-17 looped forever: hi - lo > tolerance never fails between adjacent doubles.
    result = run_cli("sim", TORUS, "--sweep", "--load-resolution", tolerance, "--no-progress", timeout=60)
    clean_error(result, "load_resolution", "1e-6", "to below 1")


def test_sim_booksim_naming_a_fifo_is_refused(tmp_path):
    fifo = tmp_path / "config.fifo"
    os.mkfifo(fifo)
    clean_error(run_cli("sim", "--booksim", str(fifo), timeout=60), "not a regular file")
    # A configuration whose network_file is a FIFO.
    net_fifo = tmp_path / "net.anynet"
    os.mkfifo(net_fifo)
    config = tmp_path / "anynet.cfg"
    config.write_text(f"topology = anynet;\nnetwork_file = {net_fifo};\nrouting_function = min;\n")
    clean_error(run_cli("sim", "--booksim", str(config), timeout=60), "not a regular file")
    with pytest.raises(topolab.FileError, match="not a regular file"):
        topolab.load(str(net_fifo), "anynet")


def silent_server():
    """A server on 127.0.0.1 that accepts connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list[socket.socket] = []

    def accept():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)

    threading.Thread(target=accept, daemon=True).start()
    return server, held


def http_server():
    """A server on 127.0.0.1 that answers every connection as an HTTP server would."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)

    def serve():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(2)
                try:
                    conn.recv(4096)
                except OSError:
                    pass
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")

    threading.Thread(target=serve, daemon=True).start()
    return server


INFO = {"kind": "info", "axes": {"network": ["torus:dims=3x3"]}}


def test_a_silent_scheduler_is_a_clear_error_within_the_timeout(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    from topolab.experiment import execute

    monkeypatch.setattr(execute, "CONNECT_TIMEOUT_S", 1.0)
    server, held = silent_server()
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    try:
        with pytest.raises(topolab.ParameterError, match="no Dask scheduler answered within 1 s"):
            topolab.run_experiment(INFO, results=tmp_path / "r", scheduler=address, progress=False)
    finally:
        server.close()
        for conn in held:
            conn.close()


def test_a_real_scheduler_passes_the_probe(tmp_path):
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None, protocol="tcp://"
    )
    with cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        frame = topolab.run_experiment(
            INFO, results=tmp_path / "r", scheduler=cluster.scheduler_address, progress=False
        )
    assert list(frame["status"]) == ["ok"] and list(frame["routers"]) == [9]


def test_an_http_server_is_not_taken_for_a_scheduler(tmp_path):
    # Dask read "HTTP/1.1" as a frame length and numpy tried to allocate 3 EiB.
    pytest.importorskip("distributed")
    server = http_server()
    address = f"127.0.0.1:{server.getsockname()[1]}"
    try:
        with pytest.raises(topolab.ParameterError, match="not a Dask scheduler"):
            topolab.run_experiment(INFO, results=tmp_path / "r", scheduler=address, progress=False)
    finally:
        server.close()


@pytest.mark.parametrize(
    "address, words",
    [
        ("garbage", "tcp://HOST:PORT"),
        ("", "tcp://HOST:PORT"),
        ("tcp://127.0.0.1:99999", "tcp://HOST:PORT"),
        ("udp://127.0.0.1:1", "tcp://HOST:PORT"),
        ("inproc://x", "cannot connect to a Dask scheduler"),
    ],
)
def test_a_malformed_scheduler_address_is_refused(address, words, tmp_path, capsys):
    pytest.importorskip("distributed")
    path = tmp_path / "info.toml"
    path.write_text('kind = "info"\n[axes]\nnetwork = ["torus:dims=3x3"]\n')
    assert main(["run", str(path), "--scheduler", address, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "scheduler" in err and words in err and "Traceback" not in err


# --- overflow tracebacks on the command line --------------------------------------------------


@pytest.mark.parametrize(
    "argv, option",
    [
        (["compare", "--radix", str(2**64)], "--radix"),
        (["compare", "--endpoints", str(2**64)], "--endpoints"),
        (["routing", "tables", TORUS, "--routing", "min", "--vl-budget", "-1"], "--vl-budget"),
        (["routing", "tables", TORUS, "--routing", "min", "--vl-budget", str(2**64)], "--vl-budget"),
        (["map", TORUS, "hyperx", "--max-missing", str(2**64)], "--max-missing"),
        (["sim", TORUS, "--num-vcs", "9" * 131_000], "--num-vcs"),
        (["analyze", TORUS, "--seed", "9" * 131_000], "--seed"),
        (["cost", TORUS, "--router-radix", "9" * 131_000], "--router-radix"),
        (["moore", "--degree", "9" * 131_000, "--diameter", "2"], "--degree"),
    ],
)
def test_numeric_options_out_of_range_are_short_clean_errors(argv, option):
    result = run_cli(*argv)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    message = result.stderr.strip().splitlines()[-1]  # after argparse's usage lines
    assert option in message and len(message) < SHORT_MESSAGE


def test_an_unrecognized_huge_argument_is_quoted_short():
    result = run_cli("info", TORUS, "--no-such-flag", "x" * 100_000)
    assert result.returncode == 2 and len(result.stderr) < SHORT_MESSAGE


# --- outputs ----------------------------------------------------------------------------------


def test_an_output_directory_that_is_a_file_is_refused_before_the_work(tmp_path):
    taken = tmp_path / "taken"
    taken.write_text("keep me")
    clean_error(
        run_cli("routing", "export", TORUS, "--routing", "dor", "-o", str(taken)), "a file of that name"
    )
    clean_error(
        run_cli("compare", "--radix", "8", "--endpoints", "20", "-o", str(taken)), "a file of that name"
    )
    assert taken.read_text() == "keep me"


def test_an_output_file_that_is_a_directory_is_refused_before_the_work(tmp_path):
    clean_error(run_cli("place", TORUS, "-o", str(tmp_path)), "a directory")
    result = run_cli("sim", TORUS, "--sweep", "--plot", str(tmp_path), "--no-progress")
    clean_error(result, "--plot")
    assert "saturation" not in result.stdout  # refused before the sweep


@pytest.mark.parametrize("plot", ["curve.nosuch", "missing-dir/curve.png"])
def test_a_bad_plot_path_is_refused_before_the_sweep(plot, tmp_path):
    # Both failed after the whole sweep had run, losing its results.
    result = run_cli("sim", TORUS, "--sweep", "--plot", str(tmp_path / plot), "--no-progress")
    clean_error(result, "--plot")
    assert result.stdout == ""


def test_plot_without_sweep_is_an_error(tmp_path):
    # Exited 0 and wrote nothing.
    clean_error(run_cli("sim", TORUS, "--load", "0.2", "--plot", str(tmp_path / "p.png")), "--sweep")
    assert not (tmp_path / "p.png").exists()


@pytest.mark.parametrize(
    "command", [["build", TORUS], ["place", TORUS], ["routing", "tables", TORUS, "--routing", "min"]]
)
def test_a_fifo_as_output_is_refused_never_replaced(command, tmp_path):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    clean_error(run_cli(*command, "-o", str(fifo)), "FIFO")
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_a_character_device_is_refused_as_output():
    # As root, -o /dev/null replaced the system's /dev/null with a regular file. The check
    # alone is exercised here: a regression must not be able to replace the real one.
    with pytest.raises(topolab.ParameterError, match="character device"):
        check_output_file("build", "--output", "/dev/null")
    with pytest.raises(topolab.ParameterError, match="character device"):
        with atomic_write("/dev/null"):
            pass


def test_a_full_disk_is_a_clean_error_and_keeps_the_old_file(tmp_path):
    import resource

    target = tmp_path / "net.json"
    target.write_text("old")

    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    result = run_cli("build", "slimfly:q=13", "-o", str(target), preexec=small_files)
    clean_error(result, "File too large")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["net.json"]


def test_an_unwritable_directory_is_refused_before_the_work(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    with pytest.MonkeyPatch.context() as mp:
        # As root every directory is writable to os.access; stand in for a read-only one.
        real_access = os.access
        mp.setattr(os, "access", lambda p, mode: False if pathlib.Path(p) == ro else real_access(p, mode))
        with pytest.raises(topolab.ParameterError, match="can write"):
            check_output_file("place", "--output", ro / "x.txt")
        with pytest.raises(topolab.ParameterError, match="can write"):
            check_output_dir("compare", "--output", ro / "report")


def test_atomic_write_leaves_the_umask_alone(tmp_path, monkeypatch):
    # atomic_write set the umask to 0 for a moment: files other threads created then got 0666.
    calls = []
    monkeypatch.setattr(os, "umask", lambda mask: calls.append(mask) or 0o022)
    with atomic_write(tmp_path / "a.txt") as f:
        f.write("x")
    assert calls == []
    current = subprocess.run(["sh", "-c", "umask"], capture_output=True, text=True).stdout.strip()
    assert stat.S_IMODE((tmp_path / "a.txt").stat().st_mode) == 0o666 & ~int(current, 8)


def test_an_experiment_results_path_that_cannot_be_a_directory_is_refused(tmp_path):
    toml = tmp_path / "e.toml"
    toml.write_text('kind = "info"\nresults = "/proc/self"\n[axes]\nnetwork = ["torus:dims=3x3"]\n')
    assert main(["run", str(toml), "--no-progress"]) == 2
    file_there = tmp_path / "file"
    file_there.write_text("x")
    with pytest.raises(topolab.ParameterError, match="results"):
        topolab.run_experiment(INFO, results=file_there / "sub", progress=False)


def test_a_report_that_cannot_be_written_keeps_the_results(tmp_path, monkeypatch, capsys):
    # A full disk after the comparison lost its work; now the results go to a file the error names.
    import topolab.report
    import topolab.workflows

    def full_disk(result, directory):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(topolab.workflows, "write_report", full_disk)
    monkeypatch.setattr(topolab.report, "write_report", full_disk)
    quick = {"radix": 6, "endpoints": 8, "families": "torus", "per_family": 1, "progress": False}
    with pytest.raises(topolab.FileError, match="results are kept in (\\S+)") as err:
        topolab.compare(**quick, output=str(tmp_path / "report"))
    kept = pathlib.Path(str(err.value).rsplit(" ", 1)[1])
    try:
        assert json.loads(kept.read_text())["settings"]["radix"] == 6
    finally:
        kept.unlink()
    argv = ["compare", "--radix", "6", "--endpoints", "8", "--families", "torus", "--per-family", "1"]
    assert main([*argv, "--no-progress", "-o", str(tmp_path / "r2")]) == 2
    message = capsys.readouterr().err
    kept = pathlib.Path(message.strip().rsplit(" ", 1)[1])
    try:
        assert "No space left" in message and json.loads(kept.read_text())["settings"]["endpoints"] == 8
    finally:
        kept.unlink()


def test_two_drivers_on_one_store_run_each_point_once(tmp_path):
    # Two drivers on one results store each ran all the points (72 records for 36).
    log = tmp_path / "ran.log"
    driver = (
        "import sys; sys.path.insert(0, {tests!r})\n"
        "from topolab.experiment import register_kind, run_experiment\n"
        "register_kind('probe', 'experiment_kinds:probe')\n"
        "exp = {{'kind': 'probe', 'axes': {{'x': list(range(12))}}, 'fixed': {{'sleep': 0.1}}}}\n"
        "frame = run_experiment(exp, results={store!r}, workers=1, progress=False)\n"
        "assert (frame['status'] == 'ok').all() and len(frame) == 12\n"
    ).format(tests=str(pathlib.Path(__file__).parent), store=str(tmp_path / "store"))
    env = {**os.environ, "TOPOLAB_TEST_LOG": str(log)}
    drivers = [
        subprocess.Popen([sys.executable, "-c", driver], env=env, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    errors = [d.communicate(timeout=300)[1] for d in drivers]
    assert [d.returncode for d in drivers] == [0, 0], errors
    assert sorted(int(x) for x in log.read_text().split()) == list(range(12))  # each point once
    stored = topolab.experiment.load_results(tmp_path / "store")
    assert len(stored) == 12 and stored["point_id"].is_unique


# --- experiments: --dry-run checks every point as the run would -------------------------------


@pytest.mark.parametrize(
    "kind, line, words",
    [
        ("info", "network = 5", "network"),
        ("info", 'network = ["torus:dims=3x3"]', "network"),
        ("simulate", 'network = "torus:dims=3x3"\nload = 0.1\nnum_vcs = "4"', "num_vcs"),
        ("simulate", 'network = "torus:dims=3x3"\nload = 0.1\nnum_vcs = 4.5', "num_vcs"),
        ("info", 'network = "missing-file.json"', "no such file"),
        ("latency", 'network = "torus:dims=3x3"\nswitch_delay_ns = nan', "switch_delay_ns"),
        ("simulate", 'network = "torus:dims=3x3"\nload = 0.1\nlatency_thres = nan', "latency_thres"),
        ("info", 'network = "torus:dims=3x3\\u001b[31m"', "control characters"),
        ("simulate", 'network = "torus:dims=3x3"\nload = 0.1\ntraffic = "uniform\\u001b[2J"', "control"),
    ],
)
def test_a_dry_run_checks_every_value(kind, line, words, tmp_path, capsys):
    toml = tmp_path / "e.toml"
    toml.write_text(f'kind = "{kind}"\n[fixed]\n{line}\n')
    assert main(["run", str(toml), "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert words in err and "\x1b" not in err


# --- silent wrong answers ---------------------------------------------------------------------


def test_an_edge_list_whose_port_count_wraps_32_bits_is_refused(tmp_path):
    # Reported "radix": 0.
    header = "# topolab-edgelist version=1 directed=false\n"
    path = tmp_path / "big.edgelist"
    path.write_text(header + "# endpoints 4294967295 4294967295\n0 1\n")
    with pytest.raises(topolab.FormatError, match="8589934590 endpoints in all exceed"):
        topolab.load(str(path))
    path.write_text(header + "# endpoints 4294967295 0\n0 1\n")  # one link more wraps router 0
    with pytest.raises(topolab.FormatError, match="router 0 has 4294967296 ports"):
        topolab.load(str(path))
    ok = tmp_path / "ok.edgelist"
    ok.write_text(header + "# endpoints 4294967294 0\n0 1\n")
    net = topolab.load(str(ok))
    assert net.radix == 4294967295 and net.num_endpoints == 4294967294


@pytest.mark.parametrize("bandwidth", ["nan", "inf", str(2**64)])
def test_a_simgrid_bandwidth_must_be_finite(bandwidth, tmp_path):
    out = tmp_path / "x.simgrid.xml"
    clean_error(
        run_cli("build", TORUS, "-o", str(out), "--link-bandwidth-gbps", bandwidth), "--link-bandwidth-gbps"
    )
    assert not out.exists()
    with pytest.raises(topolab.ParameterError, match="link_bandwidth_gbps"):
        topolab.simgrid.platform(TORUS, link_bandwidth_gbps=float(bandwidth))


def test_a_fractional_link_width_is_refused_not_rounded():
    with pytest.raises(topolab.ParameterError, match="width"):
        topolab.from_networkx(graph_with(edge=2.5))
    assert topolab.from_networkx(graph_with(edge=2.0)).num_links == 3  # a whole float is kept


def test_a_json_network_with_a_duplicate_key_is_refused():
    text = topolab.build(TORUS).dumps()
    doc = json.loads(text)
    duplicated = text.replace('"endpoints":', '"endpoints": [0,0,0,0,0,0,0,0,0], "endpoints":', 1)
    assert json.loads(duplicated) == doc  # Python, like serde_json's Value, keeps the last
    with pytest.raises(topolab.FormatError, match="appears twice"):
        topolab.loads(duplicated)


# --- messages ---------------------------------------------------------------------------------


def test_long_values_are_cut_to_200_characters_everywhere():
    long = "9" * 131_000
    for argv in (
        ["sim", TORUS, "--degree", long],
        ["info", f"torus:dims={long}"],
        ["build", TORUS, "-o", "/" + long],
        ["info", f"torus:{'k' * 5000}=1"],  # a spec key
        ["info", "k" * 5000],  # a family name
        ["sim", TORUS, "--traffic", f"uniform:{'k' * 5000}=1"],
        ["info", "/tmp/" + "d" * 5000 + ".json"],  # a path
    ):
        result = run_cli(*argv)
        message = result.stderr.strip().splitlines()[-1]  # after argparse's usage lines, if any
        assert result.returncode == 2 and len(message) < SHORT_MESSAGE, (argv, message[:300])
        assert "characters in all" in message and "Traceback" not in result.stderr


def test_a_floor_that_is_not_toml_is_not_echoed(tmp_path, capsys):
    first_line = pathlib.Path("/etc/passwd").read_text().splitlines()[0]
    assert main(["cost", TORUS, "--floor", "/etc/passwd"]) == 2
    err = capsys.readouterr().err
    assert "line 1" in err and first_line not in err
    toml = tmp_path / "e.toml"
    toml.write_text('kind = "cost"\n[fixed]\nnetwork = "torus:dims=3x3"\nfloor = "/etc/passwd"\n')
    frame = topolab.run_experiment(toml, results=tmp_path / "r", workers=1, progress=False)
    assert first_line not in frame["error"].iloc[0]


@pytest.mark.parametrize(
    "doctype",
    [
        '<!DOCTYPE graphml [<!ENTITY a "x">]>',
        '<!DOCTYPE graphml SYSTEM "http://127.0.0.1:9/graphml.dtd">',
    ],
)
def test_graphml_with_a_dtd_is_refused(doctype):
    text = (
        f'<?xml version="1.0"?>{doctype}<graphml><graph edgedefault="undirected">'
        '<node id="a"/><node id="b"/><edge source="a" target="b"/></graph></graphml>'
    )
    with pytest.raises(topolab.FormatError, match="DTD"):
        topolab.loads(text, "graphml")


def test_a_bad_traffic_name_is_not_called_a_family_name():
    with pytest.raises(topolab.TopolabError) as err:
        topolab.simulate(TORUS, traffic="uni form!", load=0.1)
    assert "family" not in str(err.value)


# --- environment ------------------------------------------------------------------------------


def test_a_huge_rayon_thread_count_is_capped_not_a_panic():
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import topolab; print(topolab.analyze(topolab.build('slimfly:q=5')).diameter)",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "RAYON_NUM_THREADS": "100000"},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "2" and "256" in result.stderr


def test_an_unknown_mplbackend_does_not_stop_a_plot(tmp_path):
    out = tmp_path / "curve.png"
    result = run_cli(
        "sim",
        TORUS,
        "--sweep",
        "--loads",
        "0.1",
        "--plot",
        str(out),
        "--no-progress",
        "--sample-period",
        "200",
        env={"MPLBACKEND": "nosuch"},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and "MPLBACKEND" in result.stderr


def test_a_memory_limit_above_the_address_space_limit_is_capped():
    # The simulator aborted in an allocation instead of refusing the run.
    code = (
        "import resource; resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))\n"
        "import topolab\n"
        "try:\n    topolab.simulate('torus:dims=1024x1024', load=0.1)\n"
        "except topolab.ParameterError as e:\n    print(e)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "TOPOLAB_MEMORY_LIMIT": "1T"},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "address-space limit" in result.stdout and "TOPOLAB_MEMORY_LIMIT = 1T" in result.stdout


# --- terminal safety and repeated flags -------------------------------------------------------


def test_control_characters_from_a_network_file_are_escaped(tmp_path):
    doc = json.loads(topolab.build(TORUS).dumps())
    doc["family"] = "evil\x1b[31m\x1b]0;title\x07"
    doc["label_fields"] = ["x\x1b[2J", "y"]
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(doc))
    result = run_cli("info", str(path))
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "evil\\x1b[31m" in result.stdout
    error = run_cli("sim", str(path), "--traffic", "nosuch\x1b[2J")
    assert "\x1b" not in error.stderr


def test_a_flag_repeated_in_both_spellings_records_the_last_value():
    result = run_cli(
        "sim",
        TORUS,
        "--load",
        "0.1",
        "--num-vcs",
        "8",
        "--num_vcs",
        "4",
        "--json",
        "--no-progress",
        "--sample-period",
        "100",
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout)["inputs"]["router"]["num_vcs"] == 4
