//! Kautz digraphs, most of the best known directed degree/diameter solutions (Koibuchi et al.,
//! 2018, §IV-A), and the related de Bruijn digraphs.
//!
//! Both are shift digraphs on strings of length k: the arcs of s0 s1 … s(k-1) go to
//! s1 … s(k-1) x for every allowed last symbol x.
//! - Kautz K(d,k): strings over d+1 symbols with no two consecutive symbols equal;
//!   (d+1)·d^(k-1) vertices, in- and out-degree d everywhere, diameter k.
//! - de Bruijn B(d,k): all d^k strings over d symbols. The d constant strings x…x would carry a
//!   self-loop; it is omitted, so those vertices have in- and out-degree d-1. A shift digraph
//!   has no parallel arcs (the target fixes x), so no width other than 1 arises.
//!
//! Koibuchi et al., 2018, §I gives the directed Moore bound garbled as 1 + Σ_{i=0}^{k} d^i; the
//! bound counts the vertex itself plus d^i vertices at distance i, i.e. M(d,k) = Σ_{i=0}^{k} d^i
//! (the percentages of Koibuchi et al., 2018, §IV-A agree with either form; the tests use M(d,k)).

use super::design::{candidate, sizes_of, Candidate, DesignSpace, Window};
use super::{
    ensure_size, moore_balance, p_param, read_p, Family, ParamDef, ParamKind, Sizes,
    ARBITRARY_PLACEMENT, MAX_LINKS, NOT_SIMULATED,
};
use crate::error::Result;
use crate::network::{Network, NetworkBuilder};
use crate::spec::Params;

/// Endpoints per router: Koibuchi et al., 2018, §III-B3 attaches four hosts to each switch, the
/// only concentration the paper states for its uni-directional networks.
const DEFAULT_P: u32 = 4;

const D_PARAM: ParamDef = ParamDef {
    name: "d",
    kind: ParamKind::Int,
    default: None,
    help: "out-degree (= in-degree) of every router, >= 2",
};

const K_PARAM: ParamDef = ParamDef {
    name: "k",
    kind: ParamKind::Int,
    default: None,
    help: "string length, which is also the diameter, >= 1",
};

pub const KAUTZ: Family = Family {
    name: "kautz",
    aliases: &[],
    summary: "Kautz digraph K(d,k): (d+1)d^(k-1) routers, in/out-degree d, diameter k",
    source: "Koibuchi et al., 2018, §IV-A",
    directed: true,
    params: &[
        D_PARAM,
        K_PARAM,
        p_param("4 (Koibuchi et al., 2018, §III-B3)"),
    ],
    build: build_kautz,
    example: "kautz:d=3,k=3",
    samples: &["kautz:d=2,k=3", "kautz:d=3,k=2,p=1"],
    display_name: "Kautz",
    sizes: kautz_sizes,
    routing: NOT_SIMULATED,
    placement: ARBITRARY_PLACEMENT,
    design: Some(KAUTZ_DESIGN),
};

pub const DEBRUIJN: Family = Family {
    name: "debruijn",
    aliases: &["de_bruijn"],
    summary: "de Bruijn digraph B(d,k) without self-loops: d^k routers, in/out-degree d (d-1 on the d constant strings), diameter k",
    source: "Koibuchi et al., 2018, §IV-A",
    directed: true,
    params: &[D_PARAM, K_PARAM, p_param("4 (Koibuchi et al., 2018, §III-B3)")],
    build: build_debruijn,
    example: "debruijn:d=2,k=4",
    samples: &[
        "debruijn:d=2,k=4",
        "debruijn:d=3,k=2,p=2",
    ],
    display_name: "de Bruijn",
    sizes: debruijn_sizes,
    routing: NOT_SIMULATED,
    placement: ARBITRARY_PLACEMENT,
    design: Some(DEBRUIJN_DESIGN),
};

