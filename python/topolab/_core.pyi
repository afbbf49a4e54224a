"""Type stubs for the Rust extension topolab._core (hand-written; keep in step with
crates/topolab-py/src/lib.rs; `make stubtest` checks it against the built extension)."""

from os import PathLike
from typing import Any, Callable, Iterable, Sequence, final

__all__ = [
    "TopolabError",
    "ParameterError",
    "FormatError",
    "NetworkError",
    "FileError",
    "SimulationError",
    "DeadlockError",
    "Network",
    "build",
    "canonical_name",
    "load",
    "loads",
    "from_parts",
    "families",
    "apply_failures",
    "failure_kinds",
    "degraded_routings",
    "family_sizes",
    "enumerate_designs",
    "smaller_members",
    "analyze",
    "moore_bound",
    "floors",
    "catalogs",
    "floor",
    "catalog",
    "place",
    "cost",
    "cable_lengths",
    "latency",
    "simulate",
    "sim_timeline",
    "sweep_load",
    "SearchSession",
    "run_exchange",
    "exchange_messages",
    "run_workload",
    "workload_messages",
    "collective_messages",
    "workload_patterns",
    "sim_params",
    "result_types",
    "saturation_search",
    "read_booksim_config",
    "routing_check",
    "routing_load",
    "routing_tables",
    "routing_catalog",
    "routing_deadlock_caution",
    "traffic_patterns",
    "exchange_patterns",
    "check_sim_params",
    "memory_limit",
    "map_network",
    "infiniband_export",
    "ibnet_addressing",
    "infiniband_check",
    "routing_routes",
    "INFINIBAND_FILES",
    "__version__",
]

__version__: str

# A result (declared in Rust with `topolab_core::result_type!`) crosses as the dict of its JSON,
# or as that JSON's text, and its class in topolab/_results.py (written by
# scripts/result_types.py from the same declaration) reads it with `_from_core`.

# A default written "= ..." is a Rust value (crates/topolab-py/src/args.rs `Arg::default`),
# which the runtime signature shows as "...".

# Called on the main thread as progress(stage, done, total) while a long call runs.
_ProgressCallback = Callable[[str, int, int], object]

class TopolabError(Exception):
    # Set by the core on errors about one parameter (None otherwise): its name, the value
    # given and what is allowed.
    parameter: str | None
    value: str | None
    allowed: str | None

class ParameterError(TopolabError): ...
class FormatError(TopolabError): ...
class NetworkError(TopolabError): ...
class FileError(TopolabError): ...
class SimulationError(TopolabError): ...
class DeadlockError(SimulationError): ...

@final
class Network:
    @property
    def family(self) -> str: ...
    @property
    def spec(self) -> str: ...
    @property
    def failures(self) -> str | None: ...
    @property
    def directed(self) -> bool: ...
    @property
    def num_routers(self) -> int: ...
    @property
    def num_endpoints(self) -> int: ...
    @property
    def num_links(self) -> int: ...
    @property
    def network_radix(self) -> int: ...
    @property
    def radix(self) -> int: ...
    @property
    def endpoints(self) -> list[int]: ...
    @property
    def label_fields(self) -> list[str]: ...
    @property
    def link_classes(self) -> list[str]: ...
    @property
    def labels(self) -> list[tuple[int, ...]]: ...
    @property
    def link_class_cables(self) -> list[int]: ...
    @property
    def links(self) -> list[tuple[int, int, int, int]]: ...
    def degree(self, router: int) -> int: ...
    def neighbors(self, router: int) -> list[int]: ...
    def dumps(self, format: str) -> str: ...
    def save(self, path: str | PathLike[str], format: str | None = None) -> None: ...

