//! Every routing of the catalog (and every alias), with its default parameters, on the example
//! network of every family that accepts it, through the channel dependency graph checker: each
//! must be deadlock-free (acyclic CDG over its own VCs), except the few listed in
//! `KNOWN_CYCLIC`, each with the reason it is kept. A new routing or family is swept the day it is
//! added; an exception that no longer shows a cycle fails too, so the list cannot go stale.

use std::collections::BTreeSet;
use topolab_core::build_str;
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::{build_static, ALIASES, ROUTINGS};
use topolab_core::routing::cdg;
use topolab_core::topology::families;

/// Routings over every path through an intermediate or off-minimal hop: the CDG of their path
/// sets grows as routers³ × paths per pair (over 200 s for `ugal` on the 64-router 3-D torus), so
/// they are swept on the family examples of at most `HEAVY_MAX_ROUTERS` routers (19 of 29
/// families). Their VC rules are topology-agnostic (a VC per hop, or per phase on the networks
/// listed in `VARIANTS`), so this sample covers the rule; every other routing runs on every
/// family that accepts it.
const HEAVY: &[&str] = &[
    "valiant",
    "ugal",
    "ugal_l",
    "ugal_g",
    "ugal_pf",
    "deflection",
    "distance_based",
];
const HEAVY_MAX_ROUTERS: usize = 52;

/// (routing, family) pairs whose CDG has a cycle by design, and why each is kept.
const KNOWN_CYCLIC: &[(&str, &str, &str)] = &[(
    "dragonfly_ugal",
    "dragonfly",
    "BookSim2 dragonflynew's own VC = phase scheme (VC 0 carries local, global and local hops \
     towards the intermediate), kept to agree with BookSim2; dragonfly_ugal_safe is the \
     deadlock-free variant",
)];

/// Variants with non-default parameters that compare and the paper reproductions run, with the
/// families they are run on (Kathareios et al., SC15, §3.4's two-VC phase scheme is
/// deadlock-free on MLFM and OFT, whose structure its argument uses, not on any graph).
const VARIANTS: &[(&str, &[&str])] = &[
    (
        "ugal_l:vcs=phase,endpoints_only=true,hops=false,c=2,n=5",
        &["mlfm"],
    ),
    (
        "ugal_l:vcs=phase,endpoints_only=true,hops=false,c=2,n=1",
        &["oft"],
    ),
    ("ugal_l:paths=dragonfly,vcs=group", &["dragonfly"]),
    ("ugal_g:paths=dragonfly,vcs=group", &["dragonfly"]),
];

/// `infiniband:dir=...` reads a fabric's tables: here topolab's own export of `hyperx_dor` for
/// the HyperX example, written to a directory of this test's (the one variant built at run time).
fn infiniband_tables() -> String {
    use topolab_core::routing::catalog::build_rule;
    use topolab_core::routing::infiniband::build_tables;
    use topolab_core::routing::infiniband::opensm::{
        write_lfts, write_path_sl, write_sl2vl, LFTS_FILE, PATH_SL_FILE, SL2VL_FILE,
    };
    let net = build_str("hyperx:dims=4x4").unwrap();
    let rule = build_rule(&net, "hyperx_dor", &Silent)
        .unwrap()
        .unwrap()
        .rule;
    let tb = build_tables(&net, &*rule, 8).unwrap();
    let dir = std::env::temp_dir().join(format!("topolab-cdg-catalog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(LFTS_FILE), write_lfts(&net, &tb).unwrap()).unwrap();
    std::fs::write(dir.join(SL2VL_FILE), write_sl2vl(&net, &tb).unwrap()).unwrap();
    std::fs::write(dir.join(PATH_SL_FILE), write_path_sl(&tb)).unwrap();
    format!("infiniband:dir={}", dir.display())
}

#[test]
fn every_catalog_routing_is_deadlock_free_on_every_family_it_accepts() {
    let tables = infiniband_tables();
    let tables_on = [("hyperx", tables.as_str())];
    let mut defaults: Vec<&str> = ROUTINGS
        .iter()
        .filter(|r| r.readers.static_analysis)
        .map(|r| r.name)
        .collect();
    defaults.extend(ALIASES.iter().map(|a| a.name));
    // Its only parameter, the tables' directory, has no default: checked as the variant above.
    defaults.retain(|&name| name != "infiniband");

    let mut checked = 0;
    let mut cyclic = BTreeSet::new();
    let mut accepted_by = BTreeSet::new();
    let mut unexpected = Vec::new();
    for family in families() {
        let net = build_str(family.example)
            .unwrap_or_else(|e| panic!("{}: example {}: {e}", family.name, family.example));
        let variants = VARIANTS
            .iter()
            .filter(|(_, on)| on.contains(&family.name))
            .map(|(spec, _)| *spec)
            .chain(
                tables_on
                    .iter()
                    .filter(|(f, _)| *f == family.name)
                    .map(|(_, spec)| *spec),
            );
        for routing in defaults.iter().copied().chain(variants) {
            let heavy = HEAVY.contains(&routing.split(':').next().unwrap_or(routing));
            if heavy && net.num_routers() > HEAVY_MAX_ROUTERS {
                continue;
            }
            // A routing that needs another family's structure refuses the network: not a pair to check.
            let Ok(def) = build_static(&net, routing, &Silent) else {
                continue;
            };
            accepted_by.insert(routing);
            let report = cdg::check(&net, &*def, &Silent)
                .unwrap_or_else(|e| panic!("{routing} on {}: {e}", family.example));
            checked += 1;
            let known = KNOWN_CYCLIC
                .iter()
                .any(|&(r, f, _)| r == routing && f == family.name);
            if !report.acyclic {
                cyclic.insert((routing, family.name));
                if !known {
                    unexpected.push(format!(
                        "{routing} on {} ({}): CDG cycle on {} VCs: {:?}",
                        family.name, family.example, report.vcs_used, report.cycle
                    ));
                }
            }
        }
    }
    assert!(unexpected.is_empty(), "{}", unexpected.join("\n"));
    for &(routing, family, why) in KNOWN_CYCLIC {
        assert!(
            cyclic.contains(&(routing, family)),
            "{routing} on {family} is listed as cyclic ({why}) but the checker finds no cycle: remove it from KNOWN_CYCLIC"
        );
    }
    // Every routing and variant is accepted by at least one family: none escapes the sweep.
    for routing in defaults
        .iter()
        .copied()
        .chain(VARIANTS.iter().map(|(spec, _)| *spec))
        .chain([tables.as_str()])
    {
        assert!(
            accepted_by.contains(routing),
            "{routing} is accepted by no family's example network, so it was never checked"
        );
    }
    assert!(
        checked > 200,
        "only {checked} (routing, family) pairs checked"
    );
}
