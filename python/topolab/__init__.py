"""topolab: design, analyze, cost and simulate interconnection networks.

Quick start::

    import topolab
    net = topolab.build("slimfly", q=19)          # or topolab.build("slimfly:q=19,p=15")
    print(net.num_routers, net.num_endpoints, net.radix)
    g = net.to_networkx()
"""

from topolab._core import (
    FileError,
    FormatError,
    NetworkError,
    ParameterError,
    TopolabError,
    __version__,
)
from topolab.families import families
from topolab.network import Network, build, from_networkx, load, loads
from topolab.physical import (
    Catalog,
    CostReport,
    Floor,
    LatencyReport,
    Placement,
    catalogs,
    cost,
    floors,
    latency,
    load_catalog,
    load_floor,
    place,
)

__all__ = [
    "Catalog",
    "CostReport",
    "FileError",
    "Floor",
    "LatencyReport",
    "FormatError",
    "Network",
    "NetworkError",
    "ParameterError",
    "Placement",
    "TopolabError",
    "__version__",
    "build",
    "catalogs",
    "cost",
    "families",
    "floors",
    "from_networkx",
    "latency",
    "load",
    "load_catalog",
    "load_floor",
    "loads",
    "place",
]
