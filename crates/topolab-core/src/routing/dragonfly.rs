//! Dragonfly routings of Daryin & Korzh, JSFI 2014, §3.5: the Static routing and the adaptive
//! family coded by the letters G, S, I, D (each allowing one kind of extra, non-minimal hop), with
//! the paper's VL allocation: VLs 0 and 1 in the source group, 2 and 3 in the intermediate group, 4
//! and 5 in the destination group; at most 8 hops.
//!
//! Static: in the source group a local hop to the router with a link to the destination group
//! (the "gateway"), the global hop, a local hop to the destination. With several gateways
//! (several links between two groups) Static takes gateway number t mod (their count); the
//! adaptive variants offer every gateway.
//!
//! Adaptive, at a router of the source (S) or intermediate (I) group with k local hops made
//! there: a gateway takes its global link to the destination group; other routers hop to a
//! gateway (k = 0, or k = 1 with the letter of the group). With the letter, k = 0 also allows a
//! local hop to any other router of the group (the extra hop). With G, every router of the
//! source group may also take a global link to any other group (the intermediate group, where
//! it starts again with k = 0). In the destination group: the local hop to the destination, or
//! with D first one to any other router. The simulator picks by output queue (select=queue).
//!
//! VLs (Daryin & Korzh, JSFI 2014, §3.5): the k-th local hop of a group uses VL 2·stage + k (stage
//! 0 = source, 1 = intermediate, 2 = destination), a global hop the VL of the group it enters (2 or
//! 4). Along a path the VL never decreases and repeats only from a global hop to the first local
//! hop after it, so the CDG is acyclic. A variant uses only some of the six VLs (Static: 0 and
//! 4); its VC classes are the used VLs in order, so Static needs 2 VCs, GSID 6.
//!
//! Left open by Daryin & Korzh (JSFI 2014) and chosen here: whether the extra hop may precede a
//! gateway's own global link (yes: at k = 0 a gateway may make its extra local hop with S/I); that
//! G's global hop may be taken after S's extra hop (yes, "at most 8 hops" counts both); packets
//! within one group are in their destination group from the start (VLs 4/5). The paper's priority
//! of minimal over non-minimal hops is not expressible in a rule: select=queue weighs all
//! candidates alike (see docs/routing.md).
//!
//! `dragonfly_static:vcs=booksim` is BookSim2's dragonflynew `min` (the simulator's
//! `dragonfly_min` alias): the same local-global-local path, but the gateway towards group T
//! is the end of the first global link between the groups in link order, a gateway takes its
//! first global link to T, and the VC class is 0 until the global hop and 1 from it on, so a
//! packet within one group stays in class 0 (the paper's numbering puts it in VL 4).

use super::catalog::{Definition, RoutingEntry, Rule, BOTH};
use super::rule::{Hop, HopRouting, RouteState, Select};
use crate::error::{Result, TopolabError};
use crate::network::{Network, ROUTER_GROUPS};
use crate::topology::{ParamDef, ParamKind};
use rand_chacha::ChaCha8Rng;

/// The letters of a variant.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Extra {
    pub g: bool,
    pub s: bool,
    pub i: bool,
    pub d: bool,
}

impl Extra {
    pub fn parse(text: &str) -> Result<Extra> {
        let mut e = Extra::default();
        for ch in text.trim().chars() {
            match ch.to_ascii_uppercase() {
                'G' => e.g = true,
                'S' => e.s = true,
                'I' => e.i = true,
                'D' => e.d = true,
                _ => {
                    return Err(TopolabError::invalid(
                        "dragonfly_adaptive",
                        "extra",
                        text,
                        "letters among G (extra global hop), S, I, D (extra local hop in the source, intermediate, destination group), e.g. GS",
                    ))
                }
            }
        }
        Ok(e)
    }
    pub fn letters(self) -> String {
        [(self.g, 'G'), (self.s, 'S'), (self.i, 'I'), (self.d, 'D')]
            .iter()
            .filter(|x| x.0)
            .map(|x| x.1)
            .collect()
    }
}

