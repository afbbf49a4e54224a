"""Failure sets: the network that survives dead cables and routers, and what was lost.

A failure spec is written like a topology spec (``links:fraction=0.05,seed=1``); several sets
joined with ``+`` fail together. ``failure_kinds()`` lists the kinds and their parameters;
docs/resilience.md explains how results on a degraded network are read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from topolab import _core
from topolab.network import Network


@dataclass(frozen=True)
class Failures:
    """The surviving network of a failure set (``network``) and what the set cost.

    The survivors are the connected component (strongly connected when directed) holding the
    most endpoints; ``cut_off_endpoints`` (ids of the intact network) are on failed routers or
    outside it. The degraded network numbers its endpoints afresh, so traffic from or to a
    cut-off endpoint is excluded from every measurement on it: ``excluded_pair_fraction`` is
    the share of the intact network's ordered endpoint pairs excluded that way."""

    network: Network
    failures: str
    failed_cables: int
    cables_before: int
    failed_routers: list[int]
    isolated_routers: list[int]
    router_ids: list[int] = field(repr=False)
    endpoints_before: int
    cut_off_endpoints: list[int]
    excluded_pair_fraction: float

    @property
    def surviving_endpoints(self) -> int:
        return self.endpoints_before - len(self.cut_off_endpoints)

    def to_dict(self) -> dict[str, Any]:
        """Everything but the network and the router id map, for JSON and tables."""
        return {
            "failures": self.failures,
            "failed_cables": self.failed_cables,
            "cables_before": self.cables_before,
            "failed_routers": self.failed_routers,
            "isolated_routers": self.isolated_routers,
            "endpoints_before": self.endpoints_before,
            "surviving_endpoints": self.surviving_endpoints,
            "cut_off_endpoints": self.cut_off_endpoints,
            "excluded_pair_fraction": self.excluded_pair_fraction,
        }


def apply_failures(net: Network | str, failures: str) -> Failures:
    """The network that survives ``failures`` on ``net`` (a Network or a spec string).

    Raises ``topolab.ParameterError`` for an impossible set (a fraction outside [0, 1], a link
    or router the network does not have, an unknown kind or key) and ``topolab.FileError`` for
    an unreadable failure list."""
    from topolab.network import as_network

    core, report = _core.apply_failures(as_network(net)._net, failures)
    return Failures(network=Network(core), **json.loads(report))


def failure_kinds() -> list[dict[str, Any]]:
    """Every kind of failure set: name, summary and parameters (name, kind, default, help)."""
    return _core.failure_kinds()