def memory_limit() -> tuple[int, str] | None: ...
def build(spec: str, params: dict[str, Any] | None = None) -> Network: ...
def canonical_name(name: str) -> str: ...
def load(
    path: str | PathLike[str],
    format: str | None = None,
    directed: bool | None = None,
    endpoints_per_router: int | None = None,
) -> Network: ...
def loads(
    text: str,
    format: str,
    directed: bool | None = None,
    endpoints_per_router: int | None = None,
) -> Network: ...
def map_network(net: Network, family: str, max_missing: int = ...) -> dict[str, Any]: ...
def from_parts(
    num_routers: int,
    links: list[tuple[int, int, int, int]],
    directed: bool,
    endpoints: list[int],
    label_fields: list[str],
    labels: list[list[int]],
    link_classes: list[str],
    family: str = ...,
) -> Network: ...
def families() -> list[dict[str, Any]]: ...
def apply_failures(net: Network, failures: str) -> dict[str, Any]: ...
def failure_kinds() -> list[dict[str, Any]]: ...
def degraded_routings() -> list[str]: ...
def family_sizes(spec: str) -> dict[str, Any]: ...
def enumerate_designs(
    context: str,
    radix: int,
    endpoints: int,
    endpoint_tolerance: float,
    families: Iterable[str] | str | None,
    oversubscription: float,
    undersubscription: float,
) -> list[dict[str, Any]]: ...
def smaller_members(spec: str) -> list[str] | None: ...
def analyze(
    net: Network,
    *,
    paths: bool = ...,
    resilience: bool = ...,
    bisection: bool = ...,
    bisection_runs: int = ...,
    spectrum: bool = ...,
    seed: int = ...,
    progress: _ProgressCallback | None = None,
) -> str: ...
def moore_bound(degree: int, diameter: int, directed: bool = ...) -> int: ...

# --- physical (crates/topolab-py/src/physical.rs); floors and catalogs are the TOML inputs of
# topolab.physical's dataclasses
def floors() -> list[dict[str, Any]]: ...
def catalogs() -> list[dict[str, Any]]: ...
def floor(name: str | PathLike[str]) -> dict[str, Any]: ...
def catalog(name: str | PathLike[str]) -> dict[str, Any]: ...
def place(
    net: Network,
    floor: str | PathLike[str] = ...,
    placement: str | PathLike[str] | None = None,
    cabinets: list[int] | None = None,
    per_cabinet: int | None = None,
) -> dict[str, Any]: ...
def cost(
    net: Network,
    catalog: str | PathLike[str] = ...,
    floor: str | PathLike[str] = ...,
    placement: str | PathLike[str] | None = None,
    cabinets: list[int] | None = None,
    per_cabinet: int | None = None,
    max_electric_m: float | None = None,
    router_radix: int | None = None,
) -> dict[str, Any]: ...
def cable_lengths(
    net: Network,
    floor: str | PathLike[str] = ...,
    placement: str | PathLike[str] | None = None,
    cabinets: list[int] | None = None,
    per_cabinet: int | None = None,
) -> list[float]: ...
def latency(
    net: Network,
    routing: str = ...,
    switch_delay_ns: float = ...,
    cable_ns_per_m: float = ...,
    injection_ns: float = ...,
    floor: str | PathLike[str] = ...,
    placement: str | PathLike[str] | None = None,
    cabinets: list[int] | None = None,
    per_cabinet: int | None = None,
    progress: _ProgressCallback | None = None,
) -> dict[str, Any]: ...

# Simulator (crates/topolab-py/src/sim.rs).
def simulate(
    net: Network,
    routing: str,
    traffic: str,
    load: float,
    seed: int | None = None,
    params: dict[str, Any] | None = None,
    progress: _ProgressCallback | None = None,
) -> dict[str, Any]: ...

@final
class SearchSession:
    """A saturation search's runs on one network wired once; with ``warm_starts`` each from the
    network the highest carried run below its load left (docs/simulator.md, "Warm starts")."""

    def __new__(
        cls,
        net: Network,
        routing: str,
        traffic: str,
        seed: int | None = None,
        params: dict[str, Any] | None = None,
        warm_starts: bool = ...,
    ) -> SearchSession: ...
    def run(self, load: float, progress: _ProgressCallback | None = None) -> dict[str, Any]: ...
    def warm_load(self) -> float | None: ...

