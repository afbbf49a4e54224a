//! InfiniBand routing export (Daryin & Korzh, JSFI 2014, §3): a static routing becomes what a
//! subnet manager programs into a fabric, in the factored form of Daryin & Korzh, JSFI 2014, §3:
//!
//! ```text
//! (source, destination)          -> (DLID, SL)     path records (`IbTables::path_sl`)
//! (switch, DLID)                 -> out port       linear forwarding tables (`lft`)
//! (switch, SL, in port, out port) -> VL            SL2VL tables (`sl2vl`)
//! ```
//!
//! Unlike `export::forwarding_tables` (VL per (switch, in, out), one table per destination
//! switch) this has the service-level dimension the schemes of Daryin & Korzh, JSFI 2014, §3 need:
//! Mixed DOR picks a dimension order per destination host (so the LFT is per host LID), Dragonfly
//! Static puts a packet that stays in its group on another VL than one leaving it from the same
//! port.
//!
//! Choices, documented in docs/routing.md "InfiniBand export":
//! - LIDs: switch r gets LID r + 1, endpoint e (numbered router by router) LID n + 1 + e.
//! - Ports: 1..=k to the k neighbouring switches in ascending order (a link of width w is one
//!   port here: spreading over parallel cables is LMC or adaptive routing, Daryin & Korzh, JSFI
//!   2014, §3.1), then one port per host; port 0 is the switch's management port.
//! - SL: the VL of the path's first hop (so the first switch's SL2VL maps SL to itself and
//!   later switches derive the VL from (SL, in port, out port)); Daryin & Korzh, JSFI 2014, §3.3's
//!   Mixed DOR gets SL = d mod 4 this way.
//! - Where a routing offers several hops, the table takes the one already programmed at that
//!   switch for that LID, else the lowest port: a static choice among the scheme's paths.
//!   A routing whose start is drawn per packet (Valiant) has no per-LID path and is refused.

pub mod opensm;
pub mod table;

use super::cdg::{self, traffic_routers, CdgReport};
use super::path::{PathSet, RouteDef};
use super::rule::{Hop, HopRouting, RouteState};
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::progress::Silent;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// VL counts an InfiniBand port may support (Daryin & Korzh, JSFI 2014, §3: "1, 2, 4, 8, or 15 VLs
/// per link").
pub const VL_COUNTS: [u32; 5] = [1, 2, 4, 8, 15];
/// Service levels in a packet header (4 bits).
pub const NUM_SLS: u32 = 16;
/// The SL2VL value meaning "drop" (VL 15 is the management VL).
pub const VL_DROP: u8 = 15;

/// Where a switch port leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PortTarget {
    Management,
    Switch(u32),
    Host(u32),
    Unused,
}

/// LID and port numbering of a network (module documentation).
#[derive(Debug, Clone)]
pub struct Fabric<'a> {
    pub net: &'a Network,
    first_host: Vec<u32>,
}

impl<'a> Fabric<'a> {
    pub fn new(net: &'a Network) -> Result<Self> {
        let n = net.num_routers();
        let mut first_host = Vec::with_capacity(n + 1);
        let mut e = 0u64;
        for r in 0..n {
            first_host.push(e as u32);
            e += net.endpoints()[r] as u64;
            let ports = net.neighbors(r).len() as u64 + net.endpoints()[r] as u64;
            if ports > 254 {
                return Err(TopolabError::InvalidNetwork(format!(
                    "InfiniBand export: router {r} needs {ports} ports; a switch has at most 254"
                )));
            }
        }
        first_host.push(e as u32);
        // Unicast LIDs are 0x0001..=0xBFFF (Daryin & Korzh, JSFI 2014, §3: "the actual address
        // capacity is 48K").
        if n as u64 + e > 0xBFFF {
            return Err(TopolabError::InvalidNetwork(format!(
                "InfiniBand export: {n} switches and {e} hosts need more than the 49151 unicast LIDs"
            )));
        }
        Ok(Fabric { net, first_host })
    }

    pub fn num_switches(&self) -> usize {
        self.net.num_routers()
    }

    pub fn max_lid(&self) -> u16 {
        (self.num_switches() as u32 + self.first_host[self.num_switches()]) as u16
    }

    pub fn switch_lid(&self, r: u32) -> u16 {
        (r + 1) as u16
    }

    pub fn host_lid(&self, r: u32, d: u32) -> u16 {
        (self.num_switches() as u32 + 1 + self.first_host[r as usize] + d) as u16
    }

