"""OpenSM on a simulated fabric: a topolab network stood up in ibsim (``ibsim-utils``), managed by
Debian's OpenSM through ibsim's ``umad2sim`` library (``LD_PRELOAD``), so that OpenSM's own
routing engines (minhop, updn, dnup, ftree, lash, dor, torus-2QoS, dfsssp, sssp, nue) compute
tables for a topolab design, which topolab then reads back (``infiniband:dir=...``) and analyzes
like its own routings. docs/infiniband.md.

No hardware and no network: ibsim listens on an abstract Unix socket named per run
(``IBSIM_SOCKNAME``), so runs side by side do not meet."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Iterator, Optional, Sequence

from topolab import _core
from topolab._args import bad
from topolab._core import TopolabError
from topolab.network import Network, as_network

#: OpenSM 3.3's unicast routing engines (``opensm --help``), ``file`` aside.
ENGINES: tuple[str, ...] = (
    "minhop",
    "updn",
    "dnup",
    "ftree",
    "lash",
    "dor",
    "torus-2QoS",
    "dfsssp",
    "sssp",
    "nue",
)
TOOLS: tuple[str, ...] = ("ibsim", "opensm", "ibnetdiscover", "dump_fts")
INSTALL_HINT = (
    "install Debian's packages: apt-get install opensm ibsim-utils infiniband-diags "
    "(CI installs them in .ci/run)"
)
LFTS_FILE, SL2VL_FILE, PATH_SL_FILE = _core.INFINIBAND_FILES
#: A switch's GUID is this plus its LID (the InfiniBand export's numbering).
SWITCH_GUID_BASE = 0x00746C0000000000
#: Where Debian puts ibsim's client library.
UMAD2SIM_PATHS = (
    "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so",
    "/usr/lib/aarch64-linux-gnu/umad2sim/libumad2sim.so",
    "/usr/lib/umad2sim/libumad2sim.so",
)


class ToolMissing(TopolabError):
    """ibsim, OpenSM or infiniband-diags is not installed."""


def umad2sim() -> Optional[str]:
    return next((p for p in UMAD2SIM_PATHS if os.path.exists(p)), None)


def missing_tools() -> list[str]:
    """The programs (and ibsim's client library) this module needs that are not installed."""
    out = [t for t in TOOLS if shutil.which(t) is None and not os.path.exists(f"/usr/sbin/{t}")]
    if umad2sim() is None:
        out.append("libumad2sim.so")
    return out


def require_tools() -> None:
    gone = missing_tools()
    if gone:
        raise ToolMissing(f"{', '.join(gone)} not found; {INSTALL_HINT}")


def _tool(name: str) -> str:
    return shutil.which(name) or f"/usr/sbin/{name}"


def write_fabric(net: Network | str, path: str | os.PathLike[str]) -> None:
    """Writes ``net`` as an ibsim topology (ibnetdiscover's format, the InfiniBand export's LIDs,
    GUIDs and ports)."""
    as_network(net).save(path, "ibnet")


_RUN = 0
# What ibnetdiscover reports of a fabric stood up from a topology of its own (run_engine).
DISCOVERED_FILE = "fabric.ibnd"


class Fabric:
    """ibsim running ``topology`` (a file) until ``close()``; ``env()`` is the environment that
    makes a libibumad program (opensm, ibnetdiscover, dump_fts, saquery) talk to it."""

    def __init__(self, topology: str, workdir: str, net: Optional[Network] = None) -> None:
        global _RUN
        require_tools()
        _RUN += 1
        self.workdir = workdir
        self.sockname = f"topolab-{os.getpid()}-{_RUN}"
        env = dict(os.environ, IBSIM_SOCKNAME=self.sockname)
        self._log = open(os.path.join(workdir, "ibsim.log"), "w")
        # -n: no console; -s: start the fabric at once; -S/-N/-P: room for the fabric (ibsim's
        # defaults are 256 switches, 2048 nodes, 13312 ports).
        sizes: list[str] = []
        if net is not None:
            ports = (
                sum(len(net.neighbors(r)) + e + 1 for r, e in enumerate(net.endpoints)) + net.num_endpoints
            )
            sizes = [
                "-S",
                str(max(256, net.num_routers + 1)),
                "-N",
                str(max(2048, net.num_routers + net.num_endpoints + 1)),
                "-P",
                str(max(13312, 2 * ports)),
            ]
        self.proc = subprocess.Popen(
            [_tool("ibsim"), "-s", "-n", *sizes, topology],
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=workdir,
        )
        deadline = time.monotonic() + 30
        while "Network simulator ready" not in self._text():
            if self.proc.poll() is not None:
                raise TopolabError(
                    f"ibsim exited ({self.proc.returncode}) reading {topology}: {self._text()[-800:]}"
                )
            if time.monotonic() > deadline:
                self.close()
                raise TopolabError(f"ibsim did not start on {topology} within 30 s")
            time.sleep(0.02)

    def _text(self) -> str:
        with open(os.path.join(self.workdir, "ibsim.log")) as f:
            return f.read()

    def env(self) -> dict[str, str]:
        cache = os.path.join(self.workdir, "cache")
        os.makedirs(cache, exist_ok=True)
        return dict(
            os.environ,
            IBSIM_SOCKNAME=self.sockname,
            LD_PRELOAD=umad2sim() or "",
            OSM_CACHE_DIR=cache,
            OSM_TMP_DIR=cache,
        )

    def run(self, argv: Sequence[str], timeout: float = 600) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [_tool(argv[0]), *argv[1:]],
            env=self.env(),
            cwd=self.workdir,
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )

    def run_opensm(self, argv: Sequence[str], log: str, timeout: float) -> None:
        """Runs OpenSM once (``-o``). When its engine fails (``no_fallback``) OpenSM retries
        forever instead of exiting, so the log is watched for its verdict."""
        proc = subprocess.Popen(
            [_tool(argv[0]), *argv[1:]],
            env=self.env(),
            cwd=self.workdir,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        try:
            while proc.poll() is None:
                if time.monotonic() > deadline:
                    raise TopolabError(f"OpenSM did not finish within {timeout} s (log: {log})")
                if os.path.exists(log):
                    with open(log, errors="replace") as f:
                        if "No routing engine able to successfully configure" in f.read():
                            proc.kill()
                            break
                time.sleep(0.05)
        finally:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()

    def __enter__(self) -> "Fabric":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class EngineRun:
    """What one OpenSM run computed, in ``directory`` (the three files ``infiniband:dir=`` reads,
    OpenSM's log ``opensm.log``)."""

    engine: str
    #: False when OpenSM refused the engine on this fabric (``reason`` says why).
    routed: bool
    directory: str
    #: VLs the engine says it needs (dfsssp, sssp, lash, nue log it); None for the others.
    vls_needed: Optional[int] = None
    reason: str = ""
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _fabric_lids(report: str) -> tuple[list[int], dict[int, int]]:
    """The switches' LIDs and each switch's first host's LID -> the switch's LID, from a fabric
    file that gives them: topolab's own topology (the export's LIDs, which OpenSM keeps) or
    ibnetdiscover's report of a fabric whose LIDs OpenSM chose."""
    switch_lids, host_lids = _core.ibnet_addressing(report)
    return switch_lids, {hosts[0]: lid for lid, hosts in zip(switch_lids, host_lids) if hosts}


def _path_sls(
    lids: tuple[list[int], dict[int, int]], engine: str, log: str
) -> tuple[dict[tuple[int, int], int], Optional[int]]:
    """(source switch LID, destination LID) -> SL from OpenSM's log, and the VLs the engine
    says it needs; ``lids`` the fabric's switch LIDs and first-host LIDs (``_fabric_lids``).
    dfsssp/sssp print every (source LID, destination LID) layer at debug level; a switch's
    routes take its first host's (one host's routes are a subset of the layer's, so still
    acyclic per VL). Nue prints its destination LIDs per VL. Other engines set no SL (0)."""
    switch_lids, first_host = lids
    sls: dict[tuple[int, int], int] = {}
    needed: Optional[int] = None
    if engine in ("dfsssp", "sssp"):
        counts = re.findall(r"Virtual Lanes needed: (\d+)", log)
        needed = int(counts[-1]) if counts else None
        for src, dst, lane in re.findall(r"route from src_lid=(\d+) to dest_lid=(\d+) on vl=(\d+)", log):
            sw = first_host.get(int(src))
            if sw is not None:
                sls[(sw, int(dst))] = int(lane)
    elif engine == "nue":
        vl: Optional[int] = None
        used: set[int] = set()
        for line in log.splitlines():
            m = re.search(r"destination lids \(base lid\) for vl (\d+):", line)
            if m:
                vl = int(m.group(1))
                continue
            m = re.search(r"-> \w+:\s+(\d+) \(", line)
            if vl is not None and m:
                used.add(vl)
                for sw in switch_lids:
                    sls[(sw, int(m.group(1)))] = vl
            elif "->" in line and vl is not None and "destination lids" not in line:
                vl = None
        needed = len(used) or None
    elif engine == "lash":
        counts = re.findall(r"Lanes needed: (\d+)", log)
        needed = int(counts[-1]) if counts else None
    return sls, needed


def run_engine(
    net: Network | str,
    engine: str,
    directory: str | os.PathLike[str],
    *,
    lfts_file: Optional[str] = None,
    timeout: float = 600,
    topology: Optional[str | os.PathLike[str]] = None,
) -> EngineRun:
    """Stands ``net`` up in ibsim, runs OpenSM once with routing engine ``engine`` (``file``
    with ``lfts_file``: load those LFTs) and writes into ``directory`` what it computed:
    ``opensm-lfts.dump`` and ``opensm-sl2vl.dump`` (OpenSM's dumps), ``path-sl.txt`` (the path SLs
    read from OpenSM's log, module ``_path_sls``) and ``opensm.log``. ``topology``: an ibsim
    topology of ``net`` to stand up instead of topolab's (its own GUIDs and ports, LIDs left to
    OpenSM, as on a real fabric); ``fabric.ibnd`` is then what ``ibnetdiscover`` reports of it,
    whose LIDs and ports ``infiniband:dir=DIRECTORY,fabric=DIRECTORY/fabric.ibnd`` translates
    (the path SLs are written with the fabric's LIDs too)."""
    net = as_network(net)
    if engine not in ENGINES + ("file",):
        raise bad("opensm", "engine", engine, f"an OpenSM routing engine: {', '.join(ENGINES + ('file',))}")
    if engine == "file" and not lfts_file:
        raise bad(
            "opensm",
            "lfts_file",
            lfts_file,
            "the LFT dump to load, with engine 'file'",
            message="opensm: engine 'file' needs lfts_file, the LFT dump to load",
        )
    directory = os.fspath(directory)
    os.makedirs(directory, exist_ok=True)
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="topolab-opensm-") as work:
        topo = os.path.join(work, "fabric.ibnet")
        if topology is None:
            write_fabric(net, topo)
        else:
            shutil.copy(topology, topo)
        dumps = os.path.join(work, "dumps")
        os.makedirs(dumps)
        log = os.path.join(work, "opensm.log")
        # -o: configure once and exit; -Q: QoS, so OpenSM programs and dumps the SL2VL tables;
        # -D 0x4b: errors, info, verbose... routing (0x40: the dumps), debug (0x08: dfsssp's
        # per-path layers); no_fallback: fail rather than route with minhop instead.
        verbosity = "0x4b" if engine in ("dfsssp", "sssp") else "0x43"
        argv = [
            "opensm",
            "-o",
            "-Q",
            "-f",
            log,
            "-D",
            verbosity,
            "--dump_files_dir",
            dumps,
            "-R",
            f"{engine},no_fallback",
        ]
        if lfts_file:
            argv += ["-U", os.path.abspath(lfts_file)]
        if engine in ("updn", "dnup"):
            # Without roots OpenSM guesses them from min-hop tables and finds none on a
            # non-tree (e.g. Slim Fly); topolab's updown roots its tree at router 0: so here.
            roots = os.path.join(work, "roots.txt")
            with open(roots, "w") as f:
                f.write(f"0x{SWITCH_GUID_BASE + 1:016x}\n")
            argv += ["-a", roots]
        with Fabric(topo, work, net) as fab:
            fab.run_opensm(argv, log, timeout)
            if topology is None:
                with open(topo) as f:
                    lids = _fabric_lids(f.read())
            else:
                found = fab.run(["ibnetdiscover"], timeout)
                if found.returncode != 0:
                    raise TopolabError(f"ibnetdiscover failed ({found.returncode}): {found.stderr[-800:]}")
                with open(os.path.join(directory, DISCOVERED_FILE), "w") as f:
                    f.write(found.stdout)
                lids = _fabric_lids(found.stdout)
        text = open(log).read() if os.path.exists(log) else ""
        shutil.copy(topo, os.path.join(directory, "fabric.ibnet"))
        with open(os.path.join(directory, "opensm.log"), "w") as f:
            f.write(text if len(text) < 20_000_000 else text[-20_000_000:])
        used = re.findall(r"osm_ucast_mgr_process: (\S+) tables configured on all switches", text)
        run = EngineRun(engine=engine, routed=bool(used) and used[-1] == engine, directory=directory)
        if not run.routed:
            errs = [
                ln.split("-> ", 1)[-1]
                for ln in text.splitlines()
                if " 0x01 -> " in ln and "no_fallback" not in ln and "No routing engine able" not in ln
            ]
            run.reason = errs[-1] if errs else (f"routed by {used[-1]}" if used else "no routing configured")
            run.seconds = time.monotonic() - t0
            return run
        for name in (LFTS_FILE, SL2VL_FILE):
            src = os.path.join(dumps, name)
            if not os.path.exists(src):
                raise TopolabError(f"OpenSM wrote no {name} for engine {engine} (log in {directory})")
            shutil.copy(src, os.path.join(directory, name))
        sls, run.vls_needed = _path_sls(lids, engine, text)
        with open(os.path.join(directory, PATH_SL_FILE), "w") as f:
            f.write(f"# path SLs of OpenSM's {engine} engine, read from its log\n")
            for (s, d), sl in sorted(sls.items()):
                f.write(f"0x{s:04x} 0x{d:04x} {sl}\n")
    run.seconds = time.monotonic() - t0
    return run


