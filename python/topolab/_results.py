"""topolab's result classes, written by scripts/result_types.py from their declarations in Rust
(``topolab_core::result_type!``): do not edit, run the script."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, TypeVar

from topolab._result_methods import (
    BisectionMethods,
    CostReportMethods,
    DesignMethods,
    FailuresMethods,
    MappedNetworkMethods,
    PathDiversityMethods,
    PlacementMethods,
    ResilienceMethods,
    SpectrumMethods,
    ThresholdMethods,
)
from topolab.display import Summarized
from topolab.network import Network


def _float(value: Any) -> float:
    """NaN for a figure that could not be measured (the core sends None)."""
    return math.nan if value is None else float(value)


def _interval(value: Any) -> tuple[float, float] | None:
    """A 95% confidence interval (low, high), or None."""
    return None if value is None else (_float(value[0]), _float(value[1]))


def _params(pairs: Any) -> dict[str, int | tuple[int, ...] | str]:
    """A spec's parameters in its order (the core sends [name, value] pairs, sizes as lists)."""
    return {str(k): tuple(v) if isinstance(v, list) else v for k, v in pairs}


__all__ = [
    "SimResult",
    "SweepResult",
    "ExchangeResult",
    "PhaseTime",
    "JobResult",
    "WorkloadResult",
    "DeadlockReport",
    "ChannelLoad",
    "Distances",
    "PathDiversity",
    "Threshold",
    "Resilience",
    "Bisection",
    "Spectrum",
    "Analysis",
    "Placement",
    "ClassCables",
    "CostReport",
    "LatencyReport",
    "InfinibandCheck",
    "TimelineWindow",
    "Timeline",
    "Failures",
    "MappingReport",
    "MappedNetwork",
    "FamilySizes",
    "Design",
]


_SimResultT = TypeVar("_SimResultT", bound="SimResult")


