//! Pattern specs: every listed name parses, aliases and case work, the same spec gives the same
//! pattern, and bad specs fail with an error naming the parameter, the value and what is allowed.

use topolab_core::traffic::{Traffic, PATTERNS};
use topolab_core::{build_str, Network, NetworkBuilder};

/// A network of the family each adversarial pattern needs; slimfly:q=5 for the others.
fn network_for(name: &str) -> Network {
    let spec = match name {
        "dragonfly_worst" => "dragonfly:a=4,h=2",
        "fattree_worst" => "fattree:k=4",
        "mlfm_worst" => "mlfm:h=3",
        "oft_worst" => "oft:k=4",
        "polarfly_worst" => "polarfly:q=5",
        _ => "slimfly:q=5",
    };
    build_str(spec).unwrap()
}

#[test]
fn every_listed_name_parses_and_reports_itself() {
    for name in PATTERNS.iter().map(|d| d.name) {
        let net = network_for(name);
        let t = Traffic::parse(name, &net).unwrap_or_else(|e| panic!("{name}: {e}"));
        let expected = if name == "worst" {
            "slimfly_worst"
        } else {
            name
        };
        assert_eq!(t.name(), expected);
        assert_eq!(
            t,
            Traffic::parse(name, &net).unwrap(),
            "{name}: deterministic"
        );
        let sources = (0..net.num_endpoints() as u32)
            .filter(|&s| t.is_source(s))
            .count();
        assert!(sources > 0, "{name}: no source sends");
    }
}

#[test]
fn aliases_case_and_underscores() {
    let net = build_str("slimfly:q=5").unwrap();
    let same = |a: &str, b: &str| {
        assert_eq!(
            Traffic::parse(a, &net).unwrap(),
            Traffic::parse(b, &net).unwrap(),
            "{a} vs {b}"
        )
    };
    same("BitComp", "bitcomp");
    same("bit_complement", "bitcomp");
    same("bit-reverse", "bitrev");
    same("bit_rotation:k=2", "rotation:k=2");
    same("random_permutation:seed=5", "randperm:seed=5");
    same("Hot_Spot:Fraction=0.5", "hotspot:fraction=0.5");
    same("shift:active=POW2", "shift:active=pow2");
    same("sf_worst", "slimfly_worst");
    let pf = build_str("polarfly:q=5").unwrap();
    for alias in ["pf-worst", "badpf", "perm1hop"] {
        assert_eq!(
            Traffic::parse(alias, &pf).unwrap(),
            Traffic::parse("polarfly_worst", &pf).unwrap()
        );
    }
}

fn assert_error(spec: &str, net: &Network, needles: &[&str]) {
    let err = match Traffic::parse(spec, net) {
        Ok(t) => panic!("{spec} was accepted: {t:?}"),
        Err(e) => e.to_string(),
    };
    for needle in needles {
        assert!(err.contains(needle), "{spec}: '{err}' lacks '{needle}'");
    }
}

#[test]
fn bad_specs_name_parameter_value_and_what_is_allowed() {
    let net = build_str("slimfly:q=5").unwrap(); // 200 endpoints, 7 address bits
    let mut names = vec!["'pattern'", "'bogus'"];
    names.extend(PATTERNS.iter().map(|d| d.name));
    assert_error("bogus", &net, &names);
    assert_error("shift:q=3", &net, &["unknown parameter 'q'", "k, active"]);
    assert_error("uniform:x=1", &net, &["unknown parameter 'x'", "(none)"]);
    assert_error("shift:k=0", &net, &["'k'", "= 0", "1 to 199"]);
    assert_error("shift:k=200", &net, &["'k'", "200", "1 to 199"]);
    assert_error("shift:k=abc", &net, &["'k'", "abc", "integer"]);
    assert_error("shift:k=200,active=pow2", &net, &["'k'", "1 to 127"]);
    assert_error(
        "shift:active=half",
        &net,
        &["'active'", "half", "all or pow2"],
    );
    assert_error("rotation:k=7", &net, &["'k'", "= 7", "1 to b - 1 = 6"]);
    assert_error("hotspot:fraction=2", &net, &["'fraction'", "2", "0 to 1"]);
    assert_error("hotspot:spots=0", &net, &["'spots'", "0", "1 to 200"]);
    assert_error("hotspot:at=500", &net, &["'at'", "500", "0 to 199"]);
    assert_error("hotspot:at=3x3", &net, &["'at'", "3x3", "distinct"]);
    assert_error(
        "hotspot:at=3,spots=2",
        &net,
        &["'spots'", "not together with 'at'"],
    );
    assert_error("randperm:seed=-1", &net, &["'seed'", "-1"]);
    assert_error(
        "tornado:dims=300",
        &net,
        &["'dims'", "300", "200 endpoints"],
    );
    assert_error("tornado:dims=8x0", &net, &["'dims'", "found 0"]);
    assert_error("shift:k", &net, &["key=value"]);
    assert_error("shift:k=1,k=2", &net, &["twice"]);
}

#[test]
fn networks_without_endpoints_are_rejected() {
    let mut b = NetworkBuilder::new("imported", 2, false);
    let class = b.link_class("link");
    b.add_link(0, 1, 1, class);
    let net = b.build().unwrap();
    let err = Traffic::parse("uniform", &net).unwrap_err().to_string();
    assert!(err.contains("no endpoints"), "{err}");
}
