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

    /// `uniform`, or an error when it has more than `max_pairs` router pairs (checked first).
    pub fn uniform_within(net: &Network, max_pairs: Option<usize>) -> Result<Demands> {
        let sources = net.endpoints().iter().filter(|&&e| e > 0).count();
        let pairs = sources * sources.saturating_sub(1);
        match max_pairs {
            Some(limit) if pairs > limit => Err(too_many_pairs(pairs.to_string(), limit)),
            _ => Ok(Demands::uniform(net)),
        }
    }

    /// Any endpoint traffic pattern: `rates(i, out)` appends (destination endpoint,
    /// probability) for endpoint i, which sends rate 1 spread by those probabilities (nothing
    /// when idle). Aggregated per router pair; same-router traffic loads no link. With
    /// `max_pairs`, a pattern with more router pairs than that is an error, found before the
    /// rest is built (uniform traffic on 10,000 routers has 10^8).
    pub fn from_endpoint_rates(
        net: &Network,
        max_pairs: Option<usize>,
        mut rates: impl FnMut(u64, &mut Vec<(u64, f64)>),
    ) -> Result<Demands> {
        let n = net.num_routers();
        let router_of: Vec<u32> = net
            .endpoints()
            .iter()
            .enumerate()
            .flat_map(|(r, &e)| std::iter::repeat_n(r as u32, e as usize))
            .collect();
        // One source router's row at a time (its endpoints are consecutive): memory in the
        // routers, not their square, and the entries in (source, destination) order.
        let mut row = vec![0.0f64; n];
        let mut touched: Vec<u32> = Vec::new();
        let mut entries = Vec::new();
        let mut out = Vec::new();
        let mut i = 0;
        while i < router_of.len() {
            let s = router_of[i];
            while i < router_of.len() && router_of[i] == s {
                out.clear();
                rates(i as u64, &mut out);
                for &(d, w) in &out {
                    if let Some(&t) = router_of.get(d as usize) {
                        if t != s && w > 0.0 {
                            if row[t as usize] == 0.0 {
                                touched.push(t);
                            }
                            row[t as usize] += w;
                        }
                    }
                }
                i += 1;
            }
            touched.sort_unstable();
            for &t in &touched {
                entries.push((s, t, std::mem::take(&mut row[t as usize])));
            }
            touched.clear();
            if let Some(limit) = max_pairs.filter(|&limit| entries.len() > limit) {
                return Err(too_many_pairs(format!("more than {limit}"), limit));
            }
        }
        Ok(Demands { entries })
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

fn too_many_pairs(pairs: String, limit: usize) -> TopolabError {
    TopolabError::InvalidParameter {
        context: "channel load".into(),
        param: "traffic".into(),
        value: format!("{pairs} router pairs"),
        allowed: format!("at most {limit} router pairs (max_pairs)"),
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
    channel_load_within(net, routing, demands, None, monitor)
}

/// `channel_load`, stopping with an error once it has gone over more than `max_paths` paths
/// (for a caller to whom the bound is worth only a bounded cost: the path count of a pair is
/// not known before its paths are listed, minimal routing on an 11-cube has 11! per pair).
pub fn channel_load_within(
    net: &Network,
    routing: &dyn RouteDef,
    demands: &Demands,
    max_paths: Option<u64>,
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
    let mut paths = 0u64;
    let total = demands.entries.len() as u64;
    for (k, &(s, t, rate)) in demands.entries.iter().enumerate() {
        if k % 1024 == 0 {
            monitor.progress("channel load", k as u64, total)?;
        }
        if s == t || rate == 0.0 {
            continue;
        }
        routing.paths(s as usize, t as usize, &mut ps)?;
        paths += ps.len() as u64;
        if let Some(limit) = max_paths.filter(|&limit| paths > limit) {
            return Err(TopolabError::InvalidParameter {
                context: "channel load".into(),
                param: "routing".into(),
                value: format!("{} (more than {limit} paths)", routing.name()),
                allowed: format!("at most {limit} paths over all router pairs (max_paths)"),
            });
        }
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
