"""The results store: a directory of Parquet files that a killed run never corrupts.

Each finished point (or each group of points that finished together) is written as its own
small Parquet file, first under a temporary name, fsynced, then renamed (an atomic step on POSIX
and Windows): a file with a final name is always complete, and a process killed at any moment
loses at most the points being written. (The directory is not fsynced after each file: a power
loss may forget the newest names, and those points run again; it is before compaction deletes
what it merged.) Reading takes every ``*.parquet`` file, and where a
point appears more than once (a retried failure, a compaction interrupted after its rename) it
keeps the successful record, then the latest. ``compact()`` merges the files into one, written
the same way, and only then deletes the files it merged, so it is safe to interrupt as well.

Columns: point_id, kind, params_json (the point's parameters as canonical JSON, so that values of
any type survive and the id can be recomputed), status ("ok" or "failed"), error, elapsed_s,
finished_at (UTC, ISO 8601), then the kind's results, one column each.
"""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import sys
import time
import uuid
from typing import Any, Callable, Iterable, Iterator

from topolab._core import FileError, TopolabError
from topolab._files import TMP_SUFFIX, atomic_write, has_module

META_COLUMNS = ("point_id", "kind", "params_json", "status", "error", "elapsed_s", "finished_at")
STATUSES = ("ok", "failed")
LOCK_NAME = ".lock"  # held by the driver writing the store (ResultStore.exclusive)
DAMAGED_SUFFIX = "damaged"  # an unreadable file moved aside: <name>.parquet.damaged
# A temporary file this old belongs to no running writer: its writer was killed.
STALE_TMP_SECONDS = 3600.0


