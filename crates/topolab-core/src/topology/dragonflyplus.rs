//! Dragonfly+ (Shpiner, Haramaty, Eliad, Zdornov, Gafni, Zahavi, "Dragonfly+: Low Cost Topology
//! for Scaling Datacenters", HiPINEB 2017, "Topology"), the topology Flajslik, Borch and Parker
//! call Megafly ("Megafly: A Topology for Exascale Systems", ISC 2018): g groups, each a
//! two-level fat tree of l leaf routers and s spine routers joined as a complete bipartite
//! graph. Leaves carry p endpoints each; each spine has h global links to other groups.
//!
//! Global links: spine i of a group holds the group's global ports i·h .. i·h + h - 1 and the
//! ports are arranged between groups exactly as the Dragonfly's (`dragonfly.rs`, BookSim2's
//! `dragonflynew` rule with the spines in the place of the Dragonfly's routers): with
//! g = s·h + 1 groups every pair of groups is joined by one global link, with fewer groups by
//! q = floor(s·h / (g - 1)) links and the highest s·h - q(g - 1) ports stay unused.
//!
//! Shpiner et al.'s full-bisection group (their topology section) has p = l = s = h = k/2 for routers of radix k: a
//! leaf has p endpoints and s up-links, a spine l down-links and h global links, the group
//! l·p = k²/4 endpoints and s·h global links; g = k²/4 + 1 groups, N = k²/4·(k²/4 + 1).
//!
//! Router index: group·(l + s) + index, index 0..l-1 the leaves and l..l+s-1 the spines, so
//! endpoint ids run group by group. Labels (group, index) (`ROUTER_GROUPS`); the routings tell
//! leaves from spines by the group's bipartite structure (`routing::dragonflyplus`).

use super::design::{
    balanced_of, candidate, nearest_count, round_even, scaled_p, Candidate, DesignSpace, Member,
    Value, Window,
};
use super::{
    dragonfly, ensure_size, read_p, Family, FamilyPlacement, FamilyRouting, ParamDef, ParamKind,
    SimulationChoice, Sizes,
};
use crate::error::Result;
use crate::network::{Network, NetworkBuilder, ROUTER_GROUPS};
use crate::spec::Params;
use std::collections::BTreeMap;

pub const FAMILY: Family = Family {
    name: "dragonflyplus",
    aliases: &["megafly", "dfplus"],
    summary: "Dragonfly+ / Megafly: g groups, each a leaf-spine fat tree (l leaves with p endpoints, s spines with h global links)",
    source: "Shpiner et al., HiPINEB 2017 (Topology); Flajslik, Borch & Parker, ISC 2018 (Megafly)",
    directed: false,
    params: &[
        ParamDef {
            name: "h",
            kind: ParamKind::Int,
            default: None,
            help: "global links per spine router",
        },
        ParamDef {
            name: "s",
            kind: ParamKind::Int,
            default: Some("h (p = l = s = h, Shpiner et al., HiPINEB 2017)"),
            help: "spine routers per group, each joined to every leaf of its group",
        },
        ParamDef {
            name: "l",
            kind: ParamKind::Int,
            default: Some("h (a spine's l down-links match its h global links)"),
            help: "leaf routers per group",
        },
        ParamDef {
            name: "g",
            kind: ParamKind::Int,
            default: Some("s*h + 1 (one global link between every pair of groups)"),
            help: "number of groups, 2 to s*h + 1",
        },
        ParamDef {
            name: "p",
            kind: ParamKind::Int,
            default: Some("s (a leaf's p endpoints match its s up-links)"),
            help: "endpoints per leaf router (spines carry none)",
        },
    ],
    build,
    example: "dragonflyplus:h=2",
    samples: &[
        "dragonflyplus:h=2",
        "dragonflyplus:h=2,s=3,l=4,p=1,g=4",
        "dragonflyplus:h=3,g=5,p=5",
        "dragonflyplus:h=1,s=1,l=1,g=2",
    ],
    display_name: "Dragonfly+",
    sizes,
    routing: FamilyRouting {
        specific: &[
            "dragonflyplus_min",
            "dragonflyplus_valiant",
            "dragonflyplus_adaptive",
        ],
        // Shpiner et al.: minimal routing for uniform traffic; the group-to-group shift
        // (Kim et al.'s Dragonfly worst case, which Flajslik et al. also evaluate) needs the
        // non-minimal paths, taken adaptively.
        simulation: Some(SimulationChoice::new(
            "dragonflyplus_min",
            "dragonfly_worst",
            "dragonflyplus_adaptive",
        )),
    },
    placement: FamilyPlacement::Grouped {
        field: "group",
        what: "one Dragonfly+ group (its leaves and spines) per cabinet (Shpiner et al., HiPINEB 2017)",
        structure: "dragonfly+ (one group per cabinet)",
    },
    design: Some(DESIGN),
};

