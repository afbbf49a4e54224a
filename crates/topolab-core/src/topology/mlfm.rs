//! Multi-Layer Full-Mesh: the (h,l,p)-MLFM of Kathareios et al., SC15, §2.2.3, the Stacked
//! Single-Path Tree with r2 = 2 (Kathareios et al., SC15, §2.2.2).
//!
//! Each of the l layers is a full mesh of h + 1 local routers (LRs) in which the direct link
//! between the LRs of columns a and b is replaced by two links to one global router (GR); the
//! column pair {a, b} of every layer uses the same GR, so there are h(h+1)/2 GRs of radix 2l.
//! Only LRs carry endpoints (p each); an LR has radix h + p.
//!
//! Router index: LR (layer, column) is layer·(h+1) + column; the GRs follow in lexicographic
//! order of their column pairs (a, b), a < b.

use super::design::{
    balanced_of, candidate, nearest_count, round_even, scaled_p, sizes_of, tags, Candidate,
    DesignSpace, Member, Value, Window,
};
use super::{
    ensure_size, p_param, read_p, Family, FamilyRouting, ParamDef, ParamKind, SimulationChoice,
    Sizes, ARBITRARY_PLACEMENT,
};
use crate::error::Result;
use crate::network::Capability;
use crate::network::{Network, NetworkBuilder};
use crate::spec::Params;
use crate::traffic::worst::offset;
use crate::traffic::worst::{field, read_offset, require, ring_shift, router_map};
use crate::traffic::PatternDef;
use crate::traffic::{Spec as TrafficSpec, Traffic};

/// MLFM router kinds, layers and columns (Kathareios et al., SC15, §2.2.2).
pub const MLFM_LAYOUT: Capability = Capability {
    what: "MLFM router kinds and columns",
    fields: &["kind", "layer", "col", "col2"],
};

pub const FAMILY: Family = Family {
    name: "mlfm",
    aliases: &["multi_layer_full_mesh"],
    summary: "Multi-Layer Full-Mesh: l layers of h+1 local routers joined by h(h+1)/2 global routers",
    source: "Kathareios et al., SC15, §2.2.3",
    directed: false,
    params: &[
        ParamDef {
            name: "h",
            kind: ParamKind::Int,
            default: None,
            help: "network radix of a local router: each layer is a full mesh of h + 1 local routers (h >= 1)",
        },
        ParamDef {
            name: "l",
            kind: ParamKind::Int,
            default: Some("h"),
            help: "number of layers; global routers have radix 2l",
        },
        p_param("h (endpoints per local router; global routers have none)"),
    ],
    build,
    example: "mlfm:h=4",
    samples: &[
        "mlfm:h=3",
        "mlfm:h=2,l=5,p=1",
        "mlfm:h=4,l=1,p=6",
    ],
    display_name: "MLFM",
    sizes,
    routing: FamilyRouting {
        specific: &[],
        simulation: Some(SimulationChoice::new("min", "mlfm_worst", "min")),
    },
    placement: ARBITRARY_PLACEMENT,
    design: Some(DESIGN),
};

/// Label `kind` of a local router.
pub const KIND_LOCAL: i64 = 0;
/// Label `kind` of a global router.
pub const KIND_GLOBAL: i64 = 1;

/// Upper bound on h and l before the size check; keeps the u128 size arithmetic exact.
const MAX_HL: u32 = 1 << 24;

/// Local routers have radix h + p, global routers 2l; balanced for p <= h (Kathareios et al.'s
/// (SC15) h-MLFM has h = l = p).
fn sizes(p: &Params) -> Result<Sizes> {
    let (h, l, conc) = read_shape(p)?;
    let (h64, l64) = (h as u64, l as u64);
    let locals = l64 * (h64 + 1);
    Ok(Sizes {
        routers: locals + h64 * (h64 + 1) / 2,
        endpoints: locals * conc as u64,
        radix: (h + conc).max(2 * l),
        network_radix: h.max(2 * l),
        concentration: conc,
        balanced_concentration: h as f64,
        load: conc as f64 / h as f64,
        radix_is_bound: false,
    })
}

/// (h, l, p) after checking them.
fn read_shape(p: &Params) -> Result<(u32, u32, u32)> {
    let h = p.u32("h", 1, MAX_HL, "network radix of a local router, >= 1")?;
    let l = p.opt_u32("l", 1, MAX_HL)?.unwrap_or(h);
    let conc = read_p(p, h)?;
    // Kathareios et al., SC15, §2.2.3: R = l(h+1) LRs + h(h+1)/2 GRs; every LR has h links, one to
    // each GR of its column, so there are l·h·(h+1) router-to-router links (= Rg · 2l).
    let (h128, l128) = (h as u128, l as u128);
    let locals = l128 * (h128 + 1);
    let globals = h128 * (h128 + 1) / 2;
    let links = locals * h128;
    let (param, value) = if p.has("l") && l > h {
        ("l", l)
    } else {
        ("h", h)
    };
    ensure_size(p, param, value, locals + globals, links)?;
    Ok((h, l, conc))
}

