//! What a family declares about its design space: which parameters the design comparison tries
//! for a router radix K and an endpoint window (`DesignSpace::enumerate`), which smaller members
//! stand in for a design in simulation (`DesignSpace::smaller_members`) and, for random graphs,
//! how a twin with another design's equipment is written (`DesignSpace::twin`).
//!
//! A rule only chooses parameters: what they give (routers, endpoints, radix, balance, load)
//! and whether the family builds them is the family's closed-form `sizes`, read through
//! `candidate`; which candidates answer the question is `Window::accepts`, for every family.
//! `designs` answers the whole question in one pass: every selected family's candidates, the
//! random families' twins of the designs that lend their equipment (`DesignSpace::
//! twin_origin`), one design per spec, in the registry's order; `Design` (described.rs) is a
//! candidate with its name and subscription tag, as the comparison shows it. docs/compare.md §1
//! states each family's rule.

mod described;
pub use described::Design;

use super::{sizes_str, Family, Sizes};
use crate::error::{Result, TopolabError};
use crate::spec::{ParamValue, Params, TopologySpec};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

/// One parameter value of an enumerated spec, written as a spec string writes it.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Int(i64),
    /// `4x8x8`
    Dims(Vec<u32>),
    /// A nested spec, written in parentheses.
    Spec(String),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Dims(v) => write!(f, "{}", join_x(v)),
            Value::Spec(s) => write!(f, "({s})"),
        }
    }
}

/// Python receives a size list as a tuple and a nested spec as its text in parentheses.
impl serde::Serialize for Value {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            Value::Int(v) => s.serialize_i64(*v),
            Value::Dims(v) => v.serialize(s),
            Value::Spec(_) => s.collect_str(self),
        }
    }
}

impl From<u32> for Value {
    fn from(v: u32) -> Self {
        Value::Int(v as i64)
    }
}

impl From<u64> for Value {
    fn from(v: u64) -> Self {
        Value::Int(v as i64)
    }
}

/// Sizes written `4x8x8`.
pub fn join_x(values: &[u32]) -> String {
    values
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join("x")
}

/// `join_x` of signed sizes (a stand-in's, computed in i64).
pub fn join_i(values: &[i64]) -> String {
    values
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join("x")
}

/// Ordered parameters: the spec is `family:k=v,...` in this order.
pub type DesignParams = Vec<(&'static str, Value)>;

/// `family:k=v,...` with the parameters in their given order.
pub fn spec_of(family: &str, params: &[(&str, Value)]) -> String {
    let items: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("{family}:{}", items.join(","))
}

/// The sizes `family` declares for `params`, None when it does not build them.
pub fn sizes_of(family: &str, params: &[(&str, Value)]) -> Option<Sizes> {
    sizes_str(&spec_of(family, params)).ok()
}

/// What the enumeration must meet: radix, endpoint range and subscription limits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    pub radix: u32,
    pub lo: u64,
    pub hi: u64,
    pub target: u64,
    pub oversubscription: f64,
    pub undersubscription: f64,
}

/// What each parameter of the question allows (its error says so).
pub const RADIX_ALLOWED: &str = "an integer >= 3 (router ports), below 2^32";
pub const ENDPOINTS_ALLOWED: &str = "an integer >= 1, at most 2^53";
pub const ENDPOINT_TOLERANCE_ALLOWED: &str = "a number from 0 to below 1";
pub const OVERSUBSCRIPTION_ALLOWED: &str = "a number >= 0 (math.inf: no limit)";
pub const UNDERSUBSCRIPTION_ALLOWED: &str = "a number from 0 to 1";

/// Whether a load (injection / what the network carries under uniform traffic) lets every
/// endpoint inject at full rate, up to rounding.
pub fn is_balanced(load: f64) -> bool {
    load <= 1.0 + 1e-9
}

