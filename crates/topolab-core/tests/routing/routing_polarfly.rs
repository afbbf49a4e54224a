//! PolarFly's UGAL_PF (`ugal_pf`, Lakhotia et al., SC22; the authors' SST Merlin
//! `topo_polarfly` and BookSim2 `ugall4_pf`): UGAL-L whose Valiant intermediates are the
//! source's neighbours when the destination is not one. Checked against an independent BFS:
//! non-minimal paths to a destination at distance 2 take at most 3 hops and start at a
//! neighbour of the source; to an adjacent destination every router may be the intermediate
//! (at most 4 hops); the 4 hop-indexed VCs give an acyclic channel dependency graph and one VC
//! does not.

use crate::routing_support;

use routing_support::{bfs, cdg, paths, OneVc};
use std::collections::BTreeSet;
use std::sync::Arc;
use topolab_core::progress::Silent;
use topolab_core::rng::{stream, Stream};
use topolab_core::routing::catalog::{build_rule, resolve_alias};
use topolab_core::routing::ugal_candidates::UgalCandidates;
use topolab_core::routing::{HopRouting, Rule};
use topolab_core::{build_str, Network};

fn ugal_pf(net: &Network) -> Arc<Rule> {
    build_rule(net, "ugal_pf", &Silent).unwrap().unwrap().rule
}

fn candidates(rule: &Rule) -> &UgalCandidates {
    match rule {
        Rule::Ugal(c) => c,
        _ => panic!("ugal_pf is not a UGAL rule"),
    }
}

#[test]
fn ugal_pf_is_ugal_l_with_near_source_intermediates() {
    let spec = resolve_alias("ugal_pf", false).unwrap();
    assert!(spec.starts_with("ugal_l:"), "{spec}");
    assert!(spec.contains("near_source=true"), "{spec}");
    let net = build_str("polarfly:q=5").unwrap();
    assert!(ugal_pf(&net).name().contains("near_source=true"));
}

#[test]
fn nonminimal_paths_are_short_and_leave_through_a_neighbour() {
    for q in [3u32, 4, 5] {
        let net = build_str(&format!("polarfly:q={q}")).unwrap();
        let rule = ugal_pf(&net);
        let as_dyn: Arc<dyn HopRouting> = rule.clone();
        assert_eq!(rule.vc_classes(), 4, "q={q}: hop VCs over <= 4 hops");
        let n = net.num_routers();
        for s in 0..n {
            let d = bfs(&net, s);
            for t in (0..n).filter(|&t| t != s) {
                let ps = paths(&net, as_dyn.clone(), s, t);
                let total: f64 = ps.iter().map(|p| p.2).sum();
                assert!((total - 1.0).abs() < 1e-9);
                // Intermediates reached: the router where the path turns towards t; read the
                // candidate states instead of guessing from the path.
                let mut starts = Vec::new();
                rule.start(s as u32, t as u32, &mut starts);
                let inter: BTreeSet<usize> = starts
                    .iter()
                    .filter(|(st, _)| !candidates(&rule).is_minimal(*st))
                    .map(|(st, _)| st.aux as usize)
                    .collect();
                let longest = ps.iter().map(|p| p.0.len() - 1).max().unwrap();
                if d[t] == 2 {
                    let want: BTreeSet<usize> =
                        net.neighbors(s).iter().map(|&v| v as usize).collect();
                    assert_eq!(inter, want, "q={q} {s}->{t}: the source's neighbours");
                    assert!(longest <= 3, "q={q} {s}->{t}: {longest} hops");
                } else {
                    assert_eq!(d[t], 1);
                    assert_eq!(inter.len(), n - 2, "q={q} {s}->{t}: every other router");
                    assert!(longest <= 4, "q={q} {s}->{t}: {longest} hops");
                }
                for (rs, vcs, _) in &ps {
                    let want: Vec<u8> = (0..vcs.len() as u8).collect();
                    assert_eq!(vcs, &want, "q={q}: VC k on hop k along {rs:?}");
                }
            }
        }
    }
}

#[test]
fn sampled_intermediates_are_uniform_over_the_source_neighbours() {
    let net = build_str("polarfly:q=5").unwrap();
    let rule = ugal_pf(&net);
    let c = candidates(&rule);
    let d = bfs(&net, 0);
    let t = (0..net.num_routers()).find(|&t| d[t] == 2).unwrap() as u32;
    let mut rng = stream(3, Stream::Routing, 0);
    let draws = 30_000;
    let mut seen = std::collections::BTreeMap::new();
    for _ in 0..draws {
        let st = c.sample_nonminimal(0, t, &mut rng);
        *seen.entry(st.aux).or_insert(0u32) += 1;
    }
    let nbrs: BTreeSet<u32> = net.neighbors(0).iter().copied().collect();
    assert_eq!(seen.keys().copied().collect::<BTreeSet<_>>(), nbrs);
    let w = 1.0 / nbrs.len() as f64;
    let sd = (w * (1.0 - w) / draws as f64).sqrt();
    for (&i, &k) in &seen {
        let f = k as f64 / draws as f64;
        assert!((f - w).abs() < 5.0 * sd, "intermediate {i}: {f} vs {w}");
    }
}

#[test]
fn four_hop_vcs_are_deadlock_free_and_one_vc_is_not() {
    for q in [3u32, 4, 5] {
        let net = build_str(&format!("polarfly:q={q}")).unwrap();
        let rule: Arc<dyn HopRouting> = ugal_pf(&net);
        let report = cdg(&net, rule.clone());
        assert!(report.acyclic, "q={q}: {:?}", report.cycle);
        let report = cdg(&net, Arc::new(OneVc(rule)));
        assert!(!report.acyclic, "q={q}: one VC should close a cycle");
    }
}

#[test]
fn near_source_is_refused_with_dragonfly_paths() {
    let net = build_str("dragonfly:a=4,h=2").unwrap();
    let err = build_rule(&net, "ugal_l:paths=dragonfly,near_source=true", &Silent)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("near_source"), "{err}");
}