@dataclass
class EngineRow:
    """One engine (or topolab routing) on a design: VLs, deadlock freedom, static loads and
    (optionally) simulated saturation throughput."""

    routing: str
    source: str  # "opensm" or "topolab"
    routed: bool
    reason: str = ""
    vls_used: Optional[int] = None
    vls_needed: Optional[int] = None
    deadlock_free: Optional[bool] = None
    max_load_uniform: Optional[float] = None
    mean_load_uniform: Optional[float] = None
    max_load_worst: Optional[float] = None
    mean_load_worst: Optional[float] = None
    #: Accepted throughput at the saturation search's highest unsaturated load (one seed,
    #: resolution ``SATURATION_TOLERANCE``), flits/endpoint/cycle.
    saturation_uniform: Optional[float] = None
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _analyze(net: Network, row: EngineRow, spec: str, simulate: bool, seed: int) -> None:
    from topolab import routing as rt

    try:
        rep = rt.check(net, spec, progress=False)
        row.deadlock_free, row.vls_used = rep.acyclic, rep.vcs_used
    except TopolabError as e:
        row.notes.append(f"check: {e}")
    for traffic in ("uniform", "worst"):
        try:
            ld = rt.channel_load(net, spec, traffic=traffic, progress=False)
        except TopolabError as e:
            row.notes.append(f"load {traffic}: {e}")
            continue
        mean = sum(ld.loads) / max(len(ld.loads), 1)
        if traffic == "uniform":
            row.max_load_uniform, row.mean_load_uniform = ld.max_load, mean
        else:
            row.max_load_worst, row.mean_load_worst = ld.max_load, mean
    if simulate:
        from topolab.sim import sweep_load

        # One VC per VL the tables use (at least the simulator's default 4, BookSim2's).
        vcs = max(4, row.vls_used or 1)
        try:
            df = sweep_load(
                net,
                spec,
                "uniform",
                seed=seed,
                load_resolution=SATURATION_TOLERANCE,
                progress=False,
                num_vcs=vcs,
            )
            row.saturation_uniform = float(df.attrs["saturation_throughput"])
        except TopolabError as e:
            row.notes.append(f"simulate: {e}")


