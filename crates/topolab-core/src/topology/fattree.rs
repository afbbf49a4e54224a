//! Fat trees built from routers of even radix k; endpoints sit on the leaves only.
//!
//! levels = 3: the k-ary fat tree of Besta & Hoefler, SC14, §VI-B3c (FT-3, from [44]): k pods, each
//! of k/2 leaf ("edge") and k/2 aggregation routers joined as a complete bipartite graph, and
//! (k/2)^2 core routers; core router i·(k/2) + j joins aggregation router i of every pod. With p =
//! k/2: 5k^2/4 routers, k^3/4 endpoints, k^3/4 leaf-agg and k^3/4 agg-core cables, k^2/4 endpoints
//! per pod (Besta & Hoefler (SC14) write these with p = k/2 as 5p^2, 2p^3 and p^2).
//!
//! levels = 2: the two-level fat tree of Kathareios et al., SC15, §2.2.1: k leaves, each joined
//! once to every one of k/2 spines; 3k/2 routers and k^2/2 endpoints with p = k/2.
//!
//! p < k/2 leaves leaf ports unused. p > k/2 oversubscribes the leaves: a leaf keeps k - p up
//! ports, so a pod has k - p aggregation routers (3 levels; (k - p)·k/2 core routers) or the tree
//! k - p spines (2 levels); the levels above the leaves stay non-blocking.
//!
//! `pods` (3 levels only) builds fewer than k pods, leaving core ports unused: the FT-3 that
//! Besta & Hoefler, SC14, §V simulates (k = 44, p = 22, N_r = 1,452, N = 10,648) has k/2 = 22 pods.
//!
//! Router numbering: leaves first (pod by pod, so endpoint ids run pod by pod), then aggregation
//! routers (or spines), then core routers. Labels (level, pod, index) with level 0 = leaf,
//! 1 = aggregation / spine, 2 = core; routers above the pods (spines, core) have pod -1.

use super::design::{
    candidate, nearest_count, nearest_p, round_even, sizes_of, Candidate, DesignSpace, Member,
    Value, Window,
};
use super::sizes_str;
use super::{
    ensure_size, p_param, read_p, Family, FamilyPlacement, FamilyRouting, ParamDef, ParamKind,
    SimulationChoice, Sizes,
};
use crate::error::Result;
use crate::network::{Network, NetworkBuilder, TREE_LEVELS};
use crate::spec::Params;
use crate::traffic::worst::offset;
use crate::traffic::worst::{field, read_offset, require, router_map};
use crate::traffic::PatternDef;
use crate::traffic::{Spec as TrafficSpec, Traffic, IDLE};
use std::collections::BTreeMap;

pub const FAMILY: Family = Family {
    name: "fattree",
    aliases: &["fat_tree", "ft"],
    summary: "k-ary fat tree with 2 or 3 levels of radix-k routers, endpoints on the leaves",
    source: "Besta & Hoefler, SC14, §VI-B3c (FT-3); Kathareios et al., SC15, §2.2.1 (two levels)",
    directed: false,
    params: &[
        ParamDef {
            name: "k",
            kind: ParamKind::Int,
            default: None,
            help: "router radix, even",
        },
        ParamDef {
            name: "levels",
            kind: ParamKind::Int,
            default: Some("3"),
            help: "router levels, 2 or 3",
        },
        p_param("k/2 (full bisection); k/2 < p < k oversubscribes the leaves"),
        ParamDef {
            name: "pods",
            kind: ParamKind::Int,
            default: Some("k"),
            help: "pods of a 3-level tree, 1 to k (fewer leave core ports unused)",
        },
    ],
    build,
    example: "fattree:k=4",
    samples: &[
        "fattree:k=4",
        "fattree:k=6,levels=2",
        "fattree:k=6,levels=2,p=4",
        "fattree:k=8,p=5,pods=3",
        "fattree:k=8,p=2",
        "fattree:k=2,levels=2,p=1",
    ],
    display_name: "Fat tree",
    sizes,
    routing: FamilyRouting {
        specific: &["fattree_nca", "fattree_anca"],
        // Besta & Hoefler, SC14, §V-C: every packet through the core switches
        simulation: Some(SimulationChoice::new("min", "fattree_worst", "min")),
    },
    placement: FamilyPlacement::FatTree,
    design: Some(DESIGN),
};

/// A fat tree's shape after checking its parameters; `pods` is None for two levels.
struct Shape {
    k: u32,
    pods: Option<u32>,
    conc: u32,
    /// Up ports of a leaf: min(k/2, k - p).
    up: u32,
}

