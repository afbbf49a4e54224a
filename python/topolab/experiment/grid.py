"""Grid expansion: the points of an experiment, each with a stable id.

Points are the cases (one, empty, when there are none) crossed with the Cartesian product of the
axes, in file order with the last axis varying fastest; fixed parameters join every point. A
point's parameters are ordered case keys, axis keys, fixed keys (the column order of results).

The id is a hash of the kind and the point's canonical parameters, independent of the order of
keys, of the point's position in the grid and of the file it came from: editing an experiment
(adding a load, a seed) keeps the ids, and so the stored results, of every point it still has.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass
from typing import Any, Mapping

from topolab._args import bad, in_context
from topolab._core import ParameterError
from topolab.experiment.kinds import get_kind
from topolab.experiment.spec import Experiment, canonical_json

ID_LENGTH = 16  # hex digits of SHA-256: 64 bits, collisions need ~4e9 points


@dataclass(frozen=True)
class Point:
    index: int  # position in the grid
    id: str
    kind: str
    params: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"point": self.index, "point_id": self.id, "kind": self.kind, "params": dict(self.params)}


def point_id(kind: str, params: Mapping[str, Any]) -> str:
    text = canonical_json({"kind": kind, "params": dict(params)})
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:ID_LENGTH]


def count_points(exp: Experiment) -> int:
    count = max(len(exp.cases), 1)
    for values in exp.axes.values():
        count *= len(values)
    return count


def expand(exp: Experiment, *, check: bool = True) -> list[Point]:
    """Every point of the experiment in grid order. With ``check``, each point's parameters
    are checked against its kind (unknown and missing parameters, the kind's own validation)
    and repeated points are rejected, all before anything runs."""
    kind = None
    if check:
        try:
            kind = get_kind(exp.kind)
        except ParameterError as err:
            raise in_context(f"experiment {exp.source}", err) from err
    names = list(exp.axes)
    points: list[Point] = []
    seen: dict[str, int] = {}
    for case in exp.cases or [{}]:
        for combo in itertools.product(*(exp.axes[n] for n in names)):
            params = {**case, **dict(zip(names, combo)), **exp.fixed}
            index = len(points)
            pid = point_id(exp.kind, params)
            if pid in seen:
                raise bad(
                    f"experiment {exp.source}",
                    "cases",
                    _show(params),
                    "points that each differ",
                    message=f"experiment {exp.source}: points {seen[pid]} and {index} are the same "
                    f"({_show(params)}); each point must differ (check [[cases]] for repeats)",
                )
            seen[pid] = index
            if kind is not None:
                try:
                    kind.check(params)
                except ParameterError as err:
                    raise in_context(
                        f"experiment {exp.source}, point {index} ({_show(params)})", err
                    ) from err
            points.append(Point(index, pid, exp.kind, params))
    return points


def _show(params: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in params.items())
