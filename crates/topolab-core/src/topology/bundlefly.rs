//! Bundlefly (Lei, Dong, Cheng et al., "Bundlefly: a low-diameter topology for multicore fiber",
//! ICS 2020): the star product (`star`) of Slim Fly's MMS graph (`slimfly`, parameter q) with a
//! Paley graph of order a (a prime power ≡ 1 mod 4), diameter 3.
//!
//! Every MMS link u - v (u < v) is the arc u -> v, and along it vertex x of supernode u is joined
//! to vertex ξx of supernode v (ξ the primitive element of GF(a)): multiplication by a
//! non-square, an isomorphism from the Paley graph onto its complement, as Lei et al. require of
//! the bijection. The a links between two supernodes run side by side: the bundle that one
//! multicore fiber carries.
//!
//! Diameter 3 for any orientation: supernodes at distance 2 in the MMS graph have a common
//! neighbour z; going x -> z -> y applies g2 ∘ g1 with g1, g2 ∈ {f, f^-1}. If g2 = g1^-1 the
//! route returns to vertex s, and one supernode hop in the middle reaches g2(Γ(g1(s))), the
//! non-neighbours of s (g2 maps edges to non-edges); with the hop before or after, Γ[s] too. If
//! g2 ∘ g1 = f^±2, an automorphism h, the middle hop reaches the non-neighbours of h(s) and the
//! last hop Γ[h(s)]. Adjacent supernodes: one arc and the Paley graph's diameter 2.
//!
//! Routers: 2q^2 · a, network radix (3q - δ)/2 + (a - 1)/2.

use super::design::{
    balanced_of, candidate, scaled_p, sizes_of, Candidate, DesignSpace, Member, Window,
};
use super::{
    ensure_size, p_param, read_p, slimfly,
    star::{add_star_product, paley, paley_order_ok, star_balance, Structure},
    Family, FamilyPlacement, FamilyRouting, ParamDef, ParamKind, SimulationChoice, Sizes,
};
use crate::error::Result;
use crate::field::Field;
use crate::network::{Network, NetworkBuilder};
use crate::spec::Params;

pub const FAMILY: Family = Family {
    name: "bundlefly",
    aliases: &["bf"],
    summary: "Bundlefly: MMS graph star Paley graph, diameter 3, 2q^2 a routers of network radix (3q-delta)/2 + (a-1)/2",
    source: "Lei et al., ICS 2020 (Bundlefly); star product of Bermond, Delorme & Farhi 1982",
    directed: false,
    params: &[
        ParamDef {
            name: "q",
            kind: ParamKind::Int,
            default: None,
            help: "prime power >= 3 of the MMS (Slim Fly) structure graph",
        },
        ParamDef {
            name: "a",
            kind: ParamKind::Int,
            default: None,
            help: "order of the Paley supernode graph: a prime power = 1 (mod 4), >= 5",
        },
        p_param("floor of the balanced p (Besta & Hoefler, SC14, §II-B2's channel load with the star product's distance bounds, star::star_balance)"),
    ],
    build,
    example: "bundlefly:q=3,a=5",
    samples: &[
        "bundlefly:q=3,a=5",
        "bundlefly:q=4,a=9,p=2",
        "bundlefly:q=5,a=5,p=5",
    ],
    display_name: "Bundlefly",
    sizes,
    routing: FamilyRouting {
        specific: &[],
        simulation: Some(
            SimulationChoice::new("min", "randperm", "ugal_l")
                .noted("no structural worst case built: a random permutation"),
        ),
    },
    placement: FamilyPlacement::Grouped {
        field: "supernode",
        what: "bundlefly racks: one Paley supernode per rack, the links between two racks a bundle (Lei et al., ICS 2020)",
        structure: "bundlefly (racks from the supernodes)",
    },
    design: Some(DESIGN),
};

/// (q, a, k', routers, p) after checking them.
fn read_shape(p: &Params) -> Result<(u32, u32, u32, u128, u32)> {
    let (q, k_mms) = slimfly::read_q(p)?;
    let a = p.u32("a", 5, 1024, "prime power = 1 (mod 4), >= 5")?;
    if !paley_order_ok(a) {
        return Err(p.invalid(
            "a",
            a,
            "a prime power = 1 (mod 4) (5, 9, 13, 17, 25, 29, ...): the Paley graph's order",
        ));
    }
    let k_net = k_mms + (a - 1) / 2;
    let routers = 2 * (q as u128).pow(2) * a as u128;
    ensure_size(p, "a", a, routers, routers * k_net as u128 / 2)?;
    let conc = read_p(p, balanced_p(k_mms, a, routers).floor().max(1.0) as u32)?;
    Ok((q, a, k_net, routers, conc))
}

fn balanced_p(k_mms: u32, a: u32, routers: u128) -> f64 {
    star_balance(k_mms, (a - 1) / 2, a, routers)
}

fn sizes(p: &Params) -> Result<Sizes> {
    let (q, a, k_net, routers, conc) = read_shape(p)?;
    let k_mms = slimfly::network_radix(q).expect("checked by read_q");
    Ok(Sizes::direct(
        routers,
        k_net,
        conc,
        balanced_p(k_mms, a, routers),
    ))
}