/// A Dragonfly+ after checking its parameters.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub leaves: u32,
    pub spines: u32,
    pub h: u32,
    pub groups: u64,
    pub p: u32,
}

impl Shape {
    /// Global links between each pair of groups, floor(s·h / (g - 1)).
    fn per_pair(&self) -> u64 {
        (self.spines as u64 * self.h as u64) / (self.groups - 1)
    }
}

/// Upper bound on h, s, l before the size check; keeps the size arithmetic exact.
const MAX_PART: u32 = 1 << 16;

fn read_shape(p: &Params) -> Result<Shape> {
    let h = p.u32("h", 1, MAX_PART, "global links per spine router")?;
    let spines = p.opt_u32("s", 1, MAX_PART)?.unwrap_or(h);
    let leaves = p.opt_u32("l", 1, MAX_PART)?.unwrap_or(h);
    let max_g = spines as u64 * h as u64 + 1;
    let groups = match p.opt_int("g", i64::MIN, i64::MAX)? {
        Some(g) if g >= 2 && g as u64 <= max_g => g as u64,
        Some(g) => {
            return Err(p.invalid(
                "g",
                g,
                &format!(
                    "an integer from 2 to s*h + 1 = {max_g} (s = {spines}, h = {h}): every pair of groups needs a global link"
                ),
            ))
        }
        None => max_g,
    };
    let conc = read_p(p, spines)?;
    let shape = Shape {
        leaves,
        spines,
        h,
        groups,
        p: conc,
    };
    let per_group = leaves as u128 + spines as u128;
    let links = groups as u128 * leaves as u128 * spines as u128
        + groups as u128 * (groups as u128 - 1) / 2 * shape.per_pair() as u128;
    ensure_size(p, "g", groups, groups as u128 * per_group, links)?;
    Ok(shape)
}

/// Leaves have radix p + s, spines l + the global ports they use (spine 0 the most). Balanced
/// (Shpiner et al.'s full bisection, Daryin & Korzh, JSFI 2014, §1.4's Dragonfly rule for the global links): p is
/// at most the s up-links of a leaf and at most the global links per leaf of a group,
/// q(g - 1)/l; p = l = s = h meets both exactly.
pub fn shape_sizes(s: &Shape) -> Sizes {
    let global_used = dragonfly::global_ports_used(s.spines, s.h, s.groups) as u32;
    let spine_radix = s.leaves + global_used;
    let balanced = (s.spines as f64).min((s.per_pair() * (s.groups - 1)) as f64 / s.leaves as f64);
    Sizes {
        routers: s.groups * (s.leaves + s.spines) as u64,
        endpoints: s.groups * s.leaves as u64 * s.p as u64,
        radix: (s.p + s.spines).max(spine_radix),
        network_radix: s.spines.max(spine_radix),
        concentration: s.p,
        balanced_concentration: balanced,
        load: s.p as f64 / balanced,
        radix_is_bound: false,
    }
}

