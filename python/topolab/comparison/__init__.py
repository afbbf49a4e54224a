"""The comparison's data: the question (``CompareSettings``), the type of one measurement step
(``Measurement``) and the answer (``Comparison``).

``topolab.design.compare`` computes a ``Comparison``; ``topolab.report`` shows one. Both import
from here and this package imports neither, so the report is a leaf that can be rendered from
any ``Comparison`` (docs/compare.md §6, Code).
"""

from topolab.comparison.result import Comparison, Measurement
from topolab.comparison.settings import (
    DEFAULT_ALLOWED_OVERSUBSCRIPTION,
    DEFAULT_ENDPOINTS,
    DEFAULT_FAILURE_SEEDS,
    DEFAULT_PER_FAMILY,
    DEFAULT_RADIX,
    DEFAULT_SIM_ENDPOINTS,
    DEFAULT_SIM_PER_FAMILY,
    SHOWN_OVERSUBSCRIPTION,
    CompareSettings,
)

__all__ = [
    "DEFAULT_ALLOWED_OVERSUBSCRIPTION",
    "DEFAULT_ENDPOINTS",
    "DEFAULT_FAILURE_SEEDS",
    "DEFAULT_PER_FAMILY",
    "DEFAULT_RADIX",
    "DEFAULT_SIM_ENDPOINTS",
    "DEFAULT_SIM_PER_FAMILY",
    "SHOWN_OVERSUBSCRIPTION",
    "CompareSettings",
    "Comparison",
    "Measurement",
]
