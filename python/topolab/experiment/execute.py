"""Running points: in this process, on local worker processes, or on a Dask cluster.

Every finished point goes to the results store at once, from this (the driver) process only, so
an interrupted run keeps every point that finished and resumes with the others. A point that
fails by its own error is recorded as failed with the message and not run again (until asked
with ``retry_failed``); a point whose worker process dies is run again, alone, so that it costs
only itself, and recorded as failed after ALLOWED_CRASHES deaths. On Dask the scheduler does the
same (its ``distributed.scheduler.allowed-failures``, 3 by default, then KilledWorker).
"""

from __future__ import annotations

import datetime
import multiprocessing
import os
import pickle
import sys
import time
import traceback
import uuid
from collections import deque
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Iterable

from topolab._args import bad, quote
from topolab.experiment.grid import Point
from topolab.experiment.store import META_COLUMNS

ALLOWED_CRASHES = 3
CONNECT_TIMEOUT_S = 20.0  # to reach a Dask scheduler and hear its greeting
SCHEDULER_ALLOWED = (
    "'local', an address 'tcp://HOST:PORT', 'tls://HOST:PORT' or 'HOST:PORT' (or an in-process "
    "cluster's inproc:// address), a distributed.Client or a cluster"
)
# A Dask scheduler's greeting (its handshake: a few hundred bytes) is preceded by its length as
# 8 bytes; an HTTP or other server answers with text whose first 8 bytes read as exabytes.
MAX_GREETING_BYTES = 1 << 20
RESERVED = (*META_COLUMNS, "cpu_s", "point", "params")
SCALARS = (bool, int, float, str, type(None))

Record = dict[str, Any]
# Receives the records of points that finished together (one store write: group commit).
OnRecords = Callable[[list[Record]], None]


def default_workers() -> int:
    """The cores this process may use."""
    if hasattr(os, "process_cpu_count"):  # Python 3.13+
        return os.process_cpu_count() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


# --- one point ----------------------------------------------------------------------------------


def run_one(fn: Callable[[dict], dict], point_id: str, kind: str, params: dict[str, Any]) -> Record:
    """Runs one point wherever it is sent. Exceptions of the point become a failed record;
    KeyboardInterrupt and SystemExit pass, since they stop the run rather than the point."""
    start, cpu_start = time.perf_counter(), time.process_time()
    try:
        results = _flat_results(fn(dict(params)), params)
        status, error = "ok", ""
    except Exception as err:  # noqa: BLE001 - a point's own failure is data, not a crash
        results, status, error = {}, "failed", describe(err)
    return {
        "point_id": point_id,
        "kind": kind,
        "params": params,
        "status": status,
        "error": error,
        "elapsed_s": time.perf_counter() - start,
        # CPU seconds of the process that ran the point: the point's cost, unlike elapsed_s
        # independent of the machine's load, as long as the process runs one point at a time
        # (local workers, and Dask workers of one thread).
        "cpu_s": time.process_time() - cpu_start,
        "finished_at": _now(),
        **results,
    }


def failed_record(point: Point, error: str) -> Record:
    return {
        "point_id": point.id,
        "kind": point.kind,
        "params": point.params,
        "status": "failed",
        "error": error,
        "elapsed_s": 0.0,
        "cpu_s": 0.0,
        "finished_at": _now(),
    }


def describe(err: BaseException) -> str:
    """'Type: message (at file:line in function)', the innermost frame, for a failed point."""
    text = f"{type(err).__name__}: {err}"
    frames = traceback.extract_tb(err.__traceback__)
    if frames:
        last = frames[-1]
        text += f" (at {os.path.basename(last.filename)}:{last.lineno} in {last.name})"
    return text


def _flat_results(results: Any, params: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(results, dict):
        raise TypeError(f"the kind returned {type(results).__name__}, not a dict of results")
    out = {}
    for key, value in results.items():
        if not isinstance(key, str) or not key:
            raise TypeError(f"result key {key!r} is not a non-empty string")
        if key in RESERVED or key in params:
            raise TypeError(f"result '{key}' has the name of a parameter or of a column the runner writes")
        out[key] = _plain(value, key)
    return out


def _plain(value: Any, key: str) -> Any:
    if hasattr(value, "item") and type(value).__module__ == "numpy":  # numpy scalars
        value = value.item()
    if isinstance(value, SCALARS):
        return value
    if isinstance(value, (list, tuple)):
        items = [_plain(v, key) for v in value]
        # One column holds one type: a results directory (Parquet) cannot store a list that
        # mixes them, and a run without one must fail the point just the same.
        kinds = sorted({_element_kind(v) for v in items if v is not None})
        if len(kinds) > 1:
            raise TypeError(
                f"result '{key}' = {value!r} mixes {' and '.join(kinds)}: a list's elements are all "
                "numbers, all strings, all booleans or all lists"
            )
        return items
    raise TypeError(
        f"result '{key}' = {value!r} is a {type(value).__name__}: results are flat "
        "(numbers, strings, booleans or lists of them)"
    )


def _element_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "booleans"
    if isinstance(value, (int, float)):
        return "numbers"
    return "strings" if isinstance(value, str) else "lists"


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="microseconds")


