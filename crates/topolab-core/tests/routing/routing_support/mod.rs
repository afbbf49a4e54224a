//! Shared by the structured-routing tests: an independent BFS, every path of a rule between two
//! routers, the CDG verdict of a rule, and a wrapper that puts every hop of a rule on VC 0 (to
//! show that the VCs a scheme uses are needed).

#![allow(dead_code)]

use std::collections::VecDeque;
use std::sync::Arc;
use topolab_core::progress::Silent;
use topolab_core::routing::cdg::{check, CdgReport};
use topolab_core::routing::path::{PathSet, RouteDef};
use topolab_core::routing::rule::check_rule_paths;
use topolab_core::routing::{Hop, HopRouting, RouteState, RuleRoute, Select};
use topolab_core::Network;

/// Hop distances from s by a plain BFS over `net.neighbors`.
pub fn bfs(net: &Network, s: usize) -> Vec<usize> {
    let mut d = vec![usize::MAX; net.num_routers()];
    d[s] = 0;
    let mut q = VecDeque::from([s]);
    while let Some(u) = q.pop_front() {
        for &v in net.neighbors(u) {
            if d[v as usize] == usize::MAX {
                d[v as usize] = d[u] + 1;
                q.push_back(v as usize);
            }
        }
    }
    d
}

/// Every path (routers, vcs, probability) of `rule` from s to t.
pub fn paths(
    net: &Network,
    rule: Arc<dyn HopRouting>,
    s: usize,
    t: usize,
) -> Vec<(Vec<u32>, Vec<u8>, f64)> {
    let def = RuleRoute {
        net,
        rule,
        oblivious: false,
        ports: topolab_core::routing::Ports::Random,
    };
    let mut ps = PathSet::default();
    def.paths(s, t, &mut ps).unwrap();
    (0..ps.len())
        .map(|i| {
            let (rs, vcs, w) = ps.path(i);
            for j in 0..vcs.len() {
                assert!(
                    net.neighbors(rs[j] as usize).contains(&rs[j + 1]),
                    "path {rs:?} leaves the links"
                );
            }
            assert_eq!(rs[0] as usize, s);
            assert_eq!(*rs.last().unwrap() as usize, t);
            (rs.to_vec(), vcs.to_vec(), w)
        })
        .collect()
}

/// Delivery and VC bounds (`check_rule_paths`), then the CDG verdict.
pub fn cdg(net: &Network, rule: Arc<dyn HopRouting>) -> CdgReport {
    check_rule_paths(net, rule.clone()).unwrap();
    let def = RuleRoute {
        net,
        rule,
        oblivious: false,
        ports: topolab_core::routing::Ports::Random,
    };
    check(net, &def, &Silent).unwrap()
}

/// The same routing with every hop on VC 0.
pub struct OneVc(pub Arc<dyn HopRouting>);

impl HopRouting for OneVc {
    fn name(&self) -> String {
        format!("{} on one VC", self.0.name())
    }
    fn vc_classes(&self) -> u32 {
        1
    }
    fn max_hops(&self) -> u32 {
        self.0.max_hops()
    }
    fn default_select(&self) -> Select {
        self.0.default_select()
    }
    fn start(&self, s: u32, t: u32, out: &mut Vec<(RouteState, f64)>) {
        self.0.start(s, t, out)
    }
    fn next(&self, r: u32, t: u32, hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        self.0
            .next(r, t, hop, st, &mut |h: Hop| out(Hop { vc: 0, ..h }))
    }
}

/// Coordinates (labels) of a router.
pub fn label(net: &Network, r: u32) -> Vec<i64> {
    net.label(r as usize).to_vec()
}

/// Routers with endpoints (where traffic starts and ends).
pub fn hosts(net: &Network) -> Vec<usize> {
    (0..net.num_routers())
        .filter(|&r| net.endpoints()[r] > 0)
        .collect()
}