impl Window {
    /// The window of the question "routers of at most `radix` ports, `endpoints` endpoints
    /// give or take `endpoint_tolerance` of them", with the subscription limits; an error
    /// naming `context` and the parameter for a value out of range.
    pub fn around(
        context: &str,
        radix: i64,
        endpoints: i64,
        endpoint_tolerance: f64,
        oversubscription: f64,
        undersubscription: f64,
    ) -> Result<Window> {
        if !(3..=u32::MAX as i64).contains(&radix) {
            return Err(TopolabError::invalid(
                context,
                "radix",
                radix,
                RADIX_ALLOWED,
            ));
        }
        if !(1..=1 << 53).contains(&endpoints) {
            return Err(TopolabError::invalid(
                context,
                "endpoints",
                endpoints,
                ENDPOINTS_ALLOWED,
            ));
        }
        let number = |name: &str, value: f64, ok: bool, allowed: &str| {
            // `!(x >= 0)` rather than `x < 0`: NaN fails every comparison.
            if ok {
                Ok(value)
            } else {
                Err(TopolabError::invalid(
                    context,
                    name,
                    format!("{value:?}"),
                    allowed,
                ))
            }
        };
        let tolerance = number(
            "endpoint_tolerance",
            endpoint_tolerance,
            (0.0..1.0).contains(&endpoint_tolerance),
            ENDPOINT_TOLERANCE_ALLOWED,
        )?;
        let oversubscription = number(
            "oversubscription",
            oversubscription,
            oversubscription >= 0.0,
            OVERSUBSCRIPTION_ALLOWED,
        )?;
        let undersubscription = number(
            "undersubscription",
            undersubscription,
            (0.0..=1.0).contains(&undersubscription),
            UNDERSUBSCRIPTION_ALLOWED,
        )?;
        let slack = tolerance * endpoints as f64;
        Ok(Window {
            radix: radix as u32,
            lo: ((endpoints as f64 - slack - 1e-9).ceil() as u64).max(1),
            hi: (endpoints as f64 + slack + 1e-9).floor() as u64,
            target: endpoints as u64,
            oversubscription,
            undersubscription,
        })
    }

    /// Whether a design with this load (injection / sustainable bandwidth) is within the over-
    /// and undersubscription limits.
    pub fn admits(&self, load: f64) -> bool {
        1.0 - self.undersubscription - 1e-9 <= load && load <= 1.0 + self.oversubscription + 1e-9
    }

    /// Whether `c` answers the question: radix <= K, endpoints in [lo, hi] and, unless it is
    /// exempt, a load within the subscription limits.
    pub fn accepts(&self, c: &Candidate) -> bool {
        c.sizes.radix <= self.radix
            && (self.lo..=self.hi).contains(&c.sizes.endpoints)
            && (c.exempt || self.admits(c.sizes.load))
    }

    /// Every p >= 1 with lo <= p * endpoint_routers <= hi and p <= max_p (empty when none).
    pub fn concentrations(
        &self,
        endpoint_routers: u64,
        max_p: i64,
    ) -> std::ops::RangeInclusive<u32> {
        let first = self.lo.div_ceil(endpoint_routers).max(1) as i64;
        let last = max_p.min((self.hi / endpoint_routers) as i64);
        if last < first {
            return std::ops::RangeInclusive::new(1, 0); // empty
        }
        first as u32..=last as u32
    }
}

/// One enumerated configuration, with the sizes its family declares.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub family: &'static str,
    pub params: DesignParams,
    pub sizes: Sizes,
    /// Paper sections of the rule.
    pub source: &'static str,
    pub tags: Vec<String>,
    /// p = 1 of a low-radix family (Besta & Hoefler, SC14, §III): no subscription limits.
    pub exempt: bool,
}

impl Candidate {
    pub fn spec(&self) -> String {
        spec_of(self.family, &self.params)
    }

    /// The integer parameter `name`, None when the candidate has no such parameter.
    pub fn int(&self, name: &str) -> Option<i64> {
        self.params.iter().find_map(|(k, v)| match v {
            Value::Int(x) if *k == name => Some(*x),
            _ => None,
        })
    }

    /// The equipment a twin copies.
    fn as_twin_origin(&self) -> TwinOrigin {
        (
            self.sizes.routers,
            self.sizes.network_radix,
            self.sizes.concentration,
            self.spec(),
        )
    }
}

/// The candidate `family:params` with the sizes its family declares, or None when the family
/// does not build it.
pub fn candidate(
    family: &'static str,
    params: DesignParams,
    source: &'static str,
    tags: Vec<String>,
    exempt: bool,
) -> Option<Candidate> {
    let sizes = sizes_of(family, &params)?;
    Some(Candidate {
        family,
        params,
        sizes,
        source,
        tags,
        exempt,
    })
}

/// Tags from string literals.
pub fn tags(list: &[&str]) -> Vec<String> {
    list.iter().map(|t| t.to_string()).collect()
}