/// Vertices of K(d,k): (d+1)·d^(k-1), saturating.
pub fn kautz_size(d: u64, k: u32) -> u128 {
    pow_sat(d, k - 1).saturating_mul(d as u128 + 1)
}

fn pow_sat(base: u64, exp: u32) -> u128 {
    (base as u128).checked_pow(exp).unwrap_or(u128::MAX)
}

fn read_dk(p: &Params) -> Result<(u32, u32)> {
    let d = p.u32("d", 2, 1 << 26, "out-degree of every router")?;
    let k = p.u32("k", 1, 64, "string length (the diameter)")?;
    Ok((d, k))
}

/// Rejects sizes beyond the registry limits; labels hold k values per router, so their count
/// is bounded like the links.
fn check_size(p: &Params, d: u32, k: u32, routers: u128, links: u128) -> Result<()> {
    ensure_size(p, "k", k, routers, links)?;
    let cells = routers * k as u128;
    if cells > MAX_LINKS {
        return Err(p.invalid(
            "k",
            k,
            &format!(
                "a value giving at most {MAX_LINKS} label entries (routers x k); d={d}, k={k} gives {cells}"
            ),
        ));
    }
    Ok(())
}

/// Symbols s0..s(k-1) of Kautz vertex `index`. Vertices are numbered in mixed radix:
/// s0·d^(k-1) + Σ_{i≥1} t_i·d^(k-1-i) with t_i = (s_i - s_(i-1) - 1) mod (d+1) ∈ [0, d),
/// so that the d successors of a vertex are consecutive indices.
fn kautz_symbols(d: u32, k: u32, index: usize, out: &mut [u32]) {
    let d = d as usize;
    let mut rest = index;
    // out[i] first holds the digit t_i, then becomes s_i once s_(i-1) is known.
    for slot in out[1..k as usize].iter_mut().rev() {
        *slot = (rest % d) as u32;
        rest /= d;
    }
    out[0] = rest as u32;
    for i in 1..k as usize {
        out[i] = ((out[i - 1] as usize + 1 + out[i] as usize) % (d + 1)) as u32;
    }
}

/// Out-neighbours of every vertex of K(d,k), d per vertex, flat (vertex u owns u·d..u·d+d).
/// The successor s1…s(k-1)x of a vertex keeps its digits t_2..t_(k-1), shifted up one place,
/// and takes t = (x - s(k-1) - 1) mod (d+1) as its last digit.
pub fn kautz_successors(d: u32, k: u32) -> Vec<u32> {
    let n = kautz_size(d as u64, k) as usize;
    let du = d as usize;
    let mut targets = Vec::with_capacity(n * du);
    if k == 1 {
        for u in 0..n {
            targets.extend((0..n).filter(|&x| x != u).map(|x| x as u32));
        }
        return targets;
    }
    let top = du.pow(k - 1);
    let low = du.pow(k - 2);
    for u in 0..n {
        let s0 = u / top;
        let t1 = (u % top) / low;
        let s1 = (s0 + 1 + t1) % (du + 1);
        let base = s1 * top + (u % low) * du;
        targets.extend((0..du).map(|t| (base + t) as u32));
    }
    targets
}

/// (d, k, routers, p) after checking them; `size` is the family's router count.
fn read_shape(p: &Params, size: fn(u64, u32) -> u128) -> Result<(u32, u32, u128, u32)> {
    let (d, k) = read_dk(p)?;
    let routers = size(d as u64, k);
    check_size(p, d, k, routers, routers.saturating_mul(d as u128))?;
    Ok((d, k, routers, read_p(p, DEFAULT_P)?))
}

fn debruijn_size(d: u64, k: u32) -> u128 {
    pow_sat(d, k)
}

/// Out-degree d (de Bruijn's d constant strings lose their loop: d - 1); balanced by the
/// directed Moore bound (Koibuchi et al., 2018, §I).
fn string_sizes(p: &Params, size: fn(u64, u32) -> u128) -> Result<Sizes> {
    let (d, _, routers, conc) = read_shape(p, size)?;
    Ok(Sizes::direct(
        routers,
        d,
        conc,
        moore_balance(d, routers as u64, true),
    ))
}

