"""Designs handed to SimGrid (Koibuchi et al., 2018, §III-C, §IV: unmodified MPI applications
on SimGrid/SMPI with static minimal routes): a platform file per network and small MPI kernels
run on it with ``smpirun``. SimGrid comes from Debian (``libsimgrid-dev`` provides ``smpicc``
and ``smpirun``). See docs/simgrid.md.

Platform (SimGrid XML v4.1, one ``Full`` zone): a host ``h<e>`` per endpoint; a split-duplex
link per endpoint to its router and per router-to-router link (bandwidth × width); one route
per ordered host pair along the chosen static routing's path (``min`` by default). A directed
network's links are one-way SimGrid links. Latencies
follow the model of Fujiwara et al. (IPDPS 2014, §II-E), the one ``topolab.latency`` uses: each
router adds ``switch_delay_ns``, each cable ``cable_ns_per_m`` × its length on ``floor``, each
message ``injection_ns``; the injection and the first router's delay are split over the two
host links, the next router's delay is on each router-to-router link."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import asdict, dataclass
from importlib import resources
from typing import Any, Optional

from topolab import _core
from topolab._args import bad, float_arg
from topolab.defaults import DEFAULT_FLOOR
from topolab.network import Network, as_network
from topolab.physical import PlacementLike, cable_lengths

#: MPI kernels shipped as sources (python/topolab/apps/<name>.c).
# A cable of a petabit per second: beyond any link built, and far from the doubles' end.
MAX_BANDWIDTH_GBPS = 1e6
APPS = ("alltoall", "allreduce", "stencil3d", "matmul")
#: Every host's speed in the platform, flop/s: the replay turns a delay into this many flops a
#: second of it (SMPI's ``smpi_execute`` would scale by the speed of the machine running it).
HOST_FLOPS = 1e9
#: SimGrid's CM02 network model without cross traffic: links shared max-min fairly, the
#: platform's latencies as they are, no calibration factors (``run_workload``'s "fair" model).
FAIR_MODEL = ("--cfg=network/model:CM02", "--cfg=network/crosstraffic:0")
#: Programs topolab runs itself: the workload replay (apps/replay.c, ``run_workload``).
_PROGRAMS = (*APPS, "replay")


def _comment(text: str) -> str:
    """Text safe inside an XML comment (no "--", no markup)."""
    return text.replace("--", "- -").replace("<", "(").replace(">", ")")


def platform(
    net: Network | str,
    routing: str = "min",
    *,
    link_bandwidth_gbps: float = 100.0,
    floor: str = DEFAULT_FLOOR,
    placement: PlacementLike = None,
    switch_delay_ns: float = 60.0,
    cable_ns_per_m: float = 5.0,
    injection_ns: float = 300.0,
) -> str:
    """The SimGrid platform XML of ``net`` (module documentation)."""
    net = as_network(net)
    # Finite numbers only: a NaN or infinite bandwidth would be written as "nanbps" / "infbps".
    link_bandwidth_gbps = float_arg(
        "simgrid platform", "link_bandwidth_gbps", link_bandwidth_gbps, 0.0, MAX_BANDWIDTH_GBPS, above=True
    )
    switch_delay_ns, cable_ns_per_m, injection_ns = (
        float_arg("simgrid platform", name, value, 0.0)
        for name, value in [
            ("switch_delay_ns", switch_delay_ns),
            ("cable_ns_per_m", cable_ns_per_m),
            ("injection_ns", injection_ns),
        ]
    )
    lengths = cable_lengths(net, floor, placement=placement)
    routes = _core.routing_routes(net._net, routing)
    bw = link_bandwidth_gbps * 1e9
    lines = [
        "<?xml version='1.0'?>",
        '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
        '<platform version="4.1">',
        f"  <!-- topolab: {_comment(net.spec or net.family)}, routing {_comment(routing)} -->",
        '  <zone id="network" routing="Full">',
    ]
    hosts: list[list[int]] = []
    e = 0
    for count in net.endpoints:
        hosts.append(list(range(e, e + count)))
        e += count
    host_ns = (injection_ns + switch_delay_ns) / 2
    for hs in hosts:
        for h in hs:
            lines.append(f'    <host id="h{h}" speed="{HOST_FLOPS:.0f}f"/>')
            lines.append(
                f'    <link id="up{h}" bandwidth="{bw:.6g}bps" latency="{host_ns:.6g}ns" '
                'sharing_policy="SPLITDUPLEX"/>'
            )
    link_of: dict[tuple[int, int], str] = {}
    for (a, b, width, _cls), length in zip(net.links, lengths):
        name = f"r{a}-r{b}"
        link_of[(a, b)] = name
        lat = switch_delay_ns + cable_ns_per_m * length
        # A directed (uni-directional, Koibuchi et al., 2018) link carries one direction: a plain shared link.
        policy = "" if net.directed else ' sharing_policy="SPLITDUPLEX"'
        lines.append(f'    <link id="{name}" bandwidth="{bw * width:.6g}bps" latency="{lat:.6g}ns"{policy}/>')

    def hops(path: list[int]) -> list[str]:
        out = []
        for u, v in zip(path, path[1:]):
            if net.directed:
                out.append(f'<link_ctn id="{link_of[(u, v)]}"/>')
                continue
            key, up = ((u, v), "UP") if (u, v) in link_of else ((v, u), "DOWN")
            out.append(f'<link_ctn id="{link_of[key]}" direction="{up}"/>')
        return out

    by_pair = {(s, t): path for s, t, path in routes}
    for s, hs in enumerate(hosts):
        for t, ht in enumerate(hosts):
            if not hs or not ht:
                continue
            middle = [] if s == t else hops(by_pair[(s, t)])
            for a in hs:
                for b in ht:
                    if a == b:
                        continue
                    ctn = [
                        f'<link_ctn id="up{a}" direction="UP"/>',
                        *middle,
                        f'<link_ctn id="up{b}" direction="DOWN"/>',
                    ]
                    lines.append(f'    <route src="h{a}" dst="h{b}" symmetrical="NO">{"".join(ctn)}</route>')
    lines += ["  </zone>", "</platform>", ""]
    return "\n".join(lines)


@dataclass
class AppResult:
    app: str
    ranks: int
    size: int
    routing: str
    link_bandwidth_gbps: float
    #: Simulated time of the kernel's communication, seconds (slowest rank).
    time_s: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise _core.SimulationError(
            f"SimGrid's {name} is not installed: install the Debian packages libsimgrid-dev and "
            "python3-simgrid (apt-get install libsimgrid-dev python3-simgrid)"
        )
    return path


def _binary(app: str) -> str:
    """The kernel compiled with smpicc, cached by the hash of its source."""
    if app not in _PROGRAMS:
        raise bad("apps", "app", app, f"one of {', '.join(APPS)}")
    src_dir = resources.files("topolab") / "apps"
    source = (src_dir / f"{app}.c").read_text()
    header = (src_dir / "common.h").read_text()
    digest = hashlib.sha256((source + header).encode()).hexdigest()[:16]
    cache = os.path.join(tempfile.gettempdir(), f"topolab-smpi-{os.getuid()}")
    os.makedirs(cache, exist_ok=True)
    exe = os.path.join(cache, f"{app}-{digest}")
    if not os.path.exists(exe):
        with tempfile.TemporaryDirectory() as tmp:
            for name, text in [(f"{app}.c", source), ("common.h", header)]:
                with open(os.path.join(tmp, name), "w") as f:
                    f.write(text)
            done = subprocess.run(
                [_tool("smpicc"), "-O1", f"{app}.c", "-o", exe], cwd=tmp, capture_output=True, text=True
            )
            if done.returncode != 0:
                raise _core.SimulationError(f"smpicc failed on {app}.c: {done.stderr.strip()[-800:]}")
    return exe


def run_app(
    net: Network | str,
    app: str,
    *,
    size: int = 65536,
    routing: str = "min",
    ranks: Optional[int] = None,
    link_bandwidth_gbps: float = 100.0,
    floor: str = DEFAULT_FLOOR,
    placement: PlacementLike = None,
    switch_delay_ns: float = 60.0,
    cable_ns_per_m: float = 5.0,
    injection_ns: float = 300.0,
    config: tuple[str, ...] = (),
    timeout_s: float = 600.0,
) -> AppResult:
    """Runs MPI kernel ``app`` (one of ``APPS``) with SMPI on ``net``'s platform, one rank per
    endpoint (or the first ``ranks`` endpoints), messages of ``size`` bytes. Computation is not
    simulated (``smpi/simulate-computation:no``): the time is the communication's, and the same
    inputs give the same time. ``config``: further SimGrid settings, e.g.
    ``("--cfg=smpi/allreduce:lr",)`` for SMPI's logical-ring allreduce (SimGrid's collective
    selection) or ``FAIR_MODEL`` (``run_workload``'s default network model)."""
    net = as_network(net)
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise bad("apps", "size", size, "bytes, >= 1")
    total = net.num_endpoints
    ranks = total if ranks is None else ranks
    if isinstance(ranks, bool) or not isinstance(ranks, int) or not 2 <= ranks <= total:
        raise bad("apps", "ranks", ranks, f"2 to {total} (the endpoints)")
    exe = _binary(app)
    xml = platform(
        net,
        routing,
        link_bandwidth_gbps=link_bandwidth_gbps,
        floor=floor,
        placement=placement,
        switch_delay_ns=switch_delay_ns,
        cable_ns_per_m=cable_ns_per_m,
        injection_ns=injection_ns,
    )
    if isinstance(config, str) or not all(isinstance(c, str) and c.startswith("--cfg=") for c in config):
        raise bad("apps", "config", config, "SimGrid settings, each '--cfg=name:value'")
    seconds = _smpirun(
        exe, xml, [f"h{h}" for h in range(ranks)], [str(size)], app, timeout_s, config=tuple(config)
    )
    return AppResult(
        app=app,
        ranks=ranks,
        size=size,
        routing=routing,
        link_bandwidth_gbps=link_bandwidth_gbps,
        time_s=seconds,
    )


def _smpirun(
    exe: str,
    xml: str,
    hosts: list[str],
    args: list[str],
    what: str,
    timeout_s: float,
    files: dict[str, str] | None = None,
    config: tuple[str, ...] = (),
) -> float:
    """Runs ``exe`` with smpirun on platform ``xml``, rank i on host ``hosts[i]``, ``files``
    (name: text) written beside the platform and ``args`` after the program (``{dir}`` in an
    argument is that directory); returns the time it reports ("topolab-time <s>")."""
    with tempfile.TemporaryDirectory() as tmp:
        plat, hostfile = os.path.join(tmp, "platform.xml"), os.path.join(tmp, "hosts")
        with open(plat, "w") as f:
            f.write(xml)
        with open(hostfile, "w") as f:
            f.write("".join(f"{h}\n" for h in hosts))
        for name, text in (files or {}).items():
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
        cmd = [
            _tool("smpirun"),
            "-np",
            str(len(hosts)),
            "-platform",
            plat,
            "-hostfile",
            hostfile,
            "--cfg=smpi/simulate-computation:no",
            *config,
            "--log=root.thres:error",
            exe,
            *(a.replace("{dir}", tmp) for a in args),
        ]
        try:
            done = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            raise _core.SimulationError(f"smpirun {what} did not finish in {timeout_s} s") from None
    found = re.search(r"topolab-time ([0-9.eE+-]+)", done.stdout)
    if done.returncode != 0 or found is None:
        raise _core.SimulationError(
            f"smpirun {what} failed (exit {done.returncode}): {(done.stderr or done.stdout).strip()[-800:]}"
        )
    return float(found.group(1))


@dataclass
class WorkloadFlowResult:
    """A workload (topolab.workload) replayed at flow level by SMPI on the network's platform.
    ``cycle_s`` is the time one link needs for one flit (``packet_bytes / packet_size`` bytes at
    ``link_bandwidth_gbps``): ``cycles`` is the simulated time in those units, comparable with the
    flit simulator's completion cycles."""

    jobs: list[str]
    ranks: int
    messages: int
    routing: str
    model: str
    sends: str
    link_bandwidth_gbps: float
    cycle_s: float
    time_s: float
    cycles: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def run_workload(
    net: Network | str,
    jobs: str | list[str],
    *,
    routing: str = "min",
    packet_bytes: int = 256,
    packet_size: int = 1,
    link_bandwidth_gbps: float = 100.0,
    floor: str = DEFAULT_FLOOR,
    placement: PlacementLike = None,
    switch_delay_ns: float = 60.0,
    cable_ns_per_m: float = 5.0,
    injection_ns: float = 300.0,
    model: str = "fair",
    sends: str = "serial",
    timeout_s: float = 600.0,
) -> WorkloadFlowResult:
    """Replays the jobs of ``topolab.run_workload`` (the same specs, placed the same way) with
    SMPI on ``net``'s platform (``platform``): every message with its bytes, dependencies and
    delays (delays, given in cycles, become seconds at ``cycle_s``). One MPI rank per job rank,
    on the host of the endpoint the flit simulator puts it on. Full message sizes cost SimGrid
    no more than small ones: this is how a 1 GiB allreduce on thousands of ranks is timed.

    ``model``: ``"fair"`` (default) shares links max-min fairly with the platform's latencies as
    they are (SimGrid's CM02 model without cross traffic), the flow-level counterpart of the
    flit simulator; ``"smpi"`` is SimGrid's default SMPI model, its bandwidth and latency
    factors calibrated on real MPI clusters. ``sends``: ``"serial"`` (default) lets one message
    at a time leave a rank, as the flit simulator's endpoints do; ``"concurrent"`` posts every
    ready message at once, sharing the rank's link."""
    from topolab.workload import workload_messages

    net = as_network(net)
    link_bandwidth_gbps = float_arg(
        "simgrid run_workload",
        "link_bandwidth_gbps",
        link_bandwidth_gbps,
        0.0,
        MAX_BANDWIDTH_GBPS,
        above=True,
    )
    for name, value in (("packet_bytes", packet_bytes), ("packet_size", packet_size)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise bad("simgrid run_workload", name, value, "an integer >= 1")
    models = {"fair": FAIR_MODEL, "smpi": ()}
    if model not in models:
        raise bad("simgrid run_workload", "model", model, "fair or smpi")
    if sends not in ("serial", "concurrent"):
        raise bad("simgrid run_workload", "sends", sends, "serial or concurrent")
    cycle_s = (packet_bytes / packet_size) / (link_bandwidth_gbps * 1e9 / 8)
    parsed = workload_messages(net, jobs)
    hosts: list[str] = []
    lines: list[str] = []
    for job in parsed:
        rank0, id0 = len(hosts), len(lines)
        hosts += [f"h{e}" for e in job["endpoints"]]
        for src, dst, size, delay, _phase, _iteration, deps in job["messages"]:
            ids = " ".join(str(id0 + d) for d in deps)
            line = f"{rank0 + src} {rank0 + dst} {size} {delay * cycle_s:.12g} {len(deps)} {ids}"
            lines.append(line.rstrip())
    if len(lines) >= 2**31 - 1:
        raise bad(
            "simgrid run_workload",
            "jobs",
            jobs,
            "fewer than 2^31 messages in all",
            message=f"simgrid run_workload: parameter 'jobs' = {len(lines)} messages is not allowed: "
            "fewer than 2^31",
        )
    xml = platform(
        net,
        routing,
        link_bandwidth_gbps=link_bandwidth_gbps,
        floor=floor,
        placement=placement,
        switch_delay_ns=switch_delay_ns,
        cable_ns_per_m=cable_ns_per_m,
        injection_ns=injection_ns,
    )
    seconds = _smpirun(
        _binary("replay"),
        xml,
        hosts,
        ["{dir}/messages.txt", sends, f"{HOST_FLOPS:.0f}"],
        "workload replay",
        timeout_s,
        files={"messages.txt": "\n".join(lines) + "\n"},
        config=models[model],
    )
    return WorkloadFlowResult(
        jobs=[j["name"] for j in parsed],
        ranks=len(hosts),
        messages=len(lines),
        routing=routing,
        model=model,
        sends=sends,
        link_bandwidth_gbps=link_bandwidth_gbps,
        cycle_s=cycle_s,
        time_s=seconds,
        cycles=seconds / cycle_s,
    )