impl Shape {
    fn routers(&self) -> u128 {
        let (k, half, up) = (self.k as u128, self.k as u128 / 2, self.up as u128);
        match self.pods {
            None => k + up,
            Some(pods) => pods as u128 * (half + up) + up * half,
        }
    }
}

/// Every router above the leaves uses all k ports (an aggregation router k/2 down and k/2
/// up, a spine one per leaf); balanced for p <= k/2, the leaves' down : up ports p : (k - p)
/// above (Besta & Hoefler, SC14, §VI-B3c).
fn sizes(p: &Params) -> Result<Sizes> {
    let s = read_shape(p)?;
    let leaves = match s.pods {
        None => s.k as u64,
        Some(pods) => pods as u64 * (s.k / 2) as u64,
    };
    Ok(Sizes {
        routers: s.routers() as u64,
        endpoints: leaves * s.conc as u64,
        radix: s.k,
        network_radix: s.k,
        concentration: s.conc,
        balanced_concentration: (s.k / 2) as f64,
        load: s.conc as f64 / s.up as f64,
        radix_is_bound: false,
    })
}

fn build(p: &Params) -> Result<Network> {
    let s = read_shape(p)?;
    let (half, up) = (s.k as usize / 2, s.up as usize);
    match s.pods {
        None => build_two_level(s.k as usize, up, s.conc),
        Some(pods) => build_three_level(pods as usize, half, up, s.conc),
    }
}

fn read_shape(p: &Params) -> Result<Shape> {
    let k = p.u32("k", 2, 1 << 12, "router radix, even")?;
    if k % 2 != 0 {
        return Err(p.invalid("k", k, "an even integer >= 2"));
    }
    let levels = p.opt_u32("levels", 0, u32::MAX)?.unwrap_or(3);
    if levels != 2 && levels != 3 {
        return Err(p.invalid("levels", levels, "2 or 3"));
    }
    let half = k / 2;
    let conc = read_p(p, half)?;
    if conc == 0 || conc >= k {
        return Err(p.invalid(
            "p",
            conc,
            &format!(
                "an integer from 1 to k - 1 = {} (leaves need an up port)",
                k - 1
            ),
        ));
    }
    let up = half.min(k - conc);
    if levels == 2 {
        if p.has("pods") {
            return Err(p.invalid(
                "pods",
                p.opt_u32("pods", 0, u32::MAX)?.unwrap_or(0),
                "only with levels=3 (a two-level tree is a single pod)",
            ));
        }
        return Ok(Shape {
            k,
            pods: None,
            conc,
            up,
        });
    }
    let pods = p.opt_u32("pods", 1, k)?.unwrap_or(k);
    let shape = Shape {
        k,
        pods: Some(pods),
        conc,
        up,
    };
    let links = 2 * pods as u128 * half as u128 * up as u128;
    ensure_size(p, "k", k, shape.routers(), links)?;
    Ok(shape)
}

/// `k` leaves with `conc` endpoints each, every leaf joined to each of `up` spines.
fn build_two_level(k: usize, up: usize, conc: u32) -> Result<Network> {
    let mut b = NetworkBuilder::new("fattree", k + up, false);
    b.label_fields(TREE_LEVELS.fields);
    let class = b.link_class("leaf-spine");
    for leaf in 0..k {
        b.set_label(leaf, &[0, 0, leaf as i64]);
        b.set_endpoints(leaf, conc);
        for s in 0..up {
            b.add_link(leaf, k + s, 1, class);
        }
    }
    for s in 0..up {
        b.set_label(k + s, &[1, -1, s as i64]);
    }
    b.build()
}