    /// The switch and host index a host LID belongs to.
    pub fn host_of(&self, lid: u16) -> Option<(u32, u32)> {
        let n = self.num_switches() as u32;
        let e = (lid as u32).checked_sub(n + 1)?;
        if e >= self.first_host[n as usize] {
            return None;
        }
        let r = self.first_host.partition_point(|&f| f <= e) - 1;
        Some((r as u32, e - self.first_host[r]))
    }

    pub fn neighbor_port(&self, r: u32, v: u32) -> u8 {
        let pos = self
            .net
            .neighbors(r as usize)
            .binary_search(&v)
            .expect("neighbour");
        pos as u8 + 1
    }

    pub fn host_port(&self, r: u32, d: u32) -> u8 {
        (self.net.neighbors(r as usize).len() as u32 + 1 + d) as u8
    }

    pub fn target(&self, r: u32, port: u8) -> PortTarget {
        let nb = self.net.neighbors(r as usize);
        let p = port as usize;
        if p == 0 {
            PortTarget::Management
        } else if p <= nb.len() {
            PortTarget::Switch(nb[p - 1])
        } else if p - nb.len() - 1 < self.net.endpoints()[r as usize] as usize {
            PortTarget::Host((p - nb.len() - 1) as u32)
        } else {
            PortTarget::Unused
        }
    }

    fn host_ports(&self, r: u32) -> impl Iterator<Item = u8> + '_ {
        (0..self.net.endpoints()[r as usize]).map(move |d| self.host_port(r, d))
    }
}

/// The programmed state of a fabric.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct IbTables {
    /// (switch, DLID) -> out port.
    pub lft: BTreeMap<(u32, u16), u8>,
    /// (switch, in port, out port, SL) -> VL.
    pub sl2vl: BTreeMap<(u32, u8, u8, u8), u8>,
    /// (source switch, DLID) -> SL, what a path record query returns.
    pub path_sl: BTreeMap<(u32, u16), u8>,
}

impl IbTables {
    /// The VL switch `r` gives SL `sl` from port `inp` to port `out`: an error when the SL2VL
    /// table has no entry or drops the packet (VL 15).
    pub fn data_vl(&self, r: u32, inp: u8, out: u8, sl: u8) -> Result<u8> {
        let vl = *self.sl2vl.get(&(r, inp, out, sl)).ok_or_else(|| {
            table_error(format!(
                "switch {r} has no SL2VL entry for ports {inp} -> {out}, SL {sl}"
            ))
        })?;
        if vl == VL_DROP {
            return Err(table_error(format!(
                "switch {r} drops SL {sl} from port {inp} to {out} (VL 15)"
            )));
        }
        Ok(vl)
    }

    pub fn vls_used(&self) -> u32 {
        self.sl2vl
            .values()
            .map(|&v| v as u32 + 1)
            .max()
            .unwrap_or(0)
    }
    pub fn sls_used(&self) -> u32 {
        self.path_sl
            .values()
            .map(|&v| v as u32 + 1)
            .max()
            .unwrap_or(0)
    }
}

fn not_static(routing: &str, why: String) -> TopolabError {
    TopolabError::InvalidParameter {
        context: "InfiniBand export".into(),
        param: "routing".into(),
        value: routing.into(),
        allowed: format!("a routing InfiniBand tables can express: {why}"),
    }
}

/// The candidates of `rule` at r with the least detour level.
fn least_hops(rule: &dyn HopRouting, r: u32, t: u32, hop: u32, st: RouteState) -> Vec<Hop> {
    let mut out: Vec<Hop> = Vec::new();
    rule.next(r, t, hop, st, &mut |h| {
        if out.first().is_some_and(|f| h.detour > f.detour) {
            return;
        }
        if out.first().is_some_and(|f| h.detour < f.detour) {
            out.clear();
        }
        out.push(h);
    });
    out
}

