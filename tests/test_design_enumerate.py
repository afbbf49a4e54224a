"""Design-space enumeration: the paper configurations are found, every spec builds with the sizes
claimed, nothing outside the constraints, completeness against brute force, errors, order."""

from __future__ import annotations

import json
import math

import pytest

import topolab
from topolab.design import (
    FAMILY_ORDER,
    check_design,
    designs_frame,
    enumerate_designs,
    shortlist,
)


def by_spec(designs):
    return {d.spec: d for d in designs}


# --- the configurations Besta & Hoefler, SC14, §VI-B4 / Table IV names
# -------------------------------------------


def test_finds_the_dragonfly_of_radix_43_with_990_routers():
    # Besta & Hoefler, SC14, Table IV: DF with k = 43 and N = 10,890 on 990 routers, "N closest to the
    # analyzed SF" (N = 10,830, router radix 44 with p = 15).
    designs = enumerate_designs(44, 10830)
    df = by_spec(designs)["dragonfly:a=22,h=11,p=11,g=45"]
    assert (df.routers, df.endpoints, df.radix) == (990, 10890, 43)
    assert "a=2h=2p (Besta & Hoefler, SC14, §VI-B3e)" in df.tags and "fewer groups" in df.tags
    assert check_design(df) == []
    # How Besta & Hoefler (SC14) picked it: among balanced Dragonflies a = 2p = 2h (§VI-B3e) of radix 43 the
    # one with N closest to the Slim Fly's. Brute force over (a, h, p, g) independently:
    best = min(
        (
            (abs(p * a * g - 10830), (a, h, p, g))
            for h in range(1, 44)
            for a, p in [(2 * h, h)]
            if p + h + a - 1 == 43
            for g in range(2, a * h + 2)
        ),
    )[1]
    assert best == (22, 11, 11, 45)
    canonical = [d for d in designs if "a=2h=2p (Besta & Hoefler, SC14, §VI-B3e)" in d.tags and d.radix == 43]
    assert min(canonical, key=lambda d: abs(d.endpoints - 10830)).spec == df.spec


def test_literal_000_search_includes_the_exact_size_but_oversubscribed_dragonfly():
    # The search as Besta & Hoefler (SC14) word it (a >= 2h, p >= h, k = 43, N closest) would have found an
    # exact N = 10,830 (a = 19, h = 6, p = 19, g = 30); it is heavily oversubscribed (p = 19 endpoints
    # per router, 87/19 global links per router), so Besta & Hoefler's (SC14) pick must have had a = 2p = 2h.
    unlimited = by_spec(enumerate_designs(43, 10830, oversubscription=math.inf))
    exact = unlimited["dragonfly:a=19,h=6,p=19,g=30"]
    assert exact.endpoints == 10830 and exact.radix == 43
    assert exact.oversubscription > 3 and not exact.balanced
    assert check_design(exact) == []
    assert exact.spec not in by_spec(enumerate_designs(43, 10830))  # beyond the default 40%


def test_finds_slim_fly_q19_for_radix_44_and_its_floor_variant_for_43():
    found = by_spec(enumerate_designs(44, 10830, families=["slimfly"]))
    sf = found["slimfly:q=19,p=15"]
    assert (sf.routers, sf.endpoints, sf.radix, sf.network_radix) == (722, 10830, 44, 29)
    assert sf.balanced and "ceil p (Besta & Hoefler, SC14, §II-B2)" in sf.tags
    floor = found["slimfly:q=19,p=14"]
    assert floor.balanced and "floor p (Kathareios et al., SC15, §2.1.2)" in floor.tags
    # Besta & Hoefler (SC14) print k = 43 for this Slim Fly; with radix 43 only the floor concentration fits.
    at_43 = by_spec(enumerate_designs(43, 10830, families=["slimfly"]))
    assert "slimfly:q=19,p=14" in at_43 and "slimfly:q=19,p=15" not in at_43
    for d in (sf, floor):
        assert check_design(d) == []


def test_slim_fly_oversubscription_of_000_section_v_e():
    # Besta & Hoefler, SC14, §V-E: q = 19 with p = 16..21 (up to 15,162 endpoints) are oversubscribed
    # variants.
    found = by_spec(
        enumerate_designs(50, 13000, endpoint_tolerance=0.2, families=["sf"], oversubscription=0.4)
    )
    for p in range(16, 22):
        d = found[f"slimfly:q=19,p={p}"]
        assert not d.balanced
        assert d.oversubscription == pytest.approx(p / 15 - 1)
        assert d.tags[0] == f"oversubscribed {round(100 * (p / 15 - 1))}%"


def test_finds_the_balanced_dragonfly_of_radix_27():
    d = by_spec(enumerate_designs(27, 9702))["dragonfly:a=14,h=7,p=7,g=99"]
    assert (d.routers, d.endpoints, d.radix) == (1386, 9702, 27)
    assert d.balanced and "full groups (g = ah+1)" in d.tags
    assert check_design(d) == []


