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
from topolab.experiment import run_experiment
from topolab.families import families
from topolab.network import Network, build, from_networkx, load, loads

__all__ = [
    "FileError",
    "FormatError",
    "Network",
    "NetworkError",
    "ParameterError",
    "TopolabError",
    "__version__",
    "build",
    "families",
    "from_networkx",
    "load",
    "loads",
    "run_experiment",
]
