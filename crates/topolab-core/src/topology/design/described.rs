//! A candidate as the design comparison shows it (`Design`): its name for people, its
//! subscription tag and its distance from the endpoint target, beside the sizes its family
//! declares.

use super::{is_balanced, Candidate, DesignParams, Value};
use crate::topology::{find_family, Sizes};

crate::result_type! {
/// One feasible configuration of the design comparison; `spec` builds it
/// (`topolab.build(design.spec)`).
pub struct Design {
    pub family: String,
    pub spec: String,
    /// For people: "Slim Fly q=19 p=15".
    pub name: String,
    #[serde(flatten)]
    pub sizes: Sizes,
    /// `load - 1` when above 1, else 0.
    pub oversubscription: f64,
    /// Injection at most what the network carries under uniform traffic (up to rounding).
    pub balanced: bool,
    /// `endpoints / N - 1` for the question's N.
    pub deviation: f64,
    /// The subscription tag ("balanced", "undersubscribed 12%", "oversubscribed 40%"), then
    /// the family's own.
    pub tags: Vec<String>,
    /// Paper sections of the family's rule.
    pub source: String,
    /// The parameters in the spec's order (sizes as tuples, a nested spec in parentheses).
    pub params: DesignParams,
}
}

impl Design {
    /// `candidate` described for a question of `target` endpoints.
    pub fn of(candidate: &Candidate, target: u64) -> Design {
        let load = candidate.sizes.load;
        let balanced = is_balanced(load);
        let mut tags = if balanced {
            let mut tags = vec!["balanced".to_string()];
            if load < 1.0 - 0.005 {
                tags.push(format!("undersubscribed {}%", percent(1.0 - load)));
            }
            tags
        } else {
            vec![format!("oversubscribed {}%", percent(load - 1.0))]
        };
        tags.extend(candidate.tags.iter().cloned());
        Design {
            family: candidate.family.to_string(),
            spec: candidate.spec(),
            name: name(candidate.family, &candidate.params),
            sizes: candidate.sizes,
            oversubscription: (load - 1.0).max(0.0),
            balanced,
            deviation: candidate.sizes.endpoints as f64 / target as f64 - 1.0,
            tags,
            source: candidate.source.to_string(),
            params: candidate.params.clone(),
        }
    }
}

/// A share as a whole percentage, halves to even.
fn percent(share: f64) -> i64 {
    (100.0 * share).round_ties_even() as i64
}

/// "Slim Fly q=19 p=15", "HyperX 4x8x8 p=4": the family's display name, the sizes first, then
/// the other parameters in spec order. A product of a Slim Fly and a HyperX is named by its
/// factors: "Slim Fly q=5 x HyperX 5x5 p=8".
fn name(family: &str, params: &DesignParams) -> String {
    let show = Value::to_string;
    let shown = |skip: &[&str]| {
        params
            .iter()
            .filter(|(k, _)| !skip.contains(k))
            .map(|(k, v)| format!("{k}={}", show(v)))
            .collect::<Vec<_>>()
    };
    let value = |key: &str| params.iter().find(|(k, _)| *k == key).map(|(_, v)| v);
    if family == "product" {
        // the factors are nested specs "(slimfly:q=5)" and "(hyperx:dims=5x5)": their last value
        let last = |key: &str| {
            let text = value(key).map(show).unwrap_or_default();
            let inner = text.trim_matches(|c| c == '(' || c == ')').to_string();
            inner.rsplit('=').next().unwrap_or_default().to_string()
        };
        return format!(
            "Slim Fly q={} x HyperX {} {}",
            last("a"),
            last("b"),
            shown(&["a", "b"]).join(" ")
        );
    }
    let mut parts = shown(&["dims"]);
    if let Some(dims) = value("dims") {
        parts.insert(0, show(dims));
    }
    let display = find_family(family).map_or(family, |f| f.display_name);
    format!("{display} {}", parts.join(" "))
}