/// `pods` pods of `half` leaves and `up` aggregation routers; aggregation router i of every pod
/// joins core routers i·half .. i·half + half - 1.
fn build_three_level(pods: usize, half: usize, up: usize, conc: u32) -> Result<Network> {
    let leaves = pods * half;
    let aggs = pods * up;
    let core = up * half;
    let mut b = NetworkBuilder::new("fattree", leaves + aggs + core, false);
    b.label_fields(TREE_LEVELS.fields);
    let leaf_agg = b.link_class("leaf-agg");
    let agg_core = b.link_class("agg-core");
    for pod in 0..pods {
        for l in 0..half {
            let leaf = pod * half + l;
            b.set_label(leaf, &[0, pod as i64, l as i64]);
            b.set_endpoints(leaf, conc);
            for i in 0..up {
                b.add_link(leaf, leaves + pod * up + i, 1, leaf_agg);
            }
        }
        for i in 0..up {
            let agg = leaves + pod * up + i;
            b.set_label(agg, &[1, pod as i64, i as i64]);
            for j in 0..half {
                b.add_link(agg, leaves + aggs + i * half + j, 1, agg_core);
            }
        }
    }
    for c in 0..core {
        b.set_label(leaves + aggs + c, &[2, -1, c as i64]);
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

/// Fat trees of even radix k <= K: two levels (Kathareios et al., SC15, §2.2.1, N = k p) and three
/// levels (Besta & Hoefler, SC14, §VI-B3c, N = pods (k/2) p with 1 <= pods <= k; Besta & Hoefler,
/// SC14, §V uses k = 44 with 22 pods): per (k, p) the pod count nearest N and all k pods when in
/// the window. A leaf keeps min(k/2, k - p) up ports; balanced for p <= k/2, oversubscribed p : (k
/// - p) above.
fn design_space(w: &Window) -> Vec<Candidate> {
    let mut out = Vec::new();
    for k in (4..=w.radix).step_by(2) {
        for p in 1..k {
            let two_params = vec![("k", k.into()), ("levels", 2u32.into()), ("p", p.into())];
            let Some(mut two) = candidate(
                "fattree",
                two_params,
                "Kathareios et al., SC15, §2.2.1",
                Vec::new(),
                false,
            ) else {
                continue;
            };
            let full = if p as f64 == two.sizes.balanced_concentration {
                vec!["full bisection".to_string()]
            } else {
                Vec::new()
            };
            if (w.lo..=w.hi).contains(&two.sizes.endpoints) {
                two.tags = ["2 levels".to_string()]
                    .into_iter()
                    .chain(full.clone())
                    .collect();
                out.push(two);
            }
            let three = |pods: i64| {
                vec![
                    ("k", k.into()),
                    ("levels", 3u32.into()),
                    ("p", p.into()),
                    ("pods", Value::Int(pods)),
                ]
            };
            let per_pod = sizes_of("fattree", &three(1)).map_or(w.hi + 1, |s| s.endpoints);
            let pods_lo = w.lo.div_ceil(per_pod).max(1) as i64;
            let pods_hi = (k as u64).min(w.hi / per_pod) as i64;
            let mut kept: Vec<i64> = nearest_count(pods_lo, pods_hi, per_pod, w.target)
                .into_iter()
                .collect();
            if pods_hi == k as i64 {
                kept.push(k as i64);
            }
            kept.sort();
            kept.dedup();
            for pods in kept {
                let mut tags = vec!["3 levels".to_string()];
                tags.extend(full.iter().cloned());
                tags.push(
                    if pods == k as i64 {
                        "all pods"
                    } else {
                        "fewer pods"
                    }
                    .to_string(),
                );
                out.extend(candidate(
                    "fattree",
                    three(pods),
                    "Besta & Hoefler, SC14, §VI-B3c, §V",
                    tags,
                    false,
                ));
            }
        }
    }
    out
}

/// Smaller even k with the same levels (pods in proportion) and the p of the nearest load.
fn smaller_members(m: &Member) -> Result<Vec<String>> {
    let (k, levels) = (m.int("k")?, m.int("levels")?);
    let pods = if levels == 3 { m.int("pods")? } else { 0 };
    let two_level_load = |k2: i64, p: i64| {
        sizes_str(&format!("fattree:k={k2},levels=2,p={p}")).map_or(f64::INFINITY, |s| s.load)
    };
    Ok((4..k)
        .step_by(2)
        .map(|k2| {
            let p2 = nearest_p(m.load(), &|p| two_level_load(k2, p), k2 - 1);
            if levels == 3 {
                let pods = round_even((pods * k2) as f64 / k as f64).min(k2).max(1);
                format!("fattree:k={k2},levels=3,p={p2},pods={pods}")
            } else {
                format!("fattree:k={k2},levels={levels},p={p2}")
            }
        })
        .collect())
}

/// Fat tree (Besta & Hoefler, SC14, §V-C, "every packet traverses core (highest-level) switches"):
/// leaf l of pod P sends to leaf l of pod P + 1, endpoint j to endpoint j; in a two-level tree leaf
/// i sends to leaf i + 1 (the spines are the highest level).
pub(crate) fn worst_traffic(
    s: &TrafficSpec,
    net: &Network,
    offset: Option<i64>,
) -> Result<Traffic> {
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
        name: "fattree_worst",
        dest: router_map(net, &partner),
    })
}

/// `fattree_worst`: through the highest level.
pub const WORST_TRAFFIC: PatternDef = PatternDef {
    name: "fattree_worst",
    aliases: &["ft_worst"],
    params: crate::traffic::worst::OFFSET_PARAMS,
    build: |s, net, _| worst_traffic(s, net, offset(s)?),
};

