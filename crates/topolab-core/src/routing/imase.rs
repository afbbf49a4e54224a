//! Imase–Itoh custom routing for uni-directional digraphs (Koibuchi et al., 2018, §III-B1): the
//! next hop is read off the destination's address, like a shift register, with no table.
//!
//! Imase–Itoh digraph i -> ((a·i + b)·d + α) mod n (topology/imase.rs). One hop with digit α
//! maps x + δ to f_α(x) + a·d·δ, so l hops with digits α_1..α_l from i end at
//!   c_l(i) + Σ_k (a·d)^(l-k)·α_k  (mod n),   c_0 = i, c_k = (a·c_(k-1) + b)·d mod n,
//! and with a·d ≡ s·d (s = ±1, which the family requires) (a·d)^m ≡ (s·d)^m. So j is reached in
//! l hops iff j - c_l(i) (mod n) has a representative r with l digits in base s·d: for s = +1,
//! 0 <= r <= d^l - 1 (Koibuchi et al.'s (2018) "0 <= j - i·d^l (mod n) <= d^l - 1" for a = 1, b =
//! 0), for s = -1 a base -d numeral, a contiguous range of d^l integers around 0. The route takes
//! the α_k of r as the output of hop k; the shortest route uses the least such l. When d^l > n
//! several representatives r, r + n, ... fit and each gives a shortest path (Koibuchi et al., 2018:
//! "when n is not a multiple of d, multiple shortest paths ... exist"): every first digit of them
//! is offered. The rule recomputes at every router from (router, destination), which is the same
//! digit sequence shifted by one (the register shifted).
//!
//! Omitted self-loops never matter: a least-l walk cannot contain a loop (removing it would
//! give a shorter walk).
//!
//! Kautz K(d,k) and de Bruijn B(d,k) (topology/kautz.rs) are the shift digraphs this routing
//! generalises: from s_0..s_(k-1) to t_0..t_(k-1) find the longest m with
//! s_(k-m)..s_(k-1) = t_0..t_(m-1) and shift in t_m, ..., t_(k-1): k - m hops, the unique
//! shortest path. The next hop is the neighbour labelled s_1..s_(k-1) t_m.
//!
//! VCs: `vcs=hop` (default) VC k on hop k, diameter classes (acyclic); `vcs=single` one VC
//! (cyclic: minimal routing on a digraph with cycles; the bufferless hot-potato router needs
//! no VCs and reads the candidates only, `minimal_next`).

use super::catalog::{Definition, RoutingEntry, BOTH};
use super::rule::{Hop, HopRouting, RouteState};
use super::vc_rule::VcRule;
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::progress::Monitor;
use crate::spec::{Params, TopologySpec};
use crate::topology::{ParamDef, ParamKind};

/// `imase:a=A,b=B,d=D,vcs=hop|single` (catalog entry).
pub fn from_params(net: &Network, params: &Params, _monitor: &dyn Monitor) -> Result<ImaseRouting> {
    let vcs = match params.opt_text("vcs")? {
        Some(v) => VcRule::parse(&v, &[VcRule::Hop, VcRule::Single], "imase")?,
        None => VcRule::Hop,
    };
    ImaseRouting::new(net, params, vcs)
}

enum Scheme {
    /// Imase–Itoh: i -> ((a i + b) d + α) mod n; `sign` = s with a·d ≡ s·d.
    Imase {
        n: i64,
        d: i64,
        a: i64,
        b: i64,
        sign: i64,
    },
    /// Kautz or de Bruijn: k symbols per router, flat labels.
    Shift { k: usize, labels: Vec<u32> },
}

/// Imase–Itoh (and Kautz / de Bruijn shift) minimal routing of one digraph.
pub struct ImaseRouting {
    scheme: Scheme,
    offsets: Vec<u32>,
    targets: Vec<u32>,
    vcs: VcRule,
    diameter: u32,
}

fn refuse(why: String) -> TopolabError {
    TopolabError::InvalidNetwork(format!(
        "imase routing needs an Imase-Itoh, Kautz or de Bruijn digraph: {why}"
    ))
}