fn sizes(p: &Params) -> Result<Sizes> {
    Ok(shape_sizes(&read_shape(p)?))
}

fn build(p: &Params) -> Result<Network> {
    let s = read_shape(p)?;
    let (l, sp, g) = (s.leaves as usize, s.spines as usize, s.groups as usize);
    let per = l + sp;
    let mut b = NetworkBuilder::new("dragonflyplus", g * per, false);
    b.label_fields(ROUTER_GROUPS.fields);
    let local = b.link_class("leaf-spine");
    let global = b.link_class("global");
    for grp in 0..g {
        for i in 0..per {
            b.set_label(grp * per + i, &[grp as i64, i as i64]);
        }
        for leaf in 0..l {
            b.set_endpoints(grp * per + leaf, s.p);
            for spine in 0..sp {
                b.add_link(grp * per + leaf, grp * per + l + spine, 1, local);
            }
        }
    }
    // The Dragonfly's arrangement over groups of s "routers" (the spines).
    let spine_router = |r: usize| (r / sp) * per + l + r % sp;
    for ((u, v), width) in dragonfly::global_links(sp, s.h as usize, g) {
        b.add_link(spine_router(u), spine_router(v), width, global);
    }
    b.build()
}

/// What `topolab compare` tries of this family (docs/compare.md §1).
const DESIGN: DesignSpace = DesignSpace {
    enumerate: design_space,
    smaller_members: Some(smaller_members),
    twin: None,
    twin_origin: None,
};

/// Dragonfly+ / Megafly (Shpiner et al., HiPINEB 2017; Flajslik et al., ISC 2018): every
/// (s, h) with leaf radix 2s and spine radix 2h within K, l = h leaves (a spine's l down-links
/// match its h global links) and p from s (a leaf's endpoints match its up-links, the papers'
/// full bisection) up to the leaf's radix; per (s, h, p) the group count nearest N and
/// g = s*h + 1 when in the window. Balanced at p = min(s, q(g-1)/l)
/// (docs/families/dragonflyplus.md).
fn design_space(w: &Window) -> Vec<Candidate> {
    let mut out = Vec::new();
    for s in 1..=w.radix / 2 {
        for h in 1..=w.radix / 2 {
            let leaves = h;
            for p in s..=w.radix - s {
                let per_group = (leaves * p) as u64;
                let g_lo = w.lo.div_ceil(per_group).max(2) as i64;
                let full = (s * h + 1) as i64;
                let g_hi = (full as u64).min(w.hi / per_group) as i64;
                let mut kept: BTreeMap<i64, Vec<String>> = BTreeMap::new();
                if let Some(g) = nearest_count(g_lo, g_hi, per_group, w.target) {
                    kept.entry(g).or_default().push("g nearest N".to_string());
                }
                if (g_lo..=g_hi).contains(&full) {
                    kept.entry(full)
                        .or_default()
                        .push("full groups (g = sh+1)".to_string());
                }
                for (g, mut tags) in kept {
                    if p == s && s == h {
                        tags.insert(0, "p=l=s=h (Shpiner et al., HiPINEB 2017)".to_string());
                    }
                    let params = vec![
                        ("h", h.into()),
                        ("s", s.into()),
                        ("l", leaves.into()),
                        ("g", Value::Int(g)),
                        ("p", p.into()),
                    ];
                    out.extend(
                        candidate(
                            "dragonflyplus",
                            params,
                            "Shpiner et al., HiPINEB 2017; Flajslik, Borch & Parker, ISC 2018",
                            tags,
                            false,
                        )
                        .filter(|c| w.admits(c.sizes.load)),
                    );
                }
            }
        }
    }
    out
}

