"""run_experiment: expand, skip what the store already has, run the rest, return a DataFrame."""

from __future__ import annotations

import math
import sys
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from topolab._args import bad, bool_arg, opt_int_arg, path_arg
from topolab._files import check_output_dir
from topolab.experiment.execute import default_workers, ensure_picklable, run_dask, run_local
from topolab.experiment.grid import Point, expand
from topolab.experiment.kinds import get_kind
from topolab.experiment.spec import Experiment, PathLike, load_experiment
from topolab.experiment.store import MemoryStore, ResultStore
from topolab.progress import Progress, wanted

if TYPE_CHECKING:
    import pandas as pd

# Columns that differ between two runs of the same points (drop them to compare results).
TIMING_COLUMNS = ("elapsed_s", "cpu_s", "finished_at")
COMPACT_EVERY = 500  # store files written
# More local processes than this are a typing mistake, not a machine.
MAX_WORKERS = 4096


def run_experiment(
    experiment: PathLike | Mapping[str, Any] | Experiment,
    *,
    results: PathLike | None = None,
    workers: int | None = None,
    scheduler: Any = None,
    dry_run: bool = False,
    retry_failed: bool = False,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Runs every point of an experiment not already in its results store and returns one row
    per point, in grid order: point, point_id, kind, the parameters, status ("ok"/"failed"),
    error, the results, elapsed_s, cpu_s, finished_at.

    ``experiment``: a TOML/YAML file, a dict of the same shape or an Experiment.
    ``results``: the results directory (default: the file's ``results`` key, else
    ``<file stem>.results`` beside the file; for a dict without one, a temporary directory,
    so nothing is kept). An interrupted run resumes from it: points already stored are not run
    again; failed ones are run again only with ``retry_failed``.
    ``workers``: local processes (default: every core; 1 runs in this process).
    ``scheduler``: run on Dask instead: an address ('tcp://host:8786'), 'local' (a Dask
    cluster of ``workers`` processes on this machine), a distributed.Client or a cluster.
    ``dry_run``: run nothing; one row per point with status "done", "failed" or "pending".
    ``progress``: points done / total, rate and ETA on stderr (default: when stderr is a
    terminal; topolab.progress).
    """
    exp = load_experiment(experiment)
    points = expand(exp)
    opt_int_arg("run_experiment", "workers", workers, 1, MAX_WORKERS)
    bool_arg("run_experiment", "dry_run", dry_run)
    bool_arg("run_experiment", "retry_failed", retry_failed)
    path = results if results is not None else exp.results
    if path is not None:
        path = (path_arg if dry_run else check_output_dir)("run_experiment", "results", path)

    if dry_run:
        stored = ResultStore(path, create=False).records() if path is not None else {}
        return points_frame(points, stored)

    store = ResultStore(path) if path is not None else MemoryStore()
    with store.exclusive(lambda text: print(f"topolab: {text}", file=sys.stderr)):
        frame = _run_into(exp, points, store, workers, scheduler, retry_failed, progress)
    frame.attrs.update(experiment=exp.name, results=None if path is None else str(path))
    return frame


def _run_into(
    exp: Experiment,
    points: list[Point],
    store: ResultStore | MemoryStore,
    workers: int | None,
    scheduler: Any,
    retry_failed: bool,
    progress: bool | None,
) -> pd.DataFrame:
    """The points of ``exp`` not yet in ``store`` run and stored; every point's row."""
    store.compact()  # what a killed run left as many small files
    stored = store.records()
    todo = [p for p in points if _needs_run(stored.get(p.id), retry_failed)]
    kind = get_kind(exp.kind)
    fn = kind.function()
    earlier = len(points) - len(todo)
    meter = Progress(
        exp.name, len(points), unit="point", initial=earlier, enabled=wanted(progress) and bool(todo)
    )
    if earlier:
        meter.note(f"{earlier} from earlier runs")
    failed = 0

    def finished(records: list[dict[str, Any]]) -> None:
        nonlocal failed
        store.add(records)
        failed += sum(record["status"] != "ok" for record in records)
        if failed:
            meter.note(f"{failed} failed" + (f", {earlier} from earlier runs" if earlier else ""))
        meter.update(len(records))
        if store.written % COMPACT_EVERY == 0:
            store.compact()  # keeps a long run that gets killed quick to resume

    try:
        if todo and scheduler is not None:
            # No pickle check: Dask sends functions with cloudpickle, which takes closures.
            run_dask(todo, fn, scheduler, workers, finished)
        elif todo:
            count = min(workers or default_workers(), len(todo))
            if count > 1:
                ensure_picklable(fn, kind.name)
            run_local(todo, fn, count, finished)
    finally:
        meter.close(finished=False)
        store.compact()
    return results_frame(points, store.records())


def load_results(path: PathLike) -> pd.DataFrame:
    """Every point stored in a results directory, in the order they finished (no grid: the
    experiment file is not needed)."""
    store = ResultStore(path, create=False)
    if not store.path.is_dir():
        raise bad(
            "load_results",
            "path",
            str(store.path),
            "a results directory",
            message=f"load_results: {store.path} is not a results directory",
        )
    records = sorted(store.records().values(), key=lambda r: (r["finished_at"], r["point_id"]))
    return _frame([(None, r["params"], r) for r in records])


def results_frame(points: list[Point], records: Mapping[str, dict[str, Any]]) -> pd.DataFrame:
    """One row per point that has a record, in grid order."""
    return _frame([(p.index, p.params, records[p.id]) for p in points if p.id in records])


def points_frame(points: list[Point], records: Mapping[str, dict[str, Any]]) -> pd.DataFrame:
    """The dry-run listing: every point with its status in the store."""
    import pandas as pd

    rows = []
    for p in points:
        rec = records.get(p.id)
        status = "pending" if rec is None else ("done" if rec["status"] == "ok" else "failed")
        rows.append({"point": p.index, "point_id": p.id, "kind": p.kind, **p.params, "status": status})
    return pd.DataFrame(rows, columns=_ordered([r.keys() for r in rows], ["point", "point_id", "kind"]))


def _frame(rows: list[tuple[int | None, dict[str, Any], dict[str, Any]]]) -> pd.DataFrame:
    import pandas as pd

    out = []
    param_keys: list[Iterable[str]] = []
    result_keys: list[Iterable[str]] = []
    skip = {"params", "params_json", "point_id", "kind", "status", "error", *TIMING_COLUMNS}
    for index, params, rec in rows:
        results = {k: v for k, v in rec.items() if k not in skip}
        param_keys.append(params.keys())
        result_keys.append(results.keys())
        row = {"point_id": rec["point_id"], "kind": rec["kind"], **params}
        row.update(status=rec["status"], error=rec["error"], **results)
        # cpu_s: absent from stores written before it was recorded.
        row.update(
            elapsed_s=rec["elapsed_s"], cpu_s=rec.get("cpu_s", math.nan), finished_at=rec["finished_at"]
        )
        if index is not None:
            row["point"] = index
        out.append(row)
    head = ["point", "point_id", "kind"] if rows and rows[0][0] is not None else ["point_id", "kind"]
    columns = _ordered(param_keys, head) + ["status", "error"]
    columns = _ordered(result_keys, columns) + list(TIMING_COLUMNS)
    return pd.DataFrame(out, columns=columns)


def _ordered(key_lists: Iterable[Iterable[str]], head: list[str]) -> list[str]:
    """head, then every key in the order first seen."""
    seen = dict.fromkeys(head)
    for keys in key_lists:
        seen.update(dict.fromkeys(k for k in keys if k not in seen))
    return list(seen)


def _needs_run(record: dict[str, Any] | None, retry_failed: bool) -> bool:
    return record is None or (record["status"] != "ok" and retry_failed)