impl ImaseRouting {
    /// `params` may give a, b, d of an Imase–Itoh digraph; by default they are read from the
    /// network's spec (an imase spec has them) or a = b = 1 and d = the largest out-degree.
    /// Routers labelled as symbol strings (Kautz, de Bruijn) are routed by shifting symbols. The network's
    /// arcs are checked against the formula, so a wrong guess is an error, not a wrong route.
    pub fn new(net: &Network, params: &Params, vcs: VcRule) -> Result<Self> {
        if vcs == VcRule::Phase {
            return Err(TopolabError::invalid(
                "imase",
                "vcs",
                "phase",
                "hop or single",
            ));
        }
        if !net.directed() {
            return Err(refuse("this network is undirected".into()));
        }
        let n = net.num_routers();
        let (offsets, targets) = net.csr();
        let scheme = match symbol_strings(net) {
            true => {
                let k = net.label_fields().len();
                let mut labels = Vec::with_capacity(n * k);
                for r in 0..n {
                    labels.extend(net.label(r).iter().map(|&s| s as u32));
                }
                Scheme::Shift { k, labels }
            }
            false => imase_scheme(net, params)?,
        };
        let mut rule = ImaseRouting {
            scheme,
            offsets: offsets.to_vec(),
            targets: targets.to_vec(),
            vcs,
            diameter: 0,
        };
        if let Scheme::Shift { .. } = rule.scheme {
            rule.check_shift_links()?;
        }
        // Routes are at most ceil(log_d n) hops (d^L >= n leaves a representative for every
        // residue) for Imase-Itoh, k for the shift digraphs: the VC classes' bound.
        rule.diameter = match &rule.scheme {
            Scheme::Imase { n, d, .. } => {
                let (mut l, mut span) = (0u32, 1i64);
                while span < *n {
                    span = span.saturating_mul(*d);
                    l += 1;
                }
                l
            }
            Scheme::Shift { k, .. } => *k as u32,
        };
        Ok(rule)
    }

    fn neighbors(&self, r: u32) -> &[u32] {
        &self.targets[self.offsets[r as usize] as usize..self.offsets[r as usize + 1] as usize]
    }

    /// Kautz / de Bruijn: every arc is a shift s_1..s_(k-1) x of its tail.
    fn check_shift_links(&self) -> Result<()> {
        let Scheme::Shift { k, labels } = &self.scheme else {
            return Ok(());
        };
        let k = *k;
        for r in 0..self.offsets.len() as u32 - 1 {
            let lr = &labels[r as usize * k..(r as usize + 1) * k];
            for &v in self.neighbors(r) {
                let lv = &labels[v as usize * k..(v as usize + 1) * k];
                if lr[1..] != lv[..k - 1] {
                    return Err(refuse(format!(
                        "arc {r} -> {v} ({lr:?} -> {lv:?}) is not a shift"
                    )));
                }
            }
        }
        Ok(())
    }

    /// Hops of the route from s to t (the number of digits / symbols shifted in).
    pub fn route_length(&self, s: u32, t: u32) -> u32 {
        match &self.scheme {
            Scheme::Imase { .. } => self.imase_length(s as i64, t as i64).0,
            Scheme::Shift { k, labels } => {
                let (ls, lt) = (
                    &labels[s as usize * k..(s as usize + 1) * k],
                    &labels[t as usize * k..(t as usize + 1) * k],
                );
                (*k - overlap(ls, lt)) as u32
            }
        }
    }

    /// Least l with a representative, and c_l(i).
    fn imase_length(&self, i: i64, j: i64) -> (u32, i64) {
        let Scheme::Imase { n, d, a, b, .. } = self.scheme else {
            unreachable!("called for Imase digraphs only")
        };
        if i == j {
            return (0, i);
        }
        let mut c = i;
        let mut span = 1i64; // d^l
        for l in 1..=64u32 {
            c = ((a * c + b) % n * d) % n;
            span = span.saturating_mul(d);
            if self.representatives(j - c, l, span).next().is_some() {
                return (l, c);
            }
        }
        unreachable!("d^l exceeds n within 64 hops for d >= 2")
    }