fn kautz_sizes(p: &Params) -> Result<Sizes> {
    string_sizes(p, kautz_size)
}

fn debruijn_sizes(p: &Params) -> Result<Sizes> {
    string_sizes(p, debruijn_size)
}

fn build_kautz(p: &Params) -> Result<Network> {
    let (d, k, routers, conc) = read_shape(p, kautz_size)?;
    let n = routers as usize;
    let mut b = NetworkBuilder::new("kautz", n, true);
    set_symbol_labels(&mut b, k);
    let arc = b.link_class("arc");
    let mut sym = vec![0u32; k as usize];
    let mut label = vec![0i64; k as usize];
    for u in 0..n {
        kautz_symbols(d, k, u, &mut sym);
        label.iter_mut().zip(&sym).for_each(|(l, &s)| *l = s as i64);
        b.set_label(u, &label);
    }
    for (slot, &v) in kautz_successors(d, k).iter().enumerate() {
        b.add_link(slot / d as usize, v as usize, 1, arc);
    }
    b.uniform_endpoints(conc);
    b.build()
}

fn build_debruijn(p: &Params) -> Result<Network> {
    let (d, k, routers, conc) = read_shape(p, debruijn_size)?;
    let n = routers as usize;
    let du = d as usize;
    let mut b = NetworkBuilder::new("debruijn", n, true);
    set_symbol_labels(&mut b, k);
    let arc = b.link_class("arc");
    let mut label = vec![0i64; k as usize];
    for u in 0..n {
        let mut rest = u;
        for l in label.iter_mut().rev() {
            *l = (rest % du) as i64;
            rest /= du;
        }
        b.set_label(u, &label);
        // Base-d index: shifting left drops s0 and appends x.
        let base = (u * du) % n;
        for x in 0..du {
            let v = base + x;
            if v != u {
                b.add_link(u, v, 1, arc);
            }
        }
    }
    b.uniform_endpoints(conc);
    b.build()
}

