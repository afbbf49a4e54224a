//! DLN-2-γ random shortcut networks (Besta & Hoefler, SC14, §III footnote 2, after Koibuchi et al.,
//! ISCA'12 [42]): a ring of the routers (degree 2) plus γ random shortcut links at every router.
//!
//! Besta & Hoefler (SC14) fix only "a ring plus γ additional random shortcuts added to each
//! vertex". The shortcuts here form a random simple γ-regular graph that avoids the ring's links
//! (so every router has degree exactly 2 + γ): the Steger–Wormald pairing of the Jellyfish family
//! with the ring links forbidden. The ring keeps the network connected for every draw. Table IV's
//! two DLNs are regular in this sense: their cable counts are exactly N_r·(k - p)/2.

use super::design::{
    free_router_count, random_graph_members, Candidate, DesignParams, DesignSpace, Member, Value,
    Window,
};
use super::jellyfish::{balanced_p, random_regular, MAX_ATTEMPTS};
use super::{
    ensure_size, moore_balance, p_param, read_p, Family, ParamDef, ParamKind, Sizes,
    ARBITRARY_PLACEMENT, RANDOM_GRAPH_ROUTING, SEED_PARAM,
};
use crate::error::{Result, TopolabError};
use crate::network::{Network, NetworkBuilder};
use crate::rng::{stream, Stream};
use crate::spec::Params;

pub const FAMILY: Family = Family {
    name: "dln",
    aliases: &["dln_2", "random_shortcut"],
    summary: "DLN-2-gamma: ring plus gamma random shortcuts per router (degree 2 + gamma)",
    source: "Besta & Hoefler, SC14, §III (footnote 2, Tables II-IV), after Koibuchi et al. ISCA'12",
    directed: false,
    params: &[
        ParamDef {
            name: "routers",
            kind: ParamKind::Int,
            default: None,
            help: "number of routers on the ring, >= 3",
        },
        ParamDef {
            name: "shortcuts",
            kind: ParamKind::Int,
            default: None,
            help: "gamma: random shortcut links per router, 0 <= gamma <= routers - 3, routers*gamma even",
        },
        p_param("floor(sqrt(k)) for the router radix k = 2 + gamma + p (Besta & Hoefler, SC14, §III)"),
        SEED_PARAM,
    ],
    build,
    example: "dln:routers=64,shortcuts=4",
    samples: &[
        "dln:routers=64,shortcuts=4",
        "dln:routers=9,shortcuts=0,p=2",
    ],
    display_name: "DLN",
    sizes,
    routing: RANDOM_GRAPH_ROUTING,
    placement: ARBITRARY_PLACEMENT,
    design: Some(DESIGN),
};

/// Degree 2 + gamma everywhere; balanced by the Moore-bound estimate (`moore_balance`).
fn sizes(p: &Params) -> Result<Sizes> {
    let (n, gamma, conc, _) = read_shape(p)?;
    let d = 2 + gamma;
    Ok(Sizes::direct(
        n as u128,
        d,
        conc,
        moore_balance(d, n as u64, false),
    ))
}

/// (routers, shortcuts, p, seed) after checking them.
fn read_shape(p: &Params) -> Result<(u32, u32, u32, u64)> {
    let n = p.u32("routers", 3, u32::MAX - 1, "number of routers on the ring")?;
    let gamma = p.u32(
        "shortcuts",
        0,
        u32::MAX,
        "gamma, random shortcut links per router",
    )?;
    if gamma > n - 3 {
        return Err(p.invalid(
            "shortcuts",
            gamma,
            &format!(
                "at most routers - 3 = {} (each router already has 2 ring links and no parallel links)",
                n - 3
            ),
        ));
    }
    if (n as u64 * gamma as u64) % 2 == 1 {
        return Err(p.invalid(
            "shortcuts",
            gamma,
            &format!(
                "an even number when routers = {n} is odd (routers*shortcuts link ends pair up)"
            ),
        ));
    }
    ensure_size(
        p,
        "routers",
        n,
        n as u128,
        n as u128 * (2 + gamma as u128) / 2,
    )?;
    let conc = read_p(p, balanced_p(2 + gamma))?;
    Ok((n, gamma, conc, p.seed()?))
}

