"""The design space of ``topolab compare``: every feasible configuration for a router radix and
an endpoint count (``enumerate_designs``), the Pareto front and ranking of measured
configurations (``pareto_front``, ``pareto_layers``, ``rank_designs``) and the recommendation in
words (``recommend``). The metrics are data: a DataFrame with one row per configuration.
See docs/compare.md.
"""

from topolab.design.enumerate import (
    FAMILY_NAMES,
    FAMILY_ORDER,
    Design,
    check_design,
    designs_frame,
    enumerate_designs,
    shortlist,
)
from topolab.design.pareto import (
    DEFAULT_OBJECTIVES,
    pareto_front,
    pareto_layers,
    rank_designs,
    used_objectives,
)
from topolab.design.recommend import recommend

__all__ = [
    "DEFAULT_OBJECTIVES",
    "FAMILY_NAMES",
    "FAMILY_ORDER",
    "Design",
    "check_design",
    "designs_frame",
    "enumerate_designs",
    "pareto_front",
    "pareto_layers",
    "rank_designs",
    "recommend",
    "shortlist",
    "used_objectives",
]