class ResultStore:
    """A results directory. Records are dicts with the META_COLUMNS (``params`` may replace
    ``params_json``) plus result keys; see the module docstring."""

    def __init__(self, path: str | os.PathLike[str], *, create: bool = True):
        if not has_module("pyarrow"):
            raise TopolabError(
                f"the results store {path} is Parquet files, which need pyarrow: "
                "pip install 'topolab[parquet]' (or pyarrow)"
            )
        self.path = pathlib.Path(path)
        if self.path.exists() and not self.path.is_dir():
            raise FileError(f"{self.path}: the results store must be a directory, and this is a file")
        if create:
            self.path.mkdir(parents=True, exist_ok=True)
        # Only a store opened to write repairs itself (a dry run or a reader changes nothing).
        self.writable = create
        self.written = 0  # files added since this object was made

    # --- one driver at a time -----------------------------------------------------------------
    @contextlib.contextmanager
    def exclusive(self, wait_note: Callable[[str], None] | None = None) -> Iterator[None]:
        """Held by the driver that runs points into this store, from reading what is stored to
        storing the last record: a second driver on the same store waits for the first, then
        finds its points stored and runs only the rest, so no point runs twice. The lock is the
        kernel's (flock on ``.lock``): a driver killed with -9 releases it at once."""
        try:
            import fcntl
        except ImportError:  # Windows: one driver per store is the user's to ensure
            yield
            return
        fd = os.open(self.path / LOCK_NAME, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if wait_note is not None:
                    wait_note(f"waiting for another run using the results store {self.path}")
                fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # releases the lock

    # --- writing ------------------------------------------------------------------------------
    def add(self, records: list[dict[str, Any]]) -> None:
        """Stores finished points, in one file when their results' types can share columns,
        else one file each. A point whose results Parquet cannot hold at all (a list mixing
        strings and numbers) is stored as failed, saying why."""
        rows = [_row(r) for r in records]
        try:
            self._write_new(rows)
        except (TypeError, ValueError):  # pyarrow's type errors derive from these
            for row in rows:
                try:
                    self._write_new([row])
                except (TypeError, ValueError) as err:
                    keep = {k: row[k] for k in META_COLUMNS}
                    keep.update(status="failed", error=f"the results cannot be stored in Parquet: {err}")
                    self._write_new([keep])

    def compact(self) -> bool:
        """Merges the files into one. Returns False (and changes nothing) when there is nothing
        to merge or when the records' result columns have types that cannot share a column."""
        self._remove_stale_tmp()
        files = self._files()
        if len(files) < 2:
            return False
        records, read = self._read(files)
        try:
            self._write(list(records.values()), f"part-{time.time_ns()}-{uuid.uuid4().hex[:8]}.parquet")
        except (TypeError, ValueError) as err:  # pyarrow's type errors derive from these
            print(f"topolab: results store {self.path} not compacted: {err}", file=sys.stderr)
            return False
        # The merged file's name must be durable before its sources go (power loss included).
        _fsync_dir(self.path)
        for path in read:
            path.unlink(missing_ok=True)
        return True

    def _write_new(self, rows: list[dict[str, Any]]) -> None:
        if rows:
            self._write(rows, f"pt-{rows[0]['point_id']}-{time.time_ns()}.parquet")
            self.written += 1

    # --- reading ------------------------------------------------------------------------------
    def records(self) -> dict[str, dict[str, Any]]:
        """Point id -> its record (the best one when stored more than once), with ``params``
        decoded; result columns a record does not have are left out."""
        if not self.path.is_dir():
            return {}
        records, _ = self._read(self._files())
        return {pid: _decoded(row) for pid, row in records.items()}

    def statuses(self) -> dict[str, str]:
        return {pid: rec["status"] for pid, rec in self.records().items()}

    # --- internals ----------------------------------------------------------------------------
    def _files(self) -> list[pathlib.Path]:
        return sorted(self.path.glob("*.parquet"))

    def _read(self, files: Iterable[pathlib.Path]) -> tuple[dict[str, dict[str, Any]], list[pathlib.Path]]:
        import pyarrow.parquet as pq

        best: dict[str, dict[str, Any]] = {}
        read = []
        for path in files:
            try:
                table = pq.read_table(path)
            except FileNotFoundError:  # merged and removed by a concurrent compaction
                continue
            except Exception as err:  # noqa: BLE001 - any unreadable file is reported, not fatal
                # Not written whole by this store (its files are complete by construction): a
                # disk error, a copy cut short. Its points run again; the file is kept for the
                # user under a name no reader takes, so the warning is given once, not forever.
                self._move_aside(path, err)
                continue
            if not set(META_COLUMNS) <= set(table.column_names):
                print(f"topolab: results store: skipping {path}: not a topolab results file", file=sys.stderr)
                continue
            read.append(path)
            for row in table.to_pylist():
                _keep_best(best, row)
        return best, read

    def _move_aside(self, path: pathlib.Path, err: BaseException) -> None:
        reason = str(err).splitlines()[0][:200] if str(err) else type(err).__name__
        if not self.writable:
            print(
                f"topolab: results store: skipping unreadable {path} ({reason}); "
                "its points count as not run (a run moves the file aside and runs them again)",
                file=sys.stderr,
            )
            return
        aside = path.with_name(f"{path.name}.{DAMAGED_SUFFIX}")
        n = 1
        while aside.exists():
            n += 1
            aside = path.with_name(f"{path.name}.{DAMAGED_SUFFIX}{n}")
        os.replace(path, aside)
        print(
            f"topolab: results store: {path.name} is unreadable ({reason}); moved it aside to {aside}; "
            "its points will run again",
            file=sys.stderr,
        )

    def _write(self, rows: list[dict[str, Any]], name: str) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        columns: dict[str, list[Any]] = {c: [] for c in META_COLUMNS}
        for row in rows:
            for key in row:
                columns.setdefault(key, [])
        for row in rows:
            for key, values in columns.items():
                values.append(row.get(key))
        table = pa.table({key: pa.array(values) for key, values in columns.items()})
        with atomic_write(self.path / name, "wb") as f:
            pq.write_table(table, f)

    def _remove_stale_tmp(self) -> None:
        now = time.time()
        for path in self.path.glob("*" + TMP_SUFFIX):
            try:
                if now - path.stat().st_mtime > STALE_TMP_SECONDS:
                    path.unlink()
            except FileNotFoundError:
                pass


class MemoryStore:
    """The store of a run that keeps no results directory (``compare``, the reproductions, an
    experiment without ``results``): the records in memory, the best one per point as
    ResultStore keeps it. It needs no pyarrow, and nothing outlives the run to resume from."""

    writable = True

    def __init__(self) -> None:
        self._best: dict[str, dict[str, Any]] = {}
        self.written = 0

    @contextlib.contextmanager
    def exclusive(self, wait_note: Callable[[str], None] | None = None) -> Iterator[None]:
        yield  # nobody else can see this store

    def add(self, records: list[dict[str, Any]]) -> None:
        for record in records:
            _keep_best(self._best, _row(record))
        self.written += 1

    def compact(self) -> bool:
        return False

    def records(self) -> dict[str, dict[str, Any]]:
        return {pid: _decoded(row) for pid, row in self._best.items()}


def _keep_best(best: dict[str, dict[str, Any]], row: dict[str, Any]) -> None:
    """Keeps ``row`` as its point's record unless a better one is kept: a successful record
    before a failed one, then the latest."""
    old = best.get(row["point_id"])
    if old is None or _rank(row) > _rank(old):
        best[row["point_id"]] = row


def _decoded(row: dict[str, Any]) -> dict[str, Any]:
    """A stored row as a record: ``params`` decoded, result columns it does not have left out."""
    rec = {k: v for k, v in row.items() if k in META_COLUMNS or v is not None}
    rec["params"] = json.loads(rec["params_json"])
    return rec


def _row(record: dict[str, Any]) -> dict[str, Any]:
    from topolab.experiment.spec import canonical_json

    row = dict(record)
    if "params" in row:
        row["params_json"] = canonical_json(row.pop("params"))
    missing = [c for c in META_COLUMNS if c not in row]
    if missing:
        raise ValueError(f"results store: record lacks {missing}")
    if row["status"] not in STATUSES:
        raise ValueError(f"results store: status {row['status']!r} is not one of {STATUSES}")
    return row


def _rank(row: dict[str, Any]) -> tuple[bool, str]:
    return (row["status"] == "ok", row["finished_at"] or "")


def _fsync_dir(path: pathlib.Path) -> None:
    """Makes a rename durable; directories cannot be opened for this on Windows."""
    if os.name != "posix":
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
