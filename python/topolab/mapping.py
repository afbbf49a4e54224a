"""Recovering a cabled network's structure (Daryin & Korzh, JSFI 2014, §2): a network whose
router ids carry no structure (an InfiniBand fabric as the subnet manager sees it) is mapped to
a HyperX's coordinates or a Dragonfly's groups, so that the structured routings
(``hyperx_dor``, ``dragonfly_static``, ...) accept it. See docs/mapping.md."""

from __future__ import annotations

from topolab import _core
from topolab._results import MappedNetwork
from topolab.network import Network, as_network

__all__ = ["MappedNetwork", "map_network"]


def map_network(net: Network | str, family: str, max_missing: int = 0) -> MappedNetwork:
    """Maps ``net`` as a ``family`` network ("hyperx" or "dragonfly"). Router ids, links,
    widths and endpoints are kept; the labels become the family's (d0, d1, ... or group,
    index). Up to ``max_missing`` missing links or cables are accepted and listed; more, or a
    network not of the family, raise ``topolab.NetworkError`` naming the property that failed."""
    return MappedNetwork._from_core(_core.map_network(as_network(net)._net, family, max_missing))