fn build(p: &Params) -> Result<Network> {
    let (h, l, conc) = read_shape(p)?;

    let (h, l) = (h as usize, l as usize);
    let cols = h + 1;
    let n_local = l * cols;
    // GR of columns a < c in lexicographic pair order: the pairs before it are h - x for each
    // first column x < a, then c - a - 1.
    let gr_index = |a: usize, c: usize| {
        let (a, c) = (a.min(c), a.max(c));
        n_local + a * h - a * a.saturating_sub(1) / 2 + c - a - 1
    };
    let mut b = NetworkBuilder::new("mlfm", n_local + cols * h / 2, false);
    // `col2` is the second column of a GR's pair; layer and col2 are -1 where they do not apply.
    b.label_fields(MLFM_LAYOUT.fields);
    let class = b.link_class("local-global");
    for layer in 0..l {
        for col in 0..cols {
            let r = layer * cols + col;
            b.set_label(r, &[KIND_LOCAL, layer as i64, col as i64, -1]);
            b.set_endpoints(r, conc);
        }
    }
    for a in 0..cols {
        for c in a + 1..cols {
            b.set_label(gr_index(a, c), &[KIND_GLOBAL, -1, a as i64, c as i64]);
        }
    }
    for layer in 0..l {
        for a in 0..cols {
            for c in (0..cols).filter(|&c| c != a) {
                b.add_link(layer * cols + a, gr_index(a, c), 1, class);
            }
        }
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

/// Local routers of radix h + p, global routers of radix 2l, N = l (h + 1) p; per (h, p) the
/// layer count nearest N and l = h when in the window. Balanced for p <= h (Kathareios et al.'s
/// (SC15) h-MLFM has h = l = p).
fn design_space(w: &Window) -> Vec<Candidate> {
    let mut out = Vec::new();
    for h in 1..w.radix {
        for p in 1..=w.radix - h {
            let params = |l: i64| vec![("h", h.into()), ("l", Value::Int(l)), ("p", p.into())];
            let Some(one_layer) = sizes_of("mlfm", &params(1)) else {
                continue;
            };
            let per_layer = one_layer.endpoints;
            let l_lo = w.lo.div_ceil(per_layer).max(1) as i64;
            let l_hi = ((w.radix / 2) as u64).min(w.hi / per_layer) as i64;
            let nearest = nearest_count(l_lo, l_hi, per_layer, w.target);
            let mut layers: Vec<i64> = [nearest, Some(h as i64)]
                .into_iter()
                .flatten()
                .filter(|x| (l_lo..=l_hi).contains(x))
                .collect();
            layers.sort();
            layers.dedup();
            for l in layers {
                let tags = if h as i64 == l && l == p as i64 {
                    tags(&["h=l=p (Kathareios et al., SC15, §2.2.3)"])
                } else {
                    Vec::new()
                };
                out.extend(candidate(
                    "mlfm",
                    params(l),
                    "Kathareios et al., SC15, §2.2.3",
                    tags,
                    false,
                ));
            }
        }
    }
    out
}

/// Smaller h with l in proportion, p for the same load.
fn smaller_members(m: &Member) -> Result<Vec<String>> {
    let (h, layers) = (m.int("h")?, m.int("l")?);
    Ok((2..h)
        .filter_map(|h2| {
            let l2 = round_even((layers * h2) as f64 / h as f64).max(2);
            let pb = balanced_of(&format!("mlfm:h={h2},l={l2}"))?;
            Some(format!(
                "mlfm:h={h2},l={l2},p={}",
                scaled_p(m.p(), m.balanced(), pb)
            ))
        })
        .collect())
}

/// MLFM (Kathareios et al., SC15, §4.2): "the shift traffic pattern with a shift value of h": with
/// p = h endpoints per local router, shifting endpoint ids by h sends all endpoints of local router
/// r to local router r + 1, which is in another column, so all of r's traffic crosses the one
/// global router of that column pair. topolab shifts by whole routers (`offset`, default 1), which
/// is the paper's shift by h when p = h and keeps the property for any p.
pub(crate) fn worst_traffic(
    s: &TrafficSpec,
    net: &Network,
    offset: Option<i64>,
) -> Result<Traffic> {
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
        name: "mlfm_worst",
        dest: router_map(net, &partner),
    })
}

