"""Failure sets: the network that survives dead cables and routers, and what was lost.

A failure spec is written like a topology spec (``links:fraction=0.05,seed=1``); several sets
joined with ``+`` fail together. ``failure_kinds()`` lists the kinds and their parameters;
docs/resilience.md explains how results on a degraded network are read.
"""

from __future__ import annotations

from typing import Any

from topolab import _core
from topolab._results import Failures
from topolab.network import Network

__all__ = ["Failures", "apply_failures", "failure_kinds"]


def apply_failures(net: Network | str, failures: str) -> Failures:
    """The network that survives ``failures`` on ``net`` (a Network or a spec string).

    Raises ``topolab.ParameterError`` for an impossible set (a fraction outside [0, 1], a link
    or router the network does not have, an unknown kind or key) and ``topolab.FileError`` for
    an unreadable failure list."""
    from topolab.network import as_network

    return Failures._from_core(_core.apply_failures(as_network(net)._net, failures))


def failure_kinds() -> list[dict[str, Any]]:
    """Every kind of failure set: name, summary and parameters (name, kind, default, help)."""
    return _core.failure_kinds()
