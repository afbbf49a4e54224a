"""What a comparison answers (``Comparison``) and the type of one per-design measurement step
(``Measurement``). Plain data: computed by ``topolab.design.compare``, shown by
``topolab.report``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from topolab.comparison.settings import CompareSettings
from topolab.display import Summarized

if TYPE_CHECKING:
    import pandas as pd

# The designs whose simulated curves the report draws (latency against load, degradation): the
# recommendation and the next front members, one per distinct simulated network.
CURVE_DESIGNS = 6

# Per design: a dict of columns; a batch measurement: a list of such dicts, one per design.
MeasureFunction = Callable[..., Any]


@dataclass(frozen=True)
class Measurement:
    """One step of the per-design measurement: ``function(design, network, settings)`` returns
    ``columns`` (all of them; None for a value that is undefined). ``enabled(settings)`` says
    whether it runs. If it raises a ``TopolabError`` its columns stay NaN and the design's
    ``error`` column says why; the other measurements still run. With ``reports_progress`` the
    function also gets ``status``, a callable taking a short text shown on the progress line.
    A ``batch`` measurement runs once after the others, on the designs the comparison picks
    for it: ``function(designs, settings, **execution)`` returns one dict of columns per design
    (the simulations, run as independent jobs on every core or a cluster)."""

    name: str
    columns: tuple[str, ...]
    function: MeasureFunction
    describe: str
    enabled: Callable[[CompareSettings], bool] = field(default=lambda settings: True)
    reports_progress: bool = False
    batch: bool = False


def simulated_front(frame: pd.DataFrame, count: int = CURVE_DESIGNS) -> list[pd.Series]:
    """The rows of ``frame`` (ranked, best first) whose simulated curves are drawn: the
    recommended design, then the members of the Pareto front by rank, each with a simulated
    network (``sim_network``) that no earlier one has, at most ``count``."""
    if len(frame) == 0:
        return []
    front = frame[frame["on_front"].astype(bool)] if "on_front" in frame else frame
    rows, seen = [], set()
    for row in [frame.iloc[0]] + [row for _, row in front.iterrows()]:
        net = row.get("sim_network")
        if not isinstance(net, str) or net in seen:
            continue
        seen.add(net)
        rows.append(row)
        if len(rows) >= count:
            break
    return rows


@dataclass(repr=False)
class Comparison(Summarized):
    """The result of ``run_comparison``.

    ``frame``: the measured designs, best first (``rank_designs``: ``pareto_layer``, ``score``,
    ``rank``; ``on_front`` marks the Pareto front); ``designs``: every design enumerated, in
    enumeration order, with ``family_name`` and ``measured``; ``recommendation``:
    ``recommend``'s sentences; ``degradation``: with ``settings.failures``, the degradation
    curves of the front's simulated designs (``topolab.design.simulate.degradation_curves``: one
    row per saturation search), else None. Its ``repr`` and ``_repr_html_`` (Jupyter) lead with the answer:
    the recommended spec and the counts, then the fields, frames by their shape."""

    settings: CompareSettings
    frame: pd.DataFrame
    designs: pd.DataFrame
    recommendation: list[str]
    measurements: list[Measurement]
    objectives: dict[str, str]
    enumerate_s: float
    measure_s: float
    degradation: pd.DataFrame | None = None

    def _shown_fields(self) -> list[tuple[str, Any]]:
        recommended = str(self.recommended["spec"]) if len(self.frame) else None
        answer = [
            ("recommended", recommended),
            ("considered", len(self.designs)),
            ("measured", len(self.frame)),
            ("front", int(self.frame["on_front"].sum()) if len(self.frame) else 0),
        ]
        return answer + super()._shown_fields()

    @property
    def front(self) -> pd.DataFrame:
        return self.frame[self.frame["on_front"]]

    @property
    def recommended(self) -> pd.Series:
        return self.frame.iloc[0]

    @property
    def failed(self) -> pd.DataFrame:
        return self.frame[self.frame["error"] != ""]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: settings, counts, the recommendation and the measured rows."""
        import json

        return {
            "settings": self.settings.to_dict(),
            "considered": len(self.designs),
            "measured": len(self.frame),
            "front": int(self.frame["on_front"].sum()),
            "objectives": dict(self.objectives),
            "measurements": [m.name for m in self.measurements],
            "recommended": str(self.recommended["spec"]),
            "recommendation": list(self.recommendation),
            "enumerate_s": self.enumerate_s,
            "measure_s": self.measure_s,
            "designs": json.loads(self.frame.to_json(orient="records")),
            "degradation": None
            if self.degradation is None
            else json.loads(self.degradation.to_json(orient="records")),
        }