/// h' < h with s and l in proportion and the same global links per pair of groups,
/// s*h/(g - 1) (as the Dragonfly's); p' for the same load.
fn smaller_members(m: &Member) -> Result<Vec<String>> {
    let (h, spines, leaves, g) = (m.int("h")?, m.int("s")?, m.int("l")?, m.int("g")?);
    let per_pair = ((spines * h) / (g - 1).max(1)).max(1);
    Ok((1..h)
        .filter_map(|h2| {
            let s2 = round_even((spines * h2) as f64 / h as f64).max(1);
            let l2 = round_even((leaves * h2) as f64 / h as f64).max(1);
            let g2 = 1 + ((s2 * h2) / per_pair).max(1);
            let shape = format!("dragonflyplus:h={h2},s={s2},l={l2},g={g2}");
            let pb = balanced_of(&shape)?;
            Some(format!("{shape},p={}", scaled_p(m.p(), m.balanced(), pb)))
        })
        .collect())
}

#[cfg(test)]
mod construction {
    //! Dragonfly+ / Megafly against the closed forms of Shpiner et al., HiPINEB 2017 (the
    //! full-bisection group p = l = s = h = k/2 of radix-k routers, k²/4 + 1 groups,
    //! N = k²/4 (k²/4 + 1)) and the structure both papers describe: complete bipartite leaf-spine
    //! groups, global links between spines only, the same number of them between every two groups.

    use crate::metrics::distance::distances_from;
    use crate::{build_str, sizes_str, Network};
    use std::collections::BTreeMap;

    fn class_of(net: &Network, name: &str) -> u16 {
        net.link_classes().iter().position(|c| c == name).unwrap() as u16
    }

    /// Global cables between each pair of groups (x < y), from the group labels.
    fn group_pairs(net: &Network) -> BTreeMap<(i64, i64), u64> {
        let global = class_of(net, "global");
        let mut pairs = BTreeMap::new();
        for l in net.links().iter().filter(|l| l.class == global) {
            let (x, y) = (net.label(l.src as usize)[0], net.label(l.dst as usize)[0]);
            assert_ne!(x, y, "global link inside a group");
            *pairs.entry((x.min(y), x.max(y))).or_insert(0) += l.width as u64;
        }
        pairs
    }

    #[test]
    fn full_bisection_dragonflyplus_follows_the_papers_closed_forms() {
        for k in [2u64, 4, 6, 8, 10] {
            let half = k / 2;
            let spec = format!("dragonflyplus:h={half}");
            let net = build_str(&spec).unwrap();
            let groups = half * half + 1;
            assert_eq!(net.num_routers() as u64, groups * k, "{spec}");
            assert_eq!(net.num_endpoints(), half * half * groups, "{spec}");
            // every router has radix k: a leaf k/2 endpoints + k/2 spines, a spine k/2 leaves +
            // k/2 global links
            for r in 0..net.num_routers() {
                assert_eq!(
                    net.degree(r) as u64 + net.endpoints()[r] as u64,
                    k,
                    "{spec} router {r}"
                );
            }
            let pairs = group_pairs(&net);
            assert_eq!(pairs.len() as u64, groups * (groups - 1) / 2, "{spec}");
            assert!(pairs.values().all(|&c| c == 1), "{spec}");
        }
    }

    #[test]
    fn groups_are_complete_bipartite_leaf_spine_trees() {
        let net = build_str("dragonflyplus:h=2,s=3,l=4,p=1").unwrap();
        let per = 7usize;
        let global = class_of(&net, "global");
        for r in 0..net.num_routers() {
            let (g, i) = (net.label(r)[0] as usize, net.label(r)[1] as usize);
            assert_eq!((g, i), (r / per, r % per));
            let inner: Vec<usize> = net
                .neighbors(r)
                .iter()
                .map(|&v| v as usize)
                .filter(|&v| v / per == g)
                .collect();
            if i < 4 {
                // a leaf: every spine of its group, nothing else, one endpoint
                assert_eq!(inner, (g * per + 4..g * per + 7).collect::<Vec<_>>());
                assert_eq!(net.neighbors(r).len(), 3);
                assert_eq!(net.endpoints()[r], 1);
            } else {
                assert_eq!(inner, (g * per..g * per + 4).collect::<Vec<_>>());
                assert_eq!(net.endpoints()[r], 0);
            }
        }
        for l in net.links().iter().filter(|l| l.class == global) {
            assert!(
                l.src as usize % per >= 4 && l.dst as usize % per >= 4,
                "global link off a spine"
            );
        }
    }