def ensure_picklable(fn: Callable, kind: str) -> None:
    try:
        pickle.dumps(fn)
    except Exception as err:  # noqa: BLE001 - pickle raises several types
        raise bad(
            "run_experiment",
            "kind",
            kind,
            "a kind whose function pickles (defined at module level), or workers=1",
            message=f"kind '{kind}': its function cannot be sent to worker processes ({err}); define it "
            "at module level, or run with workers=1 (in this process)",
        ) from err


# --- local execution ----------------------------------------------------------------------------


def run_local(points: Iterable[Point], fn: Callable, workers: int, on_records: OnRecords) -> None:
    """Runs the points on ``workers`` processes (spawned: no state inherited from a threaded
    parent), or in this process when ``workers`` is 1."""
    pending = deque(points)
    if workers == 1:
        for p in pending:
            on_records([run_one(fn, p.id, p.kind, p.params)])
        return
    context = multiprocessing.get_context("spawn")
    while pending:
        lost = _run_pool(pending, fn, workers, context, on_records)
        for point in lost:
            _run_isolated(point, fn, context, on_records)


def _run_isolated(point: Point, fn: Callable, context: Any, on_records: OnRecords) -> None:
    """Runs, alone, a point that was running when a worker died: the death is then its own."""
    for _ in range(ALLOWED_CRASHES - 1):  # the first death was in the shared pool
        if not _run_pool(deque([point]), fn, 1, context, on_records):
            return
    error = (
        f"WorkerDied: the worker process died {ALLOWED_CRASHES} times while running this point "
        "(a crash of native code, running out of memory, or the process being killed)"
    )
    on_records([failed_record(point, error)])


def _run_pool(pending: deque, fn: Callable, workers: int, context: Any, on_records: OnRecords) -> list[Point]:
    """Runs points from ``pending`` until it is empty, keeping exactly as many in flight as
    there are workers (so that when one dies, the points it may have been running are known).
    Returns the points in flight when a worker died, or [] when all ran."""
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=exit_with_driver, initargs=(os.getpid(),)
    )
    running: dict[Any, Point] = {}
    try:
        while pending or running:
            broken = False
            while pending and len(running) < workers and not broken:
                try:
                    future = pool.submit(run_one, fn, pending[0].id, pending[0].kind, pending[0].params)
                    running[future] = pending.popleft()
                except BrokenProcessPool:  # a worker died since the last wait
                    broken = True
            done, _ = wait(running, return_when=FIRST_COMPLETED) if running else (set(), set())
            if broken or any(isinstance(f.exception(), BrokenProcessPool) for f in done):
                # Whatever finished before the death is kept; the rest was lost with the pool.
                done = {f for f in running if f.done() and f.exception() is None}
                broken = True
            batch = [f.result() for f in done]  # re-raises a point's KeyboardInterrupt
            for future in done:
                del running[future]
            if batch:
                on_records(batch)
            if broken:
                pool.shutdown(wait=True)
                return list(running.values())
        pool.shutdown(wait=True)
        return []
    except BaseException:
        # Interrupted (Ctrl-C, or a point raised KeyboardInterrupt): points still running
        # are stopped, not waited for; their results were not stored and will run on resume.
        _terminate(pool)
        raise


DRIVER_POLL_SECONDS = 1.0


def exit_with_driver(driver_pid: int) -> None:
    """Worker initializer: the worker ends when the driver process dies, even by ``kill -9``
    (which gives the driver no chance to stop it). On Linux the kernel sends SIGKILL on the
    parent's death (PR_SET_PDEATHSIG); elsewhere, and as a fallback, a thread checks every
    DRIVER_POLL_SECONDS whether the parent changed (an orphan is re-parented)."""
    import threading

    if sys.platform.startswith("linux"):
        try:
            import ctypes
            import signal

            libc = ctypes.CDLL(None, use_errno=True)
            pr_set_pdeathsig = 1
            libc.prctl(pr_set_pdeathsig, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != driver_pid:  # the driver died before the request took effect
        os._exit(1)

    def watch() -> None:
        while os.getppid() == driver_pid:
            time.sleep(DRIVER_POLL_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="topolab-driver-watch", daemon=True).start()


def _terminate(pool: ProcessPoolExecutor) -> None:
    # The executor has no public way to stop running calls; its worker processes are ours.
    for process in list(getattr(pool, "_processes", {}).values()):
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)


# --- Dask execution -----------------------------------------------------------------------------


