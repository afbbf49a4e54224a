"""The registry of point kinds: what one point of an experiment computes.

A kind is a function ``run_point(params: dict) -> dict`` that takes the parameters of one point
(plain values: str, int, float, bool, lists of them) and returns flat results (a dict of such
values). It must be deterministic: the same parameters give the same results wherever and
however often it runs (randomness comes from a ``seed`` parameter), because the runner may run
a point in any process, on any machine, and again after a lost worker.

The function is given to ``register_kind`` either as a callable or as an import path
``"module:function"``, which is resolved when first used. An experiment file names a kind only
by its registered name: a file is data, and naming ``os:system`` in it must not run anything.
Packages add kinds through the entry-point group ``topolab.kinds`` (name = the kind's name,
value = an import path of its run_point function, or of a ``Kind`` made with ``register_kind``),
looked up when an experiment names a kind that is not registered.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Union

from topolab._args import bad, quote
from topolab.defaults import DEFAULT_CATALOG, DEFAULT_FLOOR, DEFAULT_SEED

RunPoint = Callable[[dict], dict]
Validate = Callable[[dict], None]


@dataclass(frozen=True)
class Kind:
    """One registered kind. ``params``: the parameter names it takes (None: not checked by the
    runner); ``required``: those every point must give; ``validate``: an optional check of one
    point's parameters that raises ``topolab.ParameterError``, run for every point before any
    point runs (so that a typo fails at once rather than in every point)."""

    name: str
    target: Union[RunPoint, str]
    params: tuple[str, ...] | None = None
    required: tuple[str, ...] = ()
    validate: Union[Validate, str, None] = None
    summary: str = ""
    _resolved: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def function(self) -> RunPoint:
        if "run_point" not in self._resolved:
            self._resolved["run_point"] = resolve(self.target, f"kind '{self.name}'")
        return self._resolved["run_point"]

    def check(self, params: Mapping[str, Any]) -> None:
        """Raises ParameterError for a parameter the kind does not take or a missing one; for
        the kinds topolab ships, also for a value of the wrong type or range (check_values)."""
        if self.name in BUILTIN_KINDS and KINDS.get(self.name) is self:
            check_values(self.name, params)
        if self.params is not None:
            for key in params:
                if key not in self.params:
                    raise bad(
                        f"kind '{self.name}'",
                        key,
                        params[key],
                        f"one of the parameters {', '.join(self.params)}",
                        message=f"kind '{self.name}' does not take parameter '{key}' "
                        f"(valid parameters: {', '.join(self.params)})",
                    )
        for key in self.required:
            if key not in params:
                raise bad(
                    f"kind '{self.name}'",
                    key,
                    None,
                    "a value (the parameter is required)",
                    message=f"kind '{self.name}' needs parameter '{key}'",
                )
        if self.validate is not None:
            if "validate" not in self._resolved:
                self._resolved["validate"] = resolve(self.validate, f"kind '{self.name}' validate")
            self._resolved["validate"](dict(params))


KINDS: dict[str, Kind] = {}


def register_kind(
    name: str,
    run_point: RunPoint | str,
    *,
    params: Iterable[str] | None = None,
    required: Iterable[str] = (),
    validate: Validate | str | None = None,
    summary: str = "",
) -> Kind:
    """Registers (or replaces) a kind under ``name``; see the module docstring."""
    if not name or ":" in name:
        raise bad("register_kind", "name", name, "a non-empty name without ':'")
    required = tuple(required)
    params = None if params is None else tuple(params)
    if params is not None:
        missing = [r for r in required if r not in params]
        if missing:
            raise bad(
                f"register_kind '{name}'",
                "required",
                missing,
                "names among params",
                message=f"register_kind '{name}': required {missing} are not in params",
            )
    kind = Kind(name, run_point, params, required, validate, summary)
    KINDS[name] = kind
    return kind


def kinds() -> list[Kind]:
    """Every registered kind, by name."""
    return [KINDS[name] for name in sorted(KINDS)]


ENTRY_POINT_GROUP = "topolab.kinds"


def get_kind(name: str) -> Kind:
    """A registered kind, or one a package provides through the ``topolab.kinds`` entry points."""
    if name in KINDS:
        return KINDS[name]
    plugin = _entry_point(name)
    if plugin is not None:
        return plugin
    raise bad(
        "experiment",
        "kind",
        name,
        f"a registered kind: {', '.join(sorted(KINDS)) or 'none'}",
        message=f"kind {quote(name)} is not registered (registered kinds: "
        f"{', '.join(sorted(KINDS)) or 'none'}; more come from packages declaring the entry-point group "
        f"'{ENTRY_POINT_GROUP}', and register_kind adds one in Python code)",
    )


def _entry_point(name: str) -> Kind | None:
    found = [ep for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    if not found:
        return None
    what = f"kind '{name}' (entry point {found[0].value} of group {ENTRY_POINT_GROUP})"
    try:
        target = found[0].load()
    except Exception as err:  # noqa: BLE001 - a broken plugin is reported, whatever it raised
        raise bad(
            what,
            "kind",
            name,
            "an entry point that loads",
            message=(f"{what}: cannot be loaded: {type(err).__name__}: {err}"),
        ) from err
    if isinstance(target, Kind):
        KINDS[name] = target
        return target
    if not callable(target):
        raise bad(
            what, "kind", name, "a Kind or a callable", message=f"{what}: is neither a Kind nor a callable"
        )
    return register_kind(name, target, summary=f"from the entry point {found[0].value}")


def resolve(target: Callable | str, what: str) -> Callable:
    if callable(target):
        return target
    module_name, _, attr = str(target).partition(":")
    if not module_name or not attr:
        raise bad(
            what,
            "target",
            target,
            "an import path 'module:function'",
            message=(f"{what}: {target!r} is not an import path 'module:function'"),
        )
    try:
        obj: Any = importlib.import_module(module_name)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as err:
        raise bad(
            what,
            "target",
            target,
            "an import path 'module:function' that imports",
            message=(f"{what}: cannot import {target!r}: {err}"),
        ) from err
    if not callable(obj):
        raise bad(what, "target", target, "a callable", message=f"{what}: {target!r} is not callable")
    return obj


# --- the kinds topolab ships --------------------------------------------------------------------

BUILTIN_KINDS = (
    "info",
    "simulate",
    "sweep",
    "saturation",
    "exchange",
    "workload",
    "analyze",
    "cost",
    "latency",
)
# Parameters of the built-in kinds whose values are names or specs (a string each).
TEXT_PARAMS = ("routing", "traffic", "exchange", "floor", "catalog")


def check_values(kind: str, params: Mapping[str, Any]) -> None:
    """The checks a run would make, made before any point runs (and by a dry run): types and
    ranges of the built-in kinds' parameters, and a network that builds or loads (each distinct
    one once per process). The load and the seed are checked by the core
    (``_core.check_sim_params``); a router parameter's value here must have its declared kind's
    Python type (an experiment file writes ``num_vcs = 4``, not ``"4"``, which the Python API and
    the command line pass as text), its range is SimConfig's (the kinds' validate functions)."""
    from topolab import _args, _core
    from topolab.sim import check_network, sim_params

    context = f"kind '{kind}'"
    try:
        _core.check_sim_params(load=params.get("load"), seed=params.get("seed"))
    except _core.ParameterError as err:
        raise _args.in_context(context, err) from None
    numbers: dict[str, tuple[float, float, bool]] = {
        "tolerance": (0.0, 1.0, False),
        "switch_delay_ns": (0.0, math.inf, False),
        "cable_ns_per_m": (0.0, math.inf, False),
        "injection_ns": (0.0, math.inf, False),
        "max_electric_m": (0.0, math.inf, True),
    }
    integers = {
        "bisection_runs": (1, _args.U32_MAX),
        "per_cabinet": (1, _args.U32_MAX),
        "router_radix": (1, _args.U32_MAX),
    }
    router = {p.name: p.kind for p in sim_params()}
    for name, value in params.items():
        if name in numbers:
            lo, hi, allow_inf = numbers[name]
            _args.float_arg(context, name, value, lo, hi, allow_inf=allow_inf)
        elif name in integers:
            _args.int_arg(context, name, value, *integers[name])
        elif name in TEXT_PARAMS:
            _args.text_arg(context, name, value, "a name or spec (a string)")
            if not value.isprintable():
                raise _args.bad(context, name, value, "a name or spec without control characters")
        elif name == "loads":
            if not isinstance(value, list):
                raise _args.bad(context, name, value, "a list of loads from 0 to 1")
            for load in value:
                _args.float_arg(context, name, load, 0.0, 1.0)
        elif name in router and name != "seed":
            if router[name] == "int":
                _args.int_arg(context, name, value, 0, _args.U64_MAX)
            elif router[name] == "float":
                _args.float_arg(context, name, value, allow_inf=True)
            elif router[name] == "bool":
                _args.bool_arg(context, name, value)
    if "network" in params:
        check_network(context, params["network"])


def info_point(params: dict) -> dict:
    """Sizes of one network: ``network`` is a spec string or a network file."""
    from topolab.network import network_from_argument

    info = network_from_argument(str(params["network"])).info()
    return {
        "family": info["family"],
        "routers": info["routers"],
        "endpoints": info["endpoints"],
        "links": info["links"],
        "network_radix": info["network_radix"],
        "radix": info["radix"],
        "directed": info["directed"],
    }


register_kind(
    "info",
    info_point,
    params=["network"],
    required=["network"],
    summary="network sizes: routers, endpoints, links, radix, as topolab info gives them",
)
register_kind(
    "simulate",
    "topolab.sim:run_point",
    required=["network", "load"],
    validate="topolab.sim:check_point",
    summary="one cycle-accurate simulation: network, routing, traffic, load, seed and BookSim2-named "
    "router parameters; the columns of topolab.simulate's result",
)
register_kind(
    "sweep",
    "topolab.sim:sweep_point",
    required=["network"],
    summary="a latency-load curve and its saturation point (topolab.sweep_load): network, routing, "
    "traffic, loads, tolerance, every_load, seed and router parameters; the runs' columns as lists",
)

register_kind(
    "saturation",
    "topolab.design.saturation:saturation_point",
    required=["network"],
    validate="topolab.design.saturation:check_saturation_point",
    summary="the saturation load in a few runs (topolab compare --simulate's search): from the static "
    "channel-load bound, runs ended once their verdict is clear; network, routing, traffic, seed, "
    "tolerance and router parameters",
)

EXCHANGE_POINT_KEYS = ("network", "exchange", "routing", "seed")


def exchange_point(params: dict) -> dict:
    """One fixed exchange run to completion (``topolab.run_exchange``; Kathareios et al., SC15,
    §4.4): ``network``, ``exchange`` (a spec: ``alltoall``, ``nn3d:packets=64``; docs/traffic.md
    "Exchanges"), ``routing`` (min), ``seed``; every other key is a router parameter
    (``sim_params()``). Results: the ExchangeResult's fields but its routing, the exchange's
    resolved spec as ``name``."""
    from topolab.sim import run_exchange

    router_params = {k: v for k, v in params.items() if k not in EXCHANGE_POINT_KEYS}
    result = run_exchange(
        str(params["network"]),
        str(params["exchange"]),
        str(params.get("routing", "min")),
        seed=int(params.get("seed", DEFAULT_SEED)),
        progress=False,
        **router_params,
    )
    return _without_params(result.to_dict(), params)


def check_exchange_point(params: dict) -> None:
    """Before any point runs: text ``exchange`` and ``routing``, an integer ``seed``, and router
    parameters the simulator takes (the exchange spec and the routing are read against the
    network when the point runs)."""
    from topolab import _core

    for key in ("exchange", "routing"):
        if key in params and not isinstance(params[key], str):
            raise bad(
                "kind 'exchange'",
                key,
                params[key],
                "a name, e.g. " + ("'alltoall' or 'nn3d:packets=64'" if key == "exchange" else "'min'"),
            )
    _core.check_sim_params(
        {k: v for k, v in params.items() if k not in EXCHANGE_POINT_KEYS},
        seed=params.get("seed", DEFAULT_SEED),
    )


register_kind(
    "exchange",
    exchange_point,
    required=["network", "exchange"],
    validate=check_exchange_point,
    summary="one fixed exchange (alltoall, nn3d, ...) run to completion (topolab.run_exchange): network, "
    "exchange, routing, seed and router parameters; completion cycles, packets, effective throughput",
)


register_kind(
    "workload",
    "topolab.workload:workload_point",
    required=["network", "jobs"],
    validate="topolab.workload:check_workload_point",
    summary="message-level workloads (collectives, pipelines, halos; one job or several) run to "
    "completion (topolab.run_workload): network, jobs, routing, seed, packet_bytes, slowdown and router "
    "parameters; completion cycles, per job its cycles, bus bandwidth and slowdown",
)


def _network(params: dict):
    from topolab.network import network_from_argument

    return network_from_argument(str(params["network"]))


def _without_params(results: dict, params: dict) -> dict:
    """A result may not be named like a parameter of its point (docs/experiments.md)."""
    return {k: v for k, v in results.items() if k not in params}


def _flag(params: dict, name: str, default: bool = False) -> bool:
    value = params.get(name, default)
    if not isinstance(value, bool):
        raise bad(
            "experiment",
            name,
            value,
            "true or false",
            message=(f"parameter '{name}' = {value!r} is not allowed: true or false"),
        )
    return value


ANALYZE_PARAMS = ("network", "bisection", "bisection_runs", "paths", "resilience", "spectrum", "seed")


def analyze_point(params: dict) -> dict:
    """``topolab.analyze`` of one network (docs/analysis.md): distances, Moore fraction, and on
    request (``bisection``, ``paths``, ``resilience``, ``spectrum`` = true) those sections, with
    ``seed`` and ``bisection_runs``. Results: ``Analysis.to_dict()`` without the per-router
    eccentricities."""
    from topolab.analysis import analyze

    a = analyze(
        _network(params),
        bisection=_flag(params, "bisection"),
        bisection_runs=int(params.get("bisection_runs", 5)),
        paths=_flag(params, "paths"),
        resilience=_flag(params, "resilience"),
        spectrum=_flag(params, "spectrum"),
        seed=int(params.get("seed", DEFAULT_SEED)),
        progress=False,
    )
    results = a.to_dict()
    results.pop("eccentricities", None)
    if a.resilience is not None:
        results.update(_resilience_details(a.resilience))
    return _without_params(results, params)


RESILIENCE_CRITERIA = ("disconnect", "diameter_plus2", "aspl_plus1")


def _resilience_details(r: Any) -> dict:
    """What the flat resilience keys leave out and a reader needs to redo the thresholds
    (``resilience_from_results``): the cables, the step, the base distances, each criterion's
    standard deviation and survival curve."""
    out: dict[str, Any] = {
        "resilience_cables": r.cables,
        "resilience_step": r.step,
        "resilience_base_diameter": r.base_diameter,
        "resilience_base_aspl": r.base_aspl,
    }
    for key in RESILIENCE_CRITERIA:
        t = getattr(r, key)
        out[f"{key}_fraction_std_dev"] = t.std_dev
        out[f"{key}_survival"] = list(t.survival)
    return out


def resilience_from_results(row: Mapping[str, Any]) -> Any:
    """The ``Resilience`` of an "analyze" point run with ``resilience`` = true, from its results."""
    from topolab.analysis import Resilience, Threshold

    def plain(v: Any) -> Any:
        return v.item() if hasattr(v, "item") else v

    criteria = {
        key: Threshold(
            mean=float(row[f"{key}_fraction"]),
            ci_low=float(row[f"{key}_fraction_interval"][0]),
            ci_high=float(row[f"{key}_fraction_interval"][1]),
            std_dev=float(row[f"{key}_fraction_std_dev"]),
            survival=tuple(float(x) for x in row[f"{key}_survival"]),
        )
        for key in RESILIENCE_CRITERIA
    }
    return Resilience(
        seed=int(plain(row["resilience_seed"])),
        cables=int(plain(row["resilience_cables"])),
        step=float(row["resilience_step"]),
        samples=int(plain(row["resilience_samples"])),
        converged=bool(plain(row["resilience_converged"])),
        base_diameter=int(plain(row["resilience_base_diameter"])),
        base_aspl=float(row["resilience_base_aspl"]),
        **criteria,
    )


COST_PARAMS = ("network", "catalog", "floor", "placement", "per_cabinet", "max_electric_m", "router_radix")


def cost_point(params: dict) -> dict:
    """``topolab.cost`` of one network (docs/physical.md): placed on ``floor`` (slimfly) by
    ``placement`` (the family's; e.g. "sequential") with ``per_cabinet`` routers per cabinet,
    priced with ``catalog`` (fdr10). Results: the cost report's fields, the per-class cables
    flattened to ``<class>_cables``, ``<class>_electric``, ``<class>_optical``, ``<class>_m``,
    ``<class>_cost``."""
    from topolab.physical import cost

    options = {
        k: params[k] for k in ("placement", "per_cabinet", "max_electric_m", "router_radix") if k in params
    }
    report = cost(
        _network(params),
        str(params.get("catalog", DEFAULT_CATALOG)),
        str(params.get("floor", DEFAULT_FLOOR)),
        **options,
    )
    results = report.to_dict()
    for c in results.pop("by_class"):
        name = c["link_class"]
        results.update(
            {
                f"{name}_cables": c["cables"],
                f"{name}_electric": c["electric"],
                f"{name}_optical": c["optical"],
                f"{name}_m": c["total_m"],
                f"{name}_cost": c["cost"],
            }
        )
    return _without_params(results, params)


LATENCY_PARAMS = ("network", "routing", "floor", "switch_delay_ns", "cable_ns_per_m", "injection_ns")


def latency_point(params: dict) -> dict:
    """``topolab.latency`` of one network (Fujiwara et al., IPDPS 2014, §II-E, §III-A): all pairs of endpoint
    routers under ``routing`` = fastest (default) or nearest, on ``floor`` (skywalk), with
    ``switch_delay_ns`` (60), ``cable_ns_per_m`` (5) and ``injection_ns`` (300)."""
    from topolab.physical import latency

    report = latency(
        _network(params),
        switch_delay_ns=float(params.get("switch_delay_ns", 60.0)),
        routing=str(params.get("routing", "fastest")),
        floor=str(params.get("floor", DEFAULT_FLOOR)),
        cable_ns_per_m=float(params.get("cable_ns_per_m", 5.0)),
        injection_ns=float(params.get("injection_ns", 300.0)),
        progress=False,
    )
    return _without_params(report.to_dict(), params)


def check_latency_point(params: dict) -> None:
    routing = params.get("routing", "fastest")
    if routing not in ("fastest", "nearest"):
        raise bad("kind 'latency'", "routing", routing, "fastest or nearest")


def check_analyze_point(params: dict) -> None:
    for name in ("bisection", "paths", "resilience", "spectrum"):
        _flag(params, name)


register_kind(
    "analyze",
    analyze_point,
    params=ANALYZE_PARAMS,
    required=["network"],
    validate=check_analyze_point,
    summary="topolab.analyze: diameter, average hops, Moore fraction; bisection, path diversity, "
    "resilience, spectrum on request",
)
register_kind(
    "cost",
    cost_point,
    params=COST_PARAMS,
    required=["network"],
    summary="topolab.cost: placement on a floor, cables (electric, optical, length), cost and power",
)
register_kind(
    "latency",
    latency_point,
    params=LATENCY_PARAMS,
    required=["network"],
    validate=check_latency_point,
    summary=(
        "topolab.latency: all-pairs latency under Fastest or Nearest Routing (Fujiwara et al., IPDPS 2014, "
        "§III-A)"
    ),
)