fn set_symbol_labels(b: &mut NetworkBuilder, k: u32) {
    let names: Vec<String> = (0..k).map(|i| format!("s{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    b.label_fields(&refs);
}

/// What `topolab compare` tries of this family (docs/compare.md §1).
const KAUTZ_DESIGN: DesignSpace = DesignSpace {
    enumerate: kautz_design_space,
    smaller_members: None,
    twin: None,
    twin_origin: None,
};

/// What `topolab compare` tries of this family (docs/compare.md §1).
const DEBRUIJN_DESIGN: DesignSpace = DesignSpace {
    enumerate: debruijn_design_space,
    smaller_members: None,
    twin: None,
    twin_origin: None,
};

/// Kautz digraphs K(d, k) (Koibuchi et al., 2018, §IV-A): (d+1) d^(k-1) routers, in/out-degree d,
/// radix d + p; every d, k, p that fits. Balance from the directed Moore bound (Koibuchi et al.,
/// 2018, §I).
fn kautz_design_space(w: &Window) -> Vec<Candidate> {
    string_digraphs(w, "kautz")
}

/// de Bruijn digraphs B(d, k) (Koibuchi et al., 2018, §IV-A): d^k routers, out-degree d (d - 1 on
/// the d constant strings), radix d + p.
fn debruijn_design_space(w: &Window) -> Vec<Candidate> {
    string_digraphs(w, "debruijn")
}

fn string_digraphs(w: &Window, family: &'static str) -> Vec<Candidate> {
    let mut out = Vec::new();
    for d in 2..w.radix {
        for k in 1u32.. {
            let params = |p: u32| vec![("d", d.into()), ("k", k.into()), ("p", p.into())];
            let Some(base) = sizes_of(family, &params(1)) else {
                break;
            };
            if base.routers > w.hi {
                break;
            }
            for p in w.concentrations(base.routers, (w.radix - d) as i64) {
                out.extend(candidate(
                    family,
                    params(p),
                    "Koibuchi et al., 2018, §IV-A",
                    Vec::new(),
                    false,
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod construction {
    //! Kautz and de Bruijn digraphs against their string definitions and the numbers of Koibuchi et
    //! al., 2018, §IV-A.

    use crate::metrics::distance::{diameter, distances_from};
    use crate::{build_str, find_family, Network};

    fn labels(net: &Network) -> Vec<Vec<i64>> {
        (0..net.num_routers())
            .map(|r| net.label(r).to_vec())
            .collect()
    }

    /// Length of the longest proper suffix of `u` that is a prefix of `v`.
    fn overlap(u: &[i64], v: &[i64]) -> usize {
        (0..u.len())
            .rev()
            .find(|&l| u[u.len() - l..] == v[..l])
            .unwrap_or(0)
    }

    /// Directed Moore bound Σ_{i=0}^{k} d^i (Koibuchi et al., 2018, §I).
    fn moore(d: u64, k: u32) -> u64 {
        (0..=k).map(|i| d.pow(i)).sum()
    }

    /// Checks the shift structure through the labels, and that every shortest distance is
    /// k - (longest suffix of u that is a prefix of v): the classical distance of shift digraphs,
    /// computed here from strings only.
    fn check_shift_digraph(net: &Network, k: usize) {
        let lab = labels(net);
        let mut sorted = lab.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), lab.len(), "labels are distinct strings");
        for l in net.links() {
            let (u, v) = (&lab[l.src as usize], &lab[l.dst as usize]);
            assert_eq!(u[1..], v[..k - 1], "arc {u:?} -> {v:?} is a left shift");
            assert_eq!(l.width, 1);
            assert_eq!(net.link_classes()[l.class as usize], "arc");
        }
        for s in 0..net.num_routers() {
            let dist = distances_from(net, s);
            for t in 0..net.num_routers() {
                let expected = if s == t {
                    0
                } else {
                    k - overlap(&lab[s], &lab[t])
                };
                assert_eq!(dist[t] as usize, expected, "{:?} -> {:?}", lab[s], lab[t]);
            }
        }
    }

    #[test]
    fn kautz_counts_degrees_labels_and_distances() {
        for (d, k) in [
            (2u64, 1u32),
            (2, 2),
            (2, 3),
            (2, 5),
            (3, 1),
            (3, 3),
            (4, 2),
            (4, 3),
            (5, 3),
        ] {
            let net = build_str(&format!("kautz:d={d},k={k}")).unwrap();
            let n = ((d + 1) * d.pow(k - 1)) as usize;
            assert!(net.directed());
            assert_eq!(net.num_routers(), n, "K({d},{k}) routers");
            assert_eq!(net.num_links(), n as u64 * d, "K({d},{k}) arcs");
            assert_eq!(net.num_endpoints(), 4 * n as u64, "default p = 4");
            let indeg = net.in_degrees();
            for (r, &din) in indeg.iter().enumerate() {
                assert_eq!(net.degree(r), d as u32, "out-degree K({d},{k})");
                assert_eq!(din, d as u32, "in-degree K({d},{k})");
                let l = net.label(r);
                assert!(l.iter().all(|&s| (0..=d as i64).contains(&s)));
                assert!(l.windows(2).all(|w| w[0] != w[1]), "Kautz string {l:?}");
            }
            check_shift_digraph(&net, k as usize);
            assert_eq!(diameter(&net), Some(k), "diameter of K({d},{k})");
        }
    }

    #[test]
    fn kautz_sizes_and_moore_fractions_quoted_in_002() {
        // Koibuchi et al., 2018, §IV-A: 98% for d = 8, k = 4 with 4,608 vertices; 99% for d = 12, k = 4
        // with 22,464.
        for (d, k, n, percent) in [(8u64, 4u32, 4608usize, 98u64), (12, 4, 22464, 99)] {
            let net = build_str(&format!("kautz:d={d},k={k},p=1")).unwrap();
            assert_eq!(net.num_routers(), n);
            assert_eq!(net.num_links(), n as u64 * d);
            assert_eq!(100 * n as u64 / moore(d, k), percent, "d={d} k={k}");
        }
        // Koibuchi et al. (2018) quote "97% for d = 6 and k = 5 for 3,750 vertices", which mixes two
        // graphs: K(6,5) has 9,072 vertices and is 97% of M(6,5) = 9,331; 3,750 vertices is K(5,5),
        // 96% of M(5,5) = 3,906.
        let k65 = build_str("kautz:d=6,k=5,p=1").unwrap();
        assert_eq!(k65.num_routers(), 9072);
        assert_eq!(100 * 9072 / moore(6, 5), 97);
        let k55 = build_str("kautz:d=5,k=5,p=1").unwrap();
        assert_eq!(k55.num_routers(), 3750);
        assert_eq!(100 * 3750 / moore(5, 5), 96);
        assert_eq!(diameter(&k55), Some(5));
    }

    #[test]
    fn debruijn_counts_degrees_labels_and_distances() {
        for (d, k) in [(2u64, 1u32), (3, 1), (2, 2), (2, 4), (3, 3), (4, 2), (5, 3)] {
            let net = build_str(&format!("debruijn:d={d},k={k},p=2")).unwrap();
            let n = d.pow(k) as usize;
            assert!(net.directed());
            assert_eq!(net.num_routers(), n, "B({d},{k}) routers");
            // d^(k+1) shift arcs less the d self-loops on the constant strings.
            assert_eq!(net.num_links(), d.pow(k + 1) - d, "B({d},{k}) arcs");
            assert_eq!(net.num_endpoints(), 2 * n as u64);
            let indeg = net.in_degrees();
            let mut constant = 0;
            for (r, &din) in indeg.iter().enumerate() {
                let l = net.label(r);
                let expected = if l.iter().all(|&s| s == l[0]) {
                    constant += 1;
                    d as u32 - 1
                } else {
                    d as u32
                };
                assert_eq!(net.degree(r), expected, "out-degree of {l:?}");
                assert_eq!(din, expected, "in-degree of {l:?}");
                assert!(!net.neighbors(r).contains(&(r as u32)));
            }
            assert_eq!(constant, d, "d constant strings");
            check_shift_digraph(&net, k as usize);
            assert_eq!(diameter(&net), Some(k), "diameter of B({d},{k})");
        }
    }

    #[test]
    fn families_are_registered_as_directed() {
        for name in ["kautz", "debruijn", "de_bruijn"] {
            let f = find_family(name).unwrap();
            assert!(f.directed, "{name}");
            let net = build_str(f.example).unwrap();
            assert!(net.directed() && net.num_routers() > 0);
        }
    }

    #[test]
    fn bad_parameters_are_errors_naming_the_parameter() {
        for (spec, param, needle) in [
            ("kautz:d=1,k=3", "'d'", "from 2"),
            ("kautz:d=3,k=0", "'k'", "from 1"),
            ("kautz:d=x,k=3", "'d'", "integer"),
            ("kautz:k=3", "'d'", "missing"),
            ("kautz:d=3", "'k'", "missing"),
            ("kautz:d=2,k=40", "'k'", "routers"),
            ("kautz:d=3,k=3,p=-1", "'p'", "from 0"),
            ("debruijn:d=1,k=3", "'d'", "from 2"),
            ("debruijn:d=2,k=0", "'k'", "from 1"),
            ("debruijn:d=1000,k=5", "'k'", "routers"),
            ("debruijn:d=2,k=64", "'k'", "routers"),
            // 2^23 routers fit, but 23 label fields each would exceed the label budget.
            ("debruijn:d=2,k=23", "'k'", "label entries"),
        ] {
            let msg = build_str(spec).unwrap_err().to_string();
            assert!(msg.contains(param) && msg.contains(needle), "{spec}: {msg}");
        }
    }
}
