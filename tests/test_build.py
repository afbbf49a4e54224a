"""The Python build API: specs, keyword parameters, errors, determinism."""

import pytest

import topolab


def test_spec_string_and_keywords_build_the_same_network():
    a = topolab.build("slimfly:q=7,p=5")
    b = topolab.build("slimfly", q=7, p=5)
    c = topolab.build("slimfly:q=7", p=5)
    assert a == b == c
    assert a.spec == "slimfly:p=5,q=7"
    assert (a.num_routers, a.num_endpoints, a.network_radix, a.radix) == (98, 490, 11, 16)


def test_properties_are_consistent_with_links_and_labels():
    net = topolab.build("slimfly", q=5)
    assert len(net.labels) == net.num_routers
    assert net.label_fields == ["t", "x", "y"]
    assert sum(w for (_, _, w, _) in net.links) == net.num_links
    assert {c for (*_, c) in net.links} == set(net.link_classes)
    degree = [0] * net.num_routers
    for u, v, w, _ in net.links:
        degree[u] += w
        degree[v] += w
    assert degree == [net.degree(r) for r in range(net.num_routers)]
    assert max(degree) == net.network_radix
    assert net.radix == net.network_radix + max(net.endpoints)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: topolab.build("slimfly", q=6), ["'q'", "6", "prime power"]),
        (lambda: topolab.build("slimfly"), ["missing", "'q'"]),
        (lambda: topolab.build("slimfly", q=5, z=1), ["unknown parameter 'z'", "q, p"]),
        (lambda: topolab.build("nosuchnet"), ["unknown topology family", "slimfly"]),
        (lambda: topolab.build("slimfly:q=5", q=5), ["'q'", "in the spec string or as a keyword, not both"]),
        (lambda: topolab.build("slimfly", q="five"), ["'q'", "five", "integer"]),
        (lambda: topolab.build("slimfly", q=2**70), ["'q'", "64 bits"]),
        (lambda: topolab.build("slimfly", q=[1, 2]), ["'q'", "integer"]),
        (lambda: topolab.build("slimfly", q=None), ["'q'", "NoneType"]),
        (lambda: topolab.build("slimfly:q=(5"), ["cannot parse"]),
    ],
)
def test_bad_input_raises_parameter_error_naming_the_problem(call, words):
    with pytest.raises(topolab.ParameterError) as info:
        call()
    message = str(info.value)
    for word in words:
        assert word in message, message
    assert isinstance(info.value, topolab.TopolabError)


def test_families_registry_lists_every_family_with_parameters():
    names = {f.name for f in topolab.families()}
    expected = {
        "slimfly",
        "dragonfly",
        "fattree",
        "hyperx",
        "torus",
        "mesh",
        "hypercube",
        "jellyfish",
        "dln",
        "mlfm",
        "oft",
        "kautz",
        "debruijn",
        "imase",
        "random_directed",
        "mddp",
        "skywalk",
        "product",
    }
    assert expected <= names
    for fam in topolab.families():
        assert fam.summary and fam.params, fam.name
        net = topolab.build(fam.example)
        assert net.family == fam.name
        assert net.directed == fam.directed
        assert net.num_routers > 0


def test_aliases_resolve_to_the_family():
    hx = topolab.build("flattened_butterfly:dims=3x3")
    assert hx.family == "hyperx"


def test_router_index_errors_are_clear():
    net = topolab.build("slimfly", q=3)
    with pytest.raises(
        topolab.ParameterError, match="'router' = 99 is not allowed: a router id from 0 to 17"
    ) as info:
        net.neighbors(99)
    assert (info.value.parameter, info.value.value) == ("router", "99")
