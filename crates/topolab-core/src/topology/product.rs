//! Cartesian product of two topologies (Daryin & Korzh, JSFI 2014, §1.5: Slim Fly x FlatFly; tori,
//! FlatFly and hypercubes of Daryin & Korzh, JSFI 2014, §1.1-1.3 are products too).
//!
//! Router (u, v) has index u·|b| + v and is joined to (u', v) for every link u-u' of a (width
//! multiplied by wa, class "a:<class>") and to (u, v') for every link v-v' of b (width times
//! wb, class "b:<class>"). Hence degree(u, v) = wa·deg_a(u) + wb·deg_b(v) and, for connected
//! factors, diam = diam(a) + diam(b). Two directed factors give the directed product; a
//! directed factor with an undirected one is rejected (its links would have no direction).

use super::design::{candidate, join_x, sizes_of, Candidate, DesignSpace, Value, Window};
use super::{
    ensure_size, p_param, read_p, Family, ParamDef, ParamKind, Sizes, ARBITRARY_PLACEMENT,
    NOT_SIMULATED,
};
use crate::error::{Result, TopolabError};
use crate::network::{Network, NetworkBuilder};
use crate::spec::{Params, TopologySpec};
use std::collections::BTreeMap;

pub const FAMILY: Family = Family {
    name: "product",
    aliases: &["cartesian"],
    summary: "Cartesian product of two topologies, e.g. Slim Fly x FlatFly",
    source: "Daryin & Korzh, JSFI 2014, §1.5 (SF x FF-1, SF x FF-2)",
    directed: false,
    params: &[
        ParamDef {
            name: "a",
            kind: ParamKind::Spec,
            default: None,
            help: "first factor, a nested spec such as (slimfly:q=4)",
        },
        ParamDef {
            name: "b",
            kind: ParamKind::Spec,
            default: None,
            help: "second factor, a nested spec such as (hyperx:dims=8x8)",
        },
        p_param("the endpoints of router u of a, at every router (u, v)"),
        ParamDef {
            name: "wa",
            kind: ParamKind::Int,
            default: Some("1"),
            help: "width multiplier of the links taken from a (Daryin & Korzh's L (JSFI 2014) of the Slim Fly factor)",
        },
        ParamDef {
            name: "wb",
            kind: ParamKind::Int,
            default: Some("1"),
            help: "width multiplier of the links taken from b",
        },
    ],
    build,
    example: "product:a=(slimfly:q=3),b=(jellyfish:routers=4,degree=3)",
    samples: &[
        "product:a=(slimfly:q=3),b=(hyperx:dims=3)",
        "product:a=(slimfly:q=3),b=(hyperx:dims=2x2),wa=2,p=3",
        "product:a=(fattree:k=4,levels=2),b=(hyperx:dims=3)",
        "product:a=(torus:dims=3x3),b=(jellyfish:routers=4,degree=3),wb=2",
    ],
    display_name: "Product",
    sizes,
    routing: NOT_SIMULATED,
    placement: ARBITRARY_PLACEMENT,
    design: Some(DESIGN),
};

const MAX_WIDTH: u32 = 1 << 16;

fn build(p: &Params) -> Result<Network> {
    // A product of products is sized from its factors' closed forms before anything is built,
    // so a deep chain too large is refused at once, not after building every level below it.
    sizes(p)?;
    let a = factor(p, "a")?;
    let b = factor(p, "b")?;
    let wa = p.opt_u32("wa", 1, MAX_WIDTH)?.unwrap_or(1);
    let wb = p.opt_u32("wb", 1, MAX_WIDTH)?.unwrap_or(1);
    check_directions(p, &a, &b)?;
    let (na, nb) = (a.num_routers() as u128, b.num_routers() as u128);
    ensure_size(
        p,
        "b",
        format!("({}) for a = ({})", b.spec(), a.spec()),
        na * nb,
        na * b.links().len() as u128 + nb * a.links().len() as u128,
    )?;
    for (name, w, net) in [("wa", wa, &a), ("wb", wb, &b)] {
        let widest = net.links().iter().map(|l| l.width).max().unwrap_or(1);
        if widest.checked_mul(w).is_none() {
            return Err(p.invalid(
                name,
                w,
                &format!(
                    "a multiplier keeping link widths below 2^32 (the factor has width {widest})"
                ),
            ));
        }
    }
    let net = cartesian(&a, &b, wa, wb)?;
    if !p.has("p") {
        return Ok(net);
    }
    let routers = net.num_routers();
    net.with_endpoints(vec![read_p(p, 0)?; routers])
}