fn build(p: &Params) -> Result<Network> {
    let (n, gamma, conc, seed) = read_shape(p)?;

    let ring = move |u: u32, v: u32| {
        let gap = u.abs_diff(v);
        gap == 1 || gap == n - 1
    };
    let shortcuts = (0..MAX_ATTEMPTS)
        .find_map(|attempt| {
            let mut rng = stream(seed, Stream::Construction, attempt);
            random_regular(n, gamma, 2, ring, &mut rng)
        })
        .ok_or_else(|| {
            TopolabError::InvalidNetwork(format!(
                "dln: no {gamma} shortcuts per router avoiding the ring of {n} found in {MAX_ATTEMPTS} attempts (seed {seed})"
            ))
        })?;

    let mut b = NetworkBuilder::new("dln", n as usize, false);
    let ring_class = b.link_class("ring");
    let shortcut_class = b.link_class("shortcut");
    for i in 0..n as usize {
        b.add_link(i, (i + 1) % n as usize, 1, ring_class);
    }
    for (u, v) in shortcuts {
        b.add_link(u as usize, v as usize, 1, shortcut_class);
    }
    b.uniform_endpoints(conc);
    b.build()
}

/// What `topolab compare` tries of this family (docs/compare.md §1).
const DESIGN: DesignSpace = DesignSpace {
    enumerate: design_space,
    smaller_members: Some(smaller_members),
    twin: Some(twin),
    twin_origin: None,
};

/// A ring (2 links per router) plus degree - 2 shortcuts.
fn twin(routers: u64, degree: u32, p: u32) -> DesignParams {
    vec![
        ("routers", routers.into()),
        ("shortcuts", Value::Int(degree as i64 - 2)),
        ("p", p.into()),
    ]
}

/// DLN-2-gamma (Besta & Hoefler, SC14, §III, Table IV): ring plus gamma = d - 2 shortcuts, same
/// choices as Jellyfish (full radix and twins; Besta & Hoefler, SC14, Table IV's DLN has its DF's
/// 1,386 routers and p = 7).
fn design_space(w: &Window) -> Vec<Candidate> {
    free_router_count(w, "dln", "Besta & Hoefler, SC14, §III, Table IV", &twin)
}

/// Smaller degrees with routers / degree^2 kept.
fn smaller_members(m: &Member) -> Result<Vec<String>> {
    Ok(random_graph_members(
        m,
        m.int("routers")?,
        m.int("shortcuts")? + 2,
        &|routers, d| format!("dln:routers={routers},shortcuts={}", d - 2),
    ))
}

#[cfg(test)]
mod construction {
    //! DLN-2-γ (ring plus γ random shortcuts per router, Besta & Hoefler, SC14, §III): counts, the
    //! ring, exact degrees, simplicity, determinism and the DLN sizes of Besta & Hoefler, SC14, Table
    //! IV.

    use crate::metrics::distance::{diameter, distances_from, UNREACHABLE};
    use crate::{build_str, Network, TopolabError};

    /// Ring i ~ i+1 present with class "ring", every router of degree 2 + gamma with distinct
    /// neighbours, shortcuts never duplicating a ring link, connected.
    fn assert_dln(net: &Network, n: usize, gamma: u32) {
        assert_eq!(net.num_routers(), n);
        assert_eq!(net.link_classes(), ["ring", "shortcut"]);
        let ring_links = net.links().iter().filter(|l| l.class == 0).count();
        let shortcut_links = net.links().iter().filter(|l| l.class == 1).count();
        assert_eq!(ring_links, n, "the ring has n links");
        assert_eq!(
            shortcut_links as u64,
            n as u64 * gamma as u64 / 2,
            "n*gamma/2 shortcuts"
        );
        for l in net.links() {
            assert_eq!(l.width, 1);
            let gap = l.src.abs_diff(l.dst) as usize;
            let on_ring = gap == 1 || gap == n - 1;
            assert_eq!(on_ring, l.class == 0, "link {}-{} class", l.src, l.dst);
        }
        for r in 0..n {
            let nb = net.neighbors(r);
            assert_eq!(nb.len() as u32, 2 + gamma, "router {r}");
            assert_eq!(net.degree(r), 2 + gamma);
            assert!(nb.windows(2).all(|w| w[0] < w[1]), "parallel links at {r}");
            assert!(!nb.contains(&(r as u32)), "self-loop at {r}");
            assert!(
                nb.contains(&(((r + 1) % n) as u32)),
                "ring successor of {r}"
            );
        }
        assert!(distances_from(net, 0).iter().all(|&d| d != UNREACHABLE));
    }

    #[test]
    fn ring_plus_gamma_shortcuts_for_sparse_and_dense_gamma() {
        for (n, gamma) in [
            (3usize, 0u32),
            (4, 1),
            (5, 2),
            (6, 3),
            (7, 4),
            (8, 1),
            (12, 9),
            (13, 8),
            (20, 4),
            (21, 10),
            (64, 4),
            (500, 7),
            (1000, 30),
        ] {
            for seed in 0..3 {
                let net =
                    build_str(&format!("dln:routers={n},shortcuts={gamma},seed={seed}")).unwrap();
                assert_dln(&net, n, gamma);
            }
        }
    }