    /// Representatives r ≡ rho (mod n) of l digits in base s·d (`span` = d^l).
    fn representatives(&self, rho: i64, l: u32, span: i64) -> impl Iterator<Item = i64> {
        let Scheme::Imase { n, d, sign, .. } = self.scheme else {
            unreachable!("called for Imase digraphs only")
        };
        // Lowest l-digit value: 0 for base +d; for base -d, the odd places at digit d-1.
        let lo = if sign > 0 {
            0
        } else {
            let mut lo = 0i64;
            let mut place = 1i64;
            for m in 0..l {
                if m % 2 == 1 {
                    lo -= (d - 1) * place;
                }
                place = place.saturating_mul(d);
            }
            lo
        };
        let first = lo + (rho - lo).rem_euclid(n);
        let hi = lo.saturating_add(span - 1);
        (0..)
            .map(move |k| first + k * n)
            .take_while(move |&r| r <= hi)
    }

    /// Positions in `net.neighbors(r)` of the next hops of the shortest routes to t (none when
    /// r == t). This is the plain entry point for routers that pick outputs themselves (the
    /// bufferless hot-potato router's preferred outputs).
    pub fn minimal_next(&self, r: u32, t: u32, out: &mut impl FnMut(u32)) {
        if r == t {
            return;
        }
        let nbrs = self.neighbors(r);
        let mut emit = |v: u32| {
            if let Some(i) = nbrs.iter().position(|&w| w == v) {
                out(i as u32);
            }
        };
        match &self.scheme {
            Scheme::Imase {
                n, d, a, b, sign, ..
            } => {
                let (n, d, a, b, sign) = (*n, *d, *a, *b, *sign);
                let (l, c) = self.imase_length(r as i64, t as i64);
                let span = d.pow(l);
                let block = (a * r as i64 + b) % n * d % n;
                for rep in self.representatives(t as i64 - c, l, span) {
                    // Digits least significant first; the last one is α_1.
                    let mut x = rep;
                    let mut first = 0;
                    for _ in 0..l {
                        first = x.rem_euclid(d);
                        x = (x - first) / (sign * d);
                    }
                    emit(((block + first) % n) as u32);
                }
            }
            Scheme::Shift { k, labels } => {
                let k = *k;
                let ls = &labels[r as usize * k..(r as usize + 1) * k];
                let lt = &labels[t as usize * k..(t as usize + 1) * k];
                let m = overlap(ls, lt);
                for &v in nbrs {
                    let lv = &labels[v as usize * k..(v as usize + 1) * k];
                    if lv[k - 1] == lt[m] {
                        emit(v);
                    }
                }
            }
        }
    }

    /// Bound on route length: ceil(log_d n) for Imase-Itoh (Koibuchi et al., 2018, §III-A), k for
    /// Kautz and de Bruijn.
    pub fn diameter_bound(&self) -> u32 {
        self.diameter
    }
}

/// Longest m < k with the last m symbols of `s` equal to the first m of `t` (k when equal).
fn overlap(s: &[u32], t: &[u32]) -> usize {
    let k = s.len();
    (0..=k).rev().find(|&m| s[k - m..] == t[..m]).unwrap_or(0)
}

/// Whether the routers are labelled as symbol strings `s0, s1, ...` (Kautz and de Bruijn
/// digraphs: a hop shifts in one symbol), the structure the shift scheme reads.
fn symbol_strings(net: &Network) -> bool {
    let fields = net.label_fields();
    !fields.is_empty()
        && fields
            .iter()
            .enumerate()
            .all(|(i, f)| *f == format!("s{i}"))
}