#: Resolution of ``compare``'s saturation search (flits/endpoint/cycle).
SATURATION_TOLERANCE = 0.05
#: The engines ``compare`` runs unless told (sssp is dfsssp without its layers).
DEFAULT_ENGINES: tuple[str, ...] = tuple(e for e in ENGINES if e != "sssp")
#: topolab's routings ``compare`` puts beside them.
DEFAULT_ROUTINGS: tuple[str, ...] = ("min", "updown", "dfsssp")


def compare(
    net: Network | str,
    directory: str | os.PathLike[str],
    *,
    engines: Sequence[str] = DEFAULT_ENGINES,
    routings: Sequence[str] = DEFAULT_ROUTINGS,
    simulate: bool = False,
    seed: int = 1,
) -> list[EngineRow]:
    """Each OpenSM engine on ``net`` (its tables in ``directory/<engine>``) beside topolab's
    ``routings``: VLs, CDG verdict, max and mean channel load under uniform and worst-case
    traffic, and with ``simulate`` the simulated saturation throughput under uniform traffic."""
    net = as_network(net)
    require_tools()
    rows: list[EngineRow] = []
    for engine in engines:
        t0 = time.monotonic()
        run = run_engine(net, engine, os.path.join(os.fspath(directory), engine))
        row = EngineRow(
            routing=engine, source="opensm", routed=run.routed, reason=run.reason, vls_needed=run.vls_needed
        )
        if run.routed:
            _analyze(net, row, f"infiniband:dir={os.path.abspath(run.directory)}", simulate, seed)
            if engine == "lash":
                # LASH's SL per (source switch, destination switch) is in no dump or log line
                # (only a path record query returns it): the CDG check on SL 0 would be wrong.
                row.deadlock_free, row.vls_used = None, None
                row.notes.append("lash: path SLs not read; deadlock check not applicable")
        row.seconds = time.monotonic() - t0
        rows.append(row)
    for spec in routings:
        t0 = time.monotonic()
        row = EngineRow(routing=spec, source="topolab", routed=True)
        _analyze(net, row, spec, simulate and spec != "dfsssp", seed)
        row.seconds = time.monotonic() - t0
        rows.append(row)
    return rows


