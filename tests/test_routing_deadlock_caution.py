"""BookSim2's Dragonfly UGAL VC scheme is not deadlock-free (docs/routing.md, "paths=dragonfly"):
the checker finds its cycle, choosing it warns, and its ordered-VC variant is acyclic and runs."""

from __future__ import annotations

import warnings

import pytest

import topolab
from topolab import routing
from topolab.cli import main

DRAGONFLY = "dragonfly:a=4,h=2"
FAST = {"sample_period": 200, "warmup_periods": 1, "max_samples": 2}


def test_booksim_scheme_has_a_cycle_on_vc0_and_warns():
    net = topolab.build(DRAGONFLY)
    with pytest.warns(topolab.DeadlockWarning, match="dragonfly_ugal_safe"):
        report = routing.check(net, "dragonfly_ugal", progress=False)
    assert not report.acyclic and report.vcs_used == 3
    # The cycle is a real one: each channel ends where the next starts, back to the first; all
    # on VC 0, the phase towards the intermediate.
    cycle = report.cycle
    assert cycle and all(a[1] == b[0] for a, b in zip(cycle, cycle[1:] + cycle[:1]))
    assert {vc for _, _, vc in cycle} == {0}


@pytest.mark.parametrize("spec", ["dragonfly_ugal_safe", "ugal_l:paths=dragonfly,vcs=group"])
def test_ordered_vcs_are_acyclic_and_silent(spec):
    net = topolab.build(DRAGONFLY)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = routing.check(net, spec, progress=False)
    assert report.acyclic and report.vcs_used == 4


def test_safe_variant_keeps_the_booksim_paths():
    # The same paths over the same links: only the VCs differ (3 phases against 4 ordered VCs).
    net = topolab.build(DRAGONFLY)
    with pytest.warns(topolab.DeadlockWarning):
        booksim = routing.check(net, "ugal_l:paths=dragonfly", progress=False)
    ordered = routing.check(net, "ugal_l:paths=dragonfly,vcs=group", progress=False)
    assert (booksim.num_paths, booksim.max_hops) == (ordered.num_paths, ordered.max_hops)
    assert booksim.num_channels / booksim.vcs_used == ordered.num_channels / ordered.vcs_used


def test_simulating_the_booksim_scheme_warns_and_the_safe_one_delivers():
    with pytest.warns(topolab.DeadlockWarning):
        topolab.simulate(DRAGONFLY + ",p=2", "dragonfly_ugal", load=0.1, num_vcs=4, **FAST)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = topolab.simulate(DRAGONFLY + ",p=2", "dragonfly_ugal_safe", load=0.3, num_vcs=4, **FAST)
    assert not r.saturated and abs(r.accepted_throughput - 0.3) < 0.03


def test_bad_vc_scheme_names_the_choices():
    with pytest.raises(topolab.ParameterError, match="booksim.*group"):
        routing.check(topolab.build(DRAGONFLY), "ugal_l:paths=dragonfly,vcs=hop", progress=False)


def test_cli_prints_the_warning_as_its_own_line(capsys):
    assert main(["routing", "check", DRAGONFLY, "--routing", "dragonfly_ugal", "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "topolab: warning: routing 'dragonfly_ugal':" in err and "not deadlock-free" in err