const SOURCE: u8 = 0;
const INTERMEDIATE: u8 = 1;
const DESTINATION: u8 = 2;

fn state(stage: u8, locals: u8) -> RouteState {
    RouteState::new(stage * 4 + locals, 0)
}

#[derive(Debug, Clone)]
pub struct DragonflyGsid {
    /// None: Static.
    extra: Option<Extra>,
    /// BookSim2's gateway choice and VC numbering (Static only): per (G, T) the index of the
    /// gateway of group G towards T; empty for the paper's rule.
    booksim_gw: Vec<u32>,
    group: Vec<u32>,
    groups: usize,
    /// Per router: (group, neighbour position) of its global links, by group.
    global_off: Vec<u32>,
    global: Vec<(u32, u32)>,
    /// Per router: position of each router of its group among its neighbours (by index in the
    /// group), u32::MAX for itself.
    local: Vec<u32>,
    /// Gateways of group G towards group T: gw[gw_off[G * groups + T]..] (index in the group).
    gw_off: Vec<u32>,
    gw: Vec<u32>,
    /// Beside each entry of `gw`: the position among that gateway's neighbours of its first
    /// global link to T (BookSim2's hop), so a gateway finds it without a search.
    gw_global: Vec<u32>,
    index: Vec<u32>,
    a: usize,
    /// Paper VL (0..6) -> VC class; u8::MAX where unused.
    class: [u8; 6],
    classes: u32,
}

impl DragonflyGsid {
    pub fn new(net: &Network, extra: Option<Extra>) -> Result<Self> {
        let name = if extra.is_some() {
            "dragonfly_adaptive"
        } else {
            "dragonfly_static"
        };
        net.require(
            &format!("routing {name} (a dragonfly routing)"),
            ROUTER_GROUPS,
        )?;
        let n = net.num_routers();
        let group: Vec<u32> = (0..n).map(|r| net.label(r)[0] as u32).collect();
        let index: Vec<u32> = (0..n).map(|r| net.label(r)[1] as u32).collect();
        let groups = group.iter().max().map_or(0, |&g| g as usize + 1);
        let a = index.iter().max().map_or(0, |&i| i as usize + 1);
        if groups * a != n {
            return Err(TopolabError::InvalidNetwork(format!(
                "routing {name} needs groups of equal size: {n} routers in {groups} groups of up to {a}"
            )));
        }
        let mut global_off = vec![0u32];
        let mut global = Vec::new();
        let mut local = vec![u32::MAX; n * a];
        let mut pairs: Vec<(u32, u32, u32)> = Vec::new(); // (G, T, index of gateway)
        for r in 0..n {
            let mut gl: Vec<(u32, u32)> = Vec::new();
            for (pos, &v) in net.neighbors(r).iter().enumerate() {
                let v = v as usize;
                if group[v] == group[r] {
                    local[r * a + index[v] as usize] = pos as u32;
                } else {
                    gl.push((group[v], pos as u32));
                    pairs.push((group[r], group[v], index[r]));
                }
            }
            gl.sort_unstable();
            global.extend(gl);
            global_off.push(global.len() as u32);
            for j in 0..a {
                if j != index[r] as usize && local[r * a + j] == u32::MAX {
                    return Err(TopolabError::InvalidNetwork(format!(
                        "routing {name} needs complete groups: router {r} has no local link to index {j}"
                    )));
                }
            }
        }
        let (gw_off, gw) = gateway_table(pairs, groups, name)?;
        let mut router_at = vec![0u32; n];
        for r in 0..n {
            router_at[group[r] as usize * a + index[r] as usize] = r as u32;
        }
        let mut gw_global = Vec::with_capacity(gw.len());
        for g in 0..groups {
            for t in 0..groups {
                let i = g * groups + t;
                for &j in &gw[gw_off[i] as usize..gw_off[i + 1] as usize] {
                    let r = router_at[g * a + j as usize] as usize;
                    let globals = &global[global_off[r] as usize..global_off[r + 1] as usize];
                    let first = globals.partition_point(|x| x.0 < t as u32);
                    gw_global.push(globals[first].1);
                }
            }
        }
        let e = extra.unwrap_or_default();
        let used = [true, e.s, e.g, e.g && e.i, true, e.d];
        let mut class = [u8::MAX; 6];
        let mut classes = 0u32;
        for (vl, &u) in used.iter().enumerate() {
            if u {
                class[vl] = classes as u8;
                classes += 1;
            }
        }
        Ok(DragonflyGsid {
            extra,
            booksim_gw: Vec::new(),
            group,
            groups,
            global_off,
            global,
            local,
            gw_off,
            gw,
            gw_global,
            index,
            a,
            class,
            classes,
        })
    }

