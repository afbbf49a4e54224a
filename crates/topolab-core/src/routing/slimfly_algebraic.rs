//! Slim Fly minimal routing by the MMS algebra (Daryin & Korzh, JSFI 2014, §3.6): the next hops are
//! solved from the coordinates (t, x, y) of the current and destination routers in GF(q), with no
//! distance table. Every minimal next hop is offered (a Slim Fly pair has one or two minimal paths,
//! except pairs in one column, which often have several).
//!
//! topolab's MMS graph (topology/slimfly.rs, Besta & Hoefler, SC14, §II-B / Kathareios et al.,
//! SC15, §2.1.2) writes routers as (0, x, y) and (1, m, c) with
//!   (0, x, y) ~ (0, x, y')  iff  y - y' ∈ X,   (1, m, c) ~ (1, m, c')  iff  c - c' ∈ X',
//!   (0, x, y) ~ (1, m, c)   iff  y = m·x + c.
//! Daryin & Korzh, JSFI 2014, §3.6 derives the routes for its own t-edge rule (y0 = x0·x1 + y1);
//! redone for the rule above, the three cases are:
//! 1. same t, same column: the y-link when y_s - y_d ∈ X_t, else every (t, x, y_i) with
//!    y_s - y_i ∈ X_t and y_i - y_d ∈ X_t ("yy"; no "tt" path exists because the t-neighbours
//!    of a router lie in distinct columns of the other half and each meets the column once);
//! 2. same t, different columns: the unique "tt" route through the solution of two linear
//!    equations: from (0, xs, ys) to (0, xd, yd) via (1, m, ys - m·xs) with
//!    m = (ys - yd)/(xs - xd); from (1, ms, cs) to (1, md, cd) via (0, x, ms·x + cs) with
//!    x = (cd - cs)/(ms - md) (equations (1)-(2) of Daryin & Korzh, JSFI 2014);
//! 3. different t: with (0, x, y) the router of half 0 and (1, m, c) the one of half 1 (whichever
//!    is the source), let v = y - (m·x + c). v = 0: the t-link. Otherwise the two-hop routes go
//!    through (0, x, m·x + c) when v ∈ X and through (1, m, y - m·x) when v ∈ X' ("yt"/"ty" of
//!    Daryin & Korzh, JSFI 2014, §3.6 (a)-(b)); from either end these are the same two routers, one
//!    reached by a y-link and the other by a t-link.
//!
//! VCs: hop-indexed, VC 0 on the first hop and VC 1 on the second (Daryin & Korzh, JSFI 2014, §3.6
//! "VL 0 on the first hop, VL 1 on the second"); `vcs=single` puts every hop on VC 0 (for showing
//! the cycle).

use super::catalog::{Definition, RoutingEntry, BOTH};
use super::rule::{Hop, HopRouting, RouteState};
use super::vc_rule::VcRule;
use crate::error::{Result, TopolabError};
use crate::field::Field;
use crate::network::Network;
use crate::progress::Monitor;
use crate::spec::Params;
use crate::topology::slimfly::{delta, generator_sets};
use crate::topology::{ParamDef, ParamKind};

/// `slimfly_mms:vcs=hop|single` (catalog entry).
pub fn from_params(
    net: &Network,
    params: &Params,
    _monitor: &dyn Monitor,
) -> Result<SlimFlyAlgebraic> {
    let vcs = match params.opt_text("vcs")? {
        Some(v) => VcRule::parse(&v, &[VcRule::Hop, VcRule::Single], "slimfly_mms")?,
        None => VcRule::Hop,
    };
    SlimFlyAlgebraic::new(net, vcs)
}

/// The algebraic minimal routing of one Slim Fly network.
pub struct SlimFlyAlgebraic {
    q: u32,
    field: Field,
    /// -a and a^-1 for every field element (the field computes them by search).
    neg: Vec<u32>,
    inv: Vec<u32>,
    /// in_x[t][v]: v ∈ X_t (X_0 = X, X_1 = X').
    in_x: [Vec<bool>; 2],
    /// Router of coordinate t·q² + x·q + y, and coordinates of each router.
    router_of: Vec<u32>,
    coord: Vec<(u8, u32, u32)>,
    offsets: Vec<u32>,
    targets: Vec<u32>,
    vcs: VcRule,
}

