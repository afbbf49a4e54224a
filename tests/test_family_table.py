"""What each family declares in the Rust family table and Python reads through ``_core``:
sizes in closed form (the enumeration's only source of sizes), display names, routings and
the simulation choice. The enumeration's sizes are checked against the built networks for
every family, so a formula that drifted from its builder fails here."""

import pytest

import topolab
from topolab import _core
from topolab.design import FAMILY_NAMES, FAMILY_ORDER, check_design, enumerate_designs, shortlist
from topolab.design.simulate import SIM_CHOICES

# (radix, endpoints) windows small enough to build every design they give (OFT needs 2k <= K with
# k - 1 a prime power, MLFM global routers 2l <= K).
WINDOWS = [(12, 150), (16, 400)]


def example_window(family: str) -> tuple[int, int]:
    """The (radix, endpoints) of the family's example: where a family whose members all lie
    outside WINDOWS (Delorme v = 2: 225 routers, p ~ 3; a complete graph's few dozen endpoints)
    has some, with no list of exceptions kept beside the family table."""
    example = next(f["example"] for f in _core.families() if f["name"] == family)
    sizes = topolab.family_sizes(example)
    return sizes.radix, sizes.endpoints


def sample_designs(family: str, windows: list[tuple[int, int]]) -> list:
    designs = []
    for radix, endpoints in windows:
        found = enumerate_designs(
            radix, endpoints, endpoint_tolerance=0.5, families=[family], oversubscription=1.0
        )
        designs += shortlist(found, per_family=3)
    return designs


@pytest.mark.parametrize("family", FAMILY_ORDER)
def test_enumerated_sizes_equal_the_built_network(family):
    designs = sample_designs(family, WINDOWS) or sample_designs(family, [example_window(family)])
    assert designs, f"no {family} design in the sample windows or at its example's size"
    for d in designs:
        net = topolab.build(d.spec)
        assert check_design(d, net) == []
        # the concentration is what the busiest endpoint router carries
        assert d.concentration == max(net.endpoints)


def test_family_sizes_of_a_paper_design_without_building():
    # Besta & Hoefler, SC14, §V-E: the q = 19 Slim Fly, 722 routers of network radix 29, p = 15
    s = topolab.family_sizes("slimfly:q=19")
    assert (s.routers, s.network_radix, s.concentration, s.endpoints) == (722, 29, 15, 10830)
    assert s.load == 1.0 and not s.radix_is_bound


def test_family_sizes_names_the_bad_parameter():
    with pytest.raises(_core.ParameterError, match="'q'.*6"):
        topolab.family_sizes("slimfly:q=6")
    with pytest.raises(_core.ParameterError, match="shortcuts"):
        topolab.family_sizes("dln:routers=8,shortcuts=6")


def test_every_family_declares_a_display_name_and_routings_the_catalogue_has():
    catalogue = {r.name: r for r in topolab.routings()}
    for f in _core.families():
        assert FAMILY_NAMES[f["name"]] == f["display_name"] != ""
        for name in f["routings"]:
            assert name in catalogue, f"{f['name']} declares unknown routing {name}"
        sim = f["simulation"]
        if sim is not None:
            for key in ("uniform_routing", "worst_routing"):
                assert catalogue[sim[key]].simulator, f"{f['name']}: {sim[key]} does not simulate"


def test_simulated_families_can_be_scaled_down():
    # compare --simulate needs both the family's choice and a rule that shrinks its designs
    with_stand_ins = {f["name"] for f in _core.families() if f["design"] and f["design"]["stand_ins"]}
    assert set(SIM_CHOICES) == with_stand_ins


def test_every_family_declares_its_design_space():
    # a new family is its own file and one registry line: the enumeration reads its rule there
    assert [f["name"] for f in _core.families() if f["design"] is None] == []
    assert enumerate_designs(48, 10_000) and set(FAMILY_ORDER) == {
        f["name"] for f in _core.families() if f["design"] is not None
    }


def test_stand_ins_come_from_the_full_spec_or_a_clear_error():
    # the stand-in rule reads the design's parameters as compare writes them; a spec that leaves
    # one to its default is refused, naming it, rather than scaled from a guess
    with pytest.raises(_core.ParameterError, match="'radix'"):
        _core.smaller_members("hammingmesh:a=2,b=2,x=3,y=3,p=1")
    members = _core.smaller_members("hammingmesh:a=2,b=2,x=3,y=4,radix=48,p=1")
    assert members == [
        "hammingmesh:a=2,b=2,x=1,y=1,radix=48,p=1",
        "hammingmesh:a=2,b=2,x=2,y=3,radix=48,p=1",
    ]
    assert _core.smaller_members("kautz:d=3,k=2,p=1") is None  # no stand-in rule: not simulated scaled
