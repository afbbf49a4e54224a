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
