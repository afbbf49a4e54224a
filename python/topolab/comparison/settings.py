"""What ``topolab compare`` is asked: ``CompareSettings`` and the defaults of its command line
(docs/compare.md §4)."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Iterable

from topolab._args import U32_MAX, U64_MAX, bad, bool_arg, float_arg, int_arg, opt_int_arg, text_arg
from topolab.defaults import DEFAULT_CATALOG, DEFAULT_FLOOR, DEFAULT_SEED
from topolab.display import Summarized

# Routers of more ports than this are not built; it bounds the enumeration of designs.
MAX_RADIX = 65_536
# The demonstration that ``topolab compare`` runs without arguments: Besta & Hoefler, SC14, Table IV's
# question, radix-48 routers (Table IV's networks need 27 to 47 ports) for about 10,000 endpoints.
DEFAULT_RADIX = 48
DEFAULT_ENDPOINTS = 10_000
# Designs measured per family unless every design is asked for. At the defaults the enumeration
# finds 1,137 designs (536 Dragonflies); 8 per family is 135 designs, about 75 s of CPU, against
# about 325 s for all (docs/compare.md §4, Figures).
DEFAULT_PER_FAMILY = 8
# ``--simulate-scaled``: each design is simulated as the largest member of its family with at most
# this many endpoints and the same load (topolab.design.simulate; docs/compare.md §5).
DEFAULT_SIM_ENDPOINTS = 600
# ``--simulate``: the best designs of each family (by the ranking without simulation) simulated at
# their size. One keeps the default question (radix 48, 10,000 endpoints) within minutes here.
DEFAULT_SIM_PER_FAMILY = 1
# ``--failed-fraction F``: the degradation curves of the front's simulated designs are drawn with this
# many failure sets per failed fraction (two: the least that gives an interval; each is a
# saturation search, about a CPU-minute at 10,000 endpoints).
DEFAULT_FAILURE_SEEDS = 2
# An architect gets a balanced network unless they allow oversubscription: by default only
# designs with load <= 1 are recommended (docs/compare.md §3). Oversubscribed designs up to
# SHOWN_OVERSUBSCRIPTION are still measured and shown, marked "not recommended".
DEFAULT_ALLOWED_OVERSUBSCRIPTION = 0.0
# The alternatives a recommendation is weighed against: the other designs on the Pareto front
# costing at most this many times the recommended design per endpoint. A design that leads on
# bandwidth at many times the price (a torus at 17x) answers another question; it is named
# apart, as beyond this rule (the report's first screen and the recommendation's sentence).
ALTERNATIVE_COST_FACTOR = 1.5
# Besta & Hoefler, SC14, §V-E study p = 16..21 on the q = 19 Slim Fly whose balanced p is 15: up
# to 40% more. Also what ``enumerate_designs`` admits by default.
SHOWN_OVERSUBSCRIPTION = 0.4


def family_names(families: str | Iterable[str] | None) -> tuple[str, ...] | None:
    """``CompareSettings.families`` from what a caller gives: None (every family), a list or
    tuple of names, or one string "slimfly,dragonfly" as the command line takes it."""
    allowed = "None (every family), family names or one string 'slimfly,dragonfly'"
    if families is None:
        return None
    if isinstance(families, str):
        names = tuple(f for f in families.split(",") if f.strip())
    elif isinstance(families, (list, tuple, set, frozenset)):
        names = tuple(families)
    else:
        raise bad("compare", "families", families, allowed)
    for name in names:
        text_arg("compare", "families", name, allowed)
    return names


@dataclass(frozen=True, repr=False)
class CompareSettings(Summarized):
    """What ``topolab compare`` is asked. ``per_family=None`` measures every design found.
    ``simulate``: each family's best ``sim_per_family`` designs simulated at their size, or with
    ``simulate_scaled`` as members of at most ``sim_endpoints`` endpoints (docs/compare.md §5);
    ``failures``: also their saturation load under uniform traffic with this fraction of the
    cables failed (``links:fraction=F,seed=seed``, docs/resilience.md), and the degradation curves
    of the front's simulated designs at ``curve_fractions`` with ``failure_seeds`` failure sets
    each; ``workload``: also their
    completion time of this job (a workload spec, docs/workloads.md), a column and an objective;
    ``sim_precision``: the
    simulator's ``precision`` for every run of the searches (0: off), with which a run near
    saturation also ends once its accepted throughput's 95% interval lies wholly on one side of
    the saturation line (docs/simulator.md, "Confidence intervals").

    One machine room for cost and latency: routers are placed on ``floor`` by their family's
    rule (docs/physical.md), cables priced with ``catalog``; latency is Fastest Routing with
    ``switch_delay_ns`` per switch, ``cable_ns_per_m`` and ``injection_ns`` (Fujiwara et al., IPDPS 2014,
    §III-A)."""

    radix: int = DEFAULT_RADIX
    endpoints: int = DEFAULT_ENDPOINTS
    endpoint_tolerance: float = 0.15
    families: tuple[str, ...] | None = None
    oversubscription: float = DEFAULT_ALLOWED_OVERSUBSCRIPTION
    floor: str = DEFAULT_FLOOR
    catalog: str = DEFAULT_CATALOG
    resilience: bool = False
    per_family: int | None = DEFAULT_PER_FAMILY
    seed: int = DEFAULT_SEED
    bisection_runs: int = 5
    switch_delay_ns: float = 60.0
    cable_ns_per_m: float = 5.0
    injection_ns: float = 300.0
    simulate: bool = False
    simulate_scaled: bool = False
    sim_endpoints: int = DEFAULT_SIM_ENDPOINTS
    sim_per_family: int = DEFAULT_SIM_PER_FAMILY
    failures: float | None = None
    # Any iterable of fractions; a tuple once checked (`__post_init__`).
    failure_fractions: Iterable[float] | None = None
    failure_seeds: int = DEFAULT_FAILURE_SEEDS
    workload: str | None = None
    sim_precision: float = 0.0

    def __post_init__(self) -> None:
        int_arg("compare", "radix", self.radix, 3, MAX_RADIX)
        int_arg("compare", "endpoints", self.endpoints, 1, U32_MAX)
        float_arg("compare", "endpoint_tolerance", self.endpoint_tolerance, 0.0, 0.999)
        float_arg("compare", "oversubscription", self.oversubscription, 0.0, 1e6)
        opt_int_arg("compare", "per_family", self.per_family, 1, U32_MAX)
        int_arg("compare", "seed", self.seed, 0, U64_MAX)
        int_arg("compare", "bisection_runs", self.bisection_runs, 1, U32_MAX)
        int_arg("compare", "sim_endpoints", self.sim_endpoints, 2, U32_MAX)
        int_arg("compare", "sim_per_family", self.sim_per_family, 1, U32_MAX)
        float_arg("compare", "sim_precision", self.sim_precision, 0.0, 1.0)
        for name in ("switch_delay_ns", "cable_ns_per_m", "injection_ns"):
            float_arg("compare", name, getattr(self, name), 0.0)
        for name in ("resilience", "simulate", "simulate_scaled"):
            bool_arg("compare", name, getattr(self, name))
        for name in ("floor", "catalog"):
            text_arg("compare", name, getattr(self, name), "a built-in name or the path of a TOML file")
            if not getattr(self, name):
                raise bad("compare", name, getattr(self, name), "a built-in name or the path of a TOML file")
        if self.failures is not None:
            float_arg("compare", "failures", self.failures, 0.0, 1.0, above=True)
            if not self.simulate:
                raise bad(
                    "compare",
                    "failures",
                    self.failures,
                    "None without simulate (the saturation load with failed cables is simulated)",
                )
        int_arg("compare", "failure_seeds", self.failure_seeds, 1, 1000)
        if self.failure_fractions is not None:
            allowed = "a list of failed fractions from 0 to 1 (with failures)"
            given = self.failure_fractions
            if self.failures is None or isinstance(given, (str, bytes)) or not isinstance(given, Iterable):
                raise bad("compare", "failure_fractions", given, allowed)
            # Read once: a generator gives its values a single time.
            listed = list(given)
            if not listed:
                raise bad("compare", "failure_fractions", listed, allowed)
            fractions = tuple(float_arg("compare", "failure_fractions", f, 0.0, 1.0) for f in listed)
            object.__setattr__(self, "failure_fractions", fractions)
        if self.workload is not None:
            text_arg("compare", "workload", self.workload, "a workload spec, e.g. 'allreduce:bytes=1MiB'")
            if not self.simulate:
                raise bad(
                    "compare",
                    "workload",
                    self.workload,
                    "None without simulate (the workload runs in the cycle-accurate simulator)",
                )
        object.__setattr__(self, "families", family_names(self.families))

    @property
    def shown_oversubscription(self) -> float:
        """Designs up to this oversubscription are enumerated and measured: the allowed one, or
        SHOWN_OVERSUBSCRIPTION when that is larger, so the oversubscribed alternatives appear
        (marked, not recommended) even when only balanced designs may be recommended."""
        return max(self.oversubscription, SHOWN_OVERSUBSCRIPTION)

    @property
    def curve_fractions(self) -> tuple[float, ...]:
        """The failed fractions of the degradation curves, increasing: ``failure_fractions``
        (with ``failures`` added when it is missing, so that each curve passes through the
        ``saturation_failed`` column's point), by default 0, F/2, F and 2F (at most 1) for
        ``failures`` = F; empty without ``failures``."""
        if self.failures is None:
            return ()
        given = self.failure_fractions
        if given is None:
            given = (0.0, self.failures / 2, self.failures, min(1.0, 2 * self.failures))
        return tuple(sorted({*given, self.failures}))

    def endpoint_range(self) -> tuple[int, int]:
        """The endpoint counts admitted, as ``enumerate_designs`` computes them."""
        slack = self.endpoint_tolerance * self.endpoints
        return max(1, math.ceil(self.endpoints - slack - 1e-9)), math.floor(self.endpoints + slack + 1e-9)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["families"] = None if self.families is None else list(self.families)
        return d
