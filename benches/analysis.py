"""Speed of topolab.analyze against igraph and networkx, measured in the same process.

Run by hand (not in CI) on a release build; ``pip install -e '.[bench]'`` builds release and
installs igraph::

    python benches/analysis.py           # everything (a few minutes: igraph on 20,000 routers)
    python benches/analysis.py --quick   # without the 20,000-router igraph run and the 100k run

Targets (issue 3): diameter + average path length >= 5x igraph and >= 100x networkx on Slim Fly
q = 29 and a random regular graph with 20,000 routers of degree 24; 100,000 routers of degree 16
exact in < 2 min and < 4 GiB; one resilience sweep of Slim Fly q = 19 in < 1 min.

networkx (pure Python BFS) runs on Slim Fly q = 29 itself but would take a quarter of an hour
on 20,000 routers, so for the random regular family it runs on 2,000 x 24 with topolab timed on
that same graph; the table says which graph each ratio comes from. The 100,000-router run is a
separate process so that its peak memory (getrusage ru_maxrss) is its own.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from typing import Callable

import networkx as nx

import topolab

try:
    import igraph as ig
except ImportError:  # pragma: no cover - the bench extra is optional
    ig = None


def timed(fn: Callable[[], object], min_total: float = 1.0, max_runs: int = 7) -> tuple[float, object]:
    """Best wall time of repeated runs (repeats only while the total stays short)."""
    best, result, total, runs = float("inf"), None, 0.0, 0
    while runs < max_runs and (runs == 0 or total < min_total):
        start = time.perf_counter()
        result = fn()
        elapsed = time.perf_counter() - start
        best, total, runs = min(best, elapsed), total + elapsed, runs + 1
    return best, result


def with_topolab(net: topolab.Network) -> tuple[int, float]:
    a = topolab.analyze(net, progress=False)
    return a.diameter, a.aspl


def with_igraph(net: topolab.Network) -> Callable[[], tuple[int, float]]:
    g = ig.Graph(n=net.num_routers, edges=[(u, v) for u, v, _, _ in net.links], directed=net.directed)
    return lambda: (g.diameter(directed=net.directed), g.average_path_length(directed=net.directed))


def with_networkx(net: topolab.Network) -> Callable[[], tuple[int, float]]:
    g = net.to_networkx()
    return lambda: (nx.diameter(g), nx.average_shortest_path_length(g))


def agree(a: tuple[int, float], b: tuple[int, float], what: str) -> None:
    if a[0] != b[0] or abs(a[1] - b[1]) > 1e-9 * max(1.0, a[1]):
        raise SystemExit(f"results differ on {what}: topolab {a}, peer {b}")


def compare(rows: list[list[str]], label: str, spec: str, peer: str, make_peer) -> None:
    net = topolab.build(spec)
    ours, ours_result = timed(lambda: with_topolab(net))
    theirs, theirs_result = timed(make_peer(net), min_total=0.0, max_runs=1)
    agree(ours_result, theirs_result, f"{spec} vs {peer}")
    rows.append(
        [
            label,
            f"{net.num_routers:,}",
            peer,
            f"{ours * 1e3:.1f} ms",
            f"{theirs * 1e3:.1f} ms",
            f"{theirs / ours:,.0f}x",
        ]
    )
    print(f"  done: {label} vs {peer}", file=sys.stderr)


def big_child(spec: str) -> None:
    """Runs in its own process: build, analyze, report time and peak memory as JSON."""
    net = topolab.build(spec)
    start = time.perf_counter()
    a = topolab.analyze(net, progress=False)
    elapsed = time.perf_counter() - start
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        json.dumps({"seconds": elapsed, "peak_mib": peak_kib / 1024, "diameter": a.diameter, "aspl": a.aspl})
    )


def print_table(rows: list[list[str]], header: list[str]) -> None:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(x.rjust(w) if i else x.ljust(w) for i, (x, w) in enumerate(zip(row, widths))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the slowest runs")
    parser.add_argument("--big-child", metavar="SPEC", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.big_child:
        big_child(args.big_child)
        return
    if ig is None:
        raise SystemExit("igraph is missing: pip install -e '.[bench]'")

    print(
        f"topolab {topolab.__version__}, igraph {ig.__version__}, networkx {nx.__version__}, "
        f"{os.cpu_count()} cores"
    )
    print("diameter + average shortest path length (router level), best of repeated runs:\n")
    rows: list[list[str]] = []
    compare(rows, "Slim Fly q=29", "slimfly:q=29", "igraph", with_igraph)
    if not args.quick:
        compare(rows, "RRG 20,000 x 24", "jellyfish:routers=20000,degree=24", "igraph", with_igraph)
    compare(rows, "Slim Fly q=29", "slimfly:q=29", "networkx", with_networkx)
    compare(rows, "RRG 2,000 x 24 (smaller)", "jellyfish:routers=2000,degree=24", "networkx", with_networkx)
    print_table(rows, ["graph", "routers", "peer", "topolab", "peer time", "ratio"])

    if not args.quick:
        spec = "jellyfish:routers=100000,degree=16"
        out = subprocess.run(
            [sys.executable, __file__, "--big-child", spec], check=True, capture_output=True, text=True
        )
        big = json.loads(out.stdout)
        print(
            f"\n{spec}: exact diameter {big['diameter']}, ASPL {big['aspl']:.6f} in "
            f"{big['seconds']:.1f} s, peak memory {big['peak_mib']:.0f} MiB (process)"
        )

    net = topolab.build("slimfly:q=19")
    start = time.perf_counter()
    r = topolab.analyze(net, resilience=True, progress=False).resilience
    elapsed = time.perf_counter() - start
    print(
        f"\nresilience sweep, Slim Fly q=19 ({net.num_routers} routers, {r.cables} cables): {elapsed:.2f} s"
    )
    print(f"  {r.samples} samples, 5% steps, intervals converged: {r.converged}")
    for name, t in [
        ("connected", r.disconnect),
        ("diameter <= D+2", r.diameter_plus2),
        ("ASPL <= ASPL+1", r.aspl_plus1),
    ]:
        print(f"  {name:<16} {t.mean:6.1%}  (95% CI {t.ci_low:.1%} to {t.ci_high:.1%})")
    print("  Besta & Hoefler, SC14, §III-D (N ~ 8,192): disconnect 75% (Table III), diameter 40%, ASPL 55%")


if __name__ == "__main__":
    main()