/// Programs the tables for `rule` and checks the VL budget (one of `VL_COUNTS`).
pub fn build_tables(net: &Network, rule: &dyn HopRouting, vl_budget: u32) -> Result<IbTables> {
    if !VL_COUNTS.contains(&vl_budget) {
        return Err(TopolabError::invalid(
            "InfiniBand export",
            "vl_budget",
            vl_budget,
            "1, 2, 4, 8 or 15 data VLs per port (InfiniBand, Daryin & Korzh, JSFI 2014, §3)",
        ));
    }
    let fab = Fabric::new(net)?;
    let name = rule.name();
    let mut tb = IbTables::default();
    for r in 0..net.num_routers() as u32 {
        tb.lft.insert((r, fab.switch_lid(r)), 0);
    }
    let terms: Vec<u32> = traffic_routers(net).iter().map(|&r| r as u32).collect();
    for &t in &terms {
        for d in 0..net.endpoints()[t as usize] {
            let lid = fab.host_lid(t, d);
            let out = fab.host_port(t, d);
            tb.lft.insert((t, lid), out);
            for inp in fab.host_ports(t).filter(|&p| p != out) {
                tb.sl2vl.insert((t, inp, out, 0), 0);
            }
            tb.path_sl.insert((t, lid), 0);
            for &s in terms.iter().filter(|&&s| s != t) {
                program_path(&fab, rule, &name, s, t, d, lid, &mut tb)?;
            }
        }
        // The switch's own LID, reached like its first host (0 hosts: no path programmed).
        if net.endpoints()[t as usize] > 0 {
            let lid = fab.switch_lid(t);
            for &s in terms.iter().filter(|&&s| s != t) {
                let mut scratch = IbTables {
                    lft: std::mem::take(&mut tb.lft),
                    ..IbTables::default()
                };
                program_path(&fab, rule, &name, s, t, 0, lid, &mut scratch)?;
                tb.lft = scratch.lft;
            }
        }
    }
    let vls = tb.vls_used();
    if vls > vl_budget {
        return Err(TopolabError::InvalidParameter {
            context: "InfiniBand export".into(),
            param: "vl_budget".into(),
            value: vl_budget.to_string(),
            allowed: format!("at least {vls}, the VLs routing {name} uses"),
        });
    }
    if tb.sls_used() > NUM_SLS {
        return Err(not_static(
            &name,
            format!(
                "at most {NUM_SLS} SLs; this one starts on {} VLs",
                tb.sls_used()
            ),
        ));
    }
    Ok(tb)
}

/// Follows `rule` from switch s to host d of switch t and programs LFT, SL2VL and path SL.
#[allow(clippy::too_many_arguments)]
fn program_path(
    fab: &Fabric,
    rule: &dyn HopRouting,
    name: &str,
    s: u32,
    t: u32,
    d: u32,
    lid: u16,
    tb: &mut IbTables,
) -> Result<()> {
    let net = fab.net;
    let mut st = rule.host_start(s, t, d).ok_or_else(|| {
        not_static(
            name,
            format!(
                "one path per (source, destination host); from router {s} to host {d} of router {t} \
                 it starts in a state drawn per packet"
            ),
        )
    })?;
    let (mut r, mut prev) = (s, None::<u32>);
    let mut sl = None::<u8>;
    let mut hop = 0u32;
    while r != t {
        if hop > rule.max_hops() {
            return Err(not_static(
                name,
                format!(
                    "paths that end; from router {s} to {t} it exceeds {} hops",
                    rule.max_hops()
                ),
            ));
        }
        let cands = least_hops(rule, r, t, hop, st);
        let nbrs = net.neighbors(r as usize);
        let port_of = |h: &Hop| h.nb as u8 + 1;
        let chosen = match tb.lft.get(&(r, lid)) {
            Some(&p) => *cands.iter().find(|h| port_of(h) == p).ok_or_else(|| {
                not_static(
                    name,
                    format!(
                        "a destination-based routing; at switch {r} towards LID {lid} (router {t}) \
                         the table has port {p} but the path from router {s} cannot take it"
                    ),
                )
            })?,
            None => *cands
                .iter()
                .min_by_key(|h| (port_of(h), h.vc))
                .ok_or_else(|| {
                    TopolabError::InvalidNetwork(format!(
                        "routing {name} offers no hop at router {r} towards router {t}"
                    ))
                })?,
        };
        let out = port_of(&chosen);
        tb.lft.insert((r, lid), out);
        let sl_now = *sl.get_or_insert(chosen.vc);
        let ins: Vec<u8> = match prev {
            None => fab.host_ports(s).collect(),
            Some(p) => vec![fab.neighbor_port(r, p)],
        };
        for inp in ins {
            let key = (r, inp, out, sl_now);
            if let Some(&old) = tb.sl2vl.get(&key) {
                if old != chosen.vc {
                    return Err(not_static(
                        name,
                        format!(
                            "VLs that depend on (switch, SL, in port, out port) only; switch {r} ports \
                             {inp} -> {out} with SL {sl_now} needs VL {old} and VL {}",
                            chosen.vc
                        ),
                    ));
                }
            }
            tb.sl2vl.insert(key, chosen.vc);
        }
        prev = Some(r);
        r = nbrs[chosen.nb as usize];
        st = chosen.state;
        hop += 1;
    }
    if lid != fab.switch_lid(t) {
        tb.path_sl.insert((s, lid), sl.unwrap_or(0));
        let out = fab.host_port(t, d);
        if let Some(p) = prev {
            let key = (t, fab.neighbor_port(t, p), out, sl.unwrap_or(0));
            // The last hop into the host: the VL of the switch-to-host link, the path's last.
            let vl = *tb.sl2vl.get(&key).unwrap_or(&0);
            tb.sl2vl.insert(key, vl);
        }
    }
    Ok(())
}