/// A design a stand-in is sought for: its parameters as its spec gives them and its sizes.
pub struct Member<'a> {
    pub params: Params<'a>,
    pub sizes: Sizes,
}

impl Member<'_> {
    /// Parameter `name`, which every enumerated spec of the family gives; an error naming it
    /// when the spec leaves it to its default.
    pub fn int(&self, name: &str) -> Result<i64> {
        self.params
            .opt_int(name, i64::MIN, i64::MAX)?
            .ok_or_else(|| {
                self.params.invalid(
                    name,
                    "(not given)",
                    "a value given in the spec: stand-ins follow a design's full spec, as topolab compare writes it",
                )
            })
    }

    /// Parameter `name`, or `default` when the spec leaves it out.
    pub fn int_or(&self, name: &str, default: i64) -> i64 {
        self.params
            .opt_int(name, i64::MIN, i64::MAX)
            .ok()
            .flatten()
            .unwrap_or(default)
    }

    pub fn has(&self, name: &str) -> bool {
        self.params.has(name)
    }

    /// A `4x8x8` parameter, or `default` when the spec leaves it out.
    pub fn dims_or(&self, name: &str, default: Vec<i64>) -> Vec<i64> {
        self.params
            .opt_list(name, i64::MIN, i64::MAX)
            .ok()
            .flatten()
            .unwrap_or(default)
    }

    pub fn load(&self) -> f64 {
        self.sizes.load
    }

    pub fn balanced(&self) -> f64 {
        self.sizes.balanced_concentration
    }

    pub fn p(&self) -> i64 {
        self.sizes.concentration as i64
    }
}

/// The equipment a random twin copies: routers, network degree, p, and the spec it is the twin
/// of.
pub type TwinOrigin = (u64, u32, u32, String);

/// The smaller members that stand in for a design (specs, about increasing in size).
pub type StandInRule = fn(&Member) -> Result<Vec<String>>;

/// A family's design space (docs/compare.md §1).
#[derive(Debug, Clone, Copy)]
pub struct DesignSpace {
    /// Every configuration worth comparing for the window, in the order of the rule's loops;
    /// the caller drops those outside the window or the subscription limits.
    pub enumerate: fn(&Window) -> Vec<Candidate>,
    /// Smaller members of the family with the same structure and about the same load, about
    /// increasing in size (specs; some may not build); None: the family has no stand-ins.
    pub smaller_members: Option<StandInRule>,
    /// Random graphs: the parameters of a twin with `routers` routers of network degree
    /// `degree` and `p` endpoints each (equal equipment, Besta & Hoefler, SC14, Table IV).
    pub twin: Option<fn(u64, u32, u32) -> DesignParams>,
    /// Which of the family's designs the random families' twins copy the equipment of
    /// (routers, network degree, p), as Besta & Hoefler, SC14, Table IV sets a DLN beside its
    /// Dragonfly; None: none of them.
    pub twin_origin: Option<fn(&Candidate) -> bool>,
}

/// The twins of `family` with the equipment of each `(routers, degree, p, spec)` origin that
/// `window` accepts (empty when the family declares no twins).
pub fn twins(family: &'static str, origins: &[TwinOrigin], window: &Window) -> Vec<Candidate> {
    let Some(space) = super::find_family(family).ok().and_then(|f| f.design) else {
        return Vec::new();
    };
    let Some(twin) = space.twin else {
        return Vec::new();
    };
    origins
        .iter()
        .filter_map(|(routers, degree, p, origin)| {
            candidate(
                family,
                twin(*routers, *degree, *p),
                "Besta & Hoefler, SC14, §III, Table IV",
                vec![format!("twin of {origin}")],
                false,
            )
        })
        .filter(|c| window.accepts(c))
        .collect()
}

/// The candidates of `family` that `window` accepts, in the order of its rule (empty when it
/// declares no design space).
pub fn enumerate(family: &Family, window: &Window) -> Vec<Candidate> {
    let found = family
        .design
        .map(|d| (d.enumerate)(window))
        .unwrap_or_default();
    found.into_iter().filter(|c| window.accepts(c)).collect()
}

/// The families that declare a design space, in the registry's order.
pub fn enumerated_families() -> impl Iterator<Item = &'static Family> {
    super::families().iter().filter(|f| f.design.is_some())
}

