"""The machine room: floors, placement of routers into cabinets, cables, cost, power and latency.

The models (Besta & Hoefler, SC14, §VI, Fujiwara et al., IPDPS 2014, §II-E and §III-A) live in the Rust core;
this module converts arguments; its results (``Placement``, ``CostReport`` with its ``ClassCables``,
``LatencyReport``) are declared in Rust (``topolab._results``). Floors and catalogs are TOML data: a
built-in name (``topolab.floors()``, ``topolab.catalogs()``) or the path of a file of the same layout
(``file.toml#name`` picks one entry). See docs/physical.md.

    import topolab
    net = topolab.build("skywalk:z=8,c=256,di=7,do=4")
    topolab.place(net, floor="skywalk").cabinets            # 256
    topolab.cost(net, catalog="fdr10", floor="skywalk").total_cable_m
    topolab.latency(net, switch_delay_ns=60, routing="fastest", floor="skywalk").max_latency_ns

The default floor of every call is ``topolab.defaults.DEFAULT_FLOOR`` (``slimfly``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any, Optional, Union

from topolab import _core
from topolab._args import U32_MAX, bad, int_arg
from topolab._results import ClassCables, CostReport, LatencyReport, Placement
from topolab.defaults import DEFAULT_CATALOG, DEFAULT_FLOOR
from topolab.network import Network, as_network
from topolab.progress import Progress, legacy_keyword

__all__ = [
    "CablePrice",
    "Catalog",
    "ClassCables",
    "CostReport",
    "Floor",
    "LatencyReport",
    "NetworkLike",
    "PathLike",
    "Placement",
    "PlacementLike",
    "RouterPrice",
    "cable_lengths",
    "catalogs",
    "cost",
    "floors",
    "latency",
    "load_catalog",
    "load_floor",
    "place",
]

NetworkLike = Union[Network, str]
PathLike = Union[str, "os.PathLike[str]"]
PlacementLike = Union[None, str, "os.PathLike[str]", Sequence[int], Mapping[int, int], "Placement"]


def _from_dict(cls: type, data: dict[str, Any]) -> Any:
    return cls(**{f.name: data[f.name] for f in fields(cls)})


@dataclass(frozen=True)
class Floor:
    """Cabinet size, cable-length rule and electric/optical threshold of a machine room."""

    name: str
    description: str
    source: str
    cabinet_width_m: float
    cabinet_depth_m: float
    intra_cabinet_cable_m: float
    inter_cabinet_overhead_m: float
    endpoint_cable_m: float
    max_electric_m: float
    """Cables up to this length are electric; ``math.inf``: all electric."""
    routers_per_cabinet: int

    @classmethod
    def _of(cls, d: dict[str, Any]) -> Floor:
        d = dict(d)
        if d["max_electric_m"] is None:  # JSON has no infinity
            d["max_electric_m"] = math.inf
        return _from_dict(cls, d)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class CablePrice:
    """Price of one cable: bandwidth × (per_gbps_per_m × length + per_gbps)."""

    per_gbps_per_m: float
    per_gbps: float


@dataclass(frozen=True)
class RouterPrice:
    """Router price per_port × radix + fixed; power lanes_per_port × watts_per_lane per port."""

    per_port: float
    fixed: float
    lanes_per_port: int
    watts_per_lane: float


@dataclass(frozen=True)
class Catalog:
    name: str
    description: str
    source: str
    bandwidth_gbps: float
    electric: CablePrice
    optical: CablePrice
    router: RouterPrice

    @classmethod
    def _of(cls, d: dict[str, Any]) -> Catalog:
        return cls(
            name=d["name"],
            description=d["description"],
            source=d["source"],
            bandwidth_gbps=d["bandwidth_gbps"],
            electric=_from_dict(CablePrice, d["electric"]),
            optical=_from_dict(CablePrice, d["optical"]),
            router=_from_dict(RouterPrice, d["router"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def floors() -> list[Floor]:
    """The built-in floor models (``slimfly``: Besta & Hoefler, SC14, §VI-A/B; ``skywalk``: Fujiwara et al.,
    IPDPS 2014, §III-A)."""
    return [Floor._of(d) for d in _core.floors()]


def catalogs() -> list[Catalog]:
    """The built-in cost catalogs (``fdr10``: Besta & Hoefler, SC14, §VI-B/C)."""
    return [Catalog._of(d) for d in _core.catalogs()]


def load_floor(name: PathLike) -> Floor:
    """A floor by built-in name, TOML file path, or ``file.toml#name``."""
    return Floor._of(_core.floor(name))


def load_catalog(name: PathLike) -> Catalog:
    """A catalog by built-in name, TOML file path, or ``file.toml#name``."""
    return Catalog._of(_core.catalog(name))


