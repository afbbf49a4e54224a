//! Every family's generator over its whole parameter range (docs/reliability.md): random values
//! of each parameter's kind, from the small ones where constructions exist to the extremes of
//! i64, must give either a valid network or an error naming the parameter, never a panic, and
//! the same network twice. PROPTEST_CASES raises the case count for a campaign (default 48 per
//! family here, a few seconds in all).

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::collections::BTreeMap;
use topolab_core::{build, families, Family, ParamKind, ParamValue, TopolabError, TopologySpec};

/// Small enough that every family builds quickly at the sizes the guard lets through.
const MEMORY_LIMIT: &str = "32M";

fn int_value() -> impl Strategy<Value = i64> {
    prop_oneof![
        6 => -2i64..40,
        1 => prop::sample::select(vec![
            i64::MIN, -1_000_000, 0, 1, 1 << 16, (1 << 24) + 1, 1 << 31, 1 << 32, u32::MAX as i64, i64::MAX,
        ]),
    ]
}

fn value_of(kind: ParamKind) -> BoxedStrategy<ParamValue> {
    match kind {
        ParamKind::Int => int_value().prop_map(ParamValue::Int).boxed(),
        ParamKind::Float => prop_oneof![
            (-1.0f64..2.0).prop_map(ParamValue::Float),
            prop::sample::select(vec![f64::NAN, f64::INFINITY, -0.0, 1e300])
                .prop_map(ParamValue::Float),
        ]
        .boxed(),
        ParamKind::Bool => any::<bool>().prop_map(ParamValue::Bool).boxed(),
        ParamKind::Dims => prop::collection::vec(int_value(), 0..5)
            .prop_map(ParamValue::List)
            .boxed(),
        ParamKind::Text => prop::sample::select(vec!["", "x", "global", "/no/such/file"])
            .prop_map(|s| ParamValue::Text(s.to_string()))
            .boxed(),
        ParamKind::Spec => prop::sample::select(vec![
            "torus:dims=3",
            "slimfly:q=3",
            "hypercube:n=2",
            "kautz:d=2,k=2",
            "nosuchfamily",
            "torus:dims=0",
        ])
        .prop_map(|s| ParamValue::Spec(Box::new(TopologySpec::parse(s).unwrap())))
        .boxed(),
    }
}

/// Each parameter given (a random value of its kind, sometimes as text) or left out.
fn spec_of(family: &'static Family) -> impl Strategy<Value = TopologySpec> {
    let params: Vec<_> = family
        .params
        .iter()
        .map(|p| {
            let as_text = value_of(p.kind).prop_map(|v| match v {
                ParamValue::Spec(_) => v,
                other => ParamValue::Text(other.to_string()),
            });
            prop::option::weighted(0.8, prop_oneof![3 => value_of(p.kind), 1 => as_text])
                .prop_map(move |v| (p.name, v))
        })
        .collect();
    params.prop_map(move |values| TopologySpec {
        family: family.name.to_string(),
        params: values
            .into_iter()
            .filter_map(|(k, v)| v.map(|v| (k.to_string(), v)))
            .collect::<BTreeMap<_, _>>(),
    })
}

fn check_network(spec: &TopologySpec) -> Result<(), TestCaseError> {
    match build(spec) {
        Ok(net) => {
            let n = net.num_routers();
            prop_assert_eq!(net.endpoints().len(), n);
            for l in net.links() {
                prop_assert!((l.src as usize) < n && (l.dst as usize) < n && l.src != l.dst);
                prop_assert!(
                    net.directed() || l.src < l.dst,
                    "undirected link stored once, src < dst"
                );
                prop_assert!(l.width >= 1);
            }
            let degree_sum: u64 = (0..n).map(|r| net.degree(r) as u64).sum();
            let cables: u64 = net.num_links();
            prop_assert_eq!(degree_sum, if net.directed() { cables } else { 2 * cables });
            prop_assert!(build(spec).unwrap() == net, "same spec, same network");
        }
        Err(e) => {
            let message = e.to_string();
            prop_assert!(
                message.len() < 4000,
                "message of {} characters",
                message.len()
            );
            let names_something = match &e {
                TopolabError::InvalidParameter { param, .. }
                | TopolabError::MissingParameter { param, .. } => message.contains(param.as_str()),
                _ => true,
            };
            prop_assert!(names_something, "{message}");
        }
    }
    Ok(())
}

#[test]
fn every_family_over_its_parameter_range() {
    std::env::set_var(topolab_core::resources::LIMIT_ENV, MEMORY_LIMIT);
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(48);
    for family in families() {
        let mut runner = TestRunner::new(Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        });
        runner
            .run(&spec_of(family), |spec| check_network(&spec))
            .unwrap_or_else(|e| panic!("family {}: {e}", family.name));
    }
}

proptest! {
    #![proptest_config(Config { cases: 256, failure_persistence: None, ..Config::default() })]

    /// Any text: a spec or an error, and a spec that parses prints back to itself.
    #[test]
    fn any_text_parses_or_errors(text in "\\PC{0,80}") {
        if let Ok(spec) = TopologySpec::parse(&text) {
            let again = TopologySpec::parse(&spec.to_string());
            prop_assert_eq!(again.ok(), Some(spec));
        }
    }
}
