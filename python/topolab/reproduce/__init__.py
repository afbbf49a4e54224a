"""Reproductions of the papers' tables and figures: topolab's numbers beside the paper's.

Each reproduction is a module of this package with ``ID``, ``TITLE``, ``SOURCE`` and
``run(quick=False) -> Reproduction``, and optionally ``plot(rep, path)`` drawing its figure
from ``rep.data`` (matplotlib, Agg). ``REGISTRY`` maps the id to the module, imported only when
run. ``quick`` runs a scaled-down subset where the full run takes more than a few seconds (the
module's docstring and notes say what is left out). To add one, write
``topolab/reproduce/<name>.py`` and add a line to ``REGISTRY``. A reproduction declares its
cases (``RUNS_CASES = True``: ``reproduce.cases``, run through the experiment package), or
says in ``NO_CASES`` why it has none to run.
"""

from __future__ import annotations

import csv
import importlib
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from topolab._args import bad
from topolab._files import atomic_write, import_matplotlib, write_text
from topolab.display import Summarized

# id -> module path; keep in the order ``topolab reproduce --list`` shows them.
REGISTRY: dict[str, str] = {
    "table4": "topolab.reproduce.table4",
    "moore": "topolab.reproduce.moore",
    "resilience": "topolab.reproduce.resilience",
    "skywalk-cables": "topolab.reproduce.skywalk_cables",
    "unidirectional": "topolab.reproduce.unidirectional",
    "slimfly-routing": "topolab.reproduce.slimfly_routing",
    "slimfly-buffers": "topolab.reproduce.slimfly_buffers",
    "slimfly-oversubscribed": "topolab.reproduce.slimfly_oversubscribed",
    "infiniband": "topolab.reproduce.infiniband",
    "unidirectional-sim": "topolab.reproduce.unidirectional_sim",
    "diameter-two": "topolab.reproduce.diameter_two",
}


@dataclass(frozen=True)
class Comparison:
    """One quantity of one configuration: the paper's value and topolab's.

    ``unit`` "%" marks percentages (values in percent): their difference is read in
    percentage points (``abs_diff``), not relative to the paper's value. ``bound``: the static
    bound of the network topolab ran (e.g. the routing's channel-load throughput bound), shown
    beside both so that a scaled-down network's own cap is visible. ``interval``: how sure
    topolab's simulated figure is, in its unit: a saturation load's search bracket (the highest
    load carried, the lowest saturated), the 95% confidence interval of a run's figure (batch
    means), or what those give a ratio of two; None for a figure that is computed, not sampled,
    or a run without one (``cases.bracket``, ``cases.confidence``)."""

    column: str
    quantity: str
    paper: Optional[float]
    topolab: Optional[float]
    note: str = ""
    unit: str = ""
    bound: Optional[float] = None
    interval: Optional[tuple[float, float]] = None

    @property
    def rel_diff(self) -> Optional[float]:
        """(topolab - paper) / paper, None when either is missing or the paper's is 0."""
        if self.paper is None or self.topolab is None or self.paper == 0:
            return None
        return (self.topolab - self.paper) / abs(self.paper)

    @property
    def abs_diff(self) -> Optional[float]:
        """topolab - paper, None when either is missing."""
        if self.paper is None or self.topolab is None:
            return None
        return self.topolab - self.paper

    def to_dict(self) -> dict[str, Any]:
        return {
            "column": self.column,
            "quantity": self.quantity,
            "paper": self.paper,
            "topolab": self.topolab,
            "interval": None if self.interval is None else list(self.interval),
            "bound": self.bound,
            "rel_diff": self.rel_diff,
            "abs_diff": self.abs_diff,
            "unit": self.unit,
            "note": self.note,
        }


@dataclass(frozen=True)
class Setup:
    """How topolab builds and places one configuration of the paper."""

    column: str
    spec: Optional[str]
    details: str
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"column": self.column, "spec": self.spec, "details": self.details, "notes": list(self.notes)}


@dataclass(frozen=True)
class SetupRow:
    """One line of a reproduction's setup table: a parameter, what the paper states (with its
    section), what topolab runs, and why the two differ ("" when they do not). ``sim_param``
    names the simulator keyword the row sets: the reproduction passes ``sim_params(table)`` to
    the simulator, so the table printed is the setup run."""

    parameter: str
    paper: str
    topolab: Any
    why: str = ""
    sim_param: Optional[str] = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "parameter": self.parameter,
            "paper": self.paper,
            "topolab": self.topolab,
            "why_different": self.why,
            "sim_param": self.sim_param,
        }


def percent(fraction: Optional[float]) -> Optional[float]:
    """A fraction in percent (``Comparison`` with ``unit="%"``); None (undefined: e.g. a
    disconnected network's Moore fraction, a number the paper does not give) stays None."""
    return None if fraction is None else 100.0 * fraction


def sim_params(table: tuple[SetupRow, ...]) -> dict[str, Any]:
    """The simulator keywords a setup table sets for every run (a row whose topolab value is a
    tuple differs between runs: each run names its own value, ``cases.varied``)."""
    return {r.sim_param: r.topolab for r in table if r.sim_param and not isinstance(r.topolab, tuple)}


