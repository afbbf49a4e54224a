"""The cycle-accurate simulator: one run (``simulate``), a latency-load sweep (``sweep_load``),
fixed exchanges (``run_exchange``) and BookSim2 configuration files (``from_booksim``).

Router parameters are keyword arguments with BookSim2's names (``num_vcs=4``,
``vc_buf_size=64``, ``credit_delay=2``, ...); ``sim_params()`` lists them with their defaults.
The work runs in Rust with the GIL released; ``progress`` shows a bar with rate and ETA on
stderr (default: when stderr is a terminal; topolab.progress) and Ctrl-C interrupts
(KeyboardInterrupt). The default seed is ``DEFAULT_SEED`` (0, as in BookSim2's configurations).
See docs/simulator.md.
"""

from __future__ import annotations

import functools
import math
import os
from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar, Sequence

from topolab import _core, _results
from topolab._args import bad, renamed_keyword, text_arg
from topolab._results import ExchangeResult, SimResult, SweepResult
from topolab.defaults import DEFAULT_SEED
from topolab.families import Param
from topolab.network import Network, as_network
from topolab.progress import Progress, legacy_keyword
from topolab.routing import warn_if_not_deadlock_free

# The simulator's stages that count cycles (measure.rs); the others set up the run.
CYCLE_STAGES = ("simulating", "draining", "emptying")

if TYPE_CHECKING:
    import pandas as pd


def half_width(interval: Any) -> float | None:
    """The half-width of a 95% confidence interval (low, high) as a run reports it (centred on
    its figure, so that the figure is "value ± half-width"); None without an interval."""
    if interval is None or isinstance(interval, float) or len(interval) != 2:
        return None
    low, high = float(interval[0]), float(interval[1])
    return (high - low) / 2 if math.isfinite(low) and math.isfinite(high) else None


@dataclass(frozen=True)
class SimParam:
    name: str
    kind: str
    default: str
    help: str


@dataclass(frozen=True)
class BooksimSetup:
    """A run described by a BookSim2 configuration file: pass it on as
    ``simulate(setup.network, setup.routing, setup.traffic, setup.load, **setup.params)``."""

    network: Network
    network_spec: str
    routing: str
    traffic: str
    load: float
    params: dict[str, Any]

    def simulate(self, **overrides: Any) -> SimResult:
        params = {**self.params, **overrides}
        load = params.pop("load", self.load)
        return simulate(self.network, self.routing, self.traffic, load, **params)


def simulate(
    net: Network | str,
    routing: str = "min",
    traffic: str = "uniform",
    load: float = 0.5,
    seed: int = DEFAULT_SEED,
    *,
    failures: str | None = None,
    progress: bool | None = None,
    show_progress: bool | None = None,
    **router_params: Any,
) -> SimResult:
    """Simulates ``traffic`` at ``load`` flits per endpoint per cycle on ``net``.

    ``routing``: min, min_static, valiant, ugal_l, ugal_g, dor, ... (``topolab.routings()``;
    topolab's ``min`` picks among all minimal next hops adaptively, BookSim2's ``min`` is
    topolab's ``min_static``); ``router_params``: BookSim2-named parameters (``sim_params()``).
    ``failures``: simulate the network that survives this failure spec
    (``topolab.apply_failures``; traffic runs between the surviving endpoints only).
    ``show_progress`` is the deprecated name of ``progress``. ``precision=X`` (a router
    parameter): measure until the 95% intervals of accepted throughput and average latency are
    both within X of their figure (relative half-width, at least 3 measured periods) instead of
    BookSim2's convergence rule; ``precision_reached`` says whether it was met by
    ``max_samples`` (docs/simulator.md, "Confidence intervals")."""
    progress = legacy_keyword(progress, show_progress, "simulate")
    network = as_network(net, failures)._net
    warn_if_not_deadlock_free(routing)
    # The core checks the arguments before the first progress report: a bad one is an error
    # before the bar starts, not a failed run.
    with Progress("simulate", unit="cycle", enabled=progress, unit_stages=CYCLE_STAGES) as bar:
        d = _core.simulate(
            network, routing, traffic, load, seed=seed, params=router_params, progress=bar.callback
        )
    return SimResult._from_core(d)


SIMULATE_POINT_KEYS = ("network", "routing", "traffic", "load", "seed", "failures")