    /// Static with BookSim2 dragonflynew's gateways and VC numbering (module doc).
    pub fn booksim(net: &Network) -> Result<Self> {
        let mut df = DragonflyGsid::new(net, None)?;
        let g = df.groups;
        let mut gw = vec![u32::MAX; g * g];
        // BookSim2's reading of topolab's links: the first link (in link order) between two
        // groups names each group's gateway.
        for l in net.links() {
            for (u, v) in [(l.src, l.dst), (l.dst, l.src)] {
                let (gu, gv) = (df.group[u as usize] as usize, df.group[v as usize] as usize);
                if gu != gv && gw[gu * g + gv] == u32::MAX {
                    gw[gu * g + gv] = df.index[u as usize];
                }
            }
        }
        df.booksim_gw = gw;
        Ok(df)
    }

    /// The BookSim2 next hop from r towards router `target` != r: (neighbour position, whether
    /// it is a global hop). Local hop within a group; a router with a global link to the target
    /// group takes its first one; others go to the group's gateway.
    // Always inlined: the simulator's UGAL takes it up to three times per packet per router.
    #[inline(always)]
    pub fn booksim_hop(&self, r: u32, target: u32) -> (u32, bool) {
        let (ru, tu) = (r as usize, target as usize);
        let (gr, gt) = (self.group[ru], self.group[tu]);
        if gr == gt {
            return (self.local[ru * self.a + self.index[tu] as usize], false);
        }
        let pair = gr as usize * self.groups + gt as usize;
        let (lo, hi) = (self.gw_off[pair] as usize, self.gw_off[pair + 1] as usize);
        let me = self.index[ru];
        // r has a global link to gt exactly when it is one of the group's gateways there
        // (usually the only one).
        if let Some(k) = self.gw[lo..hi].iter().position(|&j| j == me) {
            return (self.gw_global[lo + k], true);
        }
        let j = self.booksim_gw[pair];
        (self.local[ru * self.a + j as usize], false)
    }

    /// A hop on paper VL `vl`; `detour` 1 for the extra hops of the G/S/I/D letters (Daryin &
    /// Korzh, JSFI 2014, §3.5 takes them only when the minimal route is congested).
    #[inline]
    fn hop(&self, nb: u32, vl: usize, st: RouteState, detour: u8) -> Hop {
        debug_assert!(self.class[vl] != u8::MAX, "VL {vl} not allocated");
        Hop {
            detour,
            nb,
            vc: self.class[vl],
            state: st,
        }
    }

    /// The one starting state of a packet from router s to router t.
    #[inline]
    fn start_state(&self, s: u32, t: u32) -> RouteState {
        let stage =
            if self.booksim_gw.is_empty() && self.group[s as usize] == self.group[t as usize] {
                DESTINATION
            } else {
                SOURCE
            };
        state(stage, 0)
    }

    #[inline]
    fn globals(&self, r: usize) -> &[(u32, u32)] {
        &self.global[self.global_off[r] as usize..self.global_off[r + 1] as usize]
    }