def test_finds_other_paper_configurations():
    found = by_spec(enumerate_designs(44, 10830))
    # Besta & Hoefler, SC14, §V: the simulated FT-3 (k = 44, 22 pods); Table IV: T3D 22x22x22 with p = 1.
    for spec, sizes in [
        ("fattree:k=44,levels=3,p=22,pods=22", (1452, 10648, 44)),
        ("torus:dims=22x22x22,p=1", (10648, 10648, 7)),
    ]:
        d = found[spec]
        assert (d.routers, d.endpoints, d.radix) == sizes
    # Daryin & Korzh, JSFI 2014, §1.2: the optimal FlatFly for 2,048 radix-36 switches with C = 8 is 4x8x8x8
    # with link widths 2,1,1,1 (bisection 50%: balanced).
    flatfly = by_spec(enumerate_designs(36, 16384, families=["hyperx"]))[
        "hyperx:dims=4x8x8x8,widths=2x1x1x1,p=8"
    ]
    assert (flatfly.routers, flatfly.radix, flatfly.balanced) == (2048, 35, True)
    assert check_design(flatfly) == []


# --- every spec builds as claimed --------------------------------------------------------------


def test_every_design_of_a_small_case_builds_as_claimed():
    designs = enumerate_designs(12, 100)
    assert {d.family for d in designs} >= {"dragonfly", "fattree", "hyperx", "torus", "mlfm", "oft"}
    problems = [p for d in designs for p in check_design(d)]
    assert problems == []


def test_a_sample_of_every_family_builds_as_claimed_at_radix_48():
    designs = enumerate_designs(48, 10000)
    assert {d.family for d in designs} == set(FAMILY_ORDER)
    sample = {}
    for d in designs:  # the first and the last design of each family
        sample.setdefault(d.family, {})[d.spec] = d
    problems = []
    for members in sample.values():
        specs = list(members)
        for spec in {specs[0], specs[-1]}:
            problems += check_design(members[spec])
    assert problems == []


# --- constraints -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "radix, endpoints, tolerance, over, under",
    [(48, 10000, 0.15, 0.4, 0.25), (36, 2000, 0.05, 0.0, 0.0), (64, 50000, 0.3, 1.0, 0.5)],
)
def test_no_design_outside_the_constraints(radix, endpoints, tolerance, over, under):
    designs = enumerate_designs(radix, endpoints, tolerance, oversubscription=over, undersubscription=under)
    assert designs
    for d in designs:
        assert d.radix <= radix, d.spec
        assert abs(d.endpoints - endpoints) <= tolerance * endpoints + 1e-9, d.spec
        assert d.deviation == pytest.approx(d.endpoints / endpoints - 1)
        assert d.balanced == (d.load <= 1 + 1e-9)
        assert d.oversubscription == pytest.approx(max(0.0, d.load - 1))
        low_radix_p1 = d.family in ("torus", "mesh", "hypercube", "longhop") and d.concentration == 1
        if not low_radix_p1:  # Besta & Hoefler, SC14, §III's p = 1 tori, meshes and hypercubes are exempt
            assert 1 - under - 1e-9 <= d.load <= 1 + over + 1e-9, d.spec
        if d.family == "dragonfly":
            a, h, p = (d.params[k] for k in "ahp")
            assert a >= 2 * h and p >= h  # Besta & Hoefler, SC14, §VI-B4


def test_order_is_deterministic_and_grouped_by_family():
    a = enumerate_designs(40, 5000)
    b = enumerate_designs(40, 5000)
    assert [d.spec for d in a] == [d.spec for d in b]
    assert len({d.spec for d in a}) == len(a)
    ranks = [FAMILY_ORDER.index(d.family) for d in a]
    assert ranks == sorted(ranks)


def test_families_argument_takes_names_and_aliases():
    only = enumerate_designs(48, 10000, families=["sf", "df"])
    assert {d.family for d in only} == {"slimfly", "dragonfly"}
    assert [d.spec for d in enumerate_designs(48, 10000, families="slimfly,dragonfly")] == [
        d.spec for d in only
    ]
    # twins of Slim Flies and Dragonflies are made even when those families are not listed
    jelly = enumerate_designs(44, 10830, families=["jellyfish"])
    twin = by_spec(jelly)["jellyfish:routers=722,degree=29,p=15"]
    assert "twin of slimfly:q=19,p=15" in twin.tags


def test_every_family_topolab_builds_has_a_rule():
    assert {f.name for f in topolab.families()} == set(FAMILY_ORDER)


# --- completeness against brute force ----------------------------------------------------------