def run_point(params: dict[str, Any]) -> dict[str, Any]:
    """One experiment point of kind "simulate" (topolab run): ``network``, ``routing``,
    ``traffic``, ``load``, ``seed``, ``failures`` (optional failure spec); every other key is
    a router parameter (``sim_params()``)."""
    router_params = {k: v for k, v in params.items() if k not in SIMULATE_POINT_KEYS}
    result = simulate(
        str(params["network"]),
        routing=str(params.get("routing", "min")),
        traffic=str(params.get("traffic", "uniform")),
        load=float(params["load"]),
        seed=int(params.get("seed", DEFAULT_SEED)),
        failures=params.get("failures"),
        progress=False,
        **router_params,
    )
    # The point's own parameters are already columns of the results table.
    return {k: v for k, v in result.to_dict().items() if k not in SIMULATE_POINT_KEYS}


SWEEP_POINT_KEYS = ("network", "routing", "traffic", "loads", "tolerance", "every_load", "seed", "failures")
# The columns of a sweep's runs kept as lists in a "sweep" point's results.
SWEEP_CURVE_COLUMNS = (
    "offered_load",
    "accepted_throughput",
    "avg_latency",
    "p99_latency",
    "avg_hops",
    "deflection_rate",
    "saturated",
    "saturation_reason",
    "accepted_throughput_halfwidth",
    "avg_latency_halfwidth",
)


def sweep_point(params: dict[str, Any]) -> dict[str, Any]:
    """One experiment point of kind "sweep": the latency-load curve and saturation point of
    ``network``, ``routing``, ``traffic`` (``sweep_load`` with ``loads``, ``tolerance``,
    ``every_load``, ``seed``); every other key is a router parameter. Results: ``saturation_load``,
    ``saturated_load`` (the bracket, as in ``sweep_load``), ``saturation_throughput`` and, per run
    by increasing load, the lists ``SWEEP_CURVE_COLUMNS`` (``*_halfwidth``: the 95% half-width of
    the run's accepted throughput and average latency, None without an interval)."""
    router_params = {k: v for k, v in params.items() if k not in SWEEP_POINT_KEYS}
    loads = params.get("loads")
    df = sweep_load(
        str(params["network"]),
        routing=str(params.get("routing", "min")),
        traffic=str(params.get("traffic", "uniform")),
        loads=None if loads is None else [float(x) for x in loads],
        seed=int(params.get("seed", DEFAULT_SEED)),
        load_resolution=float(params.get("tolerance", 0.01)),
        **({"every_load": bool(params["every_load"])} if "every_load" in params else {}),
        failures=params.get("failures"),
        **router_params,
    )
    out: dict[str, Any] = {
        "saturation_load": df.attrs["saturation_load"],
        "saturated_load": df.attrs["saturated_load"],
        "saturation_throughput": df.attrs["saturation_throughput"],
    }
    for figure in ("accepted_throughput", "avg_latency"):
        df[f"{figure}_halfwidth"] = [half_width(v) for v in df[f"{figure}_ci95"]]
    for column in SWEEP_CURVE_COLUMNS:
        out[column] = [v.item() if hasattr(v, "item") else v for v in df[column]]
    return out


def check_point(params: dict[str, Any]) -> None:
    """The checks a "simulate" point gets before any point of an experiment runs: known keys,
    ``load`` from 0 to 1, an integer ``seed``, router parameters the simulator takes, and a
    network that builds (each distinct spec is built once per process). The routing and the
    traffic pattern are checked when the point runs (they are read against the network)."""
    allowed = set(SIMULATE_POINT_KEYS) | {p.name for p in sim_params()}
    for key in params:
        if key not in allowed:
            known = ", ".join(sorted(allowed))
            raise bad("simulate", key, params[key], f"a parameter of the simulator ({known})")
    for key in ("routing", "traffic"):
        if key in params and not isinstance(params[key], str):
            raise bad("simulate", key, params[key], "a name, e.g. 'min' or 'uniform'")
    _core.check_sim_params(
        {k: v for k, v in params.items() if k not in SIMULATE_POINT_KEYS},
        load=params["load"],
        seed=params.get("seed", DEFAULT_SEED),
    )
    check_network("simulate", params["network"])


def check_network(context: str, network: Any) -> None:
    """An experiment's ``network``: a spec or the path of a network file, that builds or loads."""
    text = text_arg(context, "network", network, "a spec or the path of a network file (a string)")
    if not text.isprintable():
        raise bad(context, "network", text, "a spec or a path without control characters")
    error = _network_error(text)
    if error is not None:
        raise bad(context, "network", text, error, message=f"{context}: parameter 'network': {error}")


