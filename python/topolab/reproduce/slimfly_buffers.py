"""Besta & Hoefler, SC14, §V-D (Fig. 8a): Slim Fly under its worst-case traffic with 8 to 256
flit entries of input buffering per port.

The paper's claim (§V-D): "Smaller sizes result in lower latency (due to stiffer backpressure
propagation), while bigger buffers enable higher bandwidth". It gives no numbers, so the rows
are topolab's saturation load and low-load latency per buffer size, beside the static bound of
the network run. The router is Fig. 6's (``slimfly_routing.router_rows``) with the buffer per
VC varied: the per-port total over the 4 VCs. The routing is SF-UGAL-L (the paper does not name
the routings of Fig. 8a; UGAL-L is the one whose worst-case figure §V-C states).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import topolab
from topolab import routing
from topolab.reproduce import Comparison, Reproduction, Setup
from topolab.reproduce.cases import (
    Curve,
    Execution,
    bracket,
    check_scale,
    confidence,
    default_execution,
    loads_around,
    network_row,
    plot_curves,
    records,
    run_curves,
    scale_of,
    setup_value,
    varied,
)
from topolab.reproduce.slimfly_routing import (
    NETWORKS,
    NUM_VCS,
    PAPER_NETWORKS,
    measurement_rows,
    router_rows,
)

ID = "slimfly-buffers"
TITLE = (
    "Besta & Hoefler, SC14, §V-D / Fig. 8a: Slim Fly UGAL-L under worst-case traffic, 8 to 256 flits per port"
)
SOURCE = "Besta & Hoefler, SC14, §V, §V-D, Fig. 8a"

RUNS_CASES = True
BUFFERS_PER_PORT = {
    "quick": (8, 64, 256),
    "default": (8, 16, 32, 64, 128, 256),
    "full": (8, 16, 32, 64, 128, 256),
}
ROUTING = ("SF-UGAL-L", "ugal_l")
TRAFFIC = "worst"


def setup_table(scale: str = "default"):
    spec = NETWORKS["SF"][check_scale(scale)]
    per_vc = varied(*(b // NUM_VCS for b in BUFFERS_PER_PORT[scale]))
    return (
        network_row(PAPER_NETWORKS["SF"] + " (§V)", [spec], scale == "full"),
        *router_rows(
            per_vc=per_vc,
            buffer_paper="8, 16, 32, 64, 128, 256 flit entries per port (§V, §V-D)",
            buffer_why=f"each per-port total / {NUM_VCS} VCs (one curve per size)",
        ),
        *measurement_rows(scale),
    )


def curves(scale: str = "default", center: Optional[float] = None) -> list[Curve]:
    spec = NETWORKS["SF"][check_scale(scale)]
    loads = loads_around(0.45 if center is None else center, low=(0.1, 0.2))
    return [
        Curve(
            f"{b} flits/port",
            spec,
            ROUTING[1],
            TRAFFIC,
            loads=loads,
            params=(("vc_buf_size", b // NUM_VCS),),
            panel="8a worst case, SF-UGAL-L",
        )
        for b in BUFFERS_PER_PORT[scale]
    ]


def run(quick: bool = False, *, full: bool = False, execution: Optional[Execution] = None) -> Reproduction:
    scale = scale_of(quick, full)
    table = setup_table(scale)
    spec = NETWORKS["SF"][scale]
    net = topolab.build(spec)
    # UGAL-L combines minimal and Valiant paths: the Valiant bound is where its worst-case curve ends.
    bound = None if full else routing.channel_load(net, "valiant", traffic=TRAFFIC).throughput_bound
    tolerance = setup_value(table, "saturation search resolution")
    measured = run_curves(ID, curves(scale, bound), table, tolerance, default_execution(scale, execution))
    rows = []
    for m in measured:
        c = m["curve"]
        pts = [p for p in m["points"] if not p["saturated"]]
        low = min(pts, key=lambda p: p["offered_load"]) if pts else None
        rows.append(
            Comparison(
                c.label,
                "saturation load",
                None,
                m["saturation_load"],
                bound=bound,
                note="bound: Valiant's on this network (UGAL-L's non-minimal half)",
                interval=bracket(m),
            )
        )
        if low is not None:
            rows.append(
                Comparison(
                    c.label,
                    f"latency at load {low['offered_load']:.2f} [cycles]",
                    None,
                    low["avg_latency"],
                    interval=confidence(low, "avg_latency"),
                )
            )
    sat = [m["saturation_load"] for m in measured]
    # the ratio's range over the two brackets: lowest largest over highest smallest, and back
    smallest, largest = bracket(measured[0]), bracket(measured[-1])
    ratio_range = (
        None
        if smallest is None or largest is None or not smallest[0]
        else (largest[0] / smallest[1], largest[1] / smallest[0])
    )
    rows.append(
        Comparison(
            "claim",
            "bigger buffers, higher bandwidth: saturation of the largest over the smallest",
            None,
            sat[-1] / sat[0] if sat[0] else None,
            note="Besta & Hoefler, SC14, §V-D: 'bigger buffers enable higher bandwidth' (> 1 agrees)",
            interval=ratio_range,
        )
    )
    setups = tuple(
        Setup(
            m["curve"].label,
            spec,
            f"vc_buf_size = {dict(m['curve'].params)['vc_buf_size']} x {NUM_VCS} VCs; "
            f"{net.num_routers} routers, {net.num_endpoints} endpoints; the router of Fig. 6 (setup table)",
        )
        for m in measured
    ) + (Setup("claim", None, "derived from the rows above"),)
    notes = (
        "the paper gives Fig. 8a as curves only: no paper numbers are compared",
        "SF-UGAL-L under the Slim Fly worst case (Kathareios et al., SC15, §4.2's pattern, as in Fig. 6)",
    )
    return Reproduction(ID, TITLE, SOURCE, tuple(rows), setups, notes, tuple(records(measured)), quick, table)


def plot(rep: Reproduction, path: Path) -> None:
    plot_curves(rep.data, path, "Besta & Hoefler, SC14, Fig. 8a" + ("" if rep.quick else " (scaled down)"))
