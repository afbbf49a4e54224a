//! Dragonfly minimal and UGAL-L routing as BookSim2's `dragonflynew` does them
//! (`min_dragonflynew`, `ugal_dragonflynew`, `dragonfly_port`), generalised from BookSim's
//! a = 2p, h = p to any topolab dragonfly (000 §VI-B3e; Kim et al. ISCA'08).
//!
//! Minimal path to a router in group T: a local hop to the router of the current group that
//! holds a global link to T (the first such link when groups are joined more than once), the
//! global hop, a local hop to the destination router. VC = phase: 0 before the global hop, 1 on
//! it and after.
//!
//! UGAL-L, decided once at the source router: a destination in the source group goes minimally
//! with phase 2; otherwise a random intermediate endpoint anywhere is drawn; if it lies in the
//! source group the packet goes minimally (phase 1), else minimal is kept when
//! q_min <= 2 q_nonmin + 30, where q is the credits in use on the source router's output port
//! towards the destination (min) or the intermediate (nonmin), all VCs. Non-minimal packets
//! travel in phase 0 to the intermediate's router, then in phase 1; phase 1 becomes 2 on the
//! global hop. VC = phase (3 VCs).
//!
//! In BookSim2 the VC of the injection channel is drawn at random and the ejection VC is the
//! phase; `booksim_compat` keeps both, topolab's default lets injection and ejection use every
//! VC (they close no dependency cycle).

use super::{RouteChoice, RouteCtx};
use crate::error::{Result, SimError};
use crate::flit::Flit;
use crate::topo::{SimTopology, NONE};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use topolab_core::network::ROUTER_GROUPS;
use topolab_core::{Network, TopolabError};

const UGAL_THRESHOLD: u32 = 30;

#[derive(Debug, Clone)]
pub struct DragonflyRouting {
    pub ugal: bool,
    pub groups: u32,
    /// Group of each router.
    group: Vec<u32>,
    /// Router of group G holding the (first) global link to group T: gateway[G * groups + T].
    gateway: Vec<u32>,
    /// Output port of router r on its global link to group T: global_port[r * groups + T].
    global_port: Vec<u32>,
}

impl DragonflyRouting {
    pub fn new(net: &Network, topo: &SimTopology, num_vcs: u32, ugal: bool) -> Result<Self> {
        let name = if ugal {
            "dragonfly_ugal"
        } else {
            "dragonfly_min"
        };
        if !net.has(ROUTER_GROUPS) {
            return Err(SimError::param(
                "routing",
                format!("'{name}'"),
                format!(
                    "a routing this network supports: {name} needs a dragonfly's router groups (labels group, index), this network ('{}') has labels ({})",
                    net.family(),
                    net.label_fields().join(", ")
                ),
            ));
        }
        let need = if ugal { 3 } else { 2 };
        if num_vcs < need {
            return Err(SimError::param(
                "num_vcs",
                num_vcs,
                format!("at least {need} for {name} (one VC per phase)"),
            ));
        }
        let n = net.num_routers();
        let group: Vec<u32> = (0..n).map(|r| net.label(r)[0] as u32).collect();
        let groups = group.iter().copied().max().unwrap_or(0) + 1;
        let global_class = net.link_classes().iter().position(|c| c == "global");
        let g = groups as usize;
        let mut gateway = vec![NONE; g * g];
        let mut global_port = vec![NONE; n * g];
        for l in net.links() {
            if Some(l.class as usize) != global_class {
                continue;
            }
            for (u, v) in [(l.src, l.dst), (l.dst, l.src)] {
                let (gu, gv) = (group[u as usize] as usize, group[v as usize] as usize);
                if gateway[gu * g + gv] == NONE {
                    gateway[gu * g + gv] = u;
                }
                if global_port[u as usize * g + gv] == NONE {
                    let pos = topo
                        .neighbor_pos(u as usize, v)
                        .expect("link end is a neighbour");
                    global_port[u as usize * g + gv] = topo.nbr_port(u as usize, pos).0;
                }
            }
        }
        for a in 0..g {
            for b in 0..g {
                if a != b && gateway[a * g + b] == NONE {
                    return Err(SimError::Core(TopolabError::InvalidNetwork(format!(
                        "groups {a} and {b} have no global link; {name} needs every pair of groups joined"
                    ))));
                }
            }
        }
        Ok(DragonflyRouting {
            ugal,
            groups,
            group,
            gateway,
            global_port,
        })
    }

    /// BookSim2's dragonfly_port towards router `t` != r: (port, is_global).
    #[inline]
    fn port_towards(&self, ctx: &RouteCtx, r: u32, t: u32) -> (u32, bool) {
        let g = self.groups as usize;
        let (gr, gt) = (self.group[r as usize], self.group[t as usize]);
        if gr != gt {
            let p = self.global_port[r as usize * g + gt as usize];
            if p != NONE {
                return (p, true);
            }
        }
        let local = if gr == gt {
            t
        } else {
            self.gateway[gr as usize * g + gt as usize]
        };
        let pos = ctx
            .topo
            .neighbor_pos(r as usize, local)
            .expect("routers of a group are fully connected");
        (ctx.topo.nbr_port(r as usize, pos).0, false)
    }

    #[inline]
    pub fn route(&self, ctx: &RouteCtx, f: &mut Flit, rng: &mut ChaCha8Rng) -> RouteChoice {
        let r = ctx.router;
        let d = ctx.dest_router(f);
        if ctx.from_endpoint {
            f.phase = if !self.ugal {
                0
            } else if self.group[d as usize] == self.group[r as usize] {
                2
            } else {
                let intm = rng.random_range(0..ctx.topo.num_endpoints);
                f.intermediate = intm;
                let ir = ctx.topo.endpoint_router(intm);
                if self.group[ir as usize] == self.group[r as usize] {
                    1
                } else {
                    let q_min = ctx.port_used[self.port_or_eject(ctx, r, d, f) as usize];
                    let q_non = ctx.port_used[self.port_towards(ctx, r, ir).0 as usize];
                    if q_min <= 2 * q_non + UGAL_THRESHOLD {
                        1
                    } else {
                        0
                    }
                }
            };
        }
        if self.ugal && f.phase == 0 && r == ctx.topo.endpoint_router(f.intermediate) {
            f.phase = 1;
        }
        let target = if self.ugal && f.phase == 0 {
            ctx.topo.endpoint_router(f.intermediate)
        } else {
            d
        };
        if target == r {
            let mut choice = ctx.eject(f);
            if ctx.booksim {
                choice.vc_lo = f.phase;
                choice.vc_hi = f.phase;
            }
            return choice;
        }
        let (port, global) = self.port_towards(ctx, r, target);
        if global && ((!self.ugal && f.phase == 0) || (self.ugal && f.phase == 1)) {
            f.phase += 1;
        }
        RouteChoice {
            port,
            vc_lo: f.phase,
            vc_hi: f.phase,
        }
    }

    fn port_or_eject(&self, ctx: &RouteCtx, r: u32, d: u32, f: &Flit) -> u32 {
        if r == d {
            f.dest - ctx.topo.ep_offset[r as usize]
        } else {
            self.port_towards(ctx, r, d).0
        }
    }

    pub fn injection_vcs(&self, num_vcs: u32, booksim: bool, rng: &mut ChaCha8Rng) -> (u8, u8) {
        if booksim {
            let v = rng.random_range(0..num_vcs) as u8;
            (v, v)
        } else {
            (0, (num_vcs - 1) as u8)
        }
    }
}