/// From the factors' sizes: a router (u, v) has wa deg(u) + wb deg(v) links, so the busiest
/// pairs the busiest of each; balanced for p <= min(wa p_a, wb p_b), the factors' balanced
/// concentrations (Besta & Hoefler, SC14, §II-B2 for a Slim Fly factor, Daryin & Korzh, JSFI 2014,
/// §1.2 for a FlatFly one, §1.5). Without `p` the endpoints are a's; when a is indirect (some
/// routers carry none) and wa > 1 the busiest router is not known from a's sizes alone and the
/// radix is a bound.
fn sizes(p: &Params) -> Result<Sizes> {
    let (a_spec, b_spec) = (factor_spec(p, "a")?, factor_spec(p, "b")?);
    let a = factor_sizes(p, "a", &a_spec)?;
    let b = factor_sizes(p, "b", &b_spec)?;
    let wa = p.opt_u32("wa", 1, MAX_WIDTH)?.unwrap_or(1);
    let wb = p.opt_u32("wb", 1, MAX_WIDTH)?.unwrap_or(1);
    let routers = a.routers as u128 * b.routers as u128;
    ensure_size(p, "b", format!("({b_spec}) for a = ({a_spec})"), routers, 0)?;
    let network_radix = wa * a.network_radix + wb * b.network_radix;
    let balanced = (wa as f64 * a.balanced_concentration).min(wb as f64 * b.balanced_concentration);
    if p.has("p") {
        return Ok(Sizes::direct(
            routers,
            network_radix,
            read_p(p, 0)?,
            balanced,
        ));
    }
    let a_direct = a.endpoints == a.routers * a.concentration as u64;
    let (radix, radix_is_bound) = if wa == 1 {
        (a.radix + wb * b.network_radix, a.radix_is_bound)
    } else {
        (
            network_radix + a.concentration,
            a.radix_is_bound || !a_direct,
        )
    };
    Ok(Sizes {
        routers: routers as u64,
        endpoints: a.endpoints * b.routers,
        radix,
        network_radix,
        concentration: a.concentration,
        balanced_concentration: balanced,
        load: a.concentration as f64 / balanced,
        radix_is_bound: radix_is_bound || b.radix_is_bound,
    })
}

/// The sizes of factor `name`, errors named as `factor` names them.
fn factor_sizes(p: &Params, name: &str, spec: &TopologySpec) -> Result<Sizes> {
    super::sizes(spec).map_err(|e| p.invalid(name, format!("({spec})"), &e.to_string()))
}

fn factor_spec(p: &Params, name: &str) -> Result<TopologySpec> {
    p.spec(name, "a nested topology spec, e.g. (slimfly:q=4)")
        .map_err(|e| match e {
            TopolabError::SpecSyntax { ref spec, .. } => {
                p.invalid(name, format!("'{spec}'"), &e.to_string())
            }
            other => other,
        })
}

/// The factor network of parameter `name`; any error inside it is reported as a bad value of
/// `name` so that the user learns which factor is wrong.
fn factor(p: &Params, name: &str) -> Result<Network> {
    let spec = factor_spec(p, name)?;
    super::build(&spec).map_err(|e| p.invalid(name, format!("({spec})"), &e.to_string()))
}

fn check_directions(p: &Params, a: &Network, b: &Network) -> Result<()> {
    if a.directed() == b.directed() {
        return Ok(());
    }
    let kind = |d: bool| if d { "a directed" } else { "an undirected" };
    Err(p.invalid(
        "b",
        format!("({}), {} topology", b.spec(), kind(b.directed())),
        &format!(
            "{} topology like a = ({}); mixed products are not defined",
            kind(a.directed()),
            a.spec()
        ),
    ))
}