    #[test]
    fn fewer_groups_share_the_global_ports_evenly() {
        // s·h = 6 global ports per group: g = 4 gives 2 links per pair, g = 5 one per pair (two
        // ports unused), as the Dragonfly's arrangement does
        for (g, per_pair) in [(4u64, 2u64), (5, 1), (7, 1), (2, 6)] {
            let spec = format!("dragonflyplus:h=2,s=3,g={g}");
            let net = build_str(&spec).unwrap();
            let pairs = group_pairs(&net);
            assert_eq!(pairs.len() as u64, g * (g - 1) / 2, "{spec}");
            assert!(pairs.values().all(|&c| c == per_pair), "{spec}: {pairs:?}");
            let s = sizes_str(&spec).unwrap();
            assert_eq!(s.routers, net.num_routers() as u64);
            assert_eq!(s.network_radix, net.network_radix(), "{spec}");
        }
    }

    #[test]
    fn leaves_are_three_hops_apart_and_spines_five() {
        // leaf -> spine -> (global) spine -> leaf; two spines off the one link between their
        // groups need a leaf on each side
        let net = build_str("dragonflyplus:h=3").unwrap();
        let per = 6;
        let mut leaf_max = 0;
        let mut any_max = 0;
        for s in 0..net.num_routers() {
            let d = distances_from(&net, s);
            for (t, &dt) in d.iter().enumerate() {
                any_max = any_max.max(dt);
                if s % per < 3 && t % per < 3 {
                    leaf_max = leaf_max.max(dt);
                }
            }
        }
        assert_eq!((leaf_max, any_max), (3, 5));
    }

    #[test]
    fn balance_is_the_papers_full_bisection() {
        // p = l = s = h: balanced; the global links per leaf, q(g-1)/l, limit fewer groups
        let s = sizes_str("dragonflyplus:h=4").unwrap();
        assert_eq!((s.balanced_concentration, s.load), (4.0, 1.0));
        let s = sizes_str("dragonflyplus:h=4,l=8,p=4").unwrap();
        assert_eq!(s.balanced_concentration, 2.0);
        assert_eq!(s.load, 2.0);
        let s = sizes_str("dragonflyplus:h=4,g=9").unwrap(); // 2 links per pair: 16 of 16 ports
        assert_eq!(s.balanced_concentration, 4.0);
        let s = sizes_str("dragonflyplus:h=4,g=10").unwrap(); // 1 per pair: 9 of 16 ports
        assert_eq!(s.balanced_concentration, 9.0 / 4.0);
    }

    #[test]
    fn impossible_parameters_name_the_parameter_and_what_is_allowed() {
        for (spec, needle) in [
            ("dragonflyplus:h=2,g=6", "'g'"),
            ("dragonflyplus:h=2,g=1", "from 2 to s*h + 1 = 5"),
            ("dragonflyplus:h=0", "'h'"),
            ("dragonflyplus:h=2,s=0", "'s'"),
            ("dragonflyplus:h=2,l=0", "'l'"),
            ("dragonflyplus:s=2", "h"),
            ("dragonflyplus:h=65536,s=65536", "'g'"),
        ] {
            let e = build_str(spec)
                .err()
                .unwrap_or_else(|| panic!("{spec} accepted"));
            assert!(e.to_string().contains(needle), "{spec}: {e}");
            assert_eq!(
                sizes_str(spec).err().map(|e| e.to_string()),
                Some(e.to_string())
            );
        }
        // the alias builds the same network
        let a = build_str("megafly:h=2").unwrap();
        let b = build_str("dragonflyplus:h=2").unwrap();
        assert_eq!(a.links(), b.links());
    }
}
