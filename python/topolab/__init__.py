"""topolab: design, analyze, cost and simulate interconnection networks.

Quick start::

    import topolab
    net = topolab.build("slimfly", q=19)          # or topolab.build("slimfly:q=19,p=15")
    print(net.num_routers, net.num_endpoints, net.radix)
    g = net.to_networkx()
    r = topolab.simulate(net, routing="min", traffic="uniform", load=0.5)
"""

from topolab import infiniband, simgrid
from topolab._core import (
    DeadlockError,
    FileError,
    FormatError,
    NetworkError,
    ParameterError,
    SimulationError,
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
from topolab.comparison import Comparison
from topolab.experiment import run_experiment
from topolab.failures import Failures, apply_failures, failure_kinds
from topolab.families import FamilySizes, families, family_sizes
from topolab.mapping import MappedNetwork, map_network
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
from topolab.routing import DeadlockWarning, RoutingInfo, routings
from topolab.sim import (
    BooksimSetup,
    ExchangeResult,
    SimResult,
    Timeline,
    from_booksim,
    run_exchange,
    sim_params,
    simulate,
    sweep_load,
    timeline,
)
from topolab.workflows import compare
from topolab.workload import WorkloadResult, run_workload, workload_patterns

__all__ = [
    "Analysis",
    "Bisection",
    "BooksimSetup",
    "Catalog",
    "Comparison",
    "CostReport",
    "DeadlockError",
    "ExchangeResult",
    "Failures",
    "FamilySizes",
    "FileError",
    "Floor",
    "FormatError",
    "LatencyReport",
    "MappedNetwork",
    "DeadlockWarning",
    "Network",
    "NetworkError",
    "ParameterError",
    "PathDiversity",
    "Placement",
    "Resilience",
    "SimResult",
    "Timeline",
    "SimulationError",
    "Spectrum",
    "Threshold",
    "TopolabError",
    "WorkloadResult",
    "__version__",
    "analyze",
    "apply_failures",
    "build",
    "cable_lengths",
    "catalogs",
    "compare",
    "cost",
    "failure_kinds",
    "families",
    "family_sizes",
    "floors",
    "from_booksim",
    "from_networkx",
    "infiniband",
    "latency",
    "load",
    "load_catalog",
    "load_floor",
    "loads",
    "map_network",
    "moore_bound",
    "place",
    "RoutingInfo",
    "routings",
    "run_exchange",
    "run_experiment",
    "run_workload",
    "simgrid",
    "sim_params",
    "simulate",
    "sweep_load",
    "timeline",
    "workload_patterns",
]
