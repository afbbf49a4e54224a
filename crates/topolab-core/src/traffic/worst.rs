//! `worst` and the `<family>-worst` patterns: the adversarial (worst-case) pattern for minimal
//! routing of each family a paper gives one for. Each family's construction lives in its own
//! file (`topology::<family>::worst_traffic`); this file resolves the name (`worst`: the one
//! the network's family declares) and holds what the constructions share: the capability check
//! and the router-to-router maps.

use super::{endpoint_offsets, DestTable, Spec, Traffic, IDLE};
use crate::network::Capability;
use crate::topology::{dragonfly, fattree, mlfm, oft, polarfly, slimfly};
use crate::{families, find_family, Network, Result, TopolabError};

pub(super) fn parse(s: &Spec, net: &Network) -> Result<Traffic> {
    let name = if s.name == "worst" {
        match declared_worst(net.family()) {
            Some(name) => name,
            None => {
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
                         slimfly-worst for an imported Slim Fly",
                        with.join(", ")
                    ),
                ));
            }
        }
    } else {
        s.name
    };
    let offset = s.params().opt_int("offset", i64::MIN, i64::MAX)?;
    match name {
        "slimfly-worst" => slimfly::worst_traffic(s, net, offset),
        "polarfly-worst" => polarfly::worst_traffic(s, net, offset),
        "dragonfly-worst" => dragonfly::worst_traffic(s, net, offset),
        "fattree-worst" => fattree::worst_traffic(s, net, offset),
        "mlfm-worst" => mlfm::worst_traffic(s, net, offset),
        "oft-worst" => oft::worst_traffic(s, net, offset),
        other => Err(TopolabError::invalid(
            "traffic",
            "pattern",
            format!("'{other}'"),
            format!("one of: {}", super::Traffic::NAMES.join(", ")),
        )),
    }
}

/// The adversarial pattern (`<family>-worst`) that `family` declares as its worst case in
/// the family table (`Family::routing.simulation`).
fn declared_worst(family: &str) -> Option<&'static str> {
    let declared = find_family(family).ok()?.routing.simulation?.worst_traffic;
    declared.ends_with("-worst").then_some(declared)
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