@functools.lru_cache(maxsize=256)
def _network_error(text: str) -> str | None:
    """The message of building ``text`` (a spec or a file), None when it builds; the network
    itself is not kept."""
    from topolab.network import network_from_argument

    try:
        network_from_argument(text)
    except _core.TopolabError as err:
        return str(err)
    return None


def sweep_load(
    net: Network | str,
    routing: str = "min",
    traffic: str = "uniform",
    loads: Sequence[float] | None = None,
    seed: int = DEFAULT_SEED,
    *,
    load_resolution: float = 0.01,
    every_load: bool = False,
    failures: str | None = None,
    progress: bool | None = None,
    show_progress: bool | None = None,
    tolerance: float | None = None,
    **router_params: Any,
) -> pd.DataFrame:
    """The latency-load curve: one row per run (columns as ``SimResult``), by increasing load.

    Runs ``loads`` (default 0.1, 0.2, ...) in increasing order up to the first saturated one (``every_load``:
    all of them, for a curve that shows its saturated points), then closes the bracket between the highest
    load that did not saturate and the lowest that did to ``load_resolution`` with the saturation search of
    ``compare --simulate`` (docs/simulator.md, "Sweep"; 0 disables; ``tolerance`` is its former name,
    deprecated). ``df.attrs`` holds the search's bracket: ``saturation_load`` (the highest
    load a run carried, 0 when every run saturated) and ``saturated_load`` (the lowest load above it a run
    saturated at, None when none did), so the network saturates within [saturation_load, saturated_load], a
    bracket at most ``load_resolution`` wide after the search; and ``saturation_throughput`` (highest
    accepted throughput). ``failures`` as in ``simulate``."""
    import pandas as pd

    progress = legacy_keyword(progress, show_progress, "sweep_load")
    network = as_network(net, failures)._net
    load_resolution = renamed_keyword(
        "sweep_load", "load_resolution", load_resolution, "tolerance", tolerance
    )
    warn_if_not_deadlock_free(routing)
    # The core names each run of a sweep "load X" (crates/topolab-sim/src/sweep.rs).
    with Progress("sweep", unit="cycle", enabled=progress, cumulative="load ", unit_stages=("load ",)) as bar:
        d = _core.sweep_load(
            network,
            routing,
            traffic,
            loads=loads,
            load_resolution=load_resolution,
            every_load=every_load,
            seed=seed,
            params=router_params,
            progress=bar.callback,
        )
    result = SweepResult._from_core(d)
    rows = [p.to_dict() for p in result.points]
    df = pd.DataFrame(rows, columns=[f.name for f in fields(SimResult)])
    df.attrs["saturation_load"] = result.saturation_load
    df.attrs["saturated_load"] = result.saturated_load
    df.attrs["saturation_throughput"] = result.saturation_throughput
    df.attrs["routing"] = routing
    df.attrs["traffic"] = traffic
    return df


class Timeline(_results.Timeline):
    """A run cut into windows around cables dying during it (its fields:
    ``topolab._results.Timeline``, declared in Rust), with its windows as a table."""

    UNITS: ClassVar[dict[str, str]] = {**_results.Timeline.UNITS, **_results.TimelineWindow.UNITS}

    def to_dataframe(self) -> pd.DataFrame:
        """One row per window, a column per field of ``TimelineWindow``."""
        import pandas as pd

        columns = [f.name for f in fields(_results.TimelineWindow)]
        return pd.DataFrame([asdict(w) for w in self.windows], columns=columns)


def timeline(
    net: Network | str,
    routing: str = "min",
    traffic: str = "uniform",
    load: float = 0.5,
    seed: int = DEFAULT_SEED,
    *,
    window: int = 200,
    cycles: int | None = None,
    failures: str | None = None,
    progress: bool | None = None,
    **router_params: Any,
) -> Timeline:
    """Runs ``traffic`` at ``load`` from an empty network for ``cycles`` cycles in windows of
    ``window`` cycles, through the cables ``dynamic_failures`` (a router parameter, a failure
    spec) fails at ``failure_cycle``, the routing recomputed on what survives
    ``reaction_delay`` cycles later: throughput and latency over time, dropped flits, the
    recovery time. ``cycles`` defaults to twice the failure cycle plus the reaction delay.
    Without ``dynamic_failures`` the windows show the intact network. ``failures``: a static
    failure set applied before the run, as in ``simulate``."""
    network = as_network(net, failures)._net
    warn_if_not_deadlock_free(routing)
    with Progress("timeline", unit="cycle", enabled=progress, unit_stages=("timeline",)) as bar:
        d = _core.sim_timeline(
            network,
            routing,
            traffic,
            load,
            window,
            cycles,
            seed=seed,
            params=router_params,
            progress=bar.callback,
        )
    return Timeline._from_core(d)


