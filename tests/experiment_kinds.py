"""A point kind for the experiment tests, importable by worker processes (spawned local workers
and Dask workers find this directory on the sys.path they inherit).

``probe`` returns results that the tests recompute independently (``expected``), so a result
attached to the wrong point is caught, and misbehaves on request:
- ``fail_at = X``: raises ValueError at x == X (a point's own error);
- ``crash_at = X``, ``crash_times = N``: the process running x == X dies (os._exit) the first N
  times, counted with marker files in $TOPOLAB_TEST_MARKERS, after ``crash_delay`` seconds;
- ``sleep``: seconds to wait first;
- $TOPOLAB_TEST_STOP = "N:interrupt" or "N:exit": once N points have run (counted in the log),
  the next one raises KeyboardInterrupt or ends the process with os._exit.
Each run of a point appends "x" to $TOPOLAB_TEST_LOG, so tests see what ran and how often, and
its process id to $TOPOLAB_TEST_PIDS (when set), so a test can kill a worker from outside.
"""

from __future__ import annotations

import os
import pathlib
import random
import time

LOG = "TOPOLAB_TEST_LOG"
STOP = "TOPOLAB_TEST_STOP"
MARKERS = "TOPOLAB_TEST_MARKERS"
PIDS = "TOPOLAB_TEST_PIDS"  # a file each run appends the id of the process running it to


def expected(x: int, seed: int = 0) -> dict:
    return {"square": x * x, "draw": random.Random(f"{seed}-{x}").random(), "label": f"x{x}"}


def probe(params: dict) -> dict:
    x = params["x"]
    _maybe_stop()
    _append(os.environ.get(LOG), f"{x}\n")
    _append(os.environ.get(PIDS), f"{os.getpid()}\n")
    if params.get("crash_at") == x:
        markers = pathlib.Path(os.environ[MARKERS])
        done = len(list(markers.glob(f"crash-{x}-*")))
        if done < params.get("crash_times", 1):
            (markers / f"crash-{x}-{done}").touch()
            time.sleep(params.get("crash_delay", 0.0))
            os._exit(1)
    if params.get("fail_at") == x:
        raise ValueError(f"x = {x} is unlucky")
    time.sleep(params.get("sleep", 0.0))
    return expected(x, params.get("seed", 0))


def ran(log: pathlib.Path) -> list[int]:
    """The x of every point run, in order, from a log file."""
    return [int(line) for line in log.read_text().split()] if log.exists() else []


def _maybe_stop() -> None:
    stop = os.environ.get(STOP)
    if not stop:
        return
    count, mode = stop.split(":")
    if len(ran(pathlib.Path(os.environ[LOG]))) >= int(count):
        if mode == "exit":
            os._exit(3)
        raise KeyboardInterrupt


def _append(path: str | None, text: str) -> None:
    if path:
        # One O_APPEND write per line: lines from concurrent processes do not interleave.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            os.write(fd, text.encode())
        finally:
            os.close(fd)
