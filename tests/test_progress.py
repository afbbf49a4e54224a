"""The one progress display (topolab.progress): off a terminal a line a minute while the work
moves and one final line, nothing when disabled, nested calls counted by the outer bar, and the
Rust core's reports reaching it."""

import io
import re

import pytest

import topolab
from topolab import _core
from topolab.progress import Progress, wanted

SMALL = "slimfly:q=5"


def test_off_a_terminal_only_one_final_line_with_count_and_rate():
    stream = io.StringIO()
    with Progress("demo", 4, unit="point", stream=stream, enabled=True) as bar:
        for _ in range(4):
            bar.update()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("demo")
    assert "4/4" in lines[0]
    assert re.search(r"point/s|s/point", lines[0]), lines[0]


def test_off_a_terminal_a_long_run_logs_its_state_once_a_minute(monkeypatch):
    from topolab import progress

    clock = [1000.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    stream = io.StringIO()
    with Progress("demo", 10, unit="point", stream=stream, enabled=True) as bar:
        bar.update()  # at once: no line
        clock[0] += progress.LOG_EVERY_S - 1
        bar.update()  # just under a minute since the start: no line
        assert stream.getvalue() == ""
        clock[0] += 1
        bar.update()  # a minute: the state so far
        clock[0] += 10
        bar.update()  # ten seconds after that line: none
        written = stream.getvalue().splitlines()
        assert len(written) == 1 and "3/10" in written[0], written
        clock[0] += progress.LOG_EVERY_S
        bar.core("simulating", 5, 10)  # the core's reports count as movement too
        assert len(stream.getvalue().splitlines()) == 2
    lines = stream.getvalue().splitlines()
    assert len(lines) == 3 and lines[-1].startswith("demo"), lines


def test_disabled_writes_nothing_and_default_follows_the_stream():
    stream = io.StringIO()
    with Progress("demo", 3, stream=stream, enabled=False) as bar:
        bar.update(3)
    assert stream.getvalue() == ""
    assert wanted(None, io.StringIO()) is False
    assert wanted(True, io.StringIO()) is True


def test_a_call_inside_another_is_counted_by_the_outer_bar_only():
    stream = io.StringIO()
    with Progress("outer", unit="run", stream=stream, enabled=True, counts_calls=True) as outer:
        for _ in range(3):
            with Progress("inner", 10, stream=stream) as inner:
                assert not inner.enabled
                inner.update(10)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("outer: 3run"), lines
    assert outer.bar.n == 3


def test_a_failed_run_does_not_claim_completion():
    stream = io.StringIO()
    with pytest.raises(RuntimeError):
        with Progress("demo", 10, stream=stream, enabled=True) as bar:
            bar.update(4)
            raise RuntimeError("stop")
    assert "4/10" in stream.getvalue()


def test_the_core_reports_reach_the_callback_and_its_error_stops_the_run():
    net = topolab.build(SMALL)
    seen = []
    _core.simulate(net._net, "min", "uniform", 0.3, seed=0, progress=lambda *r: seen.append(r))
    assert seen, "the simulator reported no progress"
    stage, done, total = seen[-1]
    assert stage == "simulating" and 0 < done <= total

    def fail(stage, done, total):
        raise ValueError("stop here")

    with pytest.raises(ValueError, match="stop here"):
        _core.simulate(net._net, "min", "uniform", 0.3, seed=0, progress=fail)


def test_simulate_off_a_terminal_writes_one_line_with_a_rate(capfd):
    topolab.simulate(SMALL, load=0.3, progress=True)
    err = capfd.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "cycle/s" in lines[0] or "s/cycle" in lines[0]


def test_show_progress_is_a_deprecated_alias():
    with pytest.warns(DeprecationWarning, match="show_progress"):
        topolab.simulate(SMALL, load=0.2, show_progress=False)


def test_a_sweep_counts_the_cycles_of_all_its_runs(capfd):
    df = topolab.sweep_load(SMALL, loads=[0.2, 0.4], load_resolution=0, progress=True)
    line = capfd.readouterr().err.strip()
    assert "\n" not in line and "(run 2)" in line
    done = int(re.search(r"\| (\d+)/\1 ", line).group(1))
    # The bar shows the latest report the main thread saw of each run (the core reports every
    # 256 cycles, the main thread looks every 50 ms), so it may trail the runs' cycles, never
    # pass them.
    assert 0 < done <= df["cycles"].sum()


def test_set_up_stages_count_steps_and_the_run_counts_its_own_unit():
    stream = io.StringIO()
    with Progress("simulate", unit="cycle", stream=stream, enabled=True, unit_stages=("simulating",)) as bar:
        bar.core("hop distances", 10, 50)
        assert bar.bar.unit == "step"
        bar.core("simulating", 256, 1000)
        assert bar.bar.unit == "cycle"
    assert "cycle/s" in stream.getvalue() or "s/cycle" in stream.getvalue()


def test_an_exchange_counts_flits(capfd):
    topolab.run_exchange(SMALL, "alltoall", progress=True)
    line = capfd.readouterr().err.strip().splitlines()[-1]
    assert "flit/s" in line or "s/flit" in line, line


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("stream_type", [io.StringIO, _Terminal], ids=["log", "terminal"])
def test_nothing_run_leaves_no_zero_count_line(stream_type):
    """A bar that counted nothing never ends with "0run [00:00, ?run/s]": after an error it says
    nothing, after work it did not count the time it took."""
    stream = stream_type()
    with pytest.raises(topolab.ParameterError):
        with Progress("simulate", unit="cycle", stream=stream, enabled=True):
            raise topolab.ParameterError("bad routing")
    assert "0cycle" not in stream.getvalue() and "simulate" not in stream.getvalue(), repr(stream.getvalue())
    with Progress("reproduce x", unit="run", stream=stream, enabled=True, counts_calls=True):
        pass
    assert "0run" not in stream.getvalue() and "?" not in stream.getvalue(), repr(stream.getvalue())
    assert re.search(r"reproduce x: done in \d+\.\d s$", stream.getvalue().strip()), repr(stream.getvalue())


def test_a_bad_routing_prints_its_error_and_no_progress(capfd):
    from topolab.cli import main

    assert main(["sim", "torus:dims=2x3", "--routing", "nosuch", "--progress"]) == 2
    err = capfd.readouterr().err
    assert "0cycle" not in err and "simulate:" not in err.split("error:")[0], err
    assert "routing" in err