/// `mlfm_worst`: shift by local routers.
pub const WORST_TRAFFIC: PatternDef = PatternDef {
    name: "mlfm_worst",
    aliases: &[],
    params: crate::traffic::worst::OFFSET_PARAMS,
    build: |s, net, _| worst_traffic(s, net, offset(s)?),
};

#[cfg(test)]
mod construction {
    //! Multi-Layer Full-Mesh against the closed forms of Kathareios et al., SC15, §2.2.3, the path
    //! diversity of Kathareios et al., SC15, §2.3.3 and the configuration simulated in Kathareios et
    //! al., SC15, §4.1.

    use crate::metrics::distance::{diameter_among, endpoint_routers};
    use crate::{build_str, Network, TopolabError};

    /// Largest number of ports any router uses. `Network::radix()` adds the largest concentration
    /// to the largest network degree, which overcounts when the two sit on different routers.
    fn router_radix(net: &Network) -> u32 {
        (0..net.num_routers())
            .map(|r| net.degree(r) + net.endpoints()[r])
            .max()
            .unwrap_or(0)
    }

    fn common_neighbours(net: &Network, a: usize, b: usize) -> usize {
        net.neighbors(a)
            .iter()
            .filter(|x| net.neighbors(b).binary_search(x).is_ok())
            .count()
    }

    #[test]
    fn h_mlfm_counts_match_the_closed_forms() {
        // Kathareios et al., SC15, §2.2.3: R = 3/2 h(h+1), N = h^3 + h^2, every router of radix 2h;
        // Fig. 3: 2 links and 3 router ports per end-node (endpoint links included).
        for h in 1u64..=8 {
            let net = build_str(&format!("mlfm:h={h}")).unwrap();
            let n = h * h * h + h * h;
            assert_eq!(net.num_routers() as u64 * 2, 3 * h * (h + 1), "R for h={h}");
            assert_eq!(net.num_endpoints(), n, "N for h={h}");
            assert_eq!(net.num_links() + n, 2 * n, "links per end-node for h={h}");
            let ports: u64 = (0..net.num_routers())
                .map(|r| (net.degree(r) + net.endpoints()[r]) as u64)
                .sum();
            assert_eq!(ports, 3 * n, "ports per end-node for h={h}");
            for r in 0..net.num_routers() {
                assert_eq!(
                    net.degree(r) + net.endpoints()[r],
                    2 * h as u32,
                    "router {r} radix for h={h}"
                );
            }
        }
    }

    #[test]
    fn hlp_mlfm_counts_and_radices() {
        // Kathareios et al., SC15, §2.2.3: l layers of h+1 LRs with p endpoints each, Rg = h(h+1)/2 GRs
        // of radix 2l, LRs of radix h + p.
        for (h, l, p) in [
            (1u64, 1u64, 1u64),
            (2, 5, 1),
            (3, 2, 7),
            (4, 3, 2),
            (5, 1, 5),
            (6, 9, 0),
        ] {
            let net = build_str(&format!("mlfm:h={h},l={l},p={p}")).unwrap();
            let (lr, gr) = (l * (h + 1), h * (h + 1) / 2);
            assert_eq!(net.num_routers() as u64, lr + gr, "R for {h},{l},{p}");
            assert_eq!(net.num_endpoints(), lr * p, "N for {h},{l},{p}");
            // Every GR port is used: Rg·2l router-to-router links.
            assert_eq!(net.num_links(), gr * 2 * l, "links for {h},{l},{p}");
            for r in 0..net.num_routers() {
                let label = net.label(r);
                let ports = (net.degree(r) + net.endpoints()[r]) as u64;
                if label[0] == 0 {
                    assert_eq!(ports, h + p, "LR {r} radix");
                    assert_eq!(net.endpoints()[r] as u64, p);
                } else {
                    assert_eq!(ports, 2 * l, "GR {r} radix");
                    assert_eq!(net.endpoints()[r], 0, "GR {r} has no endpoints");
                }
            }
        }
    }

    #[test]
    fn endpoint_routers_are_two_hops_apart() {
        for spec in [
            "mlfm:h=1",
            "mlfm:h=2",
            "mlfm:h=4",
            "mlfm:h=7",
            "mlfm:h=3,l=1",
            "mlfm:h=2,l=6,p=3",
        ] {
            let net = build_str(spec).unwrap();
            let ends = endpoint_routers(&net);
            assert_eq!(diameter_among(&net, &ends), Some(2), "{spec}");
            for &a in &ends {
                assert!(
                    !ends.iter().any(|&b| net.neighbors(a).contains(&(b as u32))),
                    "{spec}: LRs are never adjacent"
                );
            }
        }
    }