@dataclass(frozen=True, repr=False)
class Reproduction(Summarized):
    """The comparison rows, how each configuration was built, general notes, and ``data``: the
    points behind the figure (one flat record per point, written as ``<id>_data.csv``)."""

    id: str
    title: str
    source: str
    rows: tuple[Comparison, ...]
    setups: tuple[Setup, ...]
    notes: tuple[str, ...] = field(default=())
    data: tuple[dict[str, Any], ...] = field(default=())
    quick: bool = False
    #: The paper's setup beside the one topolab ran (``SetupRow``), printed and written.
    setup_table: tuple[SetupRow, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "source": self.source,
            "quick": self.quick,
            "setup_table": [r.to_dict() for r in self.setup_table],
            "rows": [r.to_dict() for r in self.rows],
            "setups": [s.to_dict() for s in self.setups],
            "notes": list(self.notes),
            "data": [dict(d) for d in self.data],
        }


def available() -> list[str]:
    return list(REGISTRY)


def title(rid: str) -> str:
    return _module(rid).TITLE


def run(
    rid: str,
    quick: bool = False,
    *,
    full: bool = False,
    execution: Any = None,
    progress: Optional[bool] = None,
) -> Reproduction:
    """Runs reproduction ``rid`` (see ``available()``); ``quick`` runs its scaled-down subset,
    ``full`` the paper's sizes. ``execution`` (``reproduce.cases.Execution``: workers, Dask
    scheduler, results directory to resume from) and ``full`` apply to the reproductions
    declared as cases (``cases_based()``). ``progress``: a bar on stderr counting the long calls
    (simulations, latency and analysis runs) with their rate and the current one's stage
    (default: when stderr is a terminal)."""
    from topolab.progress import Progress

    module = _module(rid)
    if quick and full:
        raise bad(
            "reproduce",
            "full",
            full,
            "False with quick: one of quick and full",
            message="reproduce: 'quick' and 'full' are not allowed together: choose one",
        )
    scale: dict[str, Any] = {}
    if full or execution is not None:
        if not getattr(module, "RUNS_CASES", False):
            why = getattr(module, "NO_CASES", "")
            raise bad(
                "reproduce",
                "id",
                rid,
                f"with --full, --workers, --scheduler or --results: one of {', '.join(cases_based())}",
                message=f"reproduce: parameter 'id' = '{rid}' is not allowed with --full, --workers, "
                f"--scheduler or --results{f' ({why})' if why else ''}: they apply to "
                f"{', '.join(cases_based())}",
            )
        scale = {"full": full, "execution": execution}
    with Progress(f"reproduce {rid}", unit="run", enabled=progress, counts_calls=True):
        return module.run(quick=quick, **scale)


def cases_based() -> list[str]:
    """The reproductions declared as cases run through the experiment package (``--full``,
    workers, Dask, resuming)."""
    return [rid for rid in REGISTRY if getattr(_module(rid), "RUNS_CASES", False)]


def write(rep: Reproduction, out_dir: str | os.PathLike[str]) -> tuple[list[Path], Optional[str]]:
    """Writes ``<id>.csv`` (the comparison rows), ``<id>_data.csv`` (the figure's points, if
    any), ``<id>_setup.csv`` (the setup table, if any), ``<id>.json`` (everything) and
    ``<id>.png`` (the figure, when the reproduction draws one) into ``out_dir``, created if
    needed. Returns the files written and, when the figure could not be drawn because
    matplotlib is missing, the reason."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    rows_path = out / f"{rep.id}.csv"
    _write_csv(rows_path, [r.to_dict() for r in rep.rows])
    written.append(rows_path)
    if rep.data:
        data_path = out / f"{rep.id}_data.csv"
        _write_csv(data_path, [dict(d) for d in rep.data])
        written.append(data_path)
    if rep.setup_table:
        setup_path = out / f"{rep.id}_setup.csv"
        _write_csv(setup_path, [r.to_dict() for r in rep.setup_table])
        written.append(setup_path)
    json_path = out / f"{rep.id}.json"
    write_text(json_path, json.dumps(rep.to_dict(), indent=2) + "\n")
    written.append(json_path)
    plot = getattr(_module(rep.id), "plot", None)
    if plot is None:
        return written, None
    try:
        matplotlib = import_matplotlib()
    except ImportError:
        return written, "no plot: matplotlib is not installed (pip install 'topolab[plot]')"
    matplotlib.use("Agg")
    png_path = out / f"{rep.id}.png"
    plot(rep, png_path)
    written.append(png_path)
    return written, None


def _write_csv(path: Path, records: list[dict[str, Any]]) -> None:
    keys: dict[str, None] = {}
    for r in records:
        keys.update(dict.fromkeys(r))
    with atomic_write(path, newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(keys))
        w.writeheader()
        for r in records:
            w.writerow({k: _cell(r.get(k)) for k in keys})


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(value)
    return value


def _module(rid: str) -> Any:
    if rid not in REGISTRY:
        raise bad("reproduce", "id", rid, f"one of {', '.join(REGISTRY)}")
    return importlib.import_module(REGISTRY[rid])