crate::result_type! {
    /// What a check of re-read InfiniBand tables found: every (switch, host) pair followed
    /// through the forwarding tables, the VLs and SLs they use, and the deadlock check of the
    /// routes they produce.
    #[python = "InfinibandCheck"]
    pub struct IbCheck {
        pub routing: String,
        pub switches: usize,
        pub hosts: u64,
        /// (source switch, destination host) pairs followed through the tables.
        pub pairs: u64,
        /// Largest hop count of a followed route.
        pub max_hops: u32,
        pub vls_used: u32,
        pub sls_used: u32,
        /// Deadlock check of the routes the tables produce, channels = (link, VL).
        pub cdg: CdgReport,
    }
}

/// One route with its VLs and probability.
type WeightedRoute = (Vec<u32>, Vec<u8>, f64);

/// Routes of the tables as a `RouteDef`, for the CDG checker.
struct TableRoutes {
    name: String,
    vls: u32,
    paths: BTreeMap<(u32, u32), Vec<WeightedRoute>>,
}

impl RouteDef for TableRoutes {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn num_vcs(&self) -> u32 {
        self.vls.max(1)
    }
    fn paths(&self, s: usize, t: usize, out: &mut PathSet) -> Result<()> {
        out.clear();
        for (rs, vs, w) in self.paths.get(&(s as u32, t as u32)).into_iter().flatten() {
            out.push(rs, vs, *w);
        }
        Ok(())
    }
}

pub(super) fn table_error(why: String) -> TopolabError {
    TopolabError::InvalidNetwork(format!("InfiniBand tables: {why}"))
}

/// The route from switch `s` to `lid` (host `d` of switch `t`, or `t`'s own LID when
/// `switch_lid`) read through the tables, checked hop by hop against `rule`: the routers
/// visited and the VL of each hop (no VLs for a switch LID, routed by LFT alone). Every LFT
/// entry read is added to `read`.
#[allow(clippy::too_many_arguments)]
fn follow(
    fab: &Fabric,
    rule: &dyn HopRouting,
    tb: &IbTables,
    s: u32,
    t: u32,
    d: u32,
    lid: u16,
    switch_lid: bool,
    read: &mut BTreeSet<(u32, u16)>,
) -> Result<(Vec<u32>, Vec<u8>)> {
    let net = fab.net;
    let name = rule.name();
    let sl = match switch_lid {
        true => None,
        false => Some(
            *tb.path_sl
                .get(&(s, lid))
                .ok_or_else(|| table_error(format!("no path SL from switch {s} to LID {lid}")))?,
        ),
    };
    let mut st = rule
        .host_start(s, t, d)
        .ok_or_else(|| table_error(format!("routing {name} has no per-host start")))?;
    let (mut r, mut inp) = (s, fab.host_port(s, 0));
    let (mut rs, mut vs) = (vec![s], Vec::new());
    loop {
        let out = *tb
            .lft
            .get(&(r, lid))
            .ok_or_else(|| table_error(format!("switch {r} has no LFT entry for LID {lid}")))?;
        read.insert((r, lid));
        match (fab.target(r, out), switch_lid) {
            (PortTarget::Host(h), false) if r == t && h == d => return Ok((rs, vs)),
            (PortTarget::Management, true) if r == t => return Ok((rs, vs)),
            (PortTarget::Switch(v), _) => {
                let hop = (rs.len() - 1) as u32;
                if hop >= rule.max_hops() {
                    return Err(table_error(format!(
                        "the route from switch {s} to LID {lid} loops"
                    )));
                }
                let pos = net.neighbors(r as usize).binary_search(&v).unwrap() as u32;
                let candidates = least_hops(rule, r, t, hop, st);
                let taken = match sl {
                    Some(sl) => {
                        let vl = tb.data_vl(r, inp, out, sl)?;
                        vs.push(vl);
                        candidates.into_iter().find(|h| h.nb == pos && h.vc == vl)
                    }
                    None => candidates.into_iter().find(|h| h.nb == pos),
                }
                .ok_or_else(|| {
                    let on = vs
                        .last()
                        .map(|vl| format!(" on VL {vl}"))
                        .unwrap_or_default();
                    table_error(format!(
                        "the route from switch {s} to LID {lid} goes {r} -> {v}{on}, \
                         which routing {name} does not take there"
                    ))
                })?;
                st = taken.state;
                inp = fab.neighbor_port(v, r);
                rs.push(v);
                r = v;
            }
            (other, _) => {
                let towards = match switch_lid {
                    true => format!("switch {t}'s management port"),
                    false => format!("host {d} of switch {t}"),
                };
                return Err(table_error(format!(
                    "switch {r} sends LID {lid} to port {out} ({other:?}), not towards {towards}"
                )));
            }
        }
    }
}