/// The product network with a's per-router endpoint counts at every (u, v).
fn cartesian(a: &Network, b: &Network, wa: u32, wb: u32) -> Result<Network> {
    let (na, nb) = (a.num_routers(), b.num_routers());
    let mut out = NetworkBuilder::new("product", na * nb, a.directed());
    let fields: Vec<String> = a
        .label_fields()
        .iter()
        .map(|f| format!("a.{f}"))
        .chain(b.label_fields().iter().map(|f| format!("b.{f}")))
        .collect();
    out.label_fields(&fields.iter().map(String::as_str).collect::<Vec<_>>());
    let a_class: Vec<u16> = a
        .link_classes()
        .iter()
        .map(|c| out.link_class(&format!("a:{c}")))
        .collect();
    let b_class: Vec<u16> = b
        .link_classes()
        .iter()
        .map(|c| out.link_class(&format!("b:{c}")))
        .collect();
    let mut label = Vec::with_capacity(fields.len());
    for u in 0..na {
        for v in 0..nb {
            label.clear();
            label.extend_from_slice(a.label(u));
            label.extend_from_slice(b.label(v));
            out.set_label(u * nb + v, &label);
            out.set_endpoints(u * nb + v, a.endpoints()[u]);
        }
    }
    for u in 0..na {
        for l in b.links() {
            let (s, d) = (u * nb + l.src as usize, u * nb + l.dst as usize);
            out.add_link(s, d, l.width * wb, b_class[l.class as usize]);
        }
    }
    for v in 0..nb {
        for l in a.links() {
            let (s, d) = (l.src as usize * nb + v, l.dst as usize * nb + v);
            out.add_link(s, d, l.width * wa, a_class[l.class as usize]);
        }
    }
    out.build()
}

/// What `topolab compare` tries of this family (docs/compare.md §1).
const DESIGN: DesignSpace = DesignSpace {
    enumerate: design_space,
    smaller_members: None,
    twin: None,
    twin_origin: None,
};