/// a, b, d of an Imase–Itoh digraph, checked against its arcs.
fn imase_scheme(net: &Network, params: &Params) -> Result<Scheme> {
    let n = net.num_routers() as i64;
    // The network's own parameters, whatever its family: a wrong a, b or d fails the arc check.
    let spec = TopologySpec::parse(net.spec()).ok();
    let from_spec = |key: &str| -> Option<i64> {
        let sp = spec.as_ref()?;
        Params::new("imase", &sp.params).opt_int(key, 0, n).ok()?
    };
    let max_degree = (0..net.num_routers())
        .map(|r| net.degree(r))
        .max()
        .unwrap_or(0) as i64;
    let d = match params.opt_int("d", 2, n - 1)? {
        Some(d) => d,
        None => from_spec("d").unwrap_or(max_degree),
    };
    let a = match params.opt_int("a", 1, n - 1)? {
        Some(a) => a,
        None => from_spec("a").unwrap_or(1),
    };
    let b = match params.opt_int("b", 0, n - 1)? {
        Some(b) => b,
        None => from_spec("b").unwrap_or(1),
    };
    if !(2..n).contains(&d) {
        return Err(refuse(format!("out-degree {d} with {n} routers")));
    }
    let sign = if a * d % n == d % n {
        1
    } else if a * d % n == (n - d) % n {
        -1
    } else {
        return Err(params.invalid(
            "a",
            a,
            "a multiplier with a·d = ±d (mod n), as the imase family requires",
        ));
    };
    let mut want = Vec::new();
    let mut have = Vec::new();
    for i in 0..n {
        want.clear();
        let start = (a * i + b) % n * d % n;
        want.extend((0..d).map(|al| (start + al) % n).filter(|&j| j != i));
        want.sort_unstable();
        have.clear();
        have.extend(net.neighbors(i as usize).iter().map(|&v| v as i64));
        have.sort_unstable();
        if want != have {
            return Err(refuse(format!(
                "router {i} has arcs to {have:?}, i -> ((a i + b) d + α) mod n with a = {a}, \
                 b = {b}, d = {d} gives {want:?} (pass a=, b=, d= if the digraph was built with \
                 other values)"
            )));
        }
    }
    Ok(Scheme::Imase { n, d, a, b, sign })
}

impl HopRouting for ImaseRouting {
    fn name(&self) -> String {
        match self.scheme {
            Scheme::Imase { d, a, b, .. } => {
                format!("imase:a={a},b={b},d={d},vcs={}", self.vcs.name())
            }
            Scheme::Shift { .. } => format!("imase:vcs={}", self.vcs.name()),
        }
    }
    fn vc_classes(&self) -> u32 {
        match self.vcs {
            VcRule::Single => 1,
            _ => self.diameter.max(1),
        }
    }
    fn max_hops(&self) -> u32 {
        self.diameter.max(1)
    }
    fn start(&self, _s: u32, _t: u32, out: &mut Vec<(RouteState, f64)>) {
        out.push((RouteState::default(), 1.0));
    }
    fn next(&self, r: u32, t: u32, hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        let vc = match self.vcs {
            VcRule::Single => 0,
            _ => hop.min(self.diameter.saturating_sub(1)) as u8,
        };
        self.minimal_next(r, t, &mut |nb| {
            out(Hop {
                detour: 0,
                nb,
                vc,
                state: st,
            })
        });
    }
}

/// The catalog entry of `imase` (`catalog::ROUTINGS`).
pub const IMASE: RoutingEntry = RoutingEntry {
    name: "imase",
    params: &[
        ParamDef {
            name: "a",
            kind: ParamKind::Int,
            default: Some("the network's (1)"),
            help: "the Imase-Itoh multiplier",
        },
        ParamDef {
            name: "b",
            kind: ParamKind::Int,
            default: Some("the network's (1)"),
            help: "the Imase-Itoh offset",
        },
        ParamDef {
            name: "d",
            kind: ParamKind::Int,
            default: Some("the network's degree"),
            help: "the out-degree",
        },
        ParamDef {
            name: "vcs",
            kind: ParamKind::Text,
            default: Some("hop"),
            help: "hop (ceil(log_d n) VCs) or single",
        },
    ],
    readers: BOTH,
    summary: "Imase-Itoh shift-register routing for imase, kautz and debruijn digraphs (a, b, d from the network's spec); vcs=hop (default, ceil(log_d n) VCs) or single",
    source: "Koibuchi et al., 2018, §III-B1",
    definition: Definition::Rule(|net, p, m| Ok(super::imase::from_params(net, p, m)?.into())),
};
