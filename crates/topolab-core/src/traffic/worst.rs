//! `worst` and the `<family>_worst` patterns: the adversarial (worst-case) pattern for minimal
//! routing of each family a paper gives one for. Each family's construction lives in its own
//! file (`topology::<family>::worst_traffic`); this file resolves the name (`worst`: the one
//! the network's family declares) and holds what the constructions share: the capability check
//! and the router-to-router maps.

use super::{endpoint_offsets, DestTable, PatternDef, Spec, Traffic, IDLE, PATTERNS};
use crate::network::Capability;
use crate::topology::{ParamDef, ParamKind};
use crate::{families, find_family, Network, Result};

/// `worst`: the pattern the network's family declares as its worst case.
pub(super) fn parse(s: &Spec, net: &Network, endpoints: u32) -> Result<Traffic> {
    let Some(name) = declared_worst(net.family()) else {
        let with: Vec<&str> = families()
            .iter()
            .filter(|f| declared_worst(f.name).is_some())
            .map(|f| f.name)
            .collect();
        return Err(s.invalid(
            "network",
            format!("family '{}'", net.family()),
            &format!(
                "a {} network (the families with a defined worst case); use \
                         slimfly_worst for an imported Slim Fly",
                with.join(", ")
            ),
        ));
    };
    let def = PATTERNS
        .iter()
        .find(|d| d.name == name)
        .expect("a family declares a catalog pattern as its worst case");
    (def.build)(s, net, endpoints)
}

/// The adversarial pattern (`<family>_worst`) that `family` declares as its worst case in
/// the family table (`Family::routing.simulation`).
fn declared_worst(family: &str) -> Option<&'static str> {
    let declared = find_family(family).ok()?.routing.simulation?.worst_traffic;
    declared.ends_with("_worst").then_some(declared)
}

/// The `offset` a `<family>_worst` pattern was given, if any.
pub(crate) fn offset(s: &Spec) -> Result<Option<i64>> {
    s.params().opt_int("offset", i64::MIN, i64::MAX)
}

/// Checks that the network has the capability (labelled structure) a pattern reads; the
/// error names it, and the family and labels the network has instead.
pub(crate) fn require(s: &Spec, net: &Network, cap: Capability) -> Result<()> {
    if net.has(cap) {
        return Ok(());
    }
    Err(s.invalid(
        "network",
        format!(
            "family '{}' with router labels ({})",
            net.family(),
            net.label_fields().join(", ")
        ),
        &format!(
            "a network with {} (router labels {})",
            cap.what,
            cap.fields.join(", ")
        ),
    ))
}

pub(crate) fn field(net: &Network, name: &str) -> usize {
    net.label_fields()
        .iter()
        .position(|f| f == name)
        .expect("checked by require")
}

/// Validates `offset` in 1..=max (default 1), naming what it counts.
pub(crate) fn read_offset(
    s: &Spec,
    offset: Option<i64>,
    units: usize,
    what: &str,
) -> Result<usize> {
    if units < 2 {
        return Err(s.invalid(
            "network",
            format!("{units} {what}"),
            &format!("at least 2 {what}: the pattern sends from one to another"),
        ));
    }
    match offset {
        None => Ok(1),
        Some(o) if o >= 1 && o < units as i64 => Ok(o as usize),
        Some(o) => Err(s.invalid(
            "offset",
            o,
            &format!("an integer from 1 to {} ({units} {what})", units - 1),
        )),
    }
}

/// Endpoint j of router r sends to endpoint j of router `partner[r]` (IDLE: r's endpoints are
/// idle); endpoints beyond the partner's count are idle.
pub(crate) fn router_map(net: &Network, partner: &[u32]) -> DestTable {
    DestTable::new(router_destinations(net, partner))
}

/// `router_map`'s destination of every endpoint.
pub(crate) fn router_destinations(net: &Network, partner: &[u32]) -> Vec<u32> {
    let offsets = endpoint_offsets(net);
    let mut dest = vec![IDLE; *offsets.last().unwrap_or(&0) as usize];
    for (r, &t) in partner.iter().enumerate() {
        if t == IDLE {
            continue;
        }
        let (lo, hi) = (offsets[r], offsets[r + 1]);
        let (t_lo, t_hi) = (offsets[t as usize], offsets[t as usize + 1]);
        for (e, d) in (lo..hi).zip(t_lo..t_hi) {
            dest[e as usize] = d;
        }
    }
    dest
}

/// Router `routers[i]` sends to router `routers[(i + offset) mod len]`.
pub(crate) fn ring_shift(net: &Network, routers: &[usize], offset: usize) -> Vec<u32> {
    let mut partner = vec![IDLE; net.num_routers()];
    for (i, &r) in routers.iter().enumerate() {
        partner[r] = routers[(i + offset) % routers.len()] as u32;
    }
    partner
}

/// The one parameter of every worst-case pattern (the generic `worst` and each family's).
pub const OFFSET_PARAMS: &[ParamDef] = &[ParamDef {
    name: "offset",
    kind: ParamKind::Int,
    default: Some("1"),
    help: "how far the pattern shifts (groups, pods, leaves or routers), 1 to their count - 1",
}];

/// The worst case the network's family declares.
pub const WORST: PatternDef = PatternDef {
    name: "worst",
    aliases: &["adversarial", "wc", "worst_case"],
    params: OFFSET_PARAMS,
    build: |s, net, endpoints| parse(s, net, endpoints),
};
