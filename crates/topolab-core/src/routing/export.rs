//! Forwarding tables from a static routing, in the shape of InfiniBand's routing function
//! (Daryin & Korzh, JSFI 2014, §3): per switch a linear forwarding table (destination -> output
//! port(s)) and a VL table (switch, in port, out port) -> VL, with the VL count checked against a
//! budget (8 VLs, Daryin & Korzh, JSFI 2014, §3).
//!
//! Ports: port 0 is the switch management port in InfiniBand; router ports are numbered
//! 1..=degree in ascending neighbour order, then the endpoint (host) ports. Text format
//! (`ForwardingTables::to_text`), one record per line, '#' comments:
//!
//! ```text
//! lft <switch> <dest switch> <port>[,<port>...]
//! vl <switch> <in port> <out port> <vl>      (in port "host" for injected packets)
//! ```
//!
//! The tables are destination-based, so the routing must be: the out ports at r towards t are
//! the first hops of `paths(r, t)` and every path through r to t must use one of them; a VL must
//! depend only on (switch, in port, out port) as SL2VL requires. Routings that break either
//! (Valiant, hop-indexed VCs on some networks) are reported with the offending entry.

use super::cdg::traffic_routers;
use super::path::{PathSet, RouteDef};
use crate::error::{Result, TopolabError};
use crate::network::Network;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Serialize)]
pub struct ForwardingTables {
    /// (switch, destination switch) -> output ports.
    pub lft: BTreeMap<(u32, u32), Vec<u32>>,
    /// (switch, in port or 0 for host, out port) -> VL.
    pub vl: BTreeMap<(u32, u32, u32), u8>,
    pub vls_used: u32,
}

fn port(net: &Network, r: u32, next: u32) -> u32 {
    net.neighbors(r as usize).binary_search(&next).unwrap() as u32 + 1
}

/// Builds the tables and checks the VL count against `vl_budget`.
pub fn forwarding_tables(
    net: &Network,
    routing: &dyn RouteDef,
    vl_budget: u32,
) -> Result<ForwardingTables> {
    let terms = traffic_routers(net);
    let n = net.num_routers();
    let mut lft: BTreeMap<(u32, u32), Vec<u32>> = BTreeMap::new();
    let mut ps = PathSet::default();
    for r in 0..n {
        for &t in &terms {
            if r != t {
                routing.paths(r, t, &mut ps)?;
                let mut ports: Vec<u32> = (0..ps.len())
                    .map(|i| port(net, r as u32, ps.path(i).0[1]))
                    .collect();
                ports.sort_unstable();
                ports.dedup();
                lft.insert((r as u32, t as u32), ports);
            }
        }
    }
    let mut vl: BTreeMap<(u32, u32, u32), u8> = BTreeMap::new();
    let mut vls_used = 0;
    for &s in &terms {
        for &t in &terms {
            if s == t {
                continue;
            }
            routing.paths(s, t, &mut ps)?;
            for i in 0..ps.len() {
                let (rs, vcs, _) = ps.path(i);
                for j in 0..vcs.len() {
                    let out = port(net, rs[j], rs[j + 1]);
                    if !lft
                        .get(&(rs[j], t as u32))
                        .is_some_and(|p| p.contains(&out))
                    {
                        return Err(TopolabError::InvalidParameter {
                            context: "forwarding tables".into(),
                            param: "routing".into(),
                            value: routing.name(),
                            allowed: format!(
                                "a destination-based routing; at switch {} towards {t} the path \
                                 from {s} leaves by port {out}, not in the switch's table",
                                rs[j]
                            ),
                        });
                    }
                    let inp = if j == 0 {
                        0
                    } else {
                        port(net, rs[j], rs[j - 1])
                    };
                    let key = (rs[j], inp, out);
                    if let Some(&old) = vl.get(&key) {
                        if old != vcs[j] {
                            return Err(TopolabError::InvalidParameter {
                                context: "forwarding tables".into(),
                                param: "routing".into(),
                                value: routing.name(),
                                allowed: format!(
                                    "VLs that depend only on (switch, in port, out port); switch {} \
                                     ports {inp} -> {out} needs VL {old} and VL {}",
                                    rs[j], vcs[j]
                                ),
                            });
                        }
                    }
                    vl.insert(key, vcs[j]);
                    vls_used = vls_used.max(vcs[j] as u32 + 1);
                }
            }
        }
    }
    if vls_used > vl_budget {
        return Err(TopolabError::InvalidParameter {
            context: "forwarding tables".into(),
            param: "vl_budget".into(),
            value: vl_budget.to_string(),
            allowed: format!(
                "at least {vls_used}, the VLs routing {} uses",
                routing.name()
            ),
        });
    }
    Ok(ForwardingTables { lft, vl, vls_used })
}

impl ForwardingTables {
    /// The line format described in the module documentation.
    pub fn to_text(&self) -> String {
        let mut s = String::from("# topolab forwarding tables v1: lft <switch> <dest> <ports>; vl <switch> <in> <out> <vl>\n");
        for ((r, t), ports) in &self.lft {
            let p: Vec<String> = ports.iter().map(|p| p.to_string()).collect();
            s.push_str(&format!("lft {r} {t} {}\n", p.join(",")));
        }
        for ((r, i), v) in self.vl.iter().map(|((r, i, o), v)| ((r, (i, o)), v)) {
            let inp = if *i.0 == 0 {
                "host".to_string()
            } else {
                i.0.to_string()
            };
            s.push_str(&format!("vl {r} {inp} {} {v}\n", i.1));
        }
        s
    }
}
