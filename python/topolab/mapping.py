"""Recovering a cabled network's structure (Daryin & Korzh, JSFI 2014, §2): a network whose
router ids carry no structure (an InfiniBand fabric as the subnet manager sees it) is mapped to
a HyperX's coordinates or a Dragonfly's groups, so that the structured routings
(``hyperx_dor``, ``dragonfly_static``, ...) accept it. See docs/mapping.md."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from topolab import _core
from topolab.network import Network, as_network


@dataclass
class MappedNetwork:
    """The labelled network and what the mapping found."""

    network: Network
    family: str
    # HyperX: K_n per dimension; Dragonfly: [groups, routers per group].
    shape: list[int]
    # HyperX: L_n per dimension; Dragonfly: [local width, most cables between two groups].
    widths: list[int]
    # Router pairs the family links but the network does not (a cabling fault).
    missing_links: list[tuple[int, int]] = field(default_factory=list)
    missing_cables: int = 0


def map_network(net: Network | str, family: str, max_missing: int = 0) -> MappedNetwork:
    """Maps ``net`` as a ``family`` network ("hyperx" or "dragonfly"). Router ids, links,
    widths and endpoints are kept; the labels become the family's (d0, d1, ... or group,
    index). Up to ``max_missing`` missing links or cables are accepted and listed; more, or a
    network not of the family, raise ``topolab.NetworkError`` naming the property that failed."""
    core_net, report = _core.map_network(as_network(net)._net, family, max_missing)
    r = json.loads(report)
    return MappedNetwork(
        network=Network(core_net),
        family=r["family"],
        shape=r["shape"],
        widths=r["widths"],
        missing_links=[tuple(p) for p in r["missing_links"]],
        missing_cables=r["missing_cables"],
    )