#[cfg(test)]
mod construction {
    //! Fat trees against the closed forms of Besta & Hoefler, SC14, §VI-B3c (FT-3) and Kathareios et
    //! al., SC15, §2.2.1 / Fig. 3 (two levels), and the FT-3 configurations of Besta & Hoefler, SC14,
    //! §V and Table IV.

    use crate::metrics::distance::{diameter_among, endpoint_routers};
    use crate::{build_str, Network};

    fn cables(net: &Network, class: &str) -> u64 {
        let c = net.link_classes().iter().position(|x| x == class).unwrap() as u16;
        net.links()
            .iter()
            .filter(|l| l.class == c)
            .map(|l| l.width as u64)
            .sum()
    }

    fn total_ports(net: &Network) -> u64 {
        (0..net.num_routers())
            .map(|r| (net.degree(r) + net.endpoints()[r]) as u64)
            .sum()
    }

    #[test]
    fn three_level_closed_forms() {
        for k in (2u64..=16).step_by(2) {
            let net = build_str(&format!("fattree:k={k}")).unwrap();
            // Besta & Hoefler, SC14, §VI-B3c with p = k/2: 5p^2 routers, 2p^3 endpoints, 2p^3 agg-core
            // and 2p^3 leaf-agg cables, p^2 endpoints per pod.
            let p = k / 2;
            assert_eq!(net.num_routers() as u64, 5 * p * p, "k={k}");
            assert_eq!(net.num_endpoints(), 2 * p * p * p, "k={k}");
            assert_eq!(cables(&net, "leaf-agg"), 2 * p * p * p, "k={k}");
            assert_eq!(cables(&net, "agg-core"), 2 * p * p * p, "k={k}");
            assert_eq!(net.num_endpoints(), k * k * k / 4, "k^3/4 endpoints");
            // Every port of every router is used.
            for r in 0..net.num_routers() {
                assert_eq!(
                    net.degree(r) + net.endpoints()[r],
                    k as u32,
                    "k={k} router {r}"
                );
            }
            // Kathareios et al., SC15, Fig. 3: 3-level fat tree has diameter 4, 3 links and 5 ports per
            // endpoint.
            let n = net.num_endpoints();
            assert_eq!(net.num_links() + n, 3 * n, "k={k}");
            assert_eq!(total_ports(&net), 5 * n, "k={k}");
            let leaves = endpoint_routers(&net);
            assert_eq!(leaves.len() as u64, k * k / 2);
            assert_eq!(diameter_among(&net, &leaves), Some(4), "k={k}");
            // Endpoints only on leaves (level 0), p^2 per pod.
            for r in 0..net.num_routers() {
                let label = net.label(r);
                assert_eq!(net.endpoints()[r] > 0, label[0] == 0, "k={k} router {r}");
            }
            for pod in 0..k as i64 {
                let in_pod: u64 = (0..net.num_routers())
                    .filter(|&r| net.label(r)[0] == 0 && net.label(r)[1] == pod)
                    .map(|r| net.endpoints()[r] as u64)
                    .sum();
                assert_eq!(in_pod, p * p, "k={k} pod {pod}");
            }
        }
    }

