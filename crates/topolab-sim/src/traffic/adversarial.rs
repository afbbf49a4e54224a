//! Adversarial (worst-case) patterns for minimal routing, one per family that a paper gives one
//! for. Each needs the network's structure and rejects networks of other families.
//!
//! - Slim Fly (000 §V-C, 001 §4.2, Fig. 5): routers communicate in pairs at distance 2 whose
//!   routes overlap on one link. A "pair of overlapping routes" is four routers A - Y - X - B
//!   on a path: all endpoints of A exchange with those of X (route A-Y-X) and all endpoints of
//!   B with those of Y (route B-X-Y), so link X-Y carries 2p flows in each direction (001 §4.2:
//!   "2p flows passing per direction, resulting to 1/(2p) of the maximum throughput"). 000 §V-C
//!   describes the same construction (R_1..R_a with R_x via R_y, R_1..R_b with R_y via R_x,
//!   "send and receive") but states MIN is limited to 1/(p+1); its own construction gives 2p
//!   flows per direction, so topolab follows 001 and the tests pin 2p. topolab chooses A only
//!   where Y is the ONLY common neighbour of A and X (likewise X for B and Y), so every minimal
//!   path, not just the one a deterministic router picks, crosses X-Y. The greedy assignment
//!   (001: "easily achieved with a greedy assignment"; 000: "until all possibilities are
//!   exhausted") walks the links in ascending (src, dst) order and takes the lowest-numbered
//!   free A and B; routers left without a structure stay idle.
//!   The construction needs only that two routers at distance 2 have one common neighbour,
//!   which holds for every non-adjacent pair of PolarFly's ER_q (Lakhotia et al., SC22, §III),
//!   so `slimfly-worst` also takes PolarFly networks, with the same 2p flows per direction.
//! - PolarFly (Lakhotia et al., SC22; the authors' BookSim2 fork `badpf`, "perm1hop"): every
//!   router exchanges with a neighbour, endpoint j with endpoint j, so under minimal routing
//!   all p flows of a router share its one direct link (1/p of the injection bandwidth) while
//!   every other link of the router idles. The pairing follows the rack clusters: with
//!   starter quadric w (cluster labels, `topology::polarfly`), each neighbour v of w pairs with
//!   the other quadric on v's polar line, and each remaining router with its triangle partner,
//!   the one non-centre neighbour in its cluster. w alone has no partner; its endpoints send
//!   to each other (j to j + 1 mod p), as in the fork. Odd q only: for even q a neighbour of w
//!   sees no second quadric (every line but one meets the quadrics once).
//! - Dragonfly (Kim et al. ISCA'08 §4.2, used by 000 §V-C): every endpoint of group i sends to
//!   an endpoint drawn uniformly from group i + 1 (mod g), as BookSim2's `bad_dragon`.
//! - Fat tree (000 §V-C, "every packet traverses core (highest-level) switches"): leaf l of
//!   pod P sends to leaf l of pod P + 1, endpoint j to endpoint j; in a two-level tree leaf i
//!   sends to leaf i + 1 (the spines are the highest level).
//! - MLFM (001 §4.2): "the shift traffic pattern with a shift value of h": with p = h endpoints
//!   per local router, shifting endpoint ids by h sends all endpoints of local router r to local
//!   router r + 1, which is in another column, so all of r's traffic crosses the one global
//!   router of that column pair. topolab shifts by whole routers (`offset`, default 1), which
//!   is the paper's shift by h when p = h and keeps the property for any p.
//! - OFT (001 §4.2): "the shift traffic pattern with an offset of k": endpoint routers (L0 then
//!   L2, in index order) send to the next one; no router pairs with its counterpart, so each
//!   pair has one minimal path and each of its links carries p = k flows.

use super::{endpoint_offsets, DestTable, Spec, Traffic, IDLE};
use std::collections::BTreeMap;
use topolab_core::network::{
    Capability, MLFM_LAYOUT, MMS_COORDINATES, OFT_LEVELS, POLARFLY_CLUSTERS, ROUTER_GROUPS,
    TREE_LEVELS,
};
use topolab_core::{families, find_family, Network, Result, TopolabError};

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
        "slimfly-worst" => {
            if offset.is_some() {
                return Err(s.invalid(
                    "offset",
                    s.text("offset").unwrap_or_default(),
                    "no offset for the Slim Fly worst case (its pairs come from the greedy \
                     assignment)",
                ));
            }
            slimfly(s, net)
        }
        "polarfly-worst" => {
            if offset.is_some() {
                return Err(s.invalid(
                    "offset",
                    s.text("offset").unwrap_or_default(),
                    "no offset for the PolarFly worst case (its pairs come from the rack clusters)",
                ));
            }
            polarfly(s, net)
        }
        "dragonfly-worst" => dragonfly(s, net, offset),
        "fattree-worst" => fattree(s, net, offset),
        "mlfm-worst" => mlfm(s, net, offset),
        "oft-worst" => oft(s, net, offset),
        other => Err(TopolabError::invalid(
            "traffic",
            "pattern",
            format!("'{other}'"),
            format!("one of: {}", super::Traffic::NAMES.join(", ")),
        )),
    }
}

