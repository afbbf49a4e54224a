//! The design comparison's enumeration as one question (`topology::design::designs`): the
//! window the question gives, the family selection, the random families' twins of the balanced
//! Slim Flies and a = 2h = 2p Dragonflies (Besta & Hoefler, SC14, Table IV), one design per spec
//! in the registry's order.

use std::collections::{BTreeMap, BTreeSet};
use topolab_core::topology::design::{designs, select_families, Candidate, Window};
use topolab_core::topology::{build_str, families};
use topolab_core::TopolabError;

fn window(radix: i64, endpoints: i64) -> Window {
    Window::around("test", radix, endpoints, 0.15, 0.4, 0.25).unwrap()
}

fn selection(names: &[&str]) -> BTreeSet<&'static str> {
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    select_families("test", Some(&names)).unwrap()
}

/// The spec a twin was made from, read from its tag.
fn origin_of(c: &Candidate) -> Option<&str> {
    c.tags.iter().find_map(|t| t.strip_prefix("twin of "))
}

fn invalid_param(err: TopolabError) -> String {
    match err {
        TopolabError::InvalidParameter { param, .. } => param,
        other => panic!("not a parameter error: {other}"),
    }
}

#[test]
fn the_window_is_the_endpoint_range_around_the_target() {
    let w = window(48, 10_000);
    assert_eq!((w.radix, w.lo, w.hi, w.target), (48, 8_500, 11_500, 10_000));
    // A tolerance whose slack is not an integer: the range keeps whole endpoint counts inside.
    let w = Window::around("test", 12, 101, 0.15, 0.4, 0.25).unwrap();
    assert_eq!((w.lo, w.hi), (86, 116)); // 101 -/+ 15.15
                                         // At least one endpoint even when the slack is the whole target.
    let w = Window::around("test", 12, 3, 0.99, 0.4, 0.25).unwrap();
    assert_eq!((w.lo, w.hi), (1, 5));
}

#[test]
fn each_bad_question_parameter_is_named() {
    let nan = f64::NAN;
    for (args, param) in [
        ((2, 100, 0.15, 0.4, 0.25), "radix"),
        ((1 << 32, 100, 0.15, 0.4, 0.25), "radix"),
        ((48, 0, 0.15, 0.4, 0.25), "endpoints"),
        ((48, (1 << 53) + 1, 0.15, 0.4, 0.25), "endpoints"),
        ((48, 100, 1.0, 0.4, 0.25), "endpoint_tolerance"),
        ((48, 100, -0.1, 0.4, 0.25), "endpoint_tolerance"),
        ((48, 100, nan, 0.4, 0.25), "endpoint_tolerance"),
        ((48, 100, 0.15, -0.1, 0.25), "oversubscription"),
        ((48, 100, 0.15, nan, 0.25), "oversubscription"),
        ((48, 100, 0.15, 0.4, 1.5), "undersubscription"),
        ((48, 100, 0.15, 0.4, nan), "undersubscription"),
    ] {
        let (k, n, tol, over, under) = args;
        let err = Window::around("test", k, n, tol, over, under).unwrap_err();
        assert_eq!(invalid_param(err), param, "{args:?}");
    }
    assert!(Window::around("test", 48, 100, 0.15, f64::INFINITY, 1.0).is_ok());
}

#[test]
fn families_are_selected_by_name_or_alias_and_checked() {
    let all = select_families("test", None).unwrap();
    let declared: BTreeSet<&str> = families()
        .iter()
        .filter(|f| f.design.is_some())
        .map(|f| f.name)
        .collect();
    assert_eq!(all, declared);
    let alias = families()
        .iter()
        .find(|f| f.design.is_some() && !f.aliases.is_empty())
        .unwrap();
    let given = vec![
        format!(" {} ", alias.aliases[0].to_uppercase()),
        String::new(),
    ];
    assert_eq!(
        select_families("test", Some(&given)).unwrap(),
        BTreeSet::from([alias.name])
    );
    for names in [
        vec!["slimfly".to_string(), "nope".to_string()],
        vec![],
        vec![" ".to_string()],
    ] {
        let err = select_families("test", Some(&names)).unwrap_err();
        assert_eq!(invalid_param(err), "families", "{names:?}");
    }
}