def probe_scheduler(address: str, timeout: float | None = None) -> str:
    """``address`` once a Dask scheduler is heard there. Dask's client waits without a time
    limit for a scheduler's greeting and trusts its length field, so a server that accepts
    and never answers hangs it and one that answers HTTP makes it allocate exabytes: the
    greeting (which a scheduler sends first, unasked) is read here with a timeout and its
    length checked. TLS addresses are left to Dask."""
    import re
    import socket
    import struct

    timeout = CONNECT_TIMEOUT_S if timeout is None else timeout
    if address.startswith("inproc://"):
        return address  # a cluster in this process (LocalCluster(processes=False)): Dask's to check
    match = re.fullmatch(r"(?:(tcp|tls)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):([0-9]{1,5})", address)
    if match is None or not 0 < int(match.group(3)) < 65536:
        raise bad("experiment", "scheduler", address, SCHEDULER_ALLOWED)
    scheme, host, port = match.group(1) or "tcp", match.group(2).strip("[]"), int(match.group(3))
    if scheme == "tls":
        return address
    where = f"scheduler = {quote(address)}"
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.settimeout(timeout)
            head = b""
            while len(head) < 8:
                chunk = sock.recv(8 - len(head))
                if not chunk:
                    raise bad(
                        "scheduler",
                        "scheduler",
                        address,
                        SCHEDULER_ALLOWED,
                        message=f"{where}: the server there closed the connection; not a Dask scheduler",
                    )
                head += chunk
    except socket.timeout:
        raise bad(
            "scheduler",
            "scheduler",
            address,
            SCHEDULER_ALLOWED,
            message=f"{where}: no Dask scheduler answered within {timeout:g} s (a server accepted the "
            "connection but sent no greeting)",
        ) from None
    except OSError as err:
        raise bad(
            "scheduler",
            "scheduler",
            address,
            SCHEDULER_ALLOWED,
            message=f"{where}: cannot connect to a Dask scheduler there ({err.strerror or err})",
        ) from None
    (length,) = struct.unpack("<Q", head)
    if length > MAX_GREETING_BYTES:
        raise bad(
            "scheduler",
            "scheduler",
            address,
            SCHEDULER_ALLOWED,
            message=f"{where}: the server there is not a Dask scheduler (it began its answer with "
            f"{quote(head)})",
        )
    return address


def run_dask(
    points: Iterable[Point], fn: Callable, scheduler: Any, workers: int | None, on_records: OnRecords
) -> None:
    """Runs the points as Dask tasks. ``scheduler``: an address ('tcp://host:8786'), 'local'
    (a LocalCluster of ``workers`` processes on this machine), a distributed.Client or a
    cluster object."""
    try:
        from distributed import Client, LocalCluster, as_completed
        from distributed.client import FutureCancelledError
        from distributed.scheduler import KilledWorker
    except ImportError as err:
        raise bad(
            "run_experiment",
            "scheduler",
            scheduler,
            "an address once Dask is installed (pip install 'topolab[cluster]')",
            message=f"scheduler = {scheduler!r} needs Dask: pip install 'topolab[cluster]' ({err})",
        ) from err

    owned: list[Any] = []
    if isinstance(scheduler, Client):
        client = scheduler
    else:
        if scheduler == "local":
            cluster = LocalCluster(
                n_workers=workers or default_workers(),
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
            )
            owned.append(cluster)
            target: Any = cluster
        elif isinstance(scheduler, str):
            if workers is not None:
                raise bad(
                    "run_experiment",
                    "workers",
                    workers,
                    "None with a scheduler address (a cluster has its own workers)",
                    message=f"workers = {workers} cannot be combined with scheduler = {quote(scheduler)}: "
                    "a cluster has its own workers (workers applies to local runs and scheduler 'local')",
                )
            target = probe_scheduler(scheduler)
        elif hasattr(scheduler, "scheduler_address"):
            target = scheduler
        else:
            raise bad("experiment", "scheduler", scheduler, SCHEDULER_ALLOWED)
        try:
            client = Client(target, timeout=f"{CONNECT_TIMEOUT_S}s")
        except (OSError, TimeoutError, ValueError) as err:  # ValueError: a malformed inproc address
            for thing in owned:
                thing.close()
            raise bad(
                "run_experiment",
                "scheduler",
                scheduler,
                SCHEDULER_ALLOWED,
                message=f"scheduler = {quote(scheduler)}: cannot connect to a Dask scheduler there ({err})",
            ) from err
        owned.insert(0, client)

    run = uuid.uuid4().hex[:8]
    futures: dict[Any, Point] = {}
    try:
        for p in points:
            future = client.submit(
                run_one,
                fn,
                p.id,
                p.kind,
                p.params,
                key=f"topolab-point-{p.id}-{run}",
                pure=False,
                priority=-p.index,
            )
            futures[future] = p
        for batch in as_completed(list(futures)).batches():
            records = []
            for future in batch:
                point = futures.pop(future)
                try:
                    records.append(future.result())
                except KilledWorker as err:
                    error = f"WorkerDied: the workers running this point died repeatedly ({err})"
                    records.append(failed_record(point, error))
                except FutureCancelledError as err:
                    records.append(
                        failed_record(point, f"Cancelled: the task was cancelled on the cluster ({err})")
                    )
                except Exception as err:  # noqa: BLE001 - e.g. the kind cannot be unpickled on a worker
                    records.append(failed_record(point, describe(err)))
                # Released at once: a worker lost later must not make the cluster recompute it.
                future.release()
            on_records(records)
    except BaseException:
        if futures:
            client.cancel(list(futures))
        raise
    finally:
        for thing in owned:
            thing.close()