def _placement_args(
    placement: PlacementLike, routers: int
) -> tuple[Optional[str | os.PathLike[str]], Optional[list[int]]]:
    """(rule or file name, cabinets) for the core: a Placement, a dict or a list become the
    cabinets in router order here (Python objects the core does not know)."""
    if placement is None:
        return None, None
    if isinstance(placement, Placement):
        return None, list(placement.cabinet_of)
    if isinstance(placement, (str, os.PathLike)):
        return placement, None
    if isinstance(placement, Mapping):
        missing = [r for r in range(routers) if r not in placement]
        if missing:
            raise bad(
                "placement",
                "placement",
                placement,
                f"a dict mapping every router 0..{routers - 1} to a cabinet",
                message=f"parameter 'placement' has no cabinet for router {missing[0]} "
                f"(a dict must map every router 0..{routers - 1} to a cabinet)",
            )
        return None, [_cabinet(r, placement[r]) for r in range(routers)]
    if isinstance(placement, Sequence):
        return None, [_cabinet(r, c) for r, c in enumerate(placement)]
    raise bad(
        "placement",
        "placement",
        placement,
        "'family', 'sequential', a file path, a list of cabinets in router order, a dict "
        "router -> cabinet, or a Placement",
    )


def _cabinet(router: int, cabinet: Any) -> int:
    return int_arg("placement", f"placement[{router}]", cabinet, 0, U32_MAX)


def place(
    net: NetworkLike,
    floor: PathLike = DEFAULT_FLOOR,
    *,
    placement: PlacementLike = None,
    per_cabinet: Optional[int] = None,
) -> Placement:
    """Places the routers into cabinets on ``floor``.

    ``placement``: None or ``"family"`` for the family's rule (Slim Fly racks from the MMS
    structure, Dragonfly groups, fat tree pods with the core in the central row, tori and
    hypercubes sequentially, random networks arbitrarily, Skywalk/Dragonfly(z,c,d)/HyperX(z,c,d)
    as built); ``"sequential"`` for router r in cabinet r // per_cabinet; or the cabinet of every
    router (a list, a dict, a Placement, or a file of ``router cabinet`` lines).
    ``per_cabinet`` sets Z for sequential and arbitrary placements.
    """
    n = as_network(net)
    rule, cabinets = _placement_args(placement, n.num_routers)
    return Placement._from_core(_core.place(n._net, floor, rule, cabinets, per_cabinet))


def cost(
    net: NetworkLike,
    catalog: PathLike = DEFAULT_CATALOG,
    floor: PathLike = DEFAULT_FLOOR,
    *,
    placement: PlacementLike = None,
    per_cabinet: Optional[int] = None,
    max_electric_m: Optional[float] = None,
    router_radix: Optional[int] = None,
) -> CostReport:
    """Cables, cost and power of ``net`` placed on ``floor`` and priced with ``catalog``.

    ``max_electric_m`` overrides the floor's electric/optical threshold (``math.inf``: all
    electric); ``router_radix`` buys bigger routers than the network's radix.
    """
    n = as_network(net)
    rule, cabinets = _placement_args(placement, n.num_routers)
    d = _core.cost(n._net, catalog, floor, rule, cabinets, per_cabinet, max_electric_m, router_radix)
    return CostReport._from_core(d)


def cable_lengths(
    net: NetworkLike,
    floor: PathLike = DEFAULT_FLOOR,
    *,
    placement: PlacementLike = None,
    per_cabinet: Optional[int] = None,
) -> list[float]:
    """Length in metres of one cable of each link of ``net`` placed on ``floor``, parallel to
    ``net.links()``: a link of width w is w cables of that length (the lengths ``cost`` sums).
    """
    n = as_network(net)
    rule, cabinets = _placement_args(placement, n.num_routers)
    return _core.cable_lengths(n._net, floor, rule, cabinets, per_cabinet)


def latency(
    net: NetworkLike,
    switch_delay_ns: float = 60.0,
    routing: str = "fastest",
    floor: PathLike = DEFAULT_FLOOR,
    *,
    cable_ns_per_m: float = 5.0,
    injection_ns: float = 300.0,
    placement: PlacementLike = None,
    per_cabinet: Optional[int] = None,
    progress: Optional[bool] = None,
    show_progress: Optional[bool] = None,
) -> LatencyReport:
    """Maximum and average latency and hop counts over all pairs of endpoint routers.

    ``routing``: ``"fastest"`` (lowest latency, Dijkstra) or ``"nearest"`` (fewest hops, ties by
    latency). Latency = injection + (hops + 1) × switch delay + cable delay × length (Fujiwara et al., IPDPS
    2014, §III-A). Runs in parallel with the GIL released; Ctrl-C interrupts it. ``progress``: a bar on
    stderr (default: when stderr is a terminal); ``show_progress`` is its deprecated name.
    """
    progress = legacy_keyword(progress, show_progress, "latency")
    n = as_network(net)
    rule, cabinets = _placement_args(placement, n.num_routers)
    # The core checks the arguments before the first progress report.
    with Progress("latency", unit="router", enabled=progress) as bar:
        d = _core.latency(
            n._net,
            routing,
            switch_delay_ns,
            cable_ns_per_m,
            injection_ns,
            floor,
            rule,
            cabinets,
            per_cabinet,
            bar.callback,
        )
    return LatencyReport._from_core(d)