/// The families named in `names` (names or aliases, in any case; blank ones ignored), each
/// once, or every family that declares a design space when `names` is None; an error naming
/// `context` for a name that is not such a family or for no name at all.
pub fn select_families(context: &str, names: Option<&[String]>) -> Result<BTreeSet<&'static str>> {
    let Some(names) = names else {
        return Ok(enumerated_families().map(|f| f.name).collect());
    };
    let mut selected = BTreeSet::new();
    for given in names.iter().filter(|n| !n.trim().is_empty()) {
        match super::find_family(given.trim()) {
            Ok(f) if f.design.is_some() => {
                selected.insert(f.name);
            }
            _ => {
                let allowed: Vec<&str> = enumerated_families().map(|f| f.name).collect();
                return Err(TopolabError::invalid(
                    context,
                    "families",
                    given,
                    format!("family names (or aliases) among {}", allowed.join(", ")),
                ));
            }
        }
    }
    if selected.is_empty() {
        return Err(TopolabError::invalid(
            context,
            "families",
            format!("{names:?}"),
            "at least one family name",
        ));
    }
    Ok(selected)
}

/// Every design of the `selected` families that `window` accepts: each family's candidates in
/// the order of its rule, then, for random families, the twins of the candidates that lend
/// their equipment (of any family, selected or not); one design per spec, the first found in
/// the registry's family order, carrying the tags of its repeats.
pub fn designs(window: &Window, selected: &BTreeSet<&str>) -> Vec<Candidate> {
    let twins_wanted = enumerated_families()
        .any(|f| selected.contains(f.name) && f.design.is_some_and(|d| d.twin.is_some()));
    let mut origins: Vec<TwinOrigin> = Vec::new();
    let mut found: Vec<(&Family, Vec<Candidate>)> = Vec::new();
    for family in enumerated_families() {
        let is_selected = selected.contains(family.name);
        let lends = family
            .design
            .and_then(|d| d.twin_origin)
            .filter(|_| twins_wanted);
        if !is_selected && lends.is_none() {
            continue;
        }
        let candidates = enumerate(family, window);
        if let Some(lends) = lends {
            origins.extend(
                candidates
                    .iter()
                    .filter(|c| lends(c))
                    .map(Candidate::as_twin_origin),
            );
        }
        if is_selected {
            found.push((family, candidates));
        }
    }
    for (family, candidates) in &mut found {
        candidates.extend(twins(family.name, &origins, window));
    }

    let mut merged: Vec<Candidate> = Vec::new();
    let mut position: HashMap<String, usize> = HashMap::new();
    for candidate in found.into_iter().flat_map(|(_, candidates)| candidates) {
        match position.get(&candidate.spec()) {
            Some(&first) => {
                let tags = &mut merged[first].tags;
                for tag in candidate.tags {
                    if !tags.contains(&tag) {
                        tags.push(tag);
                    }
                }
            }
            None => {
                position.insert(candidate.spec(), merged.len());
                merged.push(candidate);
            }
        }
    }
    merged
}

/// The smaller members of the family of `spec` that stand in for it (`DesignSpace::
/// smaller_members`); None when the family declares no such rule.
pub fn smaller_members(spec: &str) -> Result<Option<Vec<String>>> {
    let parsed = TopologySpec::parse(spec)?;
    let family = super::find_family(&parsed.family)?;
    let sizes = super::sizes(&parsed)?;
    let Some(rule) = family.design.and_then(|d| d.smaller_members) else {
        return Ok(None);
    };
    let values: &BTreeMap<String, ParamValue> = &parsed.params;
    let member = Member {
        params: Params::new(family.name, values),
        sizes,
    };
    Ok(Some(rule(&member)?))
}

// ---------------------------------------------------------------------------------------------
// searches the rules share
// ---------------------------------------------------------------------------------------------

/// Python's `round`: halves to even (the rules were stated with it).
pub fn round_even(x: f64) -> i64 {
    x.round_ties_even() as i64
}

/// The count x in [lo, hi] whose x * per_unit is nearest target (ties: the smaller).
pub fn nearest_count(lo: i64, hi: i64, per_unit: u64, target: u64) -> Option<i64> {
    if lo > hi {
        return None;
    }
    let x = round_even(target as f64 / per_unit as f64).max(lo).min(hi);
    [x - 1, x, x + 1]
        .into_iter()
        .filter(|v| (lo..=hi).contains(v))
        .min_by_key(|&v| ((v as i128 * per_unit as i128 - target as i128).abs(), v))
}