def iter_lft_entries(text: str) -> Iterator[tuple[int, int, int]]:
    """(switch GUID, LID, port) of every entry of an LFT dump (OpenSM's ``opensm-lfts.dump``,
    what ``dump_fts`` prints), for comparing two dumps entry by entry."""
    guid = None
    for line in text.splitlines():
        line = line.strip()
        m = re.match(r"Unicast lids \[.*\] of switch .*? guid 0x([0-9a-fA-F]+)", line)
        if m:
            guid = int(m.group(1), 16)
        elif guid is not None and line.startswith("0x"):
            w = line.split()
            yield guid, int(w[0], 16), int(w[1])


def discover(net: Network | str) -> str:
    """What ``ibnetdiscover`` prints for ``net`` stood up in ibsim (OpenSM first assigns the LIDs
    and brings the ports up, as on a real fabric)."""
    net = as_network(net)
    with tempfile.TemporaryDirectory(prefix="topolab-ibnd-") as work:
        topo = os.path.join(work, "fabric.ibnet")
        write_fabric(net, topo)
        with Fabric(topo, work) as fab:
            fab.run_opensm(
                ["opensm", "-o", "-f", os.path.join(work, "opensm.log")],
                os.path.join(work, "opensm.log"),
                600,
            )
            res = fab.run(["ibnetdiscover"])
    if res.returncode != 0:
        raise TopolabError(f"ibnetdiscover failed ({res.returncode}): {res.stderr[-800:]}")
    return res.stdout