fn not_slimfly(why: String) -> TopolabError {
    TopolabError::InvalidNetwork(format!(
        "slimfly_mms routing needs a Slim Fly (MMS) network labelled (t, x, y): {why}"
    ))
}

impl SlimFlyAlgebraic {
    /// Reads q and the coordinates from the network's labels and checks that its links are
    /// exactly those of the MMS construction (so that the algebra describes this network).
    pub fn new(net: &Network, vcs: VcRule) -> Result<Self> {
        if vcs == VcRule::Phase {
            return Err(TopolabError::invalid(
                "slimfly_mms",
                "vcs",
                "phase",
                "hop or single",
            ));
        }
        let n = net.num_routers();
        let fields: Vec<&str> = net.label_fields().iter().map(String::as_str).collect();
        if fields != ["t", "x", "y"] {
            return Err(not_slimfly(format!("its labels are {fields:?}")));
        }
        let q = ((n / 2) as f64).sqrt().round() as u32;
        if 2 * (q as usize) * (q as usize) != n || delta(q).is_none() {
            return Err(not_slimfly(format!("{n} routers is not 2q² for a valid q")));
        }
        let field = Field::new(q, "slimfly_mms", "q")?;
        let (x_set, xp_set) = generator_sets(&field);
        let mut in_x = [vec![false; q as usize], vec![false; q as usize]];
        for (t, set) in [&x_set, &xp_set].into_iter().enumerate() {
            for &g in set {
                in_x[t][g as usize] = true;
            }
        }
        let neg: Vec<u32> = (0..q).map(|a| field.neg(a)).collect();
        let mut inv = vec![0u32; q as usize];
        for a in 1..q {
            inv[a as usize] = (1..q).find(|&b| field.mul(a, b) == 1).unwrap_or(0);
        }
        let mut router_of = vec![u32::MAX; n];
        let mut coord = Vec::with_capacity(n);
        for r in 0..n {
            let l = net.label(r);
            let ok = l.len() == 3
                && (0..2).contains(&l[0])
                && l[1..].iter().all(|&v| (0..q as i64).contains(&v));
            if !ok {
                return Err(not_slimfly(format!("router {r} has label {l:?}")));
            }
            let (t, x, y) = (l[0] as u8, l[1] as u32, l[2] as u32);
            let key = ((t as u32 * q + x) * q + y) as usize;
            if router_of[key] != u32::MAX {
                return Err(not_slimfly(format!("label {l:?} appears twice")));
            }
            router_of[key] = r as u32;
            coord.push((t, x, y));
        }
        let (offsets, targets) = net.csr();
        let rule = SlimFlyAlgebraic {
            q,
            field,
            neg,
            inv,
            in_x,
            router_of,
            coord,
            offsets: offsets.to_vec(),
            targets: targets.to_vec(),
            vcs,
        };
        rule.check_links(net)?;
        Ok(rule)
    }

    fn sub(&self, a: u32, b: u32) -> u32 {
        self.field.add(a, self.neg[b as usize])
    }

    fn router(&self, t: u8, x: u32, y: u32) -> u32 {
        self.router_of[((t as u32 * self.q + x) * self.q + y) as usize]
    }

    fn neighbors(&self, r: u32) -> &[u32] {
        &self.targets[self.offsets[r as usize] as usize..self.offsets[r as usize + 1] as usize]
    }

    /// Every router's links are the MMS links of its coordinates, no more, no fewer.
    fn check_links(&self, net: &Network) -> Result<()> {
        let f = &self.field;
        let mut expect = Vec::new();
        for r in 0..net.num_routers() as u32 {
            let (t, a, b) = self.coord[r as usize];
            expect.clear();
            for g in 0..self.q {
                if self.in_x[t as usize][g as usize] {
                    expect.push(self.router(t, a, f.add(b, g)));
                }
                // t = 0: (0, a, b) ~ (1, m, b - m a); t = 1: (1, a, b) ~ (0, x, a x + b).
                expect.push(if t == 0 {
                    self.router(1, g, self.sub(b, f.mul(g, a)))
                } else {
                    self.router(0, g, f.add(f.mul(a, g), b))
                });
            }
            let mut have = self.neighbors(r).to_vec();
            have.sort_unstable();
            expect.sort_unstable();
            if have != expect {
                return Err(not_slimfly(format!(
                    "router {r} at {:?} has neighbours {have:?}, the MMS graph of q = {} gives {expect:?}",
                    self.coord[r as usize], self.q
                )));
            }
        }
        Ok(())
    }