/// Nondecreasing size tuples of length n, sizes >= smallest, product <= max_product, for which
/// fits(shape) holds; `fits` must be monotone in every size (so the search prunes).
pub fn shapes(
    n: usize,
    smallest: u32,
    max_product: u64,
    fits: &dyn Fn(&[u32]) -> bool,
) -> Vec<Vec<u32>> {
    fn extend(
        prefix: &mut Vec<u32>,
        product: u64,
        n: usize,
        smallest: u32,
        max_product: u64,
        fits: &dyn Fn(&[u32]) -> bool,
        out: &mut Vec<Vec<u32>>,
    ) {
        if prefix.len() == n {
            out.push(prefix.clone());
            return;
        }
        let mut s = prefix.last().copied().unwrap_or(smallest);
        let left = (n - prefix.len()) as u32;
        while (product as u128) * (s as u128).pow(left) <= max_product as u128 {
            prefix.push(s);
            if !fits(prefix) {
                prefix.pop();
                break;
            }
            extend(
                prefix,
                product * s as u64,
                n,
                smallest,
                max_product,
                fits,
                out,
            );
            prefix.pop();
            s += 1;
        }
    }
    let mut out = Vec::new();
    extend(&mut Vec::new(), 1, n, smallest, max_product, fits, &mut out);
    out
}

