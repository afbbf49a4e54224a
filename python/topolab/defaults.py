"""The defaults every command and function shares, in one place.

``DEFAULT_SEED``: 0, BookSim2's default seed, for simulations, METIS bisections, failure
samples and comparisons alike (the Python functions and the command line pass it to the core;
the Rust crate's own ``SimConfig::default()`` keeps 1).

``DEFAULT_FLOOR``: ``slimfly``, the machine-room model of Besta & Hoefler, SC14, §VI-A, with
which the cost model of §VI-B/C was calibrated; ``cost``, ``place``, ``latency`` and ``compare``
use it unless given another (``skywalk`` is the floor of Fujiwara et al., IPDPS 2014, §III-A).
"""

DEFAULT_SEED = 0
DEFAULT_FLOOR = "slimfly"
DEFAULT_CATALOG = "fdr10"