/// The adversarial pattern (one of this module's) that `family` declares as its worst case in
/// the family table (`Family::routing.simulation`).
fn declared_worst(family: &str) -> Option<&'static str> {
    let declared = find_family(family).ok()?.routing.simulation?.worst_traffic;
    declared.ends_with("-worst").then_some(declared)
}

/// Checks that the network has the capability (labelled structure) a pattern reads; the
/// error names it, and the family and labels the network has instead.
fn require(s: &Spec, net: &Network, cap: Capability) -> Result<()> {
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

fn field(net: &Network, name: &str) -> usize {
    net.label_fields()
        .iter()
        .position(|f| f == name)
        .expect("checked by require")
}

/// Validates `offset` in 1..=max (default 1), naming what it counts.
fn read_offset(s: &Spec, offset: Option<i64>, units: usize, what: &str) -> Result<usize> {
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
fn router_map(net: &Network, partner: &[u32]) -> DestTable {
    DestTable::new(router_destinations(net, partner))
}

/// `router_map`'s destination of every endpoint.
fn router_destinations(net: &Network, partner: &[u32]) -> Vec<u32> {
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
fn ring_shift(net: &Network, routers: &[usize], offset: usize) -> Vec<u32> {
    let mut partner = vec![IDLE; net.num_routers()];
    for (i, &r) in routers.iter().enumerate() {
        partner[r] = routers[(i + offset) % routers.len()] as u32;
    }
    partner
}

fn slimfly(s: &Spec, net: &Network) -> Result<Traffic> {
    // The construction reads only the graph: a network labelled with MMS coordinates, or
    // one whose labels carry no structure (an imported BookSim2 anynet Slim Fly: `index`).
    let unstructured = net.label_fields().iter().all(|f| f == "index");
    if !unstructured && !net.has(MMS_COORDINATES) && !net.has(POLARFLY_CLUSTERS) {
        return Err(s.invalid(
            "network",
            format!(
                "family '{}' with router labels ({})",
                net.family(),
                net.label_fields().join(", ")
            ),
            &format!(
                "a network with {} (router labels {}), a PolarFly or a graph without \
                 structural labels (an imported one, e.g. a BookSim2 anynet Slim Fly: the \
                 construction reads only the graph)",
                MMS_COORDINATES.what,
                MMS_COORDINATES.fields.join(", ")
            ),
        ));
    }
    if net.directed() {
        return Err(s.invalid("network", "a directed network", "an undirected network"));
    }
    let partner = slimfly_partners(net);
    if partner.iter().all(|&p| p == IDLE) {
        return Err(s.invalid(
            "network",
            net.spec(),
            "a network with two routers at distance 2 whose only common neighbour is \
             adjacent to a router at distance 2 from it (any Slim Fly)",
        ));
    }
    Ok(Traffic::Table {
        name: "slimfly-worst",
        dest: router_map(net, &partner),
    })
}

/// The greedy pairing of 000 §V-C / 001 §4.2 (see the module comment): partner[r] is the
/// router r exchanges with, IDLE when r found no structure.
fn slimfly_partners(net: &Network) -> Vec<u32> {
    let n = net.num_routers();
    let adjacent = |u: usize, v: u32| net.neighbors(u).binary_search(&v).is_ok();
    // The common neighbour of u and v when they are at distance 2 and it is the only one.
    let only_middle = |u: usize, v: usize| -> Option<u32> {
        if u == v || adjacent(u, v as u32) {
            return None;
        }
        let (a, b) = (net.neighbors(u), net.neighbors(v));
        let (mut i, mut j, mut found) = (0, 0, None);
        while i < a.len() && j < b.len() {
            match a[i].cmp(&b[j]) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    if found.is_some() {
                        return None;
                    }
                    found = Some(a[i]);
                    i += 1;
                    j += 1;
                }
            }
        }
        found
    };
    let mut partner = vec![IDLE; n];
    let has_endpoints = |r: usize| net.endpoints()[r] > 0;
    let free = |partner: &[u32], r: usize| partner[r] == IDLE && has_endpoints(r);
    for link in net.links() {
        let (x, y) = (link.src as usize, link.dst as usize);
        if !free(&partner, x) || !free(&partner, y) {
            continue;
        }
        // A next to Y, routed to X only through Y; B next to X, routed to Y only through X.
        let a = net
            .neighbors(y)
            .iter()
            .map(|&a| a as usize)
            .find(|&a| a != x && free(&partner, a) && only_middle(a, x) == Some(y as u32));
        let Some(a) = a else { continue };
        let b = net.neighbors(x).iter().map(|&b| b as usize).find(|&b| {
            b != y && b != a && free(&partner, b) && only_middle(b, y) == Some(x as u32)
        });
        let Some(b) = b else { continue };
        for (u, v) in [(a, x), (b, y)] {
            partner[u] = v as u32;
            partner[v] = u as u32;
        }
    }
    partner
}

/// PolarFly's Perm1Hop pairing (module comment).
fn polarfly(s: &Spec, net: &Network) -> Result<Traffic> {
    require(s, net, POLARFLY_CLUSTERS)?;
    let cf = field(net, "cluster");
    let n = net.num_routers();
    let cluster = |r: usize| net.label(r)[cf];
    let quadrics: Vec<usize> = (0..n).filter(|&r| cluster(r) == 0).collect();
    let q = quadrics.len().saturating_sub(1);
    if q.is_multiple_of(2) {
        return Err(s.invalid(
            "network",
            format!("{} (q = {q})", net.spec()),
            "a PolarFly of odd q (for even q a neighbour of the starter quadric is adjacent to \
             no other quadric, so the SC22 pairing does not exist)",
        ));
    }
    let starter = quadrics[0];
    let broken = |router: usize, found: usize, what: &str| {
        s.invalid(
            "network",
            format!("router {router} with {found} {what}"),
            "ER_q's rack clusters (each neighbour of the starter quadric next to one more \
             quadric, each other router next to one more non-centre router of its cluster)",
        )
    };
    let mut is_centre = vec![false; n];
    for &v in net.neighbors(starter) {
        is_centre[v as usize] = true;
    }
    let mut partner = vec![IDLE; n];
    for &v in net.neighbors(starter) {
        let others: Vec<u32> = net
            .neighbors(v as usize)
            .iter()
            .copied()
            .filter(|&w| w as usize != starter && cluster(w as usize) == 0)
            .collect();
        let [w] = others[..] else {
            return Err(broken(
                v as usize,
                others.len(),
                "quadric neighbours besides the starter",
            ));
        };
        partner[v as usize] = w;
        partner[w as usize] = v;
    }
    for x in (0..n).filter(|&x| cluster(x) != 0 && !is_centre[x]) {
        let mates: Vec<u32> = net
            .neighbors(x)
            .iter()
            .copied()
            .filter(|&y| cluster(y as usize) == cluster(x) && !is_centre[y as usize])
            .collect();
        let [y] = mates[..] else {
            return Err(broken(
                x,
                mates.len(),
                "non-centre neighbours in its cluster",
            ));
        };
        partner[x] = y;
    }
    let mut dest = router_destinations(net, &partner);
    let offsets = endpoint_offsets(net);
    let (lo, hi) = (offsets[starter], offsets[starter + 1]);
    if hi - lo >= 2 {
        for e in lo..hi {
            dest[e as usize] = lo + (e - lo + 1) % (hi - lo);
        }
    }
    Ok(Traffic::Table {
        name: "polarfly-worst",
        dest: DestTable::new(dest),
    })
}

fn dragonfly(s: &Spec, net: &Network, offset: Option<i64>) -> Result<Traffic> {
    require(s, net, ROUTER_GROUPS)?;
    let gf = field(net, "group");
    let group_of = |r: usize| net.label(r)[gf];
    let groups = (0..net.num_routers())
        .map(|r| group_of(r) + 1)
        .max()
        .unwrap_or(0)
        .max(0) as usize;
    let offset = read_offset(s, offset, groups, "groups")?;
    // Members of each group, ascending endpoint ids.
    let eoff = endpoint_offsets(net);
    let mut members_of: Vec<Vec<u32>> = vec![Vec::new(); groups];
    for r in 0..net.num_routers() {
        let g = group_of(r);
        if g < 0 {
            return Err(s.invalid("network", format!("router {r} in group {g}"), "groups >= 0"));
        }
        members_of[g as usize].extend(eoff[r]..eoff[r + 1]);
    }
    if let Some(g) = members_of.iter().position(Vec::is_empty) {
        return Err(s.invalid(
            "network",
            format!("group {g} without endpoints"),
            "endpoints in every group",
        ));
    }
    let mut offsets = vec![0u32];
    let mut members = Vec::new();
    for m in &members_of {
        members.extend_from_slice(m);
        offsets.push(members.len() as u32);
    }
    let mut set_of_source = vec![IDLE; members.len()];
    for (g, m) in members_of.iter().enumerate() {
        for &e in m {
            set_of_source[e as usize] = ((g + offset) % groups) as u32;
        }
    }
    Ok(Traffic::RandomInSet {
        name: "dragonfly-worst",
        set_of_source: DestTable::new(set_of_source),
        offsets: offsets.into(),
        members: members.into(),
    })
}

fn fattree(s: &Spec, net: &Network, offset: Option<i64>) -> Result<Traffic> {
    require(s, net, TREE_LEVELS)?;
    let (lf, pf, xf) = (field(net, "level"), field(net, "pod"), field(net, "index"));
    let top = (0..net.num_routers())
        .map(|r| net.label(r)[lf])
        .max()
        .unwrap_or(0);
    // The subtrees below the highest level: pods under the core (3 levels), single leaves
    // under the spines (2 levels). (unit, position in unit) -> leaf router.
    let mut leaves: BTreeMap<(i64, i64), usize> = BTreeMap::new();
    for r in (0..net.num_routers()).filter(|&r| net.label(r)[lf] == 0) {
        let l = net.label(r);
        let key = if top >= 2 { (l[pf], l[xf]) } else { (l[xf], 0) };
        leaves.insert(key, r);
    }
    let units: Vec<i64> = {
        let mut u: Vec<i64> = leaves.keys().map(|k| k.0).collect();
        u.dedup();
        u
    };
    let what = if top >= 2 { "pods" } else { "leaves" };
    let offset = read_offset(s, offset, units.len(), what)?;
    let mut partner = vec![IDLE; net.num_routers()];
    for (&(unit, pos), &r) in &leaves {
        let i = units.binary_search(&unit).expect("unit of a leaf");
        let target_unit = units[(i + offset) % units.len()];
        if let Some(&t) = leaves.get(&(target_unit, pos)) {
            partner[r] = t as u32;
        }
    }
    Ok(Traffic::Table {
        name: "fattree-worst",
        dest: router_map(net, &partner),
    })
}

fn mlfm(s: &Spec, net: &Network, offset: Option<i64>) -> Result<Traffic> {
    require(s, net, MLFM_LAYOUT)?;
    let (kf, cf) = (field(net, "kind"), field(net, "col"));
    let locals: Vec<usize> = (0..net.num_routers())
        .filter(|&r| net.label(r)[kf] == 0 && net.endpoints()[r] > 0)
        .collect();
    let offset = read_offset(s, offset, locals.len(), "local routers")?;
    let partner = ring_shift(net, &locals, offset);
    if let Some(&r) = locals
        .iter()
        .find(|&&r| net.label(r)[cf] == net.label(partner[r] as usize)[cf])
    {
        return Err(s.invalid(
            "offset",
            offset,
            &format!(
                "an offset that never pairs two local routers of the same column (routers {r} \
                 and {} share column {}; same-column routers have h minimal paths, so the \
                 pattern is no longer a worst case)",
                partner[r],
                net.label(r)[cf]
            ),
        ));
    }
    Ok(Traffic::Table {
        name: "mlfm-worst",
        dest: router_map(net, &partner),
    })
}

fn oft(s: &Spec, net: &Network, offset: Option<i64>) -> Result<Traffic> {
    require(s, net, OFT_LEVELS)?;
    let (lf, xf) = (field(net, "level"), field(net, "index"));
    let ends: Vec<usize> = (0..net.num_routers())
        .filter(|&r| net.label(r)[lf] != 1 && net.endpoints()[r] > 0)
        .collect();
    let offset = read_offset(s, offset, ends.len(), "endpoint routers")?;
    let partner = ring_shift(net, &ends, offset);
    if let Some(&r) = ends
        .iter()
        .find(|&&r| net.label(r)[xf] == net.label(partner[r] as usize)[xf])
    {
        return Err(s.invalid(
            "offset",
            offset,
            &format!(
                "an offset that never pairs a router with its counterpart (routers {r} and {} \
                 are (0, i) and (2, i), which share all k L1 routers)",
                partner[r]
            ),
        ));
    }
    Ok(Traffic::Table {
        name: "oft-worst",
        dest: router_map(net, &partner),
    })
}
