"""The one progress display of topolab: a tqdm bar on stderr with rate and ETA.

Every long call (``simulate``, ``sweep_load``, ``latency``, ``analyze``, ``compare``,
``run_experiment``, ``reproduce.run``) takes ``progress``: True shows it, False hides it, None
(the default) shows it when stderr is a terminal. On a terminal the bar is redrawn in place;
on anything else (a log file, a pipe, CI) the bar's state is written as a line when it moves
after ``LOG_EVERY_S`` seconds without one (an hour-long comparison leaves a line a minute in
its log, a short call none), and one line with the totals, the elapsed time and the rate at
the end. A long call made inside
another (a simulation inside ``reproduce``) adds to the outer bar instead of drawing its own.

The Rust core reports ``(stage, done, total)`` through its ``Monitor`` trait
(crates/topolab-core/src/progress.rs); crates/topolab-py/src/monitor.rs hands each report to
``Progress.core`` on the main thread.
"""

from __future__ import annotations

import io
import sys
import time
import warnings
from types import TracebackType
from typing import Any, Callable, Optional, TextIO

# Bars alive now, innermost last. A call made while another bar is alive (a simulation inside a
# comparison or a reproduction) shows nothing of its own unless asked to explicitly: the outer
# bar speaks for it, and counts it when it was made with ``counts_calls``.
_ALIVE: list[Progress] = []
# Off a terminal, the least time between two lines of a bar's progress in the log.
LOG_EVERY_S = 60.0


def wanted(progress: Optional[bool], stream: Optional[TextIO] = None) -> bool:
    """Whether to show progress: ``progress`` itself, or when None, whether ``stream`` (stderr
    by default) is a terminal."""
    if progress is not None:
        if not isinstance(progress, bool):
            from topolab._args import bad

            raise bad(
                "progress", "progress", progress, "True, False or None (None: when stderr is a terminal)"
            )
        return progress
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def legacy_keyword(progress: Optional[bool], show_progress: Optional[bool], where: str) -> Optional[bool]:
    """``progress``, or the value of the former keyword ``show_progress`` (deprecated: one
    keyword, ``progress``, across the package) when only that was given. Either must be a bool
    or None: anything else is a ParameterError naming it."""
    for name, value in (("progress", progress), ("show_progress", show_progress)):
        if value is not None and not isinstance(value, bool):
            from topolab._args import bad

            raise bad(where, name, value, "True, False or None (None: when stderr is a terminal)")
    if show_progress is None:
        return progress
    warnings.warn(
        f"{where}: keyword 'show_progress' is deprecated; use progress=True/False "
        "(None: when stderr is a terminal)",
        DeprecationWarning,
        stacklevel=3,
    )
    return show_progress if progress is None else progress