/// Follows the tables from every switch with hosts to every host of another switch: each
/// route must arrive, be a path of `rule` (hop by hop, with its VLs), and the routes together
/// must have an acyclic channel dependency graph over (link, VL). Switch LIDs are followed too:
/// each switch's own LID must go to its management port 0, and a switch with hosts must be
/// reached from every other such switch along a path of `rule` (by LFT alone: management
/// packets travel on VL 15). Every LFT entry must lie on a route so checked: an entry no route
/// reads is reported, so that no entry of the tables escapes the check.
pub fn check_tables(net: &Network, rule: &dyn HopRouting, tb: &IbTables) -> Result<IbCheck> {
    let fab = Fabric::new(net)?;
    let name = rule.name();
    let terms: Vec<u32> = traffic_routers(net).iter().map(|&r| r as u32).collect();
    let mut routes = TableRoutes {
        name: format!("InfiniBand tables of {name}"),
        vls: tb.vls_used(),
        paths: BTreeMap::new(),
    };
    let mut read: BTreeSet<(u32, u16)> = BTreeSet::new();
    let (mut pairs, mut max_hops) = (0u64, 0u32);
    for r in 0..net.num_routers() as u32 {
        let lid = fab.switch_lid(r);
        read.insert((r, lid));
        match tb.lft.get(&(r, lid)) {
            Some(0) => {}
            Some(&p) => {
                return Err(table_error(format!(
                    "switch {r} sends its own LID {lid} to port {p}, not to its management port 0"
                )))
            }
            None => {
                return Err(table_error(format!(
                    "switch {r} has no LFT entry for its own LID {lid}"
                )))
            }
        }
    }
    for &t in &terms {
        let hosts = net.endpoints()[t as usize];
        let destinations = (0..hosts)
            .map(|d| (d, fab.host_lid(t, d), false))
            .chain((hosts > 0).then(|| (0, fab.switch_lid(t), true)));
        for (d, lid, switch_lid) in destinations {
            for &s in terms.iter().filter(|&&s| s != t) {
                let route = follow(&fab, rule, tb, s, t, d, lid, switch_lid, &mut read)?;
                if switch_lid {
                    continue;
                }
                let (rs, vs) = route;
                pairs += 1;
                max_hops = max_hops.max(vs.len() as u32);
                let list = routes.paths.entry((s, t)).or_default();
                match list.iter_mut().find(|p| p.0 == rs && p.1 == vs) {
                    Some(p) => p.2 += 1.0 / hosts as f64,
                    None => list.push((rs, vs, 1.0 / hosts as f64)),
                }
            }
        }
        // A switch's entries for its own hosts are read by the routes that end there; one with
        // hosts but no other switch to come from still delivers them.
        for d in 0..hosts {
            read.insert((t, fab.host_lid(t, d)));
        }
    }
    if let Some((&(r, lid), &port)) = tb.lft.iter().find(|(k, _)| !read.contains(k)) {
        return Err(table_error(format!(
            "switch {r} has an LFT entry for LID {lid} (port {port}) that no route from a switch \
             with hosts reads: not a LID of this fabric's hosts or switches, or a switch no route \
             to it passes"
        )));
    }
    let cdg = cdg::check(net, &routes, &Silent)?;
    Ok(IbCheck {
        routing: name,
        switches: net.num_routers(),
        hosts: net.num_endpoints(),
        pairs,
        max_hops,
        vls_used: tb.vls_used(),
        sls_used: tb.sls_used(),
        cdg,
    })
}
