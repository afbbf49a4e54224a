"""The analyze and moore commands."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time

import networkx as nx
import pytest

import topolab
from topolab.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


REQUIRED = """routers endpoints links network_radix radix directed connected components diameter aspl
    endpoint_aspl moore_bound moore_fraction""".split()


def test_analyze_json_has_the_required_keys(capsys):
    code, out, _ = run(capsys, "analyze", "slimfly:q=5", "--json")
    assert code == 0
    d = json.loads(out)
    assert set(REQUIRED) <= set(d)
    assert (d["routers"], d["endpoints"], d["links"], d["network_radix"]) == (50, 200, 175, 7)
    assert (d["connected"], d["components"], d["diameter"]) == (True, 1, 2)
    # Hoffman–Singleton: 350 ordered adjacent pairs, 2100 at distance 2.
    assert d["histogram"] == [0, 350, 2100]
    assert d["aspl"] == (350 + 2 * 2100) / (50 * 49)
    assert (d["moore_bound"], d["moore_fraction"]) == (50, 1.0)
    assert "path_diversity_mean" not in d and "disconnect_fraction" not in d
    assert "eccentricities" not in d


def test_analyze_paths_and_resilience(capsys):
    code, out, _ = run(capsys, "analyze", "slimfly:q=5", "--json", "--paths", "--resilience", "--seed", "5")
    assert code == 0
    d = json.loads(out)
    # Girth 5: every pair at distance 2 has exactly one common neighbour.
    assert (d["path_diversity_mean"], d["path_diversity_max"]) == (1.0, 1)
    for key in ("disconnect_fraction", "diameter_plus2_fraction", "aspl_plus1_fraction"):
        low, high = d[f"{key}_interval"]
        assert 0.0 <= low <= d[key] <= high <= 1.0
        assert high - low <= 0.02
    assert d["diameter_plus2_fraction"] <= d["disconnect_fraction"]
    _, again, _ = run(capsys, "analyze", "slimfly:q=5", "--json", "--paths", "--resilience", "--seed", "5")
    assert again == out


def test_analyze_text_output(capsys):
    code, out, _ = run(capsys, "analyze", "torus:dims=4x4", "--resilience")
    assert code == 0
    assert "diameter" in out and "95% CI" in out


def test_analyze_a_file_and_a_disconnected_network(capsys, tmp_path):
    path = tmp_path / "two.json"
    g = nx.disjoint_union(nx.cycle_graph(4), nx.complete_graph(3))
    topolab.from_networkx(g, endpoints=2).save(path)
    code, out, _ = run(capsys, "analyze", str(path), "--json")
    assert code == 0
    d = json.loads(out)
    assert (d["connected"], d["components"], d["unreachable_pairs"]) == (False, 2, 2 * 4 * 3)
    assert (d["diameter"], d["aspl"], d["moore_fraction"]) == (None, None, None)
    code, out, _ = run(capsys, "analyze", str(path))
    assert code == 0 and "not connected" in out
    code, _, err = run(capsys, "analyze", str(path), "--resilience")
    assert code == 2 and "connected network; this one has 2 components" in err


def test_moore_command(capsys):
    code, out, _ = run(capsys, "moore", "--degree", "7", "--diameter", "2")
    assert (code, out.strip()) == (0, "50")
    code, out, _ = run(capsys, "moore", "--degree", "8", "--diameter", "4", "--directed", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["inputs"] == {"degree": 8, "diameter": 4, "directed": True}
    assert doc["moore_bound"] == 4681 and doc["units"]["moore_bound"] == "routers"
    code, out, _ = run(capsys, "moore", "--degree", "96", "--diameter", "2")
    assert out.strip() == "9217"  # Besta & Hoefler, SC14, §II-B3
    code, _, err = run(capsys, "moore", "--degree", "1000", "--diameter", "100")
    assert code == 2 and "'diameter' = 100" in err


def test_bad_arguments_name_the_parameter(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["moore", "--degree", "-3", "--diameter", "2"])
    assert exc.value.code == 2
    assert "'-3' is not allowed: an integer from 0" in capsys.readouterr().err
    code, _, err = run(capsys, "analyze", "slimfly:q=6")
    assert code == 2 and "'q' = 6" in err


def _read_terminal_until(fd: int, wanted: str, timeout: float) -> str:
    """What the child writes to the terminal ``fd`` until ``wanted`` appears, the child closes
    it, or ``timeout`` seconds pass."""
    text, deadline = "", time.monotonic() + timeout
    while wanted not in text and (left := deadline - time.monotonic()) > 0:
        if not select.select([fd], [], [], left)[0]:
            break
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the child has closed the terminal
            break
        if not chunk:
            break
        text += chunk.decode("utf-8", "replace")
    return text


@contextlib.contextmanager
def _children_take_sigint():
    """Child processes started inside get SIGINT's default disposition, as a foreground command
    of an interactive shell does, whatever this process got. A process started with SIGINT
    ignored (the test suite run as a background job: `make test &` in a script, where POSIX
    shells start it with SIGINT and SIGQUIT ignored) passes the ignoring on through fork and
    exec, and Python then installs no KeyboardInterrupt handler, so the child would ignore the
    signal the test sends. A handler, unlike "ignore", is reset to the default by exec."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def test_children_take_sigint_even_when_this_process_ignores_it():
    # The cause of the Ctrl-C test's failures: run as a background job, the suite ignores
    # SIGINT and so did the analysis it interrupts, which ran to the end.
    show = "import signal; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        inherited = subprocess.run([sys.executable, "-c", show], capture_output=True, text=True)
        with _children_take_sigint():
            reset = subprocess.run([sys.executable, "-c", show], capture_output=True, text=True)
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)
    assert (inherited.stdout.strip(), reset.stdout.strip()) == ("False", "True")


def test_ctrl_c_interrupts_a_long_analysis():
    # 100,000 routers take many seconds; SIGINT must stop the run with status 130 (the
    # timeouts only guard against a hang). The signal is sent once the analysis's progress bar
    # shows it running, not after a fixed delay that a loaded machine may spend importing
    # Python. The bar is drawn live only on a terminal, so stderr is a pseudo-terminal. The child
    # takes SIGINT as a foreground command does, however the suite was started.
    terminal, child_end = pty.openpty()
    # A new pseudo-terminal is 0 columns wide, which leaves no room for the bar.
    fcntl.ioctl(child_end, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    with _children_take_sigint():
        proc = subprocess.Popen(
            [sys.executable, "-m", "topolab", "analyze", "jellyfish:routers=100000,degree=16"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=child_end,
        )
    os.close(child_end)
    try:
        # The percentage appears once the Rust core has reported its first stage and total:
        # the signal then arrives inside the core's analysis, the case that needs handling.
        seen = _read_terminal_until(terminal, "%|", timeout=300)
        assert "%|" in seen and proc.poll() is None, seen
        proc.send_signal(signal.SIGINT)
        seen += _read_terminal_until(terminal, "interrupted", timeout=60)
        proc.wait(timeout=60)
    finally:
        proc.kill()
        proc.wait()
        os.close(terminal)
    assert proc.returncode == 130, seen
    assert "topolab: interrupted" in seen