    #[inline]
    fn gateways(&self, g: u32, t: u32) -> &[u32] {
        let i = g as usize * self.groups + t as usize;
        &self.gw[self.gw_off[i] as usize..self.gw_off[i + 1] as usize]
    }
}

impl HopRouting for DragonflyGsid {
    fn name(&self) -> String {
        match self.extra {
            None if !self.booksim_gw.is_empty() => "dragonfly_static:vcs=booksim".into(),
            None => "dragonfly_static".into(),
            Some(e) if e == Extra::default() => "dragonfly_adaptive".into(),
            Some(e) => format!("dragonfly_adaptive:extra={}", e.letters()),
        }
    }
    fn vc_classes(&self) -> u32 {
        self.classes
    }
    fn max_hops(&self) -> u32 {
        let e = self.extra.unwrap_or_default();
        let s = 2 + e.s as u32; // locals in S, the global
        let i = if e.g { 2 + e.i as u32 } else { 0 };
        s + i + 1 + e.d as u32
    }
    fn default_select(&self) -> Select {
        if self.extra.is_some() {
            Select::Queue
        } else {
            Select::Random
        }
    }
    fn state_vc(&self, st: RouteState) -> u8 {
        self.class[2 * (st.phase / 4) as usize]
    }
    fn start(&self, s: u32, t: u32, out: &mut Vec<(RouteState, f64)>) {
        out.push((self.start_state(s, t), 1.0));
    }
    #[inline]
    fn sample_start(&self, s: u32, t: u32, _rng: &mut ChaCha8Rng) -> RouteState {
        self.start_state(s, t)
    }
    fn next(&self, r: u32, t: u32, hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        self.next_each(r, t, hop, st, out)
    }
    #[inline]
    fn next_each<F: FnMut(Hop)>(&self, r: u32, t: u32, _hop: u32, st: RouteState, mut out: F) {
        if r == t {
            return;
        }
        let (stage, k) = (st.phase / 4, st.phase % 4);
        if !self.booksim_gw.is_empty() {
            let (nb, global) = self.booksim_hop(r, t);
            let stage = if global { DESTINATION } else { stage };
            out(self.hop(nb, 2 * stage as usize, state(stage, 0), 0));
            return;
        }
        let e = self.extra.unwrap_or_default();
        let (ru, a) = (r as usize, self.a);
        let (gr, gt) = (self.group[ru], self.group[t as usize]);
        let me = self.index[ru];
        if gr == gt {
            let vl = 4 + k as usize;
            out(self.hop(
                self.local[ru * a + self.index[t as usize] as usize],
                vl,
                state(DESTINATION, k + 1),
                0,
            ));
            if e.d && k == 0 {
                for j in 0..a as u32 {
                    if j != me && j != self.index[t as usize] {
                        out(self.hop(self.local[ru * a + j as usize], 4, state(DESTINATION, 1), 1));
                    }
                }
            }
            return;
        }
        let letter = if stage == SOURCE { e.s } else { e.i };
        let base = 2 * stage as usize;
        let gws = self.gateways(gr, gt);
        let is_gateway = gws.contains(&me);
        if is_gateway {
            for &(g, pos) in self.globals(ru) {
                if g == gt {
                    out(self.hop(pos, 4, state(DESTINATION, 0), 0));
                }
            }
        } else if k == 0 || (k == 1 && letter) {
            let next = state(stage, k + 1);
            match self.extra {
                None => {
                    let j = gws[t as usize % gws.len()];
                    out(self.hop(self.local[ru * a + j as usize], base + k as usize, next, 0));
                }
                Some(_) => {
                    for &j in gws {
                        out(self.hop(self.local[ru * a + j as usize], base + k as usize, next, 0));
                    }
                }
            }
        }
        if letter && k == 0 {
            for j in 0..a as u32 {
                if j != me && (is_gateway || !gws.contains(&j)) {
                    out(self.hop(self.local[ru * a + j as usize], base, state(stage, 1), 1));
                }
            }
        }
        if e.g && stage == SOURCE {
            for &(g, pos) in self.globals(ru) {
                if g != gt {
                    out(self.hop(pos, 2, state(INTERMEDIATE, 0), 1));
                }
            }
        }
    }
}