    /// The routers one hop closer to `d` than `r`, computed from the coordinates (Daryin & Korzh,
    /// JSFI 2014, §3.6).
    pub fn next_routers(&self, r: u32, d: u32, out: &mut impl FnMut(u32)) {
        if r == d {
            return;
        }
        let f = &self.field;
        let (ts, xs, ys) = self.coord[r as usize];
        let (td, xd, yd) = self.coord[d as usize];
        if ts == td && xs == xd {
            // Case 1: one column; y-link or "yy".
            let xt = &self.in_x[ts as usize];
            if xt[self.sub(ys, yd) as usize] {
                out(d);
                return;
            }
            for g in 0..self.q {
                if xt[g as usize] {
                    let yi = f.add(ys, g);
                    if xt[self.sub(yi, yd) as usize] {
                        out(self.router(ts, xs, yi));
                    }
                }
            }
        } else if ts == td {
            // Case 2: "tt" through the unique common neighbour.
            let slope = f.mul(self.sub(ys, yd), self.inv[self.sub(xs, xd) as usize]);
            if ts == 0 {
                out(self.router(1, slope, self.sub(ys, f.mul(slope, xs))));
            } else {
                // (1, ms, cs) -> (1, md, cd): x = (cd - cs)/(ms - md) = -slope.
                let x = self.neg[slope as usize];
                out(self.router(0, x, f.add(f.mul(xs, x), ys)));
            }
        } else {
            // Case 3: halves differ; (x, y) of half 0 and (m, c) of half 1.
            let ((x, y), (m, c)) = if ts == 0 {
                ((xs, ys), (xd, yd))
            } else {
                ((xd, yd), (xs, ys))
            };
            let mx = f.mul(m, x);
            let v = self.sub(y, f.add(mx, c));
            if v == 0 {
                out(d);
                return;
            }
            if self.in_x[0][v as usize] {
                out(self.router(0, x, f.add(mx, c)));
            }
            if self.in_x[1][v as usize] {
                out(self.router(1, m, self.sub(y, mx)));
            }
        }
    }
}

impl HopRouting for SlimFlyAlgebraic {
    fn name(&self) -> String {
        format!("slimfly_mms:vcs={}", self.vcs.name())
    }
    fn vc_classes(&self) -> u32 {
        match self.vcs {
            VcRule::Single => 1,
            _ => 2,
        }
    }
    fn max_hops(&self) -> u32 {
        2
    }
    fn start(&self, _s: u32, _t: u32, out: &mut Vec<(RouteState, f64)>) {
        out.push((RouteState::default(), 1.0));
    }
    fn next(&self, r: u32, t: u32, hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        let nbrs = self.neighbors(r);
        let vc = match self.vcs {
            VcRule::Single => 0,
            _ => hop.min(1) as u8,
        };
        self.next_routers(r, t, &mut |v| {
            if let Some(i) = nbrs.iter().position(|&w| w == v) {
                out(Hop {
                    detour: 0,
                    nb: i as u32,
                    vc,
                    state: st,
                });
            }
        });
    }
}

/// The catalog entry of `slimfly_mms` (`catalog::ROUTINGS`).
pub const SLIMFLY_MMS: RoutingEntry = RoutingEntry {
    name: "slimfly_mms",
    params: &[
        ParamDef {
            name: "vcs",
            kind: ParamKind::Text,
            default: Some("hop"),
            help: "hop (2 VCs) or single",
        },
    ],
    readers: BOTH,
    summary: "Slim Fly minimal next hops solved in GF(q) from (t,x,y), no tables; vcs=hop (2 VCs, default) or single",
    source: "Daryin & Korzh, JSFI 2014, §3.6",
    definition: Definition::Rule(|net, p, m| Ok(super::slimfly_algebraic::from_params(net, p, m)?.into())),
};