def test_slim_fly_q_values_are_those_the_core_accepts():
    # Oracle: topolab.build decides which q exist; sizes come from the built network.
    radix, lo, hi = 30, 100, 4000
    expected = set()
    for q in range(2, 20):
        try:
            net = topolab.build(f"slimfly:q={q},p=1")
        except topolab.ParameterError:
            continue
        k_net, routers = net.network_radix, net.num_routers
        for p in range(1, radix - k_net + 1):
            load = p / math.ceil(k_net / 2)
            if lo <= p * routers <= hi and 0.75 - 1e-9 <= load <= 1.4 + 1e-9:
                expected.add((q, p))
    found = enumerate_designs(radix, 2050, endpoint_tolerance=0.95, families=["slimfly"])
    assert {(d.params["q"], d.params["p"]) for d in found} == expected


def test_dragonfly_search_covers_every_a_h_p_of_000():
    # Brute force over (a, h, p, g), a >= 2h, p >= h, radix <= K, N in the window, no
    # subscription limit: every (a, h, p) with some g in the window is enumerated, and for each
    # the g with N nearest the target is among those kept.
    radix, target, tol = 20, 600, 0.2
    lo, hi = target * (1 - tol), target * (1 + tol)
    nearest = {}
    for h in range(1, radix):
        for a in range(2 * h, radix + 1):
            for p in range(h, radix + 1):
                if p + h + a - 1 > radix:
                    continue
                for g in range(2, a * h + 2):
                    if lo <= p * a * g <= hi:
                        key = (a, h, p)
                        old = nearest.get(key)
                        if old is None or (abs(p * a * g - target), g) < (abs(p * a * old - target), old):
                            nearest[key] = g
    designs = enumerate_designs(radix, target, tol, families=["dragonfly"], oversubscription=math.inf)
    kept = {}
    for d in designs:
        kept.setdefault((d.params["a"], d.params["h"], d.params["p"]), set()).add(d.params["g"])
    assert set(kept) == set(nearest)
    for key, g in nearest.items():
        assert g in kept[key], key


# --- errors, frames, shortlist ------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"radix": 2, "endpoints": 100}, ["'radix'", "2", ">= 3"]),
        ({"radix": 48.5, "endpoints": 100}, ["'radix'", "48.5"]),
        ({"radix": 48, "endpoints": 0}, ["'endpoints'", "0"]),
        ({"radix": 48, "endpoints": 100, "endpoint_tolerance": 1.0}, ["'endpoint_tolerance'", "below 1"]),
        ({"radix": 48, "endpoints": 100, "endpoint_tolerance": float("nan")}, ["'endpoint_tolerance'"]),
        ({"radix": 48, "endpoints": 100, "oversubscription": -0.1}, ["'oversubscription'", ">= 0"]),
        ({"radix": 48, "endpoints": 100, "undersubscription": 2}, ["'undersubscription'"]),
        ({"radix": 48, "endpoints": 100, "families": ["slimfly", "nope"]}, ["'families'", "nope", "slimfly"]),
        ({"radix": 48, "endpoints": 100, "families": []}, ["'families'", "at least one"]),
    ],
)
def test_bad_arguments_name_the_parameter(kwargs, words):
    with pytest.raises(topolab.ParameterError) as err:
        enumerate_designs(**kwargs)
    for w in words:
        assert w in str(err.value)


def test_frame_and_dicts():
    designs = enumerate_designs(44, 10830, families=["slimfly", "dragonfly"])
    frame = designs_frame(designs)
    assert list(frame["spec"]) == [d.spec for d in designs]
    assert {"name", "family", "routers", "endpoints", "radix", "load", "balanced", "tags"} <= set(
        frame.columns
    )
    assert frame["radix"].max() <= 44
    json.dumps([d.to_dict() for d in designs])  # plain data
    assert designs[0].to_dict()["params"] == dict(designs[0].params)


def test_shortlist_keeps_per_family_and_named_specs():
    designs = enumerate_designs(44, 10830)
    keep = "dragonfly:a=22,h=11,p=11,g=45"
    short = shortlist(designs, per_family=2, keep=[keep])
    specs = [d.spec for d in short]
    assert keep in specs
    assert [d.spec for d in designs if d.spec in set(specs)] == specs  # enumeration order
    for family in {d.family for d in designs}:
        members = [d for d in short if d.family == family and d.spec != keep]
        assert 1 <= len(members) <= 2
    # the preferred design of a family is balanced, load nearest 1: Slim Fly q = 19, p = 15;
    # the second one is another structure (network radix) when the family has one
    assert "slimfly:q=19,p=15" in specs
    for family in {d.family for d in designs}:
        radices = {d.network_radix for d in designs if d.family == family}
        chosen = [d.network_radix for d in short if d.family == family and d.spec != keep]
        if len(radices) >= 2:
            assert len(set(chosen)) == len(chosen), family