/// The gateways from each group to each other group: `(group, target group, gateway)` triples
/// into an offset table over `group * groups + target` and the gateways in order. Fails unless
/// every two groups share a global link. Shared by the Dragonfly and Dragonfly+ routings.
pub(crate) fn gateway_table(
    mut pairs: Vec<(u32, u32, u32)>,
    groups: usize,
    name: &str,
) -> Result<(Vec<u32>, Vec<u32>)> {
    pairs.sort_unstable();
    pairs.dedup();
    let mut gw_off = vec![0u32; groups * groups + 1];
    for &(g, t, _) in &pairs {
        gw_off[g as usize * groups + t as usize + 1] += 1;
    }
    for i in 0..groups * groups {
        gw_off[i + 1] += gw_off[i];
    }
    for g in 0..groups {
        for t in (0..groups).filter(|&t| t != g) {
            if gw_off[g * groups + t] == gw_off[g * groups + t + 1] {
                return Err(TopolabError::InvalidNetwork(format!(
                    "routing {name} needs a global link between every two groups: none from group {g} to group {t}"
                )));
            }
        }
    }
    Ok((gw_off, pairs.iter().map(|p| p.2).collect()))
}

/// The catalog entry of `dragonfly_adaptive` (`catalog::ROUTINGS`).
pub const DRAGONFLY_ADAPTIVE: RoutingEntry = RoutingEntry {
    name: "dragonfly_adaptive",
    params: &[
        ParamDef {
            name: "extra",
            kind: ParamKind::Text,
            default: Some("none"),
            help: "letters among G (extra global hop), S, I, D (extra local hop in the source, intermediate, destination group)",
        },
    ],
    readers: BOTH,
    summary: "Dragonfly adaptive family: extra=letters among G (extra global hop), S, I, D (extra local hop in source, intermediate, destination group); VLs 0-1 / 2-3 / 4-5 by group; select=queue",
    source: "Daryin & Korzh, JSFI 2014, §3.5",
    definition: Definition::Rule(|net, params, _| {
            let extra = super::dragonfly::Extra::parse(&params.opt_text("extra")?.unwrap_or_default())?;
            Ok(Rule::from(super::dragonfly::DragonflyGsid::new(net, Some(extra))?))
    }),
};

/// The catalog entry of `dragonfly_static` (`catalog::ROUTINGS`).
pub const DRAGONFLY_STATIC: RoutingEntry = RoutingEntry {
    name: "dragonfly_static",
    params: &[
        ParamDef {
            name: "vcs",
            kind: ParamKind::Text,
            default: Some("paper"),
            help: "paper (Daryin & Korzh's VLs 0 and 4) or booksim (BookSim2 dragonflynew: VC 0 before the global hop, 1 from it on)",
        },
    ],
    readers: BOTH,
    summary: "Dragonfly Static: local hop to the router linked to the destination group, global hop, local hop; vcs=paper (VLs 0 and 4, default) or booksim (BookSim2 dragonflynew: first gateway in link order, VC 1 from the global hop on)",
    source: "Daryin & Korzh, JSFI 2014, §3.5",
    definition: Definition::Rule(|net, params, _| {
            let text = params.opt_text("vcs")?.unwrap_or_else(|| "paper".into());
            match text.trim().to_ascii_lowercase().as_str() {
                "paper" => Ok(super::dragonfly::DragonflyGsid::new(net, None)?.into()),
                "booksim" => Ok(super::dragonfly::DragonflyGsid::booksim(net)?.into()),
                other => Err(TopolabError::invalid("dragonfly_static", "vcs", other, "paper (Daryin & Korzh's VLs 0 and 4) or booksim (BookSim2 dragonflynew: VC 0 before the global hop, 1 from it on)")),
            }
    }),
};
