"""Static routing analysis: channel-dependency deadlock check, channel load (throughput bound)
and InfiniBand-style forwarding tables. Routings are named by spec, e.g. ``min:vcs=hop``,
``valiant:vcs=phase,endpoints_only=true``, ``updown``, ``dfsssp`` (see docs/routing.md)."""

from __future__ import annotations

import json
import warnings
from dataclasses import asdict, dataclass
from typing import Any, Optional, Sequence

from topolab import _core
from topolab._results import ChannelLoad, DeadlockReport
from topolab.families import Param
from topolab.network import Network
from topolab.progress import Progress, legacy_keyword


class DeadlockWarning(UserWarning):
    """A routing that is not deadlock-free was chosen (kept on purpose, e.g. to agree with
    BookSim2); the message names the deadlock-free alternative."""


def warn_if_not_deadlock_free(routing: str, stacklevel: int = 3) -> None:
    """Warns (``DeadlockWarning``) when ``routing`` is one of the catalog's routings known not to be
    deadlock-free (``topolab routing check`` shows the cycle); silent otherwise."""
    caution = _core.routing_deadlock_caution(routing)
    if caution:
        warnings.warn(f"routing {routing!r}: {caution}", DeadlockWarning, stacklevel=stacklevel)


def check(
    net: Network,
    routing: str,
    *,
    progress: Optional[bool] = None,
    show_progress: Optional[bool] = None,
) -> DeadlockReport:
    """Build the channel dependency graph of ``routing`` on ``net`` and look for a cycle.
    ``progress``: a bar on stderr (default: when stderr is a terminal); ``show_progress`` is its
    deprecated name."""
    progress = legacy_keyword(progress, show_progress, "routing.check")
    warn_if_not_deadlock_free(routing)
    with Progress("routing check", unit="step", enabled=progress) as bar:
        d = json.loads(_core.routing_check(net._net, routing, bar.callback))
    return deadlock_report(d)


def deadlock_report(d: dict[str, Any]) -> DeadlockReport:
    """A DeadlockReport from the core's JSON object (CdgReport)."""
    return DeadlockReport._from_core(d)


def channel_load(
    net: Network,
    routing: str,
    permutation: Optional[Sequence[int]] = None,
    *,
    traffic: Optional[str] = None,
    progress: Optional[bool] = None,
    show_progress: Optional[bool] = None,
    max_pairs: Optional[int] = None,
    max_paths: Optional[int] = None,
    valiant_phases: bool = False,
) -> ChannelLoad:
    """Expected load per directed link under uniform traffic, an endpoint permutation, or a
    simulator traffic spec (``traffic="shift:k=3"``, ``"worst"``, ...: docs/traffic.md).
    ``progress`` as in ``check``. ``max_pairs`` and ``max_paths`` bound the work: a traffic
    of more router pairs, or a routing listing more paths over all pairs, is a
    ParameterError naming the limit. ``valiant_phases=True`` loads the traffic as Valiant
    routing sends it (to an intermediate drawn from every router but the pair's two, then
    on) along ``routing``'s paths: with ``routing="min"`` these are Valiant's own loads
    (docs/routing.md, "Channel load"), without listing a path per intermediate."""
    progress = legacy_keyword(progress, show_progress, "routing.channel_load")
    with Progress("channel load", unit="step", enabled=progress) as bar:
        d = json.loads(
            _core.routing_load(
                net._net, routing, permutation, bar.callback, traffic, max_pairs, max_paths, valiant_phases
            )
        )
    return ChannelLoad._from_core(d)


def forwarding_tables(net: Network, routing: str, vl_budget: int = 8) -> str:
    """LFT and VL tables in topolab's text format (docs/routing.md)."""
    return _core.routing_tables(net._net, routing, vl_budget)


@dataclass
class RoutingInfo:
    """One routing of the catalogue: where it comes from and which readers take it
    (``simulator``: ``topolab sim --routing``; ``static``: ``topolab routing check|load|tables``).
    ``alias_of``: for an old name kept working, the spec of the one definition it stands for."""

    name: str
    params: list[str]
    summary: str
    source: str
    simulator: bool
    static: bool
    alias_of: str | None = None
    #: The routing's own declared parameters (``params`` also names the reader keys it takes).
    param_defs: tuple[Param, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def routings() -> list[RoutingInfo]:
    """Every routing and alias by name, from the core's one routing catalog."""
    rows = json.loads(_core.routing_catalog())
    return [RoutingInfo(**{**r, "param_defs": tuple(Param(**p) for p in r["param_defs"])}) for r in rows]
