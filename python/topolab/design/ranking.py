"""The ranking of measured designs with the allowed oversubscription: the recommendable designs
first by Pareto layer and score, the others after them, and the recommendation in words
(docs/compare.md §3)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from topolab.design.pareto import rank_designs
from topolab.design.recommend import recommend

if TYPE_CHECKING:
    import pandas as pd


def rank_and_recommend(
    measured: pd.DataFrame, objectives: dict[str, str], allowed_oversubscription: float
) -> tuple[pd.DataFrame, list[str]]:
    """Ranks the designs a recommendation may come from (``oversubscription`` <= the allowed
    one: ``recommendable``) by Pareto layer and score among themselves, then the others the
    same way after them; ``on_front`` marks the front of the recommendable designs. The
    sentences are ``recommend``'s over the recommendable designs, and one more about the
    others. When no design is recommendable, all are ranked together and the words say so."""
    import pandas as pd

    over = measured["oversubscription"].astype(float)
    ok = over <= allowed_oversubscription + 1e-9
    if not ok.any():
        ok = pd.Series(True, index=measured.index)
        note = (
            f"No measured design is within the allowed oversubscription "
            f"({allowed_oversubscription:.0%}); all are ranked together: raise --oversubscription "
            "or 'endpoint_tolerance', or add families, for a balanced choice."
        )
    else:
        note = _not_recommended_note(measured[~ok], objectives, allowed_oversubscription)
    parts = []
    for part, recommendable in ((measured[ok], True), (measured[~ok], False)):
        if len(part) == 0:
            continue
        r = rank_designs(part, objectives)
        r["recommendable"] = recommendable
        r["on_front"] = r["pareto_layer"].eq(0).fillna(False).astype(bool) & recommendable
        parts.append(r)
    ranked = pd.concat(parts, ignore_index=True)
    ranked["rank"] = range(1, len(ranked) + 1)
    ranked.insert(0, "rank", ranked.pop("rank"))
    ranked.insert(2, "on_front", ranked.pop("on_front"))
    ranked.insert(3, "recommendable", ranked.pop("recommendable"))
    lines = recommend(measured[ok], objectives)
    if note:
        lines.append(note)
    return ranked, lines


def _not_recommended_note(others: pd.DataFrame, objectives: dict[str, str], allowed: float) -> str:
    if len(others) == 0:
        return ""
    limit = "balanced designs only" if allowed == 0 else f"at most {allowed:.0%} oversubscribed"
    first = rank_designs(others, objectives).iloc[0]
    cost = first.get("cost_per_endpoint")
    detail = f", ${cost:,.0f} per endpoint" if isinstance(cost, float) and not math.isnan(cost) else ""
    return (
        f"Not recommended: {len(others):,} measured designs more oversubscribed than allowed "
        f"({limit}, so that every endpoint can inject at full rate under uniform traffic; "
        f"--oversubscription X allows up to X); they are listed after the others, marked. "
        f"The best of them: {first['name']} ({first['oversubscription']:.0%} oversubscribed{detail})."
    )
