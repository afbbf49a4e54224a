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
from topolab.analysis import (
    Analysis,
    Bisection,
    PathDiversity,
    Resilience,
    Spectrum,
    Threshold,
    analyze,
    moore_bound,
)
from topolab.design.compare import Comparison, compare
from topolab.experiment import run_experiment
from topolab.families import families
from topolab.network import Network, build, from_networkx, load, loads
from topolab.physical import (
    Catalog,
    CostReport,
    Floor,
    LatencyReport,
    Placement,
    cable_lengths,
    catalogs,
    cost,
    floors,
    latency,
    load_catalog,
    load_floor,
    place,
)

__all__ = [
    "Analysis",
    "Bisection",
    "Catalog",
    "Comparison",
    "CostReport",
    "FileError",
    "Floor",
    "FormatError",
    "LatencyReport",
    "Network",
    "NetworkError",
    "ParameterError",
    "PathDiversity",
    "Placement",
    "Resilience",
    "Spectrum",
    "Threshold",
    "TopolabError",
    "__version__",
    "analyze",
    "build",
    "cable_lengths",
    "catalogs",
    "compare",
    "cost",
    "families",
    "floors",
    "from_networkx",
    "latency",
    "load",
    "load_catalog",
    "load_floor",
    "loads",
    "moore_bound",
    "place",
    "run_experiment",
]