fn build(p: &Params) -> Result<Network> {
    let (q, a, _, routers, conc) = read_shape(p)?;
    let mms_field = Field::new(q, "bundlefly", "q")?;
    let arcs: Vec<(u32, u32)> = slimfly::mms_links(&mms_field)
        .into_iter()
        .map(|(u, v, _)| (u, v))
        .collect();
    let structure = Structure {
        vertices: 2 * (q * q) as usize,
        arcs: &arcs,
        loops: &[],
    };
    let supernode = paley(&Field::new(a, "bundlefly", "a")?);
    let mut b = NetworkBuilder::new("bundlefly", routers as usize, false);
    add_star_product(&mut b, &structure, &supernode)?;
    b.uniform_endpoints(conc);
    b.build()
}

/// What `topolab compare` tries of this family (docs/compare.md §1).
const DESIGN: DesignSpace = DesignSpace {
    enumerate: design_space,
    smaller_members: Some(smaller_members),
    twin: None,
    twin_origin: None,
};

/// MMS graph of every prime power q >= 3 star a Paley graph of every order a = 1 (mod 4), a
/// prime power, with (3q - delta)/2 + (a - 1)/2 leaving a port; every p putting N in the
/// window. Balanced p as for BDF (star::star_balance).
fn design_space(w: &Window) -> Vec<Candidate> {
    let mut out = Vec::new();
    for q in 3..w.radix {
        let Some(mms) = sizes_of("slimfly", &[("q", q.into()), ("p", 1u32.into())]) else {
            continue;
        };
        if mms.network_radix + 3 > w.radix {
            break; // the smallest Paley graph has degree 2
        }
        for a in (5..2 * (w.radix - mms.network_radix)).step_by(4) {
            let params = |p: u32| vec![("q", q.into()), ("a", a.into()), ("p", p.into())];
            let Some(base) = sizes_of("bundlefly", &params(1)) else {
                continue;
            };
            if base.network_radix + 1 > w.radix || base.routers > w.hi {
                break;
            }
            for p in w.concentrations(base.routers, w.radix as i64 - base.network_radix as i64) {
                out.extend(candidate(
                    "bundlefly",
                    params(p),
                    "Lei et al., ICS 2020",
                    Vec::new(),
                    false,
                ));
            }
        }
    }
    out
}

/// Smaller MMS graphs with the same Paley supernode, then smaller supernodes too.
fn smaller_members(m: &Member) -> Result<Vec<String>> {
    let (q, a) = (m.int("q")?, m.int("a")?);
    let mut out = Vec::new();
    for q2 in 3..=q {
        for a2 in (5..=a).step_by(4) {
            if (q2, a2) == (q, a) {
                continue;
            }
            if let Some(pb) = balanced_of(&format!("bundlefly:q={q2},a={a2}")) {
                let p2 = scaled_p(m.p(), m.balanced(), pb);
                out.push(format!("bundlefly:q={q2},a={a2},p={p2}"));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod construction {
    //! Bundlefly (Lei et al., ICS 2020): MMS graph star Paley graph.

    use crate::field::Field;
    use crate::metrics::distance::diameter;
    use crate::topology::star::paley;
    use crate::{build_str, sizes_str};

    #[test]
    fn sizes_radix_and_diameter_three() {
        // (q, a): routers 2 q^2 a, network radix (3q - delta)/2 + (a - 1)/2
        for (q, a, k_mms) in [
            (3u32, 5u32, 5u32),
            (3, 9, 5),
            (4, 5, 6),
            (5, 5, 7),
            (3, 13, 5),
        ] {
            let spec = format!("bundlefly:q={q},a={a}");
            let net = build_str(&spec).unwrap();
            assert_eq!(net.num_routers() as u32, 2 * q * q * a, "{spec}");
            let k = k_mms + (a - 1) / 2;
            assert!(
                (0..net.num_routers()).all(|r| net.degree(r) == k),
                "{spec}: regular"
            );
            assert_eq!(diameter(&net), Some(3), "{spec}");
        }
        // Lei et al.'s radix-25 configurations: q = 7 (k' = 11) with a = 13 and p = 8, a = 17 and p = 6
        for (a, p) in [(13u32, 8u32), (17, 6)] {
            let s = sizes_str(&format!("bundlefly:q=7,a={a},p={p}")).unwrap();
            assert_eq!(s.radix, 25);
            assert_eq!(s.routers, 98 * a as u64);
        }
    }

    /// The Paley graph: (a-1)/2-regular, and the bijection maps it onto its complement.
    #[test]
    fn paley_supernode_and_its_bijection() {
        for a in [5u32, 9, 13, 17, 25] {
            let f = Field::new(a, "t", "a").unwrap();
            let g = paley(&f);
            let n = a as usize;
            let mut adj = vec![vec![false; n]; n];
            for &(x, y) in &g.edges {
                adj[x as usize][y as usize] = true;
                adj[y as usize][x as usize] = true;
            }
            for x in 0..n {
                assert_eq!(adj[x].iter().filter(|&&e| e).count(), n.div_ceil(2) - 1);
                for y in 0..n {
                    if x != y {
                        let (fx, fy) = (g.map[x] as usize, g.map[y] as usize);
                        assert_ne!(adj[x][y], adj[fx][fy], "a={a}: {x},{y}");
                    }
                }
            }
        }
    }

    #[test]
    fn impossible_parameters_are_errors_naming_them() {
        for (spec, needle) in [
            ("bundlefly:q=3,a=7", "'a'"),
            ("bundlefly:q=3,a=21", "'a'"),
            ("bundlefly:q=6,a=5", "'q'"),
            ("bundlefly:q=3", "missing parameter 'a'"),
        ] {
            let msg = build_str(spec).unwrap_err().to_string();
            assert!(msg.contains(needle), "{spec}: {msg}");
            assert_eq!(sizes_str(spec).unwrap_err().to_string(), msg);
        }
    }
}
