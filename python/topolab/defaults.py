"""The defaults every command and function shares, in one place.

``DEFAULT_SEED``: the simulator's default seed from its one table of defaults (``seed`` in
topolab-sim's ``PARAMS``, which ``SimConfig::default()`` reads too): 0, BookSim2's default seed,
for simulations, METIS bisections, failure samples and comparisons alike.

``DEFAULT_FLOOR``: ``slimfly``, the machine-room model of Besta & Hoefler, SC14, §VI-A, with
which the cost model of §VI-B/C was calibrated; ``cost``, ``place``, ``latency`` and ``compare``
use it unless given another (``skywalk`` is the floor of Fujiwara et al., IPDPS 2014, §III-A).
"""

from topolab import _core

DEFAULT_SEED = int(next(p["default"] for p in _core.sim_params() if p["name"] == "seed"))
DEFAULT_FLOOR = "slimfly"
DEFAULT_CATALOG = "fdr10"