class Progress:
    """A progress bar over ``total`` units (None: unknown) named ``desc``.

    Disabled, it costs nothing and writes nothing. ``core`` is the callable to pass as a Rust
    call's ``progress=`` argument: each report sets the bar's stage, position and total (a new
    stage starts a new count, so that the rate is of the current stage; the stages whose name
    starts with ``cumulative`` add up instead, and are counted: the runs of a load sweep).
    ``counts_calls``: each bar made and finished inside this one, silenced, counts as one unit
    of it. ``unit_stages``: the core's stages (name prefixes) that count in ``unit``; its other
    stages, the set-up work before them (hop distances, routing tables), count in steps. None:
    every stage counts in ``unit``."""

    def __init__(
        self,
        desc: str,
        total: Optional[float] = None,
        *,
        unit: str = "it",
        initial: float = 0,
        enabled: Optional[bool] = None,
        stream: Optional[TextIO] = None,
        counts_calls: bool = False,
        cumulative: Optional[str] = None,
        unit_stages: Optional[tuple[str, ...]] = None,
    ) -> None:
        self.stream: TextIO = sys.stderr if stream is None else stream
        self.outer = _ALIVE[-1] if _ALIVE else None
        if self.outer is not None and enabled is None:
            enabled = False
        self.counts_calls = counts_calls
        self.cumulative = cumulative
        self.unit = unit
        self.unit_stages = unit_stages
        self._base = 0
        self._stage_done = 0
        self._stages = 0
        self._stage_adds_up = False
        self.enabled = wanted(enabled, self.stream)
        self.desc = desc
        self.tty = wanted(None, self.stream)
        self.stage: Optional[str] = None
        self._closed = False
        self._last_line = self._started = time.monotonic()
        # Off a terminal the bar draws into a sink and its final state is written as one line.
        target = self.stream if self.tty else io.StringIO()
        from tqdm import tqdm  # here, not at import: `import topolab` stays quick

        self.bar: tqdm[Any] = tqdm(
            total=total,
            initial=initial,
            desc=desc,
            unit=unit,
            file=target,
            disable=not self.enabled,
            dynamic_ncols=self.tty,
            leave=True,
            mininterval=0.2,
            # A call that fails at once (a bad routing name) draws nothing before its error.
            delay=0.5 if self.tty else 0,
        )
        _ALIVE.append(self)

    # --- reporting --------------------------------------------------------------------------
    def update(self, n: float = 1) -> None:
        if self.enabled:
            self.bar.update(n)
            self._log_line()

    def _log_line(self) -> None:
        """Off a terminal: the bar's state as a line, if none was written for LOG_EVERY_S."""
        if self.tty:
            return
        now = time.monotonic()
        if now - self._last_line >= LOG_EVERY_S:
            self._last_line = now
            self.stream.write(str(self.bar).strip() + "\n")
            self.stream.flush()

    def note(self, text: str) -> None:
        """A short text after the counts (the design being measured, the current load)."""
        if self.enabled:
            self.bar.set_postfix_str(text, refresh=False)

    @property
    def callback(self) -> Optional[Callable[[str, int, int], None]]:
        """What to pass as a Rust call's ``progress=``: ``core``, or None when nobody would see
        the reports (the core then skips the calls)."""
        outer = self.outer
        if self.enabled or (outer is not None and outer.counts_calls and outer.enabled):
            return self.core
        return None

    def core(self, stage: str, done: int, total: int) -> None:
        """The callback for the Rust core's reports."""
        if not self.enabled:
            outer = self.outer
            if outer is not None and outer.counts_calls and outer.enabled:
                outer.note(f"{self.desc}: {stage} {done}/{total}" if total else f"{self.desc}: {stage}")
                outer.bar.refresh()
            return
        adds_up = self.cumulative is not None and stage.startswith(self.cumulative)
        if stage != self.stage:
            if adds_up and self._stage_adds_up:
                self._base += self._stage_done  # the next run of a sweep: keep counting
            else:
                self._base = 0  # another kind of work: a count (and a rate) of its own
                self.bar.reset(total=total or None)
            self.stage, self._stage_adds_up = stage, adds_up
            own = self.unit_stages is None or stage.startswith(self.unit_stages)
            self.bar.unit = self.unit if own else "step"
            self._stages += adds_up
            label = self.desc if stage == self.desc else f"{self.desc}: {stage}"
            if adds_up:
                label += f" (run {self._stages})"
            self.bar.set_description_str(label, refresh=False)
        self._stage_done = done
        if total:
            self.bar.total = self._base + total
        self.bar.n = self._base + done
        self.bar.refresh()
        self._log_line()

    # --- end --------------------------------------------------------------------------------
    def close(self, finished: bool = True) -> None:
        """Ends the bar. ``finished``: the work is complete, so the count is the total (a
        simulation's total is an estimate of its cycles until it converges)."""
        if self._closed:
            return
        self._closed = True
        if self in _ALIVE:
            _ALIVE.remove(self)
        if finished and self.outer is not None and self.outer.counts_calls and not self.enabled:
            self.outer.update()
        if finished and self.enabled and self.bar.total is not None and self.bar.n != self.bar.total:
            self.bar.total = self.bar.n
        if not self.enabled:
            self.bar.close()
            return
        if self.bar.n == 0 and self.stage is None:
            # Nothing counted: never a line of "0 runs, ? runs/s". On a terminal the bar is
            # wiped; work that finished says how long it took, an error says nothing more.
            self.bar.leave = False
            self.bar.close()
            if finished:
                self.stream.write(f"{self.desc}: done in {time.monotonic() - self._started:.1f} s\n")
                self.stream.flush()
            return
        if self.tty:
            self.bar.close()
            return
        final = str(self.bar).strip()
        self.bar.close()
        self.stream.write(final + "\n")
        self.stream.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        kind: Optional[type[BaseException]],
        error: Optional[BaseException],
        trace: Optional[TracebackType],
    ) -> None:
        self.close(finished=kind is None)