#[test]
fn random_families_take_twins_of_balanced_slim_flies_and_a_2h_2p_dragonflies_only() {
    let w = window(44, 10_830);
    // The origins, decided from the parameters: a Slim Fly is balanced at p <= ceil(k'/2)
    // (Besta & Hoefler, SC14, §II-B2), k' read from the built network; a Dragonfly lends when
    // a = 2h and p = h (§VI-B3e).
    let mut origins = BTreeMap::new();
    for c in designs(&w, &selection(&["slimfly", "dragonfly"])) {
        let int = |name: &str| c.int(name).unwrap();
        let lends = if c.family == "slimfly" {
            let k_net = build_str(&format!("slimfly:q={},p=1", int("q")))
                .unwrap()
                .network_radix() as i64;
            int("p") <= (k_net + 1) / 2
        } else {
            int("a") == 2 * int("h") && int("p") == int("h")
        };
        if lends {
            origins.insert(c.spec(), c.sizes);
        }
    }
    assert!(origins.keys().any(|s| s.starts_with("slimfly")));
    assert!(origins.keys().any(|s| s.starts_with("dragonfly")));

    let jellyfish = designs(&w, &selection(&["jellyfish"]));
    assert!(
        jellyfish.iter().all(|c| c.family == "jellyfish"),
        "origins are not selected"
    );
    let twins: Vec<&Candidate> = jellyfish
        .iter()
        .filter(|c| origin_of(c).is_some())
        .collect();
    for twin in &twins {
        let origin = &origins[origin_of(twin).unwrap()];
        assert_eq!(twin.sizes.routers, origin.routers, "{}", twin.spec());
        assert_eq!(
            twin.sizes.network_radix,
            origin.network_radix,
            "{}",
            twin.spec()
        );
        assert_eq!(
            twin.sizes.concentration,
            origin.concentration,
            "{}",
            twin.spec()
        );
    }
    // Besta & Hoefler, SC14, Table IV's Slim Fly (q = 19, p = 15) has its random twin.
    let sf = jellyfish
        .iter()
        .find(|c| c.spec() == "jellyfish:routers=722,degree=29,p=15")
        .expect("the twin of slimfly:q=19,p=15");
    assert!(sf.tags.contains(&"twin of slimfly:q=19,p=15".to_string()));
}

#[test]
fn one_design_per_spec_in_registry_order_with_the_tags_of_its_repeats() {
    let w = window(48, 10_000);
    let all = designs(&w, &select_families("test", None).unwrap());
    let order: Vec<&str> = families().iter().map(|f| f.name).collect();
    let ranks: Vec<usize> = all
        .iter()
        .map(|c| order.iter().position(|f| *f == c.family).unwrap())
        .collect();
    assert!(
        ranks.windows(2).all(|r| r[0] <= r[1]),
        "families in registry order"
    );
    let specs: BTreeSet<String> = all.iter().map(Candidate::spec).collect();
    assert_eq!(specs.len(), all.len(), "a spec twice");
    for c in &all {
        let distinct: BTreeSet<&String> = c.tags.iter().collect();
        assert_eq!(distinct.len(), c.tags.len(), "{}: a tag twice", c.spec());
    }
    // A random graph at full radix that is also the twin of Besta & Hoefler, SC14, Table IV's
    // Slim Fly is one design with the tags of both, in the order found.
    let at_44 = designs(&window(44, 10_830), &selection(&["jellyfish", "slimfly"]));
    let both = at_44
        .iter()
        .find(|c| c.spec() == "jellyfish:routers=722,degree=29,p=15")
        .unwrap();
    assert_eq!(both.tags, ["full radix", "twin of slimfly:q=19,p=15"]);
    // Each family's part is the family on its own, selection does not change it.
    for family in ["slimfly", "dragonfly", "fattree"] {
        let alone = designs(&w, &selection(&[family]));
        let within: Vec<&Candidate> = all.iter().filter(|c| c.family == family).collect();
        assert_eq!(alone.iter().collect::<Vec<_>>(), within, "{family}");
    }
}