def run_exchange(
    net: Network | str,
    per_source: str | Sequence[Sequence[tuple[int, int]]],
    routing: str = "min",
    seed: int = DEFAULT_SEED,
    *,
    name: str = "exchange",
    interleave: bool | None = None,
    progress: bool | None = None,
    show_progress: bool | None = None,
    **router_params: Any,
) -> ExchangeResult:
    """Runs a fixed exchange to completion: ``per_source[s]`` lists the (destination endpoint,
    packets) messages endpoint ``s`` sends, as fast as its injection channel allows, each message
    whole in turn (the default) or, with ``interleave=True``, one packet of each in turn (the
    messages of a source must then be of one size). ``per_source`` may instead be an exchange
    spec (``"alltoall"``, ``"nn3d:packets=64"``: docs/traffic.md "Exchanges"), whose own
    ``interleave`` parameter says the order (true by default); ``name`` is then the spec with
    every parameter resolved."""
    net = as_network(net)
    progress = legacy_keyword(progress, show_progress, "run_exchange")
    warn_if_not_deadlock_free(routing)
    if isinstance(per_source, str):
        if interleave is not None:
            raise bad(
                "run_exchange",
                "interleave",
                interleave,
                'nothing with an exchange spec: give the spec\'s own ("nn3d:interleave=false")',
            )
        messages: dict[str, Any] = {"spec": per_source}
    else:
        interleave = False if interleave is None else interleave
        messages = {"per_source": per_source, "name": name, "interleave": interleave}
    # the exchange reports the flits delivered of all it has to send
    with Progress("exchange", unit="flit", enabled=progress, unit_stages=("exchange",)) as bar:
        d = _core.run_exchange(
            net._net, routing, seed=seed, params=router_params, progress=bar.callback, **messages
        )
    return ExchangeResult._from_core(d)


def sim_params() -> list[SimParam]:
    """Every simulation parameter with its default and meaning."""
    return [SimParam(**p) for p in _core.sim_params()]


@dataclass(frozen=True)
class TrafficPattern:
    """A traffic pattern the simulator takes (``traffic="name:param=value"``, docs/traffic.md), or
    an exchange (``exchange_patterns``), with its declared parameters."""

    name: str
    aliases: tuple[str, ...]
    params: tuple[str, ...]
    param_defs: tuple[Param, ...] = ()


def _patterns(
    rows: list[tuple[str, list[str], list[tuple[str, str, str | None, str]]]],
) -> list[TrafficPattern]:
    return [
        TrafficPattern(n, tuple(a), tuple(p[0] for p in ps), tuple(Param(*p) for p in ps))
        for n, a, ps in rows
    ]


def traffic_patterns() -> list[TrafficPattern]:
    """Every traffic pattern with its aliases and declared parameters, from the core's catalog."""
    return _patterns(_core.traffic_patterns())


def exchange_patterns() -> list[TrafficPattern]:
    """Every exchange (``run_exchange``) with its aliases and declared parameters."""
    return _patterns(_core.exchange_patterns())


def from_booksim(path: str | os.PathLike[str]) -> BooksimSetup:
    """Reads a BookSim2 configuration file (the keys topolab supports; others are rejected by
    name). The parameters include ``booksim_compat=True``, so runs reproduce BookSim2's router."""
    net, routing, traffic, load, config, spec = _core.read_booksim_config(path)
    defaults = {p.name: p.default for p in sim_params()}
    params: dict[str, Any] = {}
    for key, value in config.items():
        if key == "link_latency":
            value = ",".join(f"{c}:{v}" for c, v in value.items())
        if key not in defaults:
            continue
        if str(value).lower() != str(defaults[key]).lower():
            params[key] = value
    return BooksimSetup(Network(net), spec, routing, traffic, load, params)