    #[test]
    fn gamma_zero_is_the_ring_and_gamma_n_minus_3_the_complete_graph() {
        let ring = build_str("dln:routers=11,shortcuts=0").unwrap();
        assert_eq!(diameter(&ring), Some(5));
        let complete = build_str("dln:routers=10,shortcuts=7").unwrap();
        assert_eq!(complete.num_links(), 45);
        assert_eq!(diameter(&complete), Some(1));
    }

    #[test]
    fn the_dlns_of_table_iv() {
        // Besta & Hoefler, SC14, Table IV: DLN with N = 9,702, N_r = 1,386, k = 28 and 6,837 + 7,716
        // cables, and DLN with N = 40,200, N_r = 4,020, k = 43 and 32,488 + 33,842 cables. k - p = 2 +
        // gamma.
        for (n, gamma, p, endpoints, radix, cables) in [
            (1386usize, 19u32, 7u32, 9702u64, 28u32, 6837u64 + 7716),
            (4020, 31, 10, 40200, 43, 32488 + 33842),
        ] {
            let net = build_str(&format!("dln:routers={n},shortcuts={gamma},p={p}")).unwrap();
            assert_dln(&net, n, gamma);
            assert_eq!(net.num_endpoints(), endpoints);
            assert_eq!(net.radix(), radix);
            assert_eq!(net.num_links(), cables);
        }
    }

    #[test]
    fn the_smaller_table_iv_dln_has_a_diameter_in_the_range_of_table_ii() {
        // Besta & Hoefler, SC14, Table II quotes diameters 3-10 for DLN. Three is also the least
        // possible here: 1 + 21 + 21*20 = 442 < 1,386 routers lie within two hops of any router.
        for seed in 0..2 {
            let net = build_str(&format!("dln:routers=1386,shortcuts=19,seed={seed}")).unwrap();
            let d = diameter(&net).unwrap();
            assert!((3..=10).contains(&d), "seed {seed}: diameter {d}");
        }
    }

    #[test]
    fn default_p_is_floor_sqrt_of_the_router_radix() {
        // Besta & Hoefler, SC14, §III: p = floor(sqrt(k)) for DLN, k = 2 + gamma + p.
        for (gamma, p) in [(0u32, 2u32), (2, 2), (4, 3), (19, 5), (31, 6)] {
            let net = build_str(&format!("dln:routers=100,shortcuts={gamma}")).unwrap();
            let k = net.radix();
            assert_eq!(net.endpoints()[0], p, "gamma {gamma}");
            assert_eq!(k, 2 + gamma + p);
            assert!(p * p <= k && k < (p + 1) * (p + 1), "p = floor(sqrt({k}))");
        }
    }

    #[test]
    fn same_seed_same_links_different_seed_different_links() {
        for gamma in [3u32, 20] {
            let spec = |seed: u32| format!("dln:routers=30,shortcuts={gamma},seed={seed}");
            let a = build_str(&spec(5)).unwrap();
            let b = build_str(&spec(5)).unwrap();
            let c = build_str(&spec(6)).unwrap();
            assert_eq!(a.links(), b.links());
            assert_ne!(a.links(), c.links());
        }
        let d = build_str("dln:routers=30,shortcuts=3").unwrap();
        let e = build_str("dln:routers=30,shortcuts=3,seed=0").unwrap();
        assert_eq!(d.links(), e.links(), "seed defaults to 0");
    }

    #[test]
    fn bad_parameters_are_errors_naming_the_parameter() {
        for (spec, param, needle) in [
            ("dln:routers=9,shortcuts=3", "shortcuts", "even"),
            (
                "dln:routers=8,shortcuts=6",
                "shortcuts",
                "at most routers - 3 = 5",
            ),
            ("dln:routers=8,shortcuts=-1", "shortcuts", "from 0"),
            ("dln:routers=2,shortcuts=0", "routers", "from 3"),
            ("dln:routers=8,shortcuts=x", "shortcuts", "integer"),
            ("dln:routers=8,shortcuts=1,seed=-3", "seed", ">= 0"),
            ("dln:routers=8,shortcuts=1,p=70000", "p", "0 to 65536"),
            ("dln:routers=20000000,shortcuts=2", "routers", "at most"),
        ] {
            let e = build_str(spec).unwrap_err();
            assert!(
                matches!(&e, TopolabError::InvalidParameter { param: p, .. } if p == param),
                "{spec}: {e}"
            );
            assert!(e.to_string().contains(needle), "{spec}: {e}");
        }
        for (spec, param) in [
            ("dln:shortcuts=3", "routers"),
            ("dln:routers=8", "shortcuts"),
        ] {
            let e = build_str(spec).unwrap_err();
            assert!(
                matches!(&e, TopolabError::MissingParameter { param: p, .. } if p == param),
                "{spec}: {e}"
            );
        }
    }
}
