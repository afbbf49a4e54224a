"""topolab: design, analyze, cost and simulate interconnection networks.

Quick start::

    import topolab
    net = topolab.build("slimfly", q=19)          # or topolab.build("slimfly:q=19,p=15")
    print(net.num_routers, net.num_endpoints, net.radix)
    g = net.to_networkx()
    r = topolab.simulate(net, routing="min", traffic="uniform", load=0.5)
"""

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
from topolab.families import families
from topolab.network import Network, build, from_networkx, load, loads
from topolab.sim import (
    BooksimSetup,
    ExchangeResult,
    SimResult,
    from_booksim,
    routings,
    run_exchange,
    sim_params,
    simulate,
    sweep_load,
)

__all__ = [
    "BooksimSetup",
    "DeadlockError",
    "ExchangeResult",
    "FileError",
    "FormatError",
    "Network",
    "NetworkError",
    "ParameterError",
    "SimResult",
    "SimulationError",
    "TopolabError",
    "__version__",
    "build",
    "families",
    "from_booksim",
    "from_networkx",
    "load",
    "loads",
    "routings",
    "run_exchange",
    "sim_params",
    "simulate",
    "sweep_load",
]