@dataclass(frozen=True, repr=False)
class SimResult(Summarized):
    """One run, measured the BookSim2 way (warm-up, sample periods, convergence, latency
    threshold). Latencies in cycles; ``offered_load``, ``accepted_throughput`` and
    ``injected_throughput`` in flits per *active* endpoint per cycle (``active_endpoints``: the
    endpoints that send under the pattern; bit patterns idle those outside the largest
    power-of-two subset, Besta & Hoefler, SC14, §V-B); ``avg_hops`` counts routers traversed
    (BookSim2's count: router-to-router hops + 1). A latency (and ``avg_hops``) is NaN when no
    packet was measured; ``saturated`` comes with ``saturation_reason`` saying why (the figures
    compared); ``cycles`` never exceeds ``cycle_budget``, which follows from the measurement
    parameters (docs/simulator.md, "Measurement")."""

    UNITS: ClassVar[dict[str, str]] = {
        "offered_load": "flits/active endpoint/cycle",
        "accepted_throughput": "flits/active endpoint/cycle",
        "injected_throughput": "flits/active endpoint/cycle",
        "accepted_throughput_ci95": "flits/active endpoint/cycle (95% confidence interval, batch means)",
        "avg_latency": "cycles",
        "avg_latency_ci95": "cycles (95% confidence interval, batch means)",
        "p99_latency": "cycles",
        "avg_network_latency": "cycles",
        "avg_hops": "routers traversed",
        "cycles": "cycles",
        "wall_seconds": "s",
    }

    routing: str
    traffic: str
    #: Offered load, flits per active endpoint per cycle: every endpoint that sends under the
    #: traffic pattern (``active_endpoints``) offers this much; idle ones (outside the
    #: power-of-two subset of a bit pattern, Besta & Hoefler, SC14, §V-B) offer nothing.
    offered_load: float
    #: Flits ejected per active endpoint per cycle over the measurement window (the same unit
    #: as ``offered_load``, so that accepted = offered below saturation for every pattern).
    accepted_throughput: float
    #: Flits injected per active endpoint per cycle over the measurement window.
    injected_throughput: float
    #: 95% confidence interval of ``accepted_throughput`` by batch means over the measurement's
    #: sample periods (each period one batch; Student's t with batches - 1 degrees of freedom),
    #: centred on the figure; None with fewer than 2 measured periods.
    accepted_throughput_ci95: tuple[float, float] | None
    #: Packet latency, creation to tail ejection (cycles).
    avg_latency: float
    #: 95% confidence interval of ``avg_latency`` by batch means: the spread of the periods'
    #: average latencies (packets ejected in each), centred on the figure; None with fewer than
    #: 2 measured periods that ejected packets.
    avg_latency_ci95: tuple[float, float] | None
    p99_latency: float
    #: Network latency, head injection to tail ejection (cycles).
    avg_network_latency: float
    #: Routers traversed per packet (BookSim2's count: router-to-router hops + 1).
    avg_hops: float
    #: ``saturation_reason`` is not empty: unstable, the measured packets not delivered within
    #: the cycle budget, the adaptive warm-up not settled, or accepted below
    #: (1 - saturation_tolerance) x offered by more than the Bernoulli noise.
    saturated: bool
    #: Why the run counts as saturated, in words with the figures compared ("" when not).
    saturation_reason: str
    #: The latency threshold was exceeded (BookSim2: "Simulation unstable"), or the measured
    #: packets were not delivered within the cycle budget.
    unstable: bool
    #: BookSim2's verdict: measurement ended normally (3 converged periods or max_samples),
    #: which BookSim2 also gives runs past saturation that stay below the latency threshold;
    #: never together with ``unstable``.
    converged: bool
    #: Cycles simulated, warm-up and drain included; at most ``cycle_budget``.
    cycles: int
    #: The most cycles this run could take, from its parameters (``cycle_budget``).
    cycle_budget: int
    measured_packets: int
    sample_periods: int
    routers: int
    endpoints: int
    #: Endpoints that send under the traffic pattern (``Traffic::is_source``): the divisor of
    #: the throughputs.
    active_endpoints: int
    wall_seconds: float
    #: Routers x cycles (what a simulator that steps every router pays for).
    router_cycles: int
    #: Router-cycles actually processed (idle routers are skipped).
    active_router_cycles: int
    #: Flits through a crossbar, warm-up included.
    flit_hops: int
    #: Share of router-to-router flit hops in the measurement window that were deflections off
    #: a preferred path (router=hotpotato; 0 for the input-queued router).
    deflection_rate: float
    #: Most routers any flit traversed during the run (the unit of ``avg_hops``).
    max_hops: int
    #: With ``early_verdict = true``, why the measurement ended after ``sample_periods`` periods
    #: instead of BookSim2's rule: "saturated: ..." or "stable: ...", the figures compared
    #: ("" when the option is off or no verdict was clear). A saturated one is also the
    #: ``saturation_reason``.
    early_verdict: str
    #: With ``precision`` > 0: the measurement ended because both 95% intervals were narrower
    #: than ``precision`` times their figure (false: it ended otherwise, at max_samples or
    #: unstable; always false with ``precision`` = 0).
    precision_reached: bool

    @classmethod
    def _from_core(cls: type[_SimResultT], d: dict[str, Any]) -> _SimResultT:
        """The SimResult of the core's result (a dict of its JSON)."""
        return cls(
            routing=str(d["routing"]),
            traffic=str(d["traffic"]),
            offered_load=_float(d["offered_load"]),
            accepted_throughput=_float(d["accepted_throughput"]),
            injected_throughput=_float(d["injected_throughput"]),
            accepted_throughput_ci95=_interval(d["accepted_throughput_ci95"]),
            avg_latency=_float(d["avg_latency"]),
            avg_latency_ci95=_interval(d["avg_latency_ci95"]),
            p99_latency=_float(d["p99_latency"]),
            avg_network_latency=_float(d["avg_network_latency"]),
            avg_hops=_float(d["avg_hops"]),
            saturated=bool(d["saturated"]),
            saturation_reason=str(d["saturation_reason"]),
            unstable=bool(d["unstable"]),
            converged=bool(d["converged"]),
            cycles=int(d["cycles"]),
            cycle_budget=int(d["cycle_budget"]),
            measured_packets=int(d["measured_packets"]),
            sample_periods=int(d["sample_periods"]),
            routers=int(d["routers"]),
            endpoints=int(d["endpoints"]),
            active_endpoints=int(d["active_endpoints"]),
            wall_seconds=_float(d["wall_seconds"]),
            router_cycles=int(d["router_cycles"]),
            active_router_cycles=int(d["active_router_cycles"]),
            flit_hops=int(d["flit_hops"]),
            deflection_rate=_float(d["deflection_rate"]),
            max_hops=int(d["max_hops"]),
            early_verdict=str(d["early_verdict"]),
            precision_reached=bool(d["precision_reached"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_SweepResultT = TypeVar("_SweepResultT", bound="SweepResult")


@dataclass(frozen=True, repr=False)
class SweepResult(Summarized):
    """A latency-load sweep: every run by increasing offered load and the saturation bracket."""

    UNITS: ClassVar[dict[str, str]] = {
        "saturation_load": "flits/active endpoint/cycle (highest load a run carried)",
        "saturated_load": "flits/active endpoint/cycle (lowest saturated load above saturation_load)",
        "saturation_throughput": "flits/active endpoint/cycle",
    }

    #: Every run, by increasing offered load.
    points: tuple[SimResult, ...]
    #: The highest load a run carried (0 when every run saturated): the bracket's lower end.
    saturation_load: float
    #: The lowest load above ``saturation_load`` a run saturated at: the bracket's upper end,
    #: so the network saturates within [saturation_load, saturated_load]; None when no run
    #: above ``saturation_load`` saturated (the saturation load is at least the highest load
    #: run).
    saturated_load: float | None
    #: The highest accepted throughput of any run (what the network delivers overloaded).
    saturation_throughput: float

    @classmethod
    def _from_core(cls: type[_SweepResultT], d: dict[str, Any]) -> _SweepResultT:
        """The SweepResult of the core's result (a dict of its JSON)."""
        return cls(
            points=tuple(SimResult._from_core(x) for x in d["points"]),
            saturation_load=_float(d["saturation_load"]),
            saturated_load=None if d["saturated_load"] is None else _float(d["saturated_load"]),
            saturation_throughput=_float(d["saturation_throughput"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_ExchangeResultT = TypeVar("_ExchangeResultT", bound="ExchangeResult")


@dataclass(frozen=True, repr=False)
class ExchangeResult(Summarized):
    """The outcome of a fixed exchange (Kathareios et al., SC15, §4.4)."""

    UNITS: ClassVar[dict[str, str]] = {
        "completion_cycles": "cycles",
        "effective_throughput": "flits/endpoint/cycle",
        "avg_latency": "cycles",
        "p99_latency": "cycles",
        "avg_hops": "routers traversed",
        "wall_seconds": "s",
    }

    name: str
    routing: str
    #: Cycles until the last flit was delivered.
    completion_cycles: int
    packets: int
    flits: int
    #: Packets and flits the endpoints received, counted at ejection; at completion no flit is
    #: in flight, so they equal ``packets`` and ``flits`` unless one was lost or duplicated.
    delivered_packets: int
    delivered_flits: int
    #: Flits the endpoints generated.
    sent_flits: int
    #: Flits delivered per endpoint per cycle until completion.
    effective_throughput: float
    avg_latency: float
    p99_latency: float
    avg_hops: float
    wall_seconds: float

    @classmethod
    def _from_core(cls: type[_ExchangeResultT], d: dict[str, Any]) -> _ExchangeResultT:
        """The ExchangeResult of the core's result (a dict of its JSON)."""
        return cls(
            name=str(d["name"]),
            routing=str(d["routing"]),
            completion_cycles=int(d["completion_cycles"]),
            packets=int(d["packets"]),
            flits=int(d["flits"]),
            delivered_packets=int(d["delivered_packets"]),
            delivered_flits=int(d["delivered_flits"]),
            sent_flits=int(d["sent_flits"]),
            effective_throughput=_float(d["effective_throughput"]),
            avg_latency=_float(d["avg_latency"]),
            p99_latency=_float(d["p99_latency"]),
            avg_hops=_float(d["avg_hops"]),
            wall_seconds=_float(d["wall_seconds"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_PhaseTimeT = TypeVar("_PhaseTimeT", bound="PhaseTime")


@dataclass(frozen=True, repr=False)
class PhaseTime(Summarized):
    """Completion of one phase of a job (over its ranks and iterations)."""

    UNITS: ClassVar[dict[str, str]] = {
        "cycles": "cycles",
    }

    phase: str
    #: Cycles from its first message ready to its last arrived, summed over iterations.
    cycles: int

    @classmethod
    def _from_core(cls: type[_PhaseTimeT], d: dict[str, Any]) -> _PhaseTimeT:
        """The PhaseTime of the core's result (a dict of its JSON)."""
        return cls(
            phase=str(d["phase"]),
            cycles=int(d["cycles"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_JobResultT = TypeVar("_JobResultT", bound="JobResult")


@dataclass(frozen=True, repr=False)
class JobResult(Summarized):
    """One job of a workload run. Times in cycles from the start of the run; ``bytes`` is the
    operation's size as NCCL's tests give it (each rank's buffer); ``algbw`` and ``busbw`` in
    bytes per cycle, ``busbw_link_fraction`` the bus bandwidth over one link's (a flit per
    cycle). ``alone_cycles`` and ``slowdown`` are set by ``run_workload(slowdown=True)`` (Python):
    the job's completion time alone on the same endpoints, and the ratio of the two."""

    UNITS: ClassVar[dict[str, str]] = {
        "completion_cycles": "cycles",
        "algbw_bytes_per_cycle": "bytes/cycle",
        "busbw_bytes_per_cycle": "bytes/cycle",
        "slowest_rank_cycles": "cycles",
        "mean_rank_cycles": "cycles",
        "alone_cycles": "cycles",
    }

    name: str
    operation: str
    algorithm: str
    ranks: int
    iterations: int
    #: The operation's size (bytes per rank buffer, NCCL's "size").
    bytes: int
    #: Cycle the job's last message arrived (it starts at cycle 0).
    completion_cycles: int
    #: Per iteration, cycles from its first message ready to its last arrived.
    iteration_cycles: tuple[int, ...]
    #: Bytes per cycle: ``bytes`` / mean iteration time (NCCL's algbw).
    algbw_bytes_per_cycle: float
    #: algbw x the operation's factor (NCCL's busbw).
    busbw_bytes_per_cycle: float
    #: busbw as a fraction of one link's bandwidth (one flit per cycle).
    busbw_link_fraction: float
    phases: tuple[PhaseTime, ...]
    #: The rank whose last message arrived last, and when.
    slowest_rank: int
    slowest_rank_cycles: int
    #: Mean over ranks of the cycle each rank's last message arrived.
    mean_rank_cycles: float
    messages: int
    bytes_sent: int
    #: With ``slowdown``: the job's completion time alone on the same endpoints (None without).
    alone_cycles: int | None
    #: With ``slowdown``: ``completion_cycles`` / ``alone_cycles`` (None without).
    slowdown: float | None

    @classmethod
    def _from_core(cls: type[_JobResultT], d: dict[str, Any]) -> _JobResultT:
        """The JobResult of the core's result (a dict of its JSON)."""
        return cls(
            name=str(d["name"]),
            operation=str(d["operation"]),
            algorithm=str(d["algorithm"]),
            ranks=int(d["ranks"]),
            iterations=int(d["iterations"]),
            bytes=int(d["bytes"]),
            completion_cycles=int(d["completion_cycles"]),
            iteration_cycles=tuple(int(x) for x in d["iteration_cycles"]),
            algbw_bytes_per_cycle=_float(d["algbw_bytes_per_cycle"]),
            busbw_bytes_per_cycle=_float(d["busbw_bytes_per_cycle"]),
            busbw_link_fraction=_float(d["busbw_link_fraction"]),
            phases=tuple(PhaseTime._from_core(x) for x in d["phases"]),
            slowest_rank=int(d["slowest_rank"]),
            slowest_rank_cycles=int(d["slowest_rank_cycles"]),
            mean_rank_cycles=_float(d["mean_rank_cycles"]),
            messages=int(d["messages"]),
            bytes_sent=int(d["bytes_sent"]),
            alone_cycles=None if d["alone_cycles"] is None else int(d["alone_cycles"]),
            slowdown=None if d["slowdown"] is None else _float(d["slowdown"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_WorkloadResultT = TypeVar("_WorkloadResultT", bound="WorkloadResult")


@dataclass(frozen=True, repr=False)
class WorkloadResult(Summarized):
    """A workload run to completion: every job's result, and the network's totals (the jobs'
    packets delivered equal their packets sent unless one was lost or duplicated; background
    packets delivered before the jobs finished; latencies in cycles, of every packet)."""

    UNITS: ClassVar[dict[str, str]] = {
        "completion_cycles": "cycles",
        "avg_latency": "cycles",
        "p99_latency": "cycles",
        "avg_hops": "routers traversed",
        "packet_bytes": "bytes",
        "wall_seconds": "s",
    }

    routing: str
    #: Cycle the last message arrived, plus one.
    completion_cycles: int
    jobs: tuple[JobResult, ...]
    packets: int
    flits: int
    #: The jobs' packets and flits the endpoints received: equal to ``packets`` and ``flits``
    #: unless one was lost or duplicated.
    delivered_packets: int
    delivered_flits: int
    #: Background packets delivered before the jobs finished (the run ends then).
    background_packets: int
    avg_latency: float
    p99_latency: float
    avg_hops: float
    packet_bytes: int
    wall_seconds: float

    @classmethod
    def _from_core(cls: type[_WorkloadResultT], d: dict[str, Any]) -> _WorkloadResultT:
        """The WorkloadResult of the core's result (a dict of its JSON)."""
        return cls(
            routing=str(d["routing"]),
            completion_cycles=int(d["completion_cycles"]),
            jobs=tuple(JobResult._from_core(x) for x in d["jobs"]),
            packets=int(d["packets"]),
            flits=int(d["flits"]),
            delivered_packets=int(d["delivered_packets"]),
            delivered_flits=int(d["delivered_flits"]),
            background_packets=int(d["background_packets"]),
            avg_latency=_float(d["avg_latency"]),
            p99_latency=_float(d["p99_latency"]),
            avg_hops=_float(d["avg_hops"]),
            packet_bytes=int(d["packet_bytes"]),
            wall_seconds=_float(d["wall_seconds"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_DeadlockReportT = TypeVar("_DeadlockReportT", bound="DeadlockReport")


@dataclass(frozen=True, repr=False)
class DeadlockReport(Summarized):
    """The deadlock check of a routing: its channel dependency graph (the routing is
    deadlock-free when the graph has no cycle, Dally & Seitz) and, when it has one, a cycle."""

    routing: str
    #: Channels (directed link x VC) and dependencies between them.
    num_channels: int
    num_dependencies: int
    #: Paths enumerated over every pair of routers with endpoints.
    num_paths: int
    #: Highest VC used on any hop, plus one.
    vcs_used: int
    #: Largest hop count of any path.
    max_hops: int
    acyclic: bool
    #: A cycle c0 -> c1 -> ... -> c0 of channels (from router, to router, VC) when not
    #: acyclic (the last depends on the first).
    cycle: tuple[tuple[int, int, int], ...] | None

    @classmethod
    def _from_core(cls: type[_DeadlockReportT], d: dict[str, Any]) -> _DeadlockReportT:
        """The DeadlockReport of the core's result (a dict of its JSON)."""
        return cls(
            routing=str(d["routing"]),
            num_channels=int(d["num_channels"]),
            num_dependencies=int(d["num_dependencies"]),
            num_paths=int(d["num_paths"]),
            vcs_used=int(d["vcs_used"]),
            max_hops=int(d["max_hops"]),
            acyclic=bool(d["acyclic"]),
            cycle=None
            if d["cycle"] is None
            else tuple((int(x[0]), int(x[1]), int(x[2])) for x in d["cycle"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_ChannelLoadT = TypeVar("_ChannelLoadT", bound="ChannelLoad")


@dataclass(frozen=True, repr=False)
class ChannelLoad(Summarized):
    """The channel load of a routing under a traffic: the expected load of every directed
    link when every endpoint injects at rate 1, and the throughput bound it implies."""

    UNITS: ClassVar[dict[str, str]] = {
        "max_load": "endpoint injection bandwidths per link (width 1)",
        "throughput_bound": "flits/endpoint/cycle",
        "loads": "endpoint injection bandwidths per link (width 1)",
    }

    routing: str
    #: The load of the most loaded directed link.
    max_load: float
    #: The most loaded directed link (from router, to router).
    max_link: tuple[int, int]
    #: 1 / max_load: the accepted injection rate per endpoint the routing cannot exceed
    #: (infinite when no link carries load; Python reads it as NaN, JSON having no infinity).
    throughput_bound: float
    #: Load per arc (CSR order of the network's adjacency) in links' worth: its busiest
    #: port's when the routing takes one port of a link (``Ports::Destination``,
    #: ``Ports::First``), else divided by the link's width.
    loads: tuple[float, ...]

    @classmethod
    def _from_core(cls: type[_ChannelLoadT], d: dict[str, Any]) -> _ChannelLoadT:
        """The ChannelLoad of the core's result (a dict of its JSON)."""
        return cls(
            routing=str(d["routing"]),
            max_load=_float(d["max_load"]),
            max_link=(int(d["max_link"][0]), int(d["max_link"][1])),
            throughput_bound=_float(d["throughput_bound"]),
            loads=tuple(_float(x) for x in d["loads"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_DistancesT = TypeVar("_DistancesT", bound="Distances")


@dataclass(frozen=True, repr=False)
class Distances(Summarized):
    """Distances between routers, exact. Everything that is not defined for the network (e.g. the
    diameter of a disconnected one) is None, never infinite."""

    UNITS: ClassVar[dict[str, str]] = {
        "diameter": "router-to-router hops",
        "radius": "hops",
        "aspl": "hops",
        "endpoint_aspl": "hops",
        "endpoint_diameter": "hops",
    }

    #: Every router reaches every other (for a directed network: strongly connected).
    connected: bool
    #: Connected components; for a directed network the weakly connected ones (link direction
    #: ignored), see ``strong_components``.
    components: int
    #: Strongly connected components (directed networks only).
    strong_components: int | None
    #: Largest router-to-router distance; None when not connected.
    diameter: int | None
    #: Smallest eccentricity; None when not connected.
    radius: int | None
    #: Mean distance over the ordered pairs of distinct routers; None when not connected or
    #: with fewer than 2 routers.
    aspl: float | None
    #: Mean router-to-router hops over the ordered pairs of distinct endpoints, a pair on one
    #: router counting 0 (Besta & Hoefler, SC14, Fig. 1); None when some endpoint cannot reach
    #: another or the network has fewer than 2 endpoints.
    endpoint_aspl: float | None
    #: Largest distance between two routers that carry endpoints (the diameter of indirect
    #: networks); None when some endpoint cannot reach another or there are no endpoints.
    endpoint_diameter: int | None
    #: ``histogram[d]``: ordered pairs of distinct routers at distance d (index 0 is 0);
    #: over the reachable pairs only.
    histogram: tuple[int, ...]
    #: Ordered pairs (s, t), s ≠ t, where s does not reach t.
    unreachable_pairs: int
    #: Per router: the largest distance to any other router (out-distance when directed);
    #: None when not connected.
    eccentricities: tuple[int, ...] | None

    @classmethod
    def _from_core(cls: type[_DistancesT], d: dict[str, Any]) -> _DistancesT:
        """The Distances of the core's result (a dict of its JSON)."""
        return cls(
            connected=bool(d["connected"]),
            components=int(d["components"]),
            strong_components=None if d["strong_components"] is None else int(d["strong_components"]),
            diameter=None if d["diameter"] is None else int(d["diameter"]),
            radius=None if d["radius"] is None else int(d["radius"]),
            aspl=None if d["aspl"] is None else _float(d["aspl"]),
            endpoint_aspl=None if d["endpoint_aspl"] is None else _float(d["endpoint_aspl"]),
            endpoint_diameter=None if d["endpoint_diameter"] is None else int(d["endpoint_diameter"]),
            histogram=tuple(int(x) for x in d["histogram"]),
            unreachable_pairs=int(d["unreachable_pairs"]),
            eccentricities=None
            if d["eccentricities"] is None
            else tuple(int(x) for x in d["eccentricities"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_PathDiversityT = TypeVar("_PathDiversityT", bound="PathDiversity")


@dataclass(frozen=True, repr=False)
class PathDiversity(PathDiversityMethods, Summarized):
    """Shortest-path counts σ over ordered pairs of distinct routers at distance >= 2
    (Kathareios et al., SC15, §2.3.3)."""

    #: Ordered pairs counted (distinct, reachable, not adjacent).
    pairs: int
    #: Mean σ over those pairs; None when there are none (e.g. a complete graph).
    mean: float | None
    #: Largest σ; None when there are no pairs.
    max: int | None
    #: Pairs with more than one shortest path.
    multipath_pairs: int
    #: Some count reached u64::MAX (then mean and max are lower bounds).
    saturated: bool

    @classmethod
    def _from_core(cls: type[_PathDiversityT], d: dict[str, Any]) -> _PathDiversityT:
        """The PathDiversity of the core's result (a dict of its JSON)."""
        return cls(
            pairs=int(d["pairs"]),
            mean=None if d["mean"] is None else _float(d["mean"]),
            max=None if d["max"] is None else int(d["max"]),
            multipath_pairs=int(d["multipath_pairs"]),
            saturated=bool(d["saturated"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_ThresholdT = TypeVar("_ThresholdT", bound="Threshold")


@dataclass(frozen=True, repr=False)
class Threshold(ThresholdMethods, Summarized):
    """One criterion's threshold over the samples: the mean over samples of the largest
    fraction of removed cables at which the criterion holds, with its 95 % confidence
    interval; ``survival[k]`` is the share of samples meeting it with ``k * step`` of the cables
    removed."""

    #: Mean of the per-sample largest fraction of removed cables at which the criterion holds.
    mean: float
    ci_low: float
    ci_high: float
    std_dev: float
    #: ``survival[k]``: fraction of the samples meeting the criterion with k/steps removed.
    survival: tuple[float, ...]

    @classmethod
    def _from_core(cls: type[_ThresholdT], d: dict[str, Any]) -> _ThresholdT:
        """The Threshold of the core's result (a dict of its JSON)."""
        return cls(
            mean=_float(d["mean"]),
            ci_low=_float(d["ci_low"]),
            ci_high=_float(d["ci_high"]),
            std_dev=_float(d["std_dev"]),
            survival=tuple(_float(x) for x in d["survival"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_ResilienceT = TypeVar("_ResilienceT", bound="Resilience")


@dataclass(frozen=True, repr=False)
class Resilience(ResilienceMethods, Summarized):
    """Resilience to random cable failures (Besta & Hoefler, SC14, §III-D)."""

    seed: int
    #: Cables (links counted with their width).
    cables: int
    #: Fraction of the cables removed per step.
    step: float
    samples: int
    #: Every interval is at most the requested width (else max_samples was reached).
    converged: bool
    base_diameter: int
    base_aspl: float
    disconnect: Threshold
    diameter_plus2: Threshold
    aspl_plus1: Threshold

    @classmethod
    def _from_core(cls: type[_ResilienceT], d: dict[str, Any]) -> _ResilienceT:
        """The Resilience of the core's result (a dict of its JSON)."""
        return cls(
            seed=int(d["seed"]),
            cables=int(d["cables"]),
            step=_float(d["step"]),
            samples=int(d["samples"]),
            converged=bool(d["converged"]),
            base_diameter=int(d["base_diameter"]),
            base_aspl=_float(d["base_aspl"]),
            disconnect=Threshold._from_core(d["disconnect"]),
            diameter_plus2=Threshold._from_core(d["diameter_plus2"]),
            aspl_plus1=Threshold._from_core(d["aspl_plus1"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_BisectionT = TypeVar("_BisectionT", bound="Bisection")


@dataclass(frozen=True, repr=False)
class Bisection(BisectionMethods, Summarized):
    """The endpoint-balanced bisection METIS finds, best of ``runs`` seeded runs (Besta &
    Hoefler, SC14, §III-C; docs/bisection.md): ``links_cut`` is an upper bound on the minimum
    bisection (minimum bisection is NP-hard); ``lower_bound``, where it holds, a lower bound:
    the minimum lies between the two."""

    #: Links between the two sides, counting width; directed: both directions added.
    links_cut: int
    #: Link capacity from side 0 to side 1 (undirected: equals ``links_cut``).
    links_0_to_1: int
    #: Link capacity from side 1 to side 0 (undirected: equals ``links_cut``).
    links_1_to_0: int
    #: Bisection bandwidth per endpoint in link units:
    #: ``min(links_0_to_1, links_1_to_0) / (N/2)``.
    per_endpoint: float
    #: Endpoints on side 0 and side 1.
    endpoints: tuple[int, int]
    #: Routers on side 0 and side 1.
    routers: tuple[int, int]
    #: Side (0 or 1) of each router; router 0 is always on side 0.
    side: tuple[int, ...]
    directed: bool
    runs: int
    seed: int
    #: The run (0-based) whose partition was kept: the first one with the fewest links cut.
    best_run: int
    #: The spectral lower bound on the minimum (``spectral_lower_bound``) where it holds
    #: (undirected, regular, the same endpoints on every router), else None; ``analyze``
    #: fills it in.
    lower_bound: int | None

    @classmethod
    def _from_core(cls: type[_BisectionT], d: dict[str, Any]) -> _BisectionT:
        """The Bisection of the core's result (a dict of its JSON)."""
        return cls(
            links_cut=int(d["links_cut"]),
            links_0_to_1=int(d["links_0_to_1"]),
            links_1_to_0=int(d["links_1_to_0"]),
            per_endpoint=_float(d["per_endpoint"]),
            endpoints=(int(d["endpoints"][0]), int(d["endpoints"][1])),
            routers=(int(d["routers"][0]), int(d["routers"][1])),
            side=tuple(int(x) for x in d["side"]),
            directed=bool(d["directed"]),
            runs=int(d["runs"]),
            seed=int(d["seed"]),
            best_run=int(d["best_run"]),
            lower_bound=None if d["lower_bound"] is None else int(d["lower_bound"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_SpectrumT = TypeVar("_SpectrumT", bound="Spectrum")


@dataclass(frozen=True, repr=False)
class Spectrum(SpectrumMethods, Summarized):
    """Adjacency eigenvalues for expander comparisons (docs/bisection.md): λ1, λ2 (second
    largest counting multiplicity), λmin and the gaps."""

    #: Largest adjacency eigenvalue (the degree for a connected regular network).
    lambda1: float
    #: Second largest eigenvalue counting multiplicity.
    lambda2: float
    #: Smallest eigenvalue (-λ1 exactly when the network has a bipartite component as large).
    lambda_min: float
    #: One-sided spectral gap λ1 - λ2 (0 when disconnected).
    gap: float
    #: max(|λ2|, |λmin|): the λ of the expander mixing lemma and of the Ramanujan property.
    lambda_abs: float
    #: Two-sided gap λ1 - max(|λ2|, |λmin|) (0 for bipartite networks).
    two_sided_gap: float
    #: The degree d (counting width) when every router has the same degree.
    regular_degree: int | None
    #: 2·sqrt(d - 1) for a d-regular network: Ramanujan when ``lambda_abs`` is at most this.
    ramanujan_bound: float | None
    components: int
    #: Every reported eigenvalue is within this distance of an exact eigenvalue (residual
    #: bound).
    error_bound: float
    #: Lanczos steps (matrix-vector products) over all components.
    lanczos_steps: int

    @classmethod
    def _from_core(cls: type[_SpectrumT], d: dict[str, Any]) -> _SpectrumT:
        """The Spectrum of the core's result (a dict of its JSON)."""
        return cls(
            lambda1=_float(d["lambda1"]),
            lambda2=_float(d["lambda2"]),
            lambda_min=_float(d["lambda_min"]),
            gap=_float(d["gap"]),
            lambda_abs=_float(d["lambda_abs"]),
            two_sided_gap=_float(d["two_sided_gap"]),
            regular_degree=None if d["regular_degree"] is None else int(d["regular_degree"]),
            ramanujan_bound=None if d["ramanujan_bound"] is None else _float(d["ramanujan_bound"]),
            components=int(d["components"]),
            error_bound=_float(d["error_bound"]),
            lanczos_steps=int(d["lanczos_steps"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_AnalysisT = TypeVar("_AnalysisT", bound="Analysis")


@dataclass(frozen=True, repr=False)
class Analysis(Summarized):
    """Everything ``analyze`` computed. Optional sections (``paths``, ``resilience``, ``bisection``,
    ``spectrum``) are None unless requested. ``diameter``, ``radius``, ``aspl`` and ``eccentricities``
    are None only when the network is not connected (``connected``); the endpoint-level ones
    also when it has fewer than two endpoints; ``moore_fraction`` with the diameter, and
    ``moore_bound`` also when the bound exceeds 2**128."""

    UNITS: ClassVar[dict[str, str]] = {
        "diameter": "router-to-router hops",
        "radius": "hops",
        "aspl": "hops",
        "endpoint_aspl": "hops",
        "endpoint_diameter": "hops",
    }

    family: str
    spec: str
    routers: int
    endpoints: int
    #: Router-to-router cables, counting width.
    links: int
    network_radix: int
    radix: int
    directed: bool
    #: Every router reaches every other (for a directed network: strongly connected).
    connected: bool
    #: Connected components; for a directed network the weakly connected ones (link direction
    #: ignored), see ``strong_components``.
    components: int
    #: Strongly connected components (directed networks only).
    strong_components: int | None
    #: Largest router-to-router distance; None when not connected.
    diameter: int | None
    #: Smallest eccentricity; None when not connected.
    radius: int | None
    #: Mean distance over the ordered pairs of distinct routers; None when not connected or
    #: with fewer than 2 routers.
    aspl: float | None
    #: Mean router-to-router hops over the ordered pairs of distinct endpoints, a pair on one
    #: router counting 0 (Besta & Hoefler, SC14, Fig. 1); None when some endpoint cannot reach
    #: another or the network has fewer than 2 endpoints.
    endpoint_aspl: float | None
    #: Largest distance between two routers that carry endpoints (the diameter of indirect
    #: networks); None when some endpoint cannot reach another or there are no endpoints.
    endpoint_diameter: int | None
    #: ``histogram[d]``: ordered pairs of distinct routers at distance d (index 0 is 0);
    #: over the reachable pairs only.
    histogram: tuple[int, ...]
    #: Ordered pairs (s, t), s ≠ t, where s does not reach t.
    unreachable_pairs: int
    #: Per router: the largest distance to any other router (out-distance when directed);
    #: None when not connected.
    eccentricities: tuple[int, ...] | None
    #: The Moore bound at the network radix and the diameter, exact;
    #: None when the network is not connected or the bound exceeds 2**128.
    moore_bound: int | None
    #: routers / the Moore bound (1.0 for a Moore graph); None when not connected.
    moore_fraction: float | None
    paths: PathDiversity | None
    resilience: Resilience | None
    #: With its spectral lower bound (its ``lower_bound``) where that holds.
    bisection: Bisection | None
    spectrum: Spectrum | None

    @classmethod
    def _from_core(cls: type[_AnalysisT], d: dict[str, Any]) -> _AnalysisT:
        """The Analysis of the core's result (a dict of its JSON)."""
        return cls(
            family=str(d["family"]),
            spec=str(d["spec"]),
            routers=int(d["routers"]),
            endpoints=int(d["endpoints"]),
            links=int(d["links"]),
            network_radix=int(d["network_radix"]),
            radix=int(d["radix"]),
            directed=bool(d["directed"]),
            connected=bool(d["connected"]),
            components=int(d["components"]),
            strong_components=None if d["strong_components"] is None else int(d["strong_components"]),
            diameter=None if d["diameter"] is None else int(d["diameter"]),
            radius=None if d["radius"] is None else int(d["radius"]),
            aspl=None if d["aspl"] is None else _float(d["aspl"]),
            endpoint_aspl=None if d["endpoint_aspl"] is None else _float(d["endpoint_aspl"]),
            endpoint_diameter=None if d["endpoint_diameter"] is None else int(d["endpoint_diameter"]),
            histogram=tuple(int(x) for x in d["histogram"]),
            unreachable_pairs=int(d["unreachable_pairs"]),
            eccentricities=None
            if d["eccentricities"] is None
            else tuple(int(x) for x in d["eccentricities"]),
            moore_bound=None if d["moore_bound"] is None else int(d["moore_bound"]),
            moore_fraction=None if d["moore_fraction"] is None else _float(d["moore_fraction"]),
            paths=None if d["paths"] is None else PathDiversity._from_core(d["paths"]),
            resilience=None if d["resilience"] is None else Resilience._from_core(d["resilience"]),
            bisection=None if d["bisection"] is None else Bisection._from_core(d["bisection"]),
            spectrum=None if d["spectrum"] is None else Spectrum._from_core(d["spectrum"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_PlacementT = TypeVar("_PlacementT", bound="Placement")


@dataclass(frozen=True, repr=False)
class Placement(PlacementMethods, Summarized):
    """Where every router stands: the cabinet of every router and the floor grid (rows × cols,
    cabinet i at cell i)."""

    #: The floor's name.
    floor: str
    #: How the cabinets were chosen, with the paper section.
    method: str
    #: Z when the placement is sequential or arbitrary.
    per_cabinet: int | None
    cabinets: int
    rows: int
    cols: int
    #: Cabinet of each router.
    cabinet_of: tuple[int, ...]

    @classmethod
    def _from_core(cls: type[_PlacementT], d: dict[str, Any]) -> _PlacementT:
        """The Placement of the core's result (a dict of its JSON)."""
        return cls(
            floor=str(d["floor"]),
            method=str(d["method"]),
            per_cabinet=None if d["per_cabinet"] is None else int(d["per_cabinet"]),
            cabinets=int(d["cabinets"]),
            rows=int(d["rows"]),
            cols=int(d["cols"]),
            cabinet_of=tuple(int(x) for x in d["cabinet_of"]),
        )


_ClassCablesT = TypeVar("_ClassCablesT", bound="ClassCables")


@dataclass(frozen=True, repr=False)
class ClassCables(Summarized):
    """Cables of one link class (or ``endpoint``, the endpoints' cables) by medium, length and
    price."""

    link_class: str
    cables: int
    electric: int
    optical: int
    total_m: float
    avg_m: float
    electric_m: float
    optical_m: float
    #: Price of these cables under the catalog used (0 when only counting).
    cost: float

    @classmethod
    def _from_core(cls: type[_ClassCablesT], d: dict[str, Any]) -> _ClassCablesT:
        """The ClassCables of the core's result (a dict of its JSON)."""
        return cls(
            link_class=str(d["link_class"]),
            cables=int(d["cables"]),
            electric=int(d["electric"]),
            optical=int(d["optical"]),
            total_m=_float(d["total_m"]),
            avg_m=_float(d["avg_m"]),
            electric_m=_float(d["electric_m"]),
            optical_m=_float(d["optical_m"]),
            cost=_float(d["cost"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_CostReportT = TypeVar("_CostReportT", bound="CostReport")


@dataclass(frozen=True, repr=False)
class CostReport(CostReportMethods, Summarized):
    """Cables, cost and power of a placed network (Besta & Hoefler, SC14, §VI-B, §VI-C).

    ``electric_cables``, ``optical_cables``, ``total_cable_m`` count router-to-router cables;
    endpoint cables are in ``endpoint_cables`` and in ``by_class`` (class ``endpoint``), and in the
    cost. ``cost_per_endpoint`` and ``power_per_endpoint_w`` are None only for a network without
    endpoints; ``max_electric_m`` is None when every cable may be electric."""

    UNITS: ClassVar[dict[str, str]] = {
        "max_electric_m": "m",
        "total_cable_m": "m",
        "avg_cable_m": "m",
        "endpoint_cable_m": "m",
        "cable_cost": "USD",
        "router_cost": "USD",
        "total_cost": "USD",
        "cost_per_endpoint": "USD/endpoint",
        "power_w": "W",
        "power_per_endpoint_w": "W/endpoint",
    }

    floor: str
    catalog: str
    placement: str
    cabinets: int
    grid_rows: int
    grid_cols: int
    routers: int
    endpoints: int
    router_radix: int
    #: Longest electric cable allowed (m); None: every cable electric.
    max_electric_m: float | None
    #: Router-to-router cables by medium, and their lengths.
    electric_cables: int
    optical_cables: int
    total_cable_m: float
    avg_cable_m: float
    #: Router-to-endpoint cables (one per endpoint) and their total length.
    endpoint_cables: int
    endpoint_cable_m: float
    #: One entry per link class of the network, then one for the endpoint cables.
    by_class: tuple[ClassCables, ...]
    #: All cables, endpoint cables included.
    cable_cost: float
    router_cost: float
    total_cost: float
    #: None for a network without endpoints.
    cost_per_endpoint: float | None
    power_w: float
    power_per_endpoint_w: float | None

    @classmethod
    def _from_core(cls: type[_CostReportT], d: dict[str, Any]) -> _CostReportT:
        """The CostReport of the core's result (a dict of its JSON)."""
        return cls(
            floor=str(d["floor"]),
            catalog=str(d["catalog"]),
            placement=str(d["placement"]),
            cabinets=int(d["cabinets"]),
            grid_rows=int(d["grid_rows"]),
            grid_cols=int(d["grid_cols"]),
            routers=int(d["routers"]),
            endpoints=int(d["endpoints"]),
            router_radix=int(d["router_radix"]),
            max_electric_m=None if d["max_electric_m"] is None else _float(d["max_electric_m"]),
            electric_cables=int(d["electric_cables"]),
            optical_cables=int(d["optical_cables"]),
            total_cable_m=_float(d["total_cable_m"]),
            avg_cable_m=_float(d["avg_cable_m"]),
            endpoint_cables=int(d["endpoint_cables"]),
            endpoint_cable_m=_float(d["endpoint_cable_m"]),
            by_class=tuple(ClassCables._from_core(x) for x in d["by_class"]),
            cable_cost=_float(d["cable_cost"]),
            router_cost=_float(d["router_cost"]),
            total_cost=_float(d["total_cost"]),
            cost_per_endpoint=None if d["cost_per_endpoint"] is None else _float(d["cost_per_endpoint"]),
            power_w=_float(d["power_w"]),
            power_per_endpoint_w=None
            if d["power_per_endpoint_w"] is None
            else _float(d["power_per_endpoint_w"]),
        )


_LatencyReportT = TypeVar("_LatencyReportT", bound="LatencyReport")


@dataclass(frozen=True, repr=False)
class LatencyReport(Summarized):
    """All-pairs latency under Nearest or Fastest Routing (Fujiwara et al., IPDPS 2014, §II-E,
    §III-A)."""

    UNITS: ClassVar[dict[str, str]] = {
        "switch_delay_ns": "ns",
        "cable_ns_per_m": "ns/m",
        "injection_ns": "ns",
        "max_latency_ns": "ns",
        "avg_latency_ns": "ns",
        "min_latency_ns": "ns",
        "avg_hops": "router-to-router hops",
        "max_hops": "router-to-router hops",
    }

    routing: str
    switch_delay_ns: float
    cable_ns_per_m: float
    injection_ns: float
    floor: str
    placement: str
    cabinets: int
    #: Routers between which paths are measured (those with endpoints, or all).
    routers: int
    #: Ordered pairs of distinct such routers.
    pairs: int
    max_latency_ns: float
    avg_latency_ns: float
    min_latency_ns: float
    #: Hop counts of the chosen paths.
    avg_hops: float
    max_hops: int

    @classmethod
    def _from_core(cls: type[_LatencyReportT], d: dict[str, Any]) -> _LatencyReportT:
        """The LatencyReport of the core's result (a dict of its JSON)."""
        return cls(
            routing=str(d["routing"]),
            switch_delay_ns=_float(d["switch_delay_ns"]),
            cable_ns_per_m=_float(d["cable_ns_per_m"]),
            injection_ns=_float(d["injection_ns"]),
            floor=str(d["floor"]),
            placement=str(d["placement"]),
            cabinets=int(d["cabinets"]),
            routers=int(d["routers"]),
            pairs=int(d["pairs"]),
            max_latency_ns=_float(d["max_latency_ns"]),
            avg_latency_ns=_float(d["avg_latency_ns"]),
            min_latency_ns=_float(d["min_latency_ns"]),
            avg_hops=_float(d["avg_hops"]),
            max_hops=int(d["max_hops"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_InfinibandCheckT = TypeVar("_InfinibandCheckT", bound="InfinibandCheck")


@dataclass(frozen=True, repr=False)
class InfinibandCheck(Summarized):
    """What a check of re-read InfiniBand tables found: every (switch, host) pair followed
    through the forwarding tables, the VLs and SLs they use, and the deadlock check of the
    routes they produce."""

    routing: str
    switches: int
    hosts: int
    #: (source switch, destination host) pairs followed through the tables.
    pairs: int
    #: Largest hop count of a followed route.
    max_hops: int
    vls_used: int
    sls_used: int
    #: Deadlock check of the routes the tables produce, channels = (link, VL).
    cdg: DeadlockReport

    @classmethod
    def _from_core(cls: type[_InfinibandCheckT], d: dict[str, Any]) -> _InfinibandCheckT:
        """The InfinibandCheck of the core's result (a dict of its JSON)."""
        return cls(
            routing=str(d["routing"]),
            switches=int(d["switches"]),
            hosts=int(d["hosts"]),
            pairs=int(d["pairs"]),
            max_hops=int(d["max_hops"]),
            vls_used=int(d["vls_used"]),
            sls_used=int(d["sls_used"]),
            cdg=DeadlockReport._from_core(d["cdg"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_TimelineWindowT = TypeVar("_TimelineWindowT", bound="TimelineWindow")


@dataclass(frozen=True, repr=False)
class TimelineWindow(Summarized):
    """What the network carried in one window of a timeline run."""

    UNITS: ClassVar[dict[str, str]] = {
        "accepted": "flits/active endpoint/cycle",
        "avg_latency": "cycles",
        "p99_latency": "cycles",
        "dropped": "flits",
        "in_flight": "flits",
    }

    #: First cycle of the window.
    start: int
    cycles: int
    #: Flits accepted per sending endpoint per cycle (the unit of the offered load).
    accepted: float
    #: Packets that arrived, and their average and 99th-percentile latency (creation to
    #: arrival, source queueing included; NaN without packets).
    packets: int
    avg_latency: float
    p99_latency: float
    #: Flits lost to dead cables in the window.
    dropped: int
    #: Flits created and neither delivered nor dropped at the window's end.
    in_flight: int

    @classmethod
    def _from_core(cls: type[_TimelineWindowT], d: dict[str, Any]) -> _TimelineWindowT:
        """The TimelineWindow of the core's result (a dict of its JSON)."""
        return cls(
            start=int(d["start"]),
            cycles=int(d["cycles"]),
            accepted=_float(d["accepted"]),
            packets=int(d["packets"]),
            avg_latency=_float(d["avg_latency"]),
            p99_latency=_float(d["p99_latency"]),
            dropped=int(d["dropped"]),
            in_flight=int(d["in_flight"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_TimelineT = TypeVar("_TimelineT", bound="Timeline")


@dataclass(frozen=True, repr=False)
class Timeline(Summarized):
    """A run cut into windows around cables dying during it (``dynamic_failures``): what the
    network carried in each window, before the failure, after it and once rerouted
    (docs/resilience.md, "Failures during a run")."""

    UNITS: ClassVar[dict[str, str]] = {
        "load": "flits/active endpoint/cycle",
        "accepted_before": "flits/active endpoint/cycle",
        "latency_before": "cycles",
        "accepted_after": "flits/active endpoint/cycle",
        "latency_after": "cycles",
        "recovery_cycles": "cycles",
    }

    routing: str
    traffic: str
    load: float
    #: The failure spec, its cycle and the cycle the routing changed (None: no failure).
    failures: str | None
    failure_cycle: int | None
    reroute_cycle: int | None
    failed_cables: int
    cables_before: int
    window: int
    cycles: int
    #: Endpoints that send under the traffic pattern (the unit of the throughputs).
    senders: int
    windows: tuple[TimelineWindow, ...]
    #: Before the failure (the second half of the cycles before it, warmed up): mean
    #: accepted throughput and latency over its windows, with 95% batch-means intervals
    #: over them.
    accepted_before: float
    accepted_before_ci95: tuple[float, float] | None
    latency_before: float
    latency_before_ci95: tuple[float, float] | None
    #: After recovery (from ``recovery_cycles`` on): the same over the windows to the end;
    #: None without such windows.
    accepted_after: float | None
    accepted_after_ci95: tuple[float, float] | None
    latency_after: float | None
    latency_after_ci95: tuple[float, float] | None
    #: Cycles from the failure to the start of the first window from which every window
    #: drops nothing and accepts at least (1 - saturation_tolerance) of the throughput
    #: before; None when the run ends first.
    recovery_cycles: int | None
    #: Flits the sources created, delivered to their endpoints, lost (on the wire when the
    #: cables died, or sent to a dead port afterwards), and in flight at the end:
    #: created = delivered + dropped + in flight, checked.
    created_flits: int
    delivered_flits: int
    dropped_flits: int
    dropped_on_wire: int
    dropped_at_dead_port: int
    in_flight_flits: int

    @classmethod
    def _from_core(cls: type[_TimelineT], d: dict[str, Any]) -> _TimelineT:
        """The Timeline of the core's result (a dict of its JSON)."""
        return cls(
            routing=str(d["routing"]),
            traffic=str(d["traffic"]),
            load=_float(d["load"]),
            failures=None if d["failures"] is None else str(d["failures"]),
            failure_cycle=None if d["failure_cycle"] is None else int(d["failure_cycle"]),
            reroute_cycle=None if d["reroute_cycle"] is None else int(d["reroute_cycle"]),
            failed_cables=int(d["failed_cables"]),
            cables_before=int(d["cables_before"]),
            window=int(d["window"]),
            cycles=int(d["cycles"]),
            senders=int(d["senders"]),
            windows=tuple(TimelineWindow._from_core(x) for x in d["windows"]),
            accepted_before=_float(d["accepted_before"]),
            accepted_before_ci95=_interval(d["accepted_before_ci95"]),
            latency_before=_float(d["latency_before"]),
            latency_before_ci95=_interval(d["latency_before_ci95"]),
            accepted_after=None if d["accepted_after"] is None else _float(d["accepted_after"]),
            accepted_after_ci95=_interval(d["accepted_after_ci95"]),
            latency_after=None if d["latency_after"] is None else _float(d["latency_after"]),
            latency_after_ci95=_interval(d["latency_after_ci95"]),
            recovery_cycles=None if d["recovery_cycles"] is None else int(d["recovery_cycles"]),
            created_flits=int(d["created_flits"]),
            delivered_flits=int(d["delivered_flits"]),
            dropped_flits=int(d["dropped_flits"]),
            dropped_on_wire=int(d["dropped_on_wire"]),
            dropped_at_dead_port=int(d["dropped_at_dead_port"]),
            in_flight_flits=int(d["in_flight_flits"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_FailuresT = TypeVar("_FailuresT", bound="Failures")


@dataclass(frozen=True, repr=False)
class Failures(FailuresMethods, Summarized):
    """The surviving network of a failure set (``network``) and what the set cost.

    The survivors are the connected component (strongly connected when directed) holding the
    most endpoints; ``cut_off_endpoints`` (ids of the intact network) are on failed routers or
    outside it. The degraded network numbers its endpoints afresh, so traffic from or to a
    cut-off endpoint is excluded from every measurement on it: ``excluded_pair_fraction`` is
    the share of the intact network's ordered endpoint pairs excluded that way."""

    #: The surviving network.
    network: Network
    #: The failure spec, as given.
    failures: str
    #: Cables failed (a link of width w counts w).
    failed_cables: int
    #: Cables of the intact network.
    cables_before: int
    #: Routers the failure set names (original ids, ascending).
    failed_routers: tuple[int, ...]
    #: Routers that work but are cut off from the kept component (original ids, ascending).
    isolated_routers: tuple[int, ...]
    #: For each router of the degraded network, its id in the intact one.
    router_ids: tuple[int, ...]
    #: Endpoints of the intact network.
    endpoints_before: int
    #: Endpoints cut off (ids of the intact network, ascending): on failed routers or outside
    #: the kept component. The degraded network numbers its endpoints afresh, router by router.
    cut_off_endpoints: tuple[int, ...]
    #: Share of the intact network's ordered endpoint pairs (s != t) with a cut-off end: the
    #: share of uniform traffic excluded from any measurement of the degraded network.
    excluded_pair_fraction: float

    @classmethod
    def _from_core(cls: type[_FailuresT], d: dict[str, Any]) -> _FailuresT:
        """The Failures of the core's result (a dict of its JSON)."""
        return cls(
            network=Network(d["network"]),
            failures=str(d["failures"]),
            failed_cables=int(d["failed_cables"]),
            cables_before=int(d["cables_before"]),
            failed_routers=tuple(int(x) for x in d["failed_routers"]),
            isolated_routers=tuple(int(x) for x in d["isolated_routers"]),
            router_ids=tuple(int(x) for x in d["router_ids"]),
            endpoints_before=int(d["endpoints_before"]),
            cut_off_endpoints=tuple(int(x) for x in d["cut_off_endpoints"]),
            excluded_pair_fraction=_float(d["excluded_pair_fraction"]),
        )


_MappingReportT = TypeVar("_MappingReportT", bound="MappingReport")


@dataclass(frozen=True, repr=False)
class MappingReport(Summarized):
    """What the mapping recovered."""

    #: "hyperx" or "dragonfly".
    family: str
    #: HyperX: K_n per dimension. Dragonfly: [groups, routers per group].
    shape: tuple[int, ...]
    #: HyperX: link width L_n per dimension (the largest width seen in the dimension).
    #: Dragonfly: [local width, largest number of cables between two groups].
    widths: tuple[int, ...]
    #: Router pairs the family has a link between but the network does not (a cabling
    #: fault), as (router, router) with the routers' ids in the input.
    missing_links: tuple[tuple[int, int], ...]
    #: Cables missing from links that exist but are narrower than their dimension's width.
    missing_cables: int

    @classmethod
    def _from_core(cls: type[_MappingReportT], d: dict[str, Any]) -> _MappingReportT:
        """The MappingReport of the core's result (a dict of its JSON)."""
        return cls(
            family=str(d["family"]),
            shape=tuple(int(x) for x in d["shape"]),
            widths=tuple(int(x) for x in d["widths"]),
            missing_links=tuple((int(x[0]), int(x[1])) for x in d["missing_links"]),
            missing_cables=int(d["missing_cables"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_MappedNetworkT = TypeVar("_MappedNetworkT", bound="MappedNetwork")


@dataclass(frozen=True, repr=False)
class MappedNetwork(MappedNetworkMethods, Summarized):
    """The labelled network and what the mapping found."""

    #: The input's routers, links, widths and endpoints under the family's labels.
    network: Network
    #: "hyperx" or "dragonfly".
    family: str
    #: HyperX: K_n per dimension. Dragonfly: [groups, routers per group].
    shape: tuple[int, ...]
    #: HyperX: link width L_n per dimension (the largest width seen in the dimension).
    #: Dragonfly: [local width, largest number of cables between two groups].
    widths: tuple[int, ...]
    #: Router pairs the family has a link between but the network does not (a cabling
    #: fault), as (router, router) with the routers' ids in the input.
    missing_links: tuple[tuple[int, int], ...]
    #: Cables missing from links that exist but are narrower than their dimension's width.
    missing_cables: int

    @classmethod
    def _from_core(cls: type[_MappedNetworkT], d: dict[str, Any]) -> _MappedNetworkT:
        """The MappedNetwork of the core's result (a dict of its JSON)."""
        return cls(
            network=Network(d["network"]),
            family=str(d["family"]),
            shape=tuple(int(x) for x in d["shape"]),
            widths=tuple(int(x) for x in d["widths"]),
            missing_links=tuple((int(x[0]), int(x[1])) for x in d["missing_links"]),
            missing_cables=int(d["missing_cables"]),
        )


_FamilySizesT = TypeVar("_FamilySizesT", bound="FamilySizes")


@dataclass(frozen=True, repr=False)
class FamilySizes(Summarized):
    """What a family's parameters give, in closed form: the network a spec describes, sized
    without building it."""

    routers: int
    endpoints: int
    #: Ports of the busiest router: links (counting width) plus endpoints.
    radix: int
    #: Router-to-router ports of the busiest router (out-ports when directed).
    network_radix: int
    #: p: endpoints per endpoint-carrying router.
    concentration: int
    #: The p at which the family's balance rule is met exactly: injection equals what the
    #: network carries under uniform traffic (docs/compare.md §1).
    #: Infinite for a network that carries no router-to-router traffic (one router), NaN in
    #: Python (JSON has no infinity).
    balanced_concentration: float
    #: Injection over what the network carries under uniform traffic (1 = balanced, above 1
    #: oversubscribed); p / balanced_concentration except where the family says otherwise.
    load: float
    #: The construction may leave ports free, so ``radix`` and ``network_radix`` are upper bounds.
    radix_is_bound: bool

    @classmethod
    def _from_core(cls: type[_FamilySizesT], d: dict[str, Any]) -> _FamilySizesT:
        """The FamilySizes of the core's result (a dict of its JSON)."""
        return cls(
            routers=int(d["routers"]),
            endpoints=int(d["endpoints"]),
            radix=int(d["radix"]),
            network_radix=int(d["network_radix"]),
            concentration=int(d["concentration"]),
            balanced_concentration=_float(d["balanced_concentration"]),
            load=_float(d["load"]),
            radix_is_bound=bool(d["radix_is_bound"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_DesignT = TypeVar("_DesignT", bound="Design")


@dataclass(frozen=True, repr=False)
class Design(DesignMethods, Summarized):
    """One feasible configuration of the design comparison; ``spec`` builds it
    (``topolab.build(design.spec)``)."""

    family: str
    spec: str
    #: For people: "Slim Fly q=19 p=15".
    name: str
    routers: int
    endpoints: int
    #: Ports of the busiest router: links (counting width) plus endpoints.
    radix: int
    #: Router-to-router ports of the busiest router (out-ports when directed).
    network_radix: int
    #: p: endpoints per endpoint-carrying router.
    concentration: int
    #: The p at which the family's balance rule is met exactly: injection equals what the
    #: network carries under uniform traffic (docs/compare.md §1).
    #: Infinite for a network that carries no router-to-router traffic (one router), NaN in
    #: Python (JSON has no infinity).
    balanced_concentration: float
    #: Injection over what the network carries under uniform traffic (1 = balanced, above 1
    #: oversubscribed); p / balanced_concentration except where the family says otherwise.
    load: float
    #: The construction may leave ports free, so ``radix`` and ``network_radix`` are upper bounds.
    radix_is_bound: bool
    #: ``load - 1`` when above 1, else 0.
    oversubscription: float
    #: Injection at most what the network carries under uniform traffic (up to rounding).
    balanced: bool
    #: ``endpoints / N - 1`` for the question's N.
    deviation: float
    #: The subscription tag ("balanced", "undersubscribed 12%", "oversubscribed 40%"), then
    #: the family's own.
    tags: tuple[str, ...]
    #: Paper sections of the family's rule.
    source: str
    #: The parameters in the spec's order (sizes as tuples, a nested spec in parentheses).
    params: dict[str, int | tuple[int, ...] | str]

    @classmethod
    def _from_core(cls: type[_DesignT], d: dict[str, Any]) -> _DesignT:
        """The Design of the core's result (a dict of its JSON)."""
        return cls(
            family=str(d["family"]),
            spec=str(d["spec"]),
            name=str(d["name"]),
            routers=int(d["routers"]),
            endpoints=int(d["endpoints"]),
            radix=int(d["radix"]),
            network_radix=int(d["network_radix"]),
            concentration=int(d["concentration"]),
            balanced_concentration=_float(d["balanced_concentration"]),
            load=_float(d["load"]),
            radix_is_bound=bool(d["radix_is_bound"]),
            oversubscription=_float(d["oversubscription"]),
            balanced=bool(d["balanced"]),
            deviation=_float(d["deviation"]),
            tags=tuple(str(x) for x in d["tags"]),
            source=str(d["source"]),
            params=_params(d["params"]),
        )