def sim_timeline(
    net: Network,
    routing: str,
    traffic: str,
    load: float,
    window: int,
    cycles: int | None = None,
    seed: int | None = None,
    params: dict[str, Any] | None = None,
    progress: _ProgressCallback | None = None,
) -> dict[str, Any]: ...
def sweep_load(
    net: Network,
    routing: str,
    traffic: str,
    loads: Sequence[float] | None = None,
    load_resolution: float = ...,
    every_load: bool = ...,
    seed: int | None = None,
    params: dict[str, Any] | None = None,
    progress: _ProgressCallback | None = None,
) -> dict[str, Any]: ...
def run_exchange(
    net: Network,
    routing: str,
    per_source: Sequence[Sequence[tuple[int, int]]] | None = None,
    spec: str | None = None,
    name: str = ...,
    interleave: bool = ...,
    seed: int | None = None,
    params: dict[str, Any] | None = None,
    progress: _ProgressCallback | None = None,
) -> dict[str, Any]: ...
def exchange_messages(net: Network, per_source: str) -> tuple[str, list[list[tuple[int, int]]]]: ...
def run_workload(
    net: Network,
    routing: str,
    jobs: list[str],
    packet_bytes: int = ...,
    alone: int | None = None,
    background: str | None = None,
    background_load: float = ...,
    seed: int | None = None,
    params: dict[str, Any] | None = None,
    progress: _ProgressCallback | None = None,
) -> dict[str, Any]: ...

_WorkloadMessage = tuple[int, int, int, int, int, int, list[int]]

# Per job: (name, operation, ranks, endpoints, messages as (src, dst, bytes, delay, phase,
# iteration, dependencies), phase names).
def workload_messages(
    net: Network, jobs: list[str]
) -> list[tuple[str, str, int, list[int], list[_WorkloadMessage], list[str]]]: ...
def collective_messages(
    spec: str, ranks: int
) -> tuple[str, str, int, list[int], list[_WorkloadMessage], list[str]]: ...
def workload_patterns() -> list[tuple[str, list[str], list[tuple[str, str, str | None, str]]]]: ...
def sim_params() -> list[dict[str, str]]: ...
def result_types() -> list[dict[str, Any]]: ...
def saturation_search(
    run: Callable[[float], Any], start: float | None, tolerance: float, shortfall: float = ...
) -> tuple[float, float | None]: ...
def traffic_patterns() -> list[tuple[str, list[str], list[tuple[str, str, str | None, str]]]]: ...
def exchange_patterns() -> list[tuple[str, list[str], list[tuple[str, str, str | None, str]]]]: ...
def check_sim_params(
    params: dict[str, Any] | None = None,
    load: float | None = None,
    seed: int | None = None,
    packet_bytes: int | None = None,
    tolerance: float | None = None,
) -> None: ...
def read_booksim_config(
    path: str | PathLike[str],
) -> tuple[Network, str, str, float, dict[str, Any], str]: ...

# routing (static analysis; JSON text results, wrapped by topolab.routing)
def routing_check(net: Network, routing: str, progress: _ProgressCallback | None = None) -> str: ...
def routing_load(
    net: Network,
    routing: str,
    permutation: Sequence[int] | None = None,
    progress: _ProgressCallback | None = None,
    traffic: str | None = None,
    max_pairs: int | None = None,
    max_paths: int | None = None,
    valiant_phases: bool = ...,
) -> str: ...
def routing_tables(net: Network, routing: str, vl_budget: int = ...) -> str: ...
def routing_routes(net: Network, routing: str) -> list[tuple[int, int, list[int]]]: ...

INFINIBAND_FILES: tuple[str, str, str]

def infiniband_export(net: Network, routing: str, vl_budget: int = ...) -> tuple[str, str, str]: ...
def infiniband_check(net: Network, routing: str, lfts: str, sl2vl: str, path_sl: str) -> str: ...
def ibnet_addressing(text: str) -> tuple[list[int], list[list[int]]]: ...
def routing_catalog() -> str: ...
def routing_deadlock_caution(routing: str) -> str | None: ...