/// Slim Fly x FlatFly (Daryin & Korzh, JSFI 2014, §1.5): an MMS graph (q, link width wa in {1, 2})
/// times a 1D or square 2D HyperX of size m with unit widths; radix p + wa k'_q + n (m - 1); per
/// (q, wa, n, p) the m with N nearest the target. Balanced for p <= min(wa ceil(k'/2), m)
/// (Besta & Hoefler, SC14, §II-B2 for the Slim Fly factor, Daryin & Korzh, JSFI 2014, §1.2 for the
/// FlatFly factor).
fn design_space(w: &Window) -> Vec<Candidate> {
    let mut out = Vec::new();
    // The Slim Fly factor alone has k' >= q ports.
    for q in 3..w.radix {
        let Some(sf) = sizes_of("slimfly", &[("q", q.into())]) else {
            continue;
        };
        if sf.network_radix + 2 > w.radix {
            break;
        }
        for wa in [1u32, 2] {
            for n in [1usize, 2] {
                let mut groups: BTreeMap<u32, Vec<Candidate>> = BTreeMap::new();
                for m in 2u32.. {
                    let mut params = vec![
                        ("a", Value::Spec(format!("slimfly:q={q}"))),
                        (
                            "b",
                            Value::Spec(format!("hyperx:dims={}", join_x(&vec![m; n]))),
                        ),
                    ];
                    if wa > 1 {
                        params.push(("wa", wa.into()));
                    }
                    let with_p = |p: u32| {
                        let mut all = params.clone();
                        all.push(("p", p.into()));
                        all
                    };
                    let Some(base) = sizes_of("product", &with_p(1)) else {
                        break;
                    };
                    if base.radix > w.radix || base.routers > w.hi {
                        break;
                    }
                    for p in
                        w.concentrations(base.routers, w.radix as i64 - base.network_radix as i64)
                    {
                        let c = candidate(
                            "product",
                            with_p(p),
                            "Daryin & Korzh, JSFI 2014, §1.5",
                            vec![format!("SF x FF {n}D")],
                            false,
                        );
                        if let Some(c) = c.filter(|c| w.admits(c.sizes.load)) {
                            groups.entry(p).or_default().push(c);
                        }
                    }
                }
                for (_, group) in groups {
                    let key =
                        |c: &Candidate| (c.sizes.endpoints.abs_diff(w.target), c.sizes.endpoints);
                    out.extend(group.into_iter().min_by_key(key));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::distance::diameter;

    fn directed_cycle(n: usize) -> Network {
        let mut b = NetworkBuilder::new("cycle", n, true);
        let c = b.link_class("arc");
        for i in 0..n {
            b.add_link(i, (i + 1) % n, 1, c);
        }
        b.uniform_endpoints(1);
        b.build().unwrap()
    }

    #[test]
    fn directed_cycles_multiply_into_a_directed_torus() {
        // C3 x C4 directed: every router has out-degree 2 and the diameter is 2 + 3 = 5.
        let net = cartesian(&directed_cycle(3), &directed_cycle(4), 1, 1).unwrap();
        assert!(net.directed());
        assert_eq!(net.num_routers(), 12);
        assert_eq!(net.links().len(), 24);
        assert!((0..12).all(|r| net.degree(r) == 2));
        assert_eq!(diameter(&net), Some(5));
        // The arc (0,0) -> (0,1) exists but not its reverse.
        assert!(net.neighbors(0).contains(&1));
        assert!(!net.neighbors(1).contains(&0));
    }

    #[test]
    fn mixing_directed_and_undirected_is_an_error_naming_b() {
        let values = Default::default();
        let p = Params::new("product", &values);
        let mut und = NetworkBuilder::new("ring", 3, false);
        let c = und.link_class("ring");
        und.add_link(0, 1, 1, c)
            .add_link(1, 2, 1, c)
            .add_link(0, 2, 1, c);
        let und = und.build().unwrap();
        let e = check_directions(&p, &directed_cycle(3), &und).unwrap_err();
        assert!(
            matches!(&e, TopolabError::InvalidParameter { param, .. } if param == "b"),
            "{e}"
        );
        assert!(e.to_string().contains("directed topology like a"), "{e}");
        assert!(check_directions(&p, &directed_cycle(3), &directed_cycle(4)).is_ok());
    }
}

#[cfg(test)]
mod construction {
    //! Cartesian products: the definition checked by brute force, diameters adding up, the
    //! SF x FF networks of Daryin & Korzh, JSFI 2014, §1.5 and errors naming the nested parameter.

    use crate::metrics::distance::diameter;
    use crate::{build_str, Network, TopolabError};
    use std::collections::BTreeMap;

    fn link_between(net: &Network, x: usize, y: usize) -> Option<(u32, String)> {
        let pos = net.neighbors(x).iter().position(|&n| n as usize == y)?;
        let l = net.links()[net.neighbor_links(x)[pos] as usize];
        Some((l.width, net.link_classes()[l.class as usize].clone()))
    }

    #[test]
    fn links_labels_and_endpoints_follow_the_definition() {
        let a = build_str("slimfly:q=3").unwrap();
        let b = build_str("dln:routers=7,shortcuts=2,seed=4").unwrap();
        let net =
            build_str("product:a=(slimfly:q=3),b=(dln:routers=7,shortcuts=2,seed=4),wa=2,wb=3")
                .unwrap();
        let (na, nb) = (a.num_routers(), b.num_routers());
        assert_eq!(net.num_routers(), na * nb);
        assert_eq!(net.label_fields(), ["a.t", "a.x", "a.y", "b.index"]);
        assert_eq!(
            net.link_classes(),
            ["a:local", "a:global", "b:ring", "b:shortcut"]
        );
        assert_eq!(
            net.num_links(),
            na as u64 * b.num_links() * 3 + nb as u64 * a.num_links() * 2
        );
        for x in 0..net.num_routers() {
            let (u, v) = (x / nb, x % nb);
            let mut label = a.label(u).to_vec();
            label.extend_from_slice(b.label(v));
            assert_eq!(net.label(x), label.as_slice(), "label of {x}");
            assert_eq!(
                net.endpoints()[x],
                a.endpoints()[u],
                "endpoints default to a's"
            );
            assert_eq!(net.degree(x), 2 * a.degree(u) + 3 * b.degree(v));
            for y in 0..net.num_routers() {
                let (u2, v2) = (y / nb, y % nb);
                let expected = if u == u2 {
                    link_between(&b, v, v2).map(|(w, c)| (3 * w, format!("b:{c}")))
                } else if v == v2 {
                    link_between(&a, u, u2).map(|(w, c)| (2 * w, format!("a:{c}")))
                } else {
                    None
                };
                assert_eq!(link_between(&net, x, y), expected, "({u},{v})-({u2},{v2})");
            }
        }
    }

    #[test]
    fn diameter_is_the_sum_of_the_factor_diameters() {
        for (sa, sb) in [
            ("slimfly:q=3", "jellyfish:routers=4,degree=3"),
            ("dln:routers=9,shortcuts=0", "slimfly:q=3"),
            (
                "jellyfish:routers=30,degree=3,seed=1",
                "dln:routers=10,shortcuts=1",
            ),
            (
                "jellyfish:routers=2,degree=1",
                "jellyfish:routers=7,degree=2",
            ),
            (
                "product:a=(dln:routers=5,shortcuts=0),b=(jellyfish:routers=6,degree=3)",
                "dln:routers=8,shortcuts=1,seed=2",
            ),
        ] {
            let da = diameter(&build_str(sa).unwrap()).unwrap();
            let db = diameter(&build_str(sb).unwrap()).unwrap();
            let net = build_str(&format!("product:a=({sa}),b=({sb})")).unwrap();
            assert_eq!(diameter(&net), Some(da + db), "({sa}) x ({sb})");
        }
    }

    /// The FlatFly K_n1 x K_n2 x ... of Daryin & Korzh, JSFI 2014, §1.2 as a product of complete graphs
    /// (Jellyfish of degree n - 1 is K_n), nested to the right.
    fn flatfly(dims: &[u32]) -> String {
        let k = |n: u32| format!("jellyfish:routers={n},degree={}", n - 1);
        match dims {
            [n] => k(*n),
            [n, rest @ ..] => format!("product:a=({}),b=({})", k(*n), flatfly(rest)),
            [] => unreachable!(),
        }
    }

    #[test]
    fn sf_x_ff_1_of_003() {
        // Daryin & Korzh, JSFI 2014, §1.5: Slim Fly q = 4 with link width L = 2 times FlatFly 8x8, C =
        // 8: 2,048 switches, 16,384 nodes, degree 34, diameter 4.
        let net = build_str(&format!(
            "product:a=(slimfly:q=4),b=({}),wa=2,p=8",
            flatfly(&[8, 8])
        ))
        .unwrap();
        assert_eq!(net.num_routers(), 2048);
        assert_eq!(net.num_endpoints(), 16384);
        assert!((0..2048).all(|r| net.degree(r) + net.endpoints()[r] == 34));
        assert_eq!(diameter(&net), Some(4));
        // "Saves 1,024 optical cables" against the 4D FlatFly 4x8x8x8 with widths 2,1,1,1, whose
        // degree C + sum L_n (K_n - 1) = 35 gives 2048 * (35 - 8) / 2 cables (Daryin & Korzh, JSFI
        // 2014, §1.2).
        assert_eq!(net.num_links(), 2048 * (35 - 8) / 2 - 1024);
        // "Each twin rack is connected to 6 other racks using bundles of 128 cables": a twin rack
        // is one 8x8 FlatFly (64 switches sharing the Slim Fly coordinate).
        let rack = |r: u32| r as usize / 64;
        let mut bundles: BTreeMap<(usize, usize), u64> = BTreeMap::new();
        for l in net.links() {
            if rack(l.src) != rack(l.dst) {
                *bundles.entry((rack(l.src), rack(l.dst))).or_default() += l.width as u64;
            }
        }
        for r in 0..32 {
            let mine: Vec<u64> = bundles
                .iter()
                .filter(|((x, y), _)| *x == r || *y == r)
                .map(|(_, &c)| c)
                .collect();
            assert_eq!(mine, vec![128; 6], "rack {r}");
        }
    }

    #[test]
    fn sf_x_ff_2_of_003() {
        // Daryin & Korzh, JSFI 2014, §1.5: Slim Fly q = 8 (L = 1) times FlatFly K16, C = 8: degree 35,
        // diameter 3.
        let net = build_str(&format!(
            "cartesian:a=(slimfly:q=8),b=({}),p=8",
            flatfly(&[16])
        ))
        .unwrap();
        assert_eq!(net.family(), "product");
        assert_eq!(net.num_routers(), 2048);
        assert_eq!(net.num_endpoints(), 16384);
        assert!((0..2048).all(|r| net.degree(r) + net.endpoints()[r] == 35));
        assert_eq!(diameter(&net), Some(3));
    }

    #[test]
    fn p_overrides_the_endpoints_and_the_spec_round_trips() {
        let spec = "product:a=(dln:routers=5,shortcuts=0,p=3),b=(slimfly:q=3)";
        let net = build_str(spec).unwrap();
        assert!(net.endpoints().iter().all(|&e| e == 3));
        let none = build_str(&format!("{spec},p=0")).unwrap();
        assert_eq!(none.num_endpoints(), 0);
        let again = build_str(net.spec()).unwrap();
        assert_eq!(again.links(), net.links());
        assert_eq!(again.spec(), net.spec());
    }

    #[test]
    fn errors_name_the_parameter_and_the_nested_problem() {
        for (spec, param, needles) in [
            (
                "product:a=(slimfly:q=6),b=(slimfly:q=3)",
                "a",
                &["(slimfly:q=6)", "slimfly: parameter 'q'"][..],
            ),
            (
                "product:a=(slimfly:q=3),b=(nosuch:x=1)",
                "b",
                &["unknown topology family 'nosuch'"][..],
            ),
            (
                "product:a=(slimfly:q=3,z=1),b=(slimfly:q=3)",
                "a",
                &["unknown parameter 'z'"][..],
            ),
            (
                "product:a=(slimfly),b=(slimfly:q=3)",
                "a",
                &["missing parameter 'q'"][..],
            ),
            (
                "product:a=slim fly,b=(slimfly:q=3)",
                "a",
                &["cannot parse spec 'slim fly'"][..],
            ),
            (
                "product:a=(slimfly:q=3),b=(slimfly:q=3),wa=0",
                "wa",
                &["from 1"][..],
            ),
            (
                "product:a=(slimfly:q=3),b=(slimfly:q=3),wb=x",
                "wb",
                &["integer"][..],
            ),
            (
                "product:a=(slimfly:q=3),b=(slimfly:q=3),p=-2",
                "p",
                &["from 0"][..],
            ),
            (
                "product:a=(jellyfish:routers=5000,degree=4),b=(jellyfish:routers=5000,degree=4)",
                "b",
                &["at most"][..],
            ),
        ] {
            let e = build_str(spec).unwrap_err();
            assert!(
                matches!(&e, TopolabError::InvalidParameter { param: p, .. } if p == param),
                "{spec}: {e}"
            );
            for needle in needles {
                assert!(e.to_string().contains(needle), "{spec}: {e}");
            }
        }
        let e = build_str("product:b=(slimfly:q=3)").unwrap_err();
        assert!(
            matches!(&e, TopolabError::MissingParameter { param, .. } if param == "a"),
            "{e}"
        );
        let e = build_str("product:a=(slimfly:q=3),b=(slimfly:q=3").unwrap_err();
        assert!(matches!(e, TopolabError::SpecSyntax { .. }), "{e}");
        let e = build_str("product:a=(slimfly:q=3),b=(slimfly:q=3),c=1").unwrap_err();
        assert!(matches!(e, TopolabError::UnknownParameter { .. }), "{e}");
    }
}