/// The widths maximizing min_n weight(K_n) * L_n (the bisection bottleneck of Daryin & Korzh,
/// JSFI 2014, §1.1, §1.2) within `budget` ports, each width as small as that maximum allows
/// (their 4x8x8x8: 2,1,1,1 FlatFly; 2,4,4,4 torus). None if even unit widths do not fit.
pub fn max_min_widths(
    sizes: &[u32],
    ports_per_width: &dyn Fn(u32) -> i64,
    budget: i64,
    weight: &dyn Fn(u32) -> f64,
) -> Option<Vec<u32>> {
    let widths_for = |t: f64| -> Vec<u32> {
        sizes
            .iter()
            .map(|&s| ((t / weight(s) - 1e-9).ceil() as i64).max(1) as u32)
            .collect()
    };
    let cost = |ws: &[u32]| -> i64 {
        sizes
            .iter()
            .zip(ws)
            .map(|(&s, &x)| ports_per_width(s) * x as i64)
            .sum()
    };
    if cost(&vec![1; sizes.len()]) > budget {
        return None;
    }
    // The bottleneck takes one of the values weight(K_n) * x; the cost is monotone in it, so
    // the largest affordable one is found by bisection.
    let mut levels: Vec<f64> = sizes
        .iter()
        .flat_map(|&s| (1..=budget).map(move |x| weight(s) * x as f64))
        .collect();
    levels.sort_by(f64::total_cmp);
    levels.dedup();
    let (mut lo, mut hi) = (0usize, levels.len() - 1);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if cost(&widths_for(levels[mid])) <= budget {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Some(widths_for(levels[lo]))
}

/// The router count nearest target / p (ties: fewer) that satisfies `ok` and keeps p * R in the
/// window.
pub fn routers_for(w: &Window, p: u64, ok: &dyn Fn(u64) -> bool) -> Option<u64> {
    let base = w.target as f64 / p as f64;
    let floor = base.floor() as i64;
    let mut options: Vec<i64> = (-2..=2).map(|d| floor + d).collect();
    let distance = |r: i64| (r as f64 - base).abs();
    options.sort_by(|a, b| distance(*a).total_cmp(&distance(*b)).then(a.cmp(b)));
    options.into_iter().find_map(|r| {
        let r = u64::try_from(r).ok()?;
        (r >= 2 && w.lo <= p * r && p * r <= w.hi && ok(r)).then_some(r)
    })
}

/// For every p, degree K - p and the parameters `make(p, degree)` gives (None: none fit): a
/// random family at the radix the structured designs get ("full radix").
pub fn full_radix(
    w: &Window,
    family: &'static str,
    source: &'static str,
    make: &dyn Fn(u32, u32) -> Option<DesignParams>,
) -> Vec<Candidate> {
    (1..w.radix.saturating_sub(1))
        .filter_map(|p| {
            let params = make(p, w.radix - p)?;
            candidate(family, params, source, tags(&["full radix"]), false)
        })
        .collect()
}

/// The load p / p_balanced of concentration p on a network balanced at `balanced`.
pub fn load_at(balanced: f64, p: i64) -> f64 {
    p as f64 / balanced
}

/// The p in 1..most whose load is nearest `load`, on the same side of 1 (a balanced design
/// stays balanced, an oversubscribed one oversubscribed) whenever some p allows it.
pub fn nearest_p(load: f64, load_of: &dyn Fn(i64) -> f64, most: i64) -> i64 {
    let mut options: Vec<i64> = (1..=most.max(1)).collect();
    let miss = |c: i64| (load_of(c) - load).abs();
    options.sort_by(|a, b| miss(*a).total_cmp(&miss(*b)).then(a.cmp(b)));
    let balanced = load <= 1.0 + 1e-9;
    options
        .iter()
        .copied()
        .find(|&c| (load_of(c) <= 1.0 + 1e-9) == balanced)
        .unwrap_or(options[0])
}

/// The concentration giving the load p / p_balanced nearest the design's on a smaller network
/// balanced at `balanced_new` (`nearest_p`).
pub fn scaled_p(p: i64, balanced_old: f64, balanced_new: f64) -> i64 {
    let most = (2.0 * balanced_new * p as f64 / balanced_old).ceil() as i64 + 1;
    nearest_p(
        load_at(balanced_old, p),
        &|c| load_at(balanced_new, c),
        most,
    )
}

/// The balanced concentration the family declares for `spec`, None if it is not built.
pub fn balanced_of(spec: &str) -> Option<f64> {
    sizes_str(spec).ok().map(|s| s.balanced_concentration)
}

/// Stand-ins of a family sized by one parameter: the members with `name` from `first` (in
/// steps of `step`) below the design's, each with p scaled to the same load.
pub fn smaller_by_one(
    m: &Member,
    family: &str,
    name: &str,
    first: i64,
    step: usize,
) -> Result<Vec<String>> {
    Ok((first..m.int(name)?)
        .step_by(step)
        .filter_map(|value| {
            let pb = balanced_of(&format!("{family}:{name}={value}"))?;
            let p = scaled_p(m.p(), m.balanced(), pb);
            Some(format!("{family}:{name}={value},p={p}"))
        })
        .collect())
}

/// Families free in their router count at full radix: degree K - p and the router count
/// nearest N/p that builds; `params(routers, degree, p)` writes a member's parameters.
pub fn free_router_count(
    w: &Window,
    family: &'static str,
    source: &'static str,
    params: &dyn Fn(u64, u32, u32) -> DesignParams,
) -> Vec<Candidate> {
    full_radix(w, family, source, &|p, degree| {
        let builds = |routers: u64| sizes_of(family, &params(routers, degree, p)).is_some();
        Some(params(routers_for(w, p as u64, &builds)?, degree, p))
    })
}

/// Directed graphs free in their router count n (Imase-Itoh, MDDP, random digraphs) at full
/// radix: d = K - p, n ~ N/p.
pub fn free_digraphs(w: &Window, family: &'static str, source: &'static str) -> Vec<Candidate> {
    free_router_count(w, family, source, &|n, d, p| {
        vec![("n", n.into()), ("d", d.into()), ("p", p.into())]
    })
}

/// Stand-ins of a random graph of `routers` routers and network degree `degree`: degree scaled
/// down with routers / degree^2 kept (the share of the diameter-2 Moore bound), p from the
/// same channel-balance estimate as the enumeration. `shape(routers, degree)` writes the spec
/// without p.
pub fn random_graph_members(
    m: &Member,
    routers: i64,
    degree: i64,
    shape: &dyn Fn(i64, i64) -> String,
) -> Vec<String> {
    (4..degree)
        .filter_map(|d2| {
            let share = d2 as f64 / degree as f64;
            let mut r2 = (d2 + 2).max(round_even(routers as f64 * (share * share)));
            r2 += (r2 * d2) % 2; // a regular graph: routers x degree even
            let spec = shape(r2, d2);
            let pb = balanced_of(&spec)?;
            Some(format!("{spec},p={}", scaled_p(m.p(), m.balanced(), pb)))
        })
        .collect()
}

/// The tag of the p = 1 low-radix networks (tori, meshes, hypercubes) that Besta & Hoefler, SC14,
/// §III keeps whatever their balance.
pub const P1_TAG: &str = "p=1 (Besta & Hoefler, SC14, §III)";

#[cfg(test)]
mod construction;