    #[test]
    fn minimal_path_diversity_of_section_2_3_3() {
        // Kathareios et al., SC15, §2.3.3: two LRs of the same column have h minimal routes, any other
        // pair exactly one.
        for (h, l) in [(2usize, 2usize), (3, 3), (4, 2), (5, 5), (3, 1)] {
            let net = build_str(&format!("mlfm:h={h},l={l}")).unwrap();
            let ends = endpoint_routers(&net);
            assert_eq!(ends.len(), l * (h + 1));
            for (i, &a) in ends.iter().enumerate() {
                for &b in &ends[i + 1..] {
                    let same_column = net.label(a)[2] == net.label(b)[2];
                    let expected = if same_column { h } else { 1 };
                    assert_eq!(
                        common_neighbours(&net, a, b),
                        expected,
                        "h={h} l={l} {a},{b}"
                    );
                }
            }
        }
    }

    #[test]
    fn labels_describe_layers_columns_and_column_pairs() {
        let (h, l) = (4usize, 3usize);
        let net = build_str(&format!("mlfm:h={h},l={l}")).unwrap();
        assert_eq!(net.label_fields(), ["kind", "layer", "col", "col2"]);
        assert_eq!(net.link_classes(), ["local-global"]);
        let mut locals = std::collections::BTreeSet::new();
        let mut pairs = std::collections::BTreeSet::new();
        for r in 0..net.num_routers() {
            let lab = net.label(r).to_vec();
            if lab[0] == 0 {
                assert!((0..l as i64).contains(&lab[1]) && (0..=h as i64).contains(&lab[2]));
                assert!(locals.insert((lab[1], lab[2])), "LR label repeated");
            } else {
                assert_eq!(lab[0], 1);
                assert!(lab[2] < lab[3] && lab[3] <= h as i64);
                assert!(pairs.insert((lab[2], lab[3])), "GR label repeated");
                // The GR of pair {a, b} joins the LRs of columns a and b in every layer.
                let mut seen: Vec<(i64, i64)> = net
                    .neighbors(r)
                    .iter()
                    .map(|&n| (net.label(n as usize)[1], net.label(n as usize)[2]))
                    .collect();
                seen.sort();
                let mut want: Vec<(i64, i64)> = (0..l as i64)
                    .flat_map(|layer| [(layer, lab[2]), (layer, lab[3])])
                    .collect();
                want.sort();
                assert_eq!(seen, want, "GR {r}");
            }
        }
        assert_eq!(locals.len(), l * (h + 1));
        assert_eq!(pairs.len(), h * (h + 1) / 2);
        // Documented numbering: LRs layer by layer, then GRs in lexicographic pair order.
        let order: Vec<Vec<i64>> = (0..net.num_routers())
            .map(|r| net.label(r).to_vec())
            .collect();
        let mut sorted = order.clone();
        sorted.sort_by_key(|lab| (lab[0], lab[1], lab[2], lab[3]));
        assert_eq!(order, sorted);
    }

    #[test]
    fn configuration_of_section_4_1() {
        // Kathareios et al., SC15, §4.1: MLFM with h = 15, N = 3600, R = 360, r = 30.
        let net = build_str("mlfm:h=15").unwrap();
        assert_eq!(
            (net.num_endpoints(), net.num_routers(), router_radix(&net)),
            (3600, 360, 30)
        );
        let ends = endpoint_routers(&net);
        assert_eq!(diameter_among(&net, &ends), Some(2));
    }

    #[test]
    fn bad_parameters_are_errors_naming_the_parameter() {
        for (spec, needle) in [
            ("mlfm", "missing parameter 'h'"),
            ("mlfm:h=0", "'h' = 0"),
            ("mlfm:h=-3", "'h' = -3"),
            ("mlfm:h=abc", "'h'"),
            ("mlfm:h=3,l=0", "'l' = 0"),
            ("mlfm:h=3,p=-1", "'p' = -1"),
            ("mlfm:h=100000", "'h' = 100000"),
            ("mlfm:h=4,l=10000000", "'l' = 10000000"),
        ] {
            let msg = build_str(spec).unwrap_err().to_string();
            assert!(msg.contains(needle), "{spec}: {msg}");
        }
        let e = build_str("mlfm:h=3,k=1").unwrap_err();
        assert!(matches!(e, TopolabError::UnknownParameter { .. }), "{e}");
    }
}
