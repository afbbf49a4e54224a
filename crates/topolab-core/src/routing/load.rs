//! Static channel load: the expected traffic on every directed link for a traffic matrix, from a
//! routing's path distribution, without simulation. With demands in units of one endpoint's
//! injection bandwidth and links of width w carrying w units, the maximum load L bounds the
//! accepted injection rate per endpoint by 1 / L (000 §V-C: Slim Fly minimal under its worst
//! case; 001 §4.3.1: 1/2p, 1/h, 1/k).
//!
//! Demands are router-level: demand(s, t) = the injection rate endpoints of s send to
//! endpoints of t (traffic between endpoints of the same router loads no link).

use super::path::{arc, num_arcs, PathSet, RouteDef};
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::progress::Monitor;
use serde::Serialize;

/// Router-level traffic matrix as (source router, destination router, rate) entries.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Demands {
    pub entries: Vec<(u32, u32, f64)>,
}

impl Demands {
    /// Uniform random traffic: every endpoint sends rate 1 spread evenly over all other
    /// endpoints.
    pub fn uniform(net: &Network) -> Demands {
        let e = net.endpoints();
        let total = net.num_endpoints() as f64;
        let mut entries = Vec::new();
        for s in 0..e.len() {
            for t in 0..e.len() {
                if s != t && e[s] > 0 && e[t] > 0 {
                    entries.push((
                        s as u32,
                        t as u32,
                        e[s] as f64 * e[t] as f64 / (total - 1.0),
                    ));
                }
            }
        }
        Demands { entries }
    }

    /// Any endpoint traffic pattern: `rates(i, out)` appends (destination endpoint,
    /// probability) for endpoint i, which sends rate 1 spread by those probabilities (nothing
    /// when idle). Aggregated per router pair; same-router traffic loads no link.
    pub fn from_endpoint_rates(
        net: &Network,
        mut rates: impl FnMut(u64, &mut Vec<(u64, f64)>),
    ) -> Demands {
        let n = net.num_routers();
        let router_of: Vec<u32> = net
            .endpoints()
            .iter()
            .enumerate()
            .flat_map(|(r, &e)| std::iter::repeat_n(r as u32, e as usize))
            .collect();
        let mut matrix = vec![0.0f64; n * n];
        let mut out = Vec::new();
        for (i, &s) in router_of.iter().enumerate() {
            out.clear();
            rates(i as u64, &mut out);
            for &(d, w) in &out {
                if let Some(&t) = router_of.get(d as usize) {
                    if t != s {
                        matrix[s as usize * n + t as usize] += w;
                    }
                }
            }
        }
        let entries = matrix
            .iter()
            .enumerate()
            .filter(|(_, &w)| w > 0.0)
            .map(|(k, &w)| ((k / n) as u32, (k % n) as u32, w))
            .collect();
        Demands { entries }
    }

    /// A permutation of endpoints: endpoint i sends rate 1 to `dest[i]`.
    pub fn permutation(net: &Network, dest: &[u64]) -> Result<Demands> {
        let ne = net.num_endpoints();
        if dest.len() as u64 != ne {
            return Err(TopolabError::InvalidParameter {
                context: "channel load".into(),
                param: "permutation".into(),
                value: format!("{} entries", dest.len()),
                allowed: format!("one destination per endpoint ({ne})"),
            });
        }
        let mut acc = std::collections::BTreeMap::new();
        for (i, &d) in dest.iter().enumerate() {
            let bad = || TopolabError::InvalidParameter {
                context: "channel load".into(),
                param: "permutation".into(),
                value: d.to_string(),
                allowed: format!("endpoint indices below {ne}"),
            };
            let s = net.endpoint_router(i as u64).ok_or_else(bad)?;
            let t = net.endpoint_router(d).ok_or_else(bad)?;
            if s != t {
                *acc.entry((s as u32, t as u32)).or_insert(0.0) += 1.0;
            }
        }
        Ok(Demands {
            entries: acc.into_iter().map(|((s, t), r)| (s, t, r)).collect(),
        })
    }
}

/// Result of the channel-load analysis.
#[derive(Debug, Clone, Serialize)]
pub struct ChannelLoad {
    pub routing: String,
    /// Load per arc (CSR order of the network's adjacency), already divided by link width.
    pub loads: Vec<f64>,
    pub max_load: f64,
    /// The most loaded directed link (from, to).
    pub max_link: (u32, u32),
    /// 1 / max_load: accepted injection rate per endpoint the routing cannot exceed.
    pub throughput_bound: f64,
}

/// Expected load of every directed link.
pub fn channel_load(
    net: &Network,
    routing: &dyn RouteDef,
    demands: &Demands,
    monitor: &dyn Monitor,
) -> Result<ChannelLoad> {
    if !routing.oblivious() {
        return Err(TopolabError::InvalidParameter {
            context: "channel load".into(),
            param: "routing".into(),
            value: routing.name(),
            allowed: "an oblivious routing (adaptive routings have no static load)".into(),
        });
    }
    let mut loads = vec![0.0f64; num_arcs(net)];
    let mut ps = PathSet::default();
    let total = demands.entries.len() as u64;
    for (k, &(s, t, rate)) in demands.entries.iter().enumerate() {
        if k % 1024 == 0 {
            monitor.progress("channel load", k as u64, total)?;
        }
        if s == t || rate == 0.0 {
            continue;
        }
        routing.paths(s as usize, t as usize, &mut ps)?;
        for i in 0..ps.len() {
            let (rs, _, w) = ps.path(i);
            for h in rs.windows(2) {
                let a = arc(net, h[0] as usize, h[1] as usize).ok_or_else(|| {
                    TopolabError::InvalidNetwork(format!(
                        "routing steps from {} to {} without a link",
                        h[0], h[1]
                    ))
                })?;
                loads[a] += rate * w;
            }
        }
    }
    let (offs, tg) = net.csr();
    let mut max_load = 0.0;
    let mut max_link = (0, 0);
    for u in 0..net.num_routers() {
        let links = net.neighbor_links(u);
        for (i, a) in (offs[u] as usize..offs[u + 1] as usize).enumerate() {
            loads[a] /= net.links()[links[i] as usize].width as f64;
            if loads[a] > max_load {
                max_load = loads[a];
                max_link = (u as u32, tg[a]);
            }
        }
    }
    Ok(ChannelLoad {
        routing: routing.name(),
        loads,
        max_load,
        max_link,
        throughput_bound: if max_load > 0.0 {
            1.0 / max_load
        } else {
            f64::INFINITY
        },
    })
}