    #[test]
    fn links_respect_the_levels_and_pods() {
        let net = build_str("fattree:k=6").unwrap();
        assert_eq!(net.label_fields(), ["level", "pod", "index"]);
        assert_eq!(net.link_classes(), ["leaf-agg", "agg-core"]);
        for l in net.links() {
            let (a, b) = (net.label(l.src as usize), net.label(l.dst as usize));
            let (lo, hi) = if a[0] < b[0] { (a, b) } else { (b, a) };
            assert_eq!(hi[0], lo[0] + 1, "links join adjacent levels: {a:?} {b:?}");
            if hi[0] == 1 {
                assert_eq!(lo[1], hi[1], "leaf-agg links stay in the pod");
            } else {
                assert_eq!(hi[1], -1, "core routers belong to no pod");
            }
        }
        // Each core router reaches every pod exactly once.
        for r in 0..net.num_routers() {
            if net.label(r)[0] == 2 {
                let mut pods: Vec<i64> = net
                    .neighbors(r)
                    .iter()
                    .map(|&v| net.label(v as usize)[1])
                    .collect();
                pods.sort();
                assert_eq!(pods, (0..6).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn two_level_closed_forms_of_001() {
        // Kathareios et al., SC15, §2.2.1: p = r/2, 3r/2 routers, r^2/2 endpoints; Fig. 3: diameter 2,
        // 2 links and 3 ports per endpoint.
        for k in (2u64..=24).step_by(2) {
            let net = build_str(&format!("fattree:k={k},levels=2")).unwrap();
            assert_eq!(net.num_routers() as u64, 3 * k / 2, "k={k}");
            let n = net.num_endpoints();
            assert_eq!(n, k * k / 2, "k={k}");
            assert_eq!(cables(&net, "leaf-spine"), k * k / 2, "k={k}");
            assert_eq!(net.num_links() + n, 2 * n, "k={k}");
            assert_eq!(total_ports(&net), 3 * n, "k={k}");
            for r in 0..net.num_routers() {
                assert_eq!(net.degree(r) + net.endpoints()[r], k as u32, "k={k}");
            }
            let leaves = endpoint_routers(&net);
            assert_eq!(leaves.len() as u64, k);
            assert_eq!(diameter_among(&net, &leaves), Some(2), "k={k}");
        }
    }

    #[test]
    fn configurations_of_000() {
        // Besta & Hoefler, SC14, §V: FT-3 with k = 44, p = 22, N_r = 1,452, N = 10,648: 22 of the 44
        // possible pods.
        let net = build_str("fattree:k=44,pods=22").unwrap();
        assert_eq!((net.num_routers(), net.num_endpoints()), (1452, 10648));
        // The full k = 44 tree: 5p^2 = 2,420 routers, 2p^3 = 21,296 endpoints.
        let net = build_str("fattree:k=44").unwrap();
        assert_eq!((net.num_routers(), net.num_endpoints()), (2420, 21296));
        assert_eq!(net.network_radix(), 44);
        // Besta & Hoefler, SC14, Table IV's FT-3 columns (N = 19,876, N_r = 2,311, k = 43 and N =
        // 10,718, N_r = 1,531, k = 35) are floor(k^3/4) and floor(5k^2/4) at odd k: no k-ary fat tree
        // has them, and odd k is rejected rather than rounded.
        for k in [43, 35] {
            let msg = build_str(&format!("fattree:k={k}"))
                .unwrap_err()
                .to_string();
            assert!(msg.contains("'k'") && msg.contains("even"), "{msg}");
        }
    }

    #[test]
    fn oversubscribed_and_undersubscribed_leaves() {
        // p > k/2: a leaf keeps k - p up ports; every router still uses at most k ports and the
        // leaf up/down ratio is (k - p) : p.
        for levels in [2u32, 3] {
            for (k, p) in [(8u32, 5u32), (8, 6), (8, 7), (12, 9)] {
                let spec = format!("fattree:k={k},levels={levels},p={p}");
                let net = build_str(&spec).unwrap();
                let up = k - p;
                let pods = if levels == 3 { k } else { 1 };
                let leaves_per_pod = if levels == 3 { k / 2 } else { k };
                let leaves = pods * leaves_per_pod;
                assert_eq!(net.num_endpoints(), (leaves * p) as u64, "{spec}");
                let routers = if levels == 3 {
                    leaves + pods * up + up * k / 2
                } else {
                    leaves + up
                };
                assert_eq!(net.num_routers() as u32, routers, "{spec}");
                for r in 0..net.num_routers() {
                    let used = net.degree(r) + net.endpoints()[r];
                    assert_eq!(used, k, "{spec} router {r}");
                    if net.endpoints()[r] > 0 {
                        assert_eq!(net.degree(r), up, "{spec}");
                    }
                }
                let ends = endpoint_routers(&net);
                assert_eq!(
                    diameter_among(&net, &ends),
                    Some(2 * (levels - 1)),
                    "{spec}"
                );
            }
        }
        // p < k/2 keeps the full tree and leaves endpoint ports free.
        let net = build_str("fattree:k=8,p=2").unwrap();
        assert_eq!((net.num_routers(), net.num_endpoints()), (80, 64));
    }

    #[test]
    fn bad_parameters_are_errors_naming_the_parameter() {
        for (spec, needle) in [
            ("fattree", "missing parameter 'k'"),
            ("fattree:k=7", "'k'"),
            ("fattree:k=0", "'k'"),
            ("fattree:k=4,levels=1", "'levels'"),
            ("fattree:k=4,levels=4", "'levels'"),
            ("fattree:k=4,p=4", "'p'"),
            ("fattree:k=4,p=0", "'p'"),
            ("fattree:k=4,pods=5", "'pods'"),
            ("fattree:k=4,pods=0", "'pods'"),
            ("fattree:k=4,levels=2,pods=2", "'pods'"),
            ("fattree:k=4096", "'k'"),
        ] {
            let msg = build_str(spec).unwrap_err().to_string();
            assert!(msg.contains(needle), "{spec}: {msg}");
        }
    }
}
