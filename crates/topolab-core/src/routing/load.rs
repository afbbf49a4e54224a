//! Static channel load: the expected traffic on every directed link for a traffic matrix, from a
//! routing's path distribution, without simulation. With demands in units of one endpoint's
//! injection bandwidth and links of width w carrying w units, the maximum load L bounds the
//! accepted injection rate per endpoint by 1 / L (Besta & Hoefler, SC14, §V-C: Slim Fly minimal
//! under its worst case; Kathareios et al., SC15, §4.3.1: 1/2p, 1/h, 1/k).
//!
//! Demands are router-level: demand(s, t) = the injection rate endpoints of s send to
//! endpoints of t (traffic between endpoints of the same router loads no link). A routing that
//! takes a link's parallel ports at random spreads a hop's traffic evenly over them; one that
//! takes the port by the destination endpoint (`Ports::Destination`, BookSim2's torus and
//! anynet: endpoint mod width) or the first port loads that port alone, and the link's load
//! is its busiest port's: a permutation's flow then uses one port of a bundle, not its width.

use super::path::{arc, num_arcs, PathSet, RouteDef};
use super::rule::Ports;
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::progress::Monitor;
use serde::Serialize;

/// Router-level traffic matrix as (source router, destination router, rate) entries.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Demands {
    pub entries: Vec<(u32, u32, f64)>,
    /// How each entry's rate splits over its destination router's endpoints, which a routing
    /// that takes a bundle's port by the destination endpoint needs.
    pub destinations: Destinations,
}

/// How the rates of `Demands::entries` split over the destination routers' endpoints.
#[derive(Debug, Clone, Default, Serialize)]
pub enum Destinations {
    /// Not recorded: channel loads that take ports by destination refuse these demands.
    #[default]
    Unknown,
    /// Evenly over the destination router's endpoints (uniform traffic).
    Even,
    /// Entry k's rate by destination endpoint, (endpoint, rate) by increasing endpoint:
    /// `shares[starts[k]..starts[k + 1]]`.
    Listed {
        shares: Vec<(u64, f64)>,
        starts: Vec<u32>,
    },
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
        Demands {
            entries,
            destinations: Destinations::Even,
        }
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
    /// rest is built (uniform traffic on 10,000 routers has 10^8). `by_destination` keeps each
    /// pair's rate per destination endpoint too (`Destinations::Listed`: as many entries as the
    /// pattern has endpoint pairs, 10^8 under uniform traffic on 10,000 endpoints).
    pub fn from_endpoint_rates(
        net: &Network,
        max_pairs: Option<usize>,
        by_destination: bool,
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
        // endpoints, not their square, and the entries in (source, destination) order.
        let mut row = vec![0.0f64; n];
        let mut endpoint_row = vec![0.0f64; router_of.len()];
        let mut touched: Vec<u64> = Vec::new();
        let mut entries = Vec::new();
        let (mut shares, mut starts) = (Vec::new(), vec![0u32]);
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
                            if endpoint_row[d as usize] == 0.0 {
                                touched.push(d);
                            }
                            endpoint_row[d as usize] += w;
                            row[t as usize] += w;
                        }
                    }
                }
                i += 1;
            }
            // Endpoints by increasing id are grouped by increasing router.
            touched.sort_unstable();
            for (k, &d) in touched.iter().enumerate() {
                let t = router_of[d as usize];
                let share = std::mem::take(&mut endpoint_row[d as usize]);
                if by_destination {
                    shares.push((d, share));
                }
                if touched
                    .get(k + 1)
                    .is_none_or(|&next| router_of[next as usize] != t)
                {
                    entries.push((s, t, std::mem::take(&mut row[t as usize])));
                    starts.push(shares.len() as u32);
                }
            }
            touched.clear();
            if let Some(limit) = max_pairs.filter(|&limit| entries.len() > limit) {
                return Err(too_many_pairs(format!("more than {limit}"), limit));
            }
        }
        let destinations = if by_destination {
            Destinations::Listed { shares, starts }
        } else {
            Destinations::Unknown
        };
        Ok(Demands {
            entries,
            destinations,
        })
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
                *acc.entry((s as u32, t as u32, d)).or_insert(0.0) += 1.0;
            }
        }
        let mut entries: Vec<(u32, u32, f64)> = Vec::new();
        let (mut shares, mut starts) = (Vec::new(), vec![0u32]);
        let mut acc = acc.into_iter().peekable();
        while let Some(((s, t, d), r)) = acc.next() {
            shares.push((d, r));
            match entries.last_mut() {
                Some(last) if (last.0, last.1) == (s, t) => last.2 += r,
                _ => entries.push((s, t, r)),
            }
            if acc
                .peek()
                .is_none_or(|((s2, t2, _), _)| (*s2, *t2) != (s, t))
            {
                starts.push(shares.len() as u32);
            }
        }
        Ok(Demands {
            entries,
            destinations: Destinations::Listed { shares, starts },
        })
    }

    /// The traffic Valiant routing (defaults: the intermediate drawn uniformly from every
    /// router but the pair's own two) sends along minimal paths, as two phases: from each
    /// source to the intermediates, (out(s) - d(s, m)) / (n - 2) to router m, and from the
    /// intermediates to each destination, (in(t) - d(m, t)) / (n - 2) from router m. Minimal
    /// channel loads of these demands are Valiant's, without listing a path per intermediate
    /// and pair. Every router pair may carry some, so more than `max_pairs` pairs of routers
    /// (n (n - 1)) is an error, as is a network of fewer than 3 routers.
    pub fn valiant_phases(&self, num_routers: usize, max_pairs: Option<usize>) -> Result<Demands> {
        let n = num_routers;
        if n < 3 {
            return Err(TopolabError::invalid(
                "channel load",
                "routing",
                "valiant",
                "a network of at least 3 routers (an intermediate besides source and destination)",
            ));
        }
        let pairs = n * (n - 1);
        if let Some(limit) = max_pairs.filter(|&limit| pairs > limit) {
            return Err(too_many_pairs(pairs.to_string(), limit));
        }
        let mut direct = vec![0.0f64; n * n];
        let (mut out, mut into) = (vec![0.0f64; n], vec![0.0f64; n]);
        for &(s, t, rate) in &self.entries {
            let (s, t) = (s as usize, t as usize);
            if s == t || s >= n || t >= n {
                continue;
            }
            direct[s * n + t] += rate;
            out[s] += rate;
            into[t] += rate;
        }
        let share = 1.0 / (n - 2) as f64;
        let mut entries = Vec::new();
        for a in 0..n {
            for b in (0..n).filter(|&b| b != a) {
                let d = direct[a * n + b];
                let rate = ((out[a] - d) + (into[b] - d)) * share;
                if rate > 0.0 {
                    entries.push((a as u32, b as u32, rate));
                }
            }
        }
        Ok(Demands {
            entries,
            destinations: Destinations::Unknown,
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

/// Whether channel loads of a routing taking ports by `ports` on `net` need demands by
/// destination endpoint (`Demands::from_endpoint_rates` with `by_destination`).
pub fn needs_destinations(net: &Network, ports: Ports) -> bool {
    ports == Ports::Destination && net.links().iter().any(|l| l.width > 1)
}

/// Demands that say how every entry's rate splits over destination endpoints, for a routing
/// (`name`) that takes a link's port by the destination endpoint.
fn check_destinations(demands: &Demands, first_endpoint: &[u64], name: &str) -> Result<()> {
    let refuse = |value: &str| {
        Err(TopolabError::InvalidParameter {
            context: "channel load".into(),
            param: "traffic".into(),
            value: value.into(),
            allowed: format!(
                "demands by destination endpoint for {name}, which takes a link's parallel port \
                 by the destination endpoint (Demands::from_endpoint_rates with by_destination)"
            ),
        })
    };
    let has_endpoints = |t: u32| {
        first_endpoint
            .get(t as usize..t as usize + 2)
            .is_some_and(|f| f[1] > f[0])
    };
    match &demands.destinations {
        Destinations::Unknown => refuse("demands without destination endpoints"),
        Destinations::Even if !demands.entries.iter().all(|e| has_endpoints(e.1)) => {
            refuse("demands to a router without endpoints")
        }
        Destinations::Listed { shares, starts }
            if starts.len() != demands.entries.len() + 1
                || starts.first() != Some(&0)
                || starts.windows(2).any(|w| w[0] >= w[1])
                || starts
                    .last()
                    .is_some_and(|&end| end as usize != shares.len()) =>
        {
            refuse("destination endpoints not one non-empty list per entry")
        }
        _ => Ok(()),
    }
}

/// First endpoint id of every router, and the endpoint count after the last.
fn first_endpoints(net: &Network) -> Vec<u64> {
    let mut first = Vec::with_capacity(net.num_routers() + 1);
    let mut seen = 0u64;
    first.push(0);
    for &e in net.endpoints() {
        seen += e as u64;
        first.push(seen);
    }
    first
}

/// How one router pair's rate splits over the destination endpoints.
enum Shares<'a> {
    /// Not needed: the port does not depend on the destination.
    None,
    /// Evenly over these endpoints.
    Even(std::ops::Range<u64>),
    /// (endpoint, rate), and the rates' sum.
    Listed(&'a [(u64, f64)], f64),
}

/// The ports of every arc's link, for routings that load one port of a bundle per hop.
struct Bundles {
    /// Some link has parallel ports and the routing takes one of them (not spread at random).
    one_port: bool,
    /// The port is the destination endpoint mod the link's width (else the first port).
    by_destination: bool,
    /// Arc a's ports are `port_start[a]..port_start[a + 1]` (empty unless `one_port`).
    port_start: Vec<u64>,
}

impl Bundles {
    fn new(net: &Network, ports: Ports) -> Bundles {
        let (offs, _) = net.csr();
        let widths: Vec<u64> = (0..net.num_routers())
            .flat_map(|u| {
                let links = net.neighbor_links(u);
                (0..(offs[u + 1] - offs[u]) as usize)
                    .map(move |i| net.links()[links[i] as usize].width as u64)
            })
            .collect();
        let one_port = ports != Ports::Random && widths.iter().any(|&w| w > 1);
        let mut port_start = Vec::new();
        if one_port {
            port_start.reserve(widths.len() + 1);
            port_start.push(0);
            let mut acc = 0;
            for w in widths {
                acc += w;
                port_start.push(acc);
            }
        }
        Bundles {
            one_port,
            by_destination: needs_destinations(net, ports),
            port_start,
        }
    }

    fn add(&self, port_loads: &mut [f64], a: usize, rate: f64, shares: &Shares) {
        let first = self.port_start[a] as usize;
        let width = self.port_start[a + 1] - self.port_start[a];
        match shares {
            Shares::Even(endpoints) if width > 1 => {
                let each = rate / (endpoints.end - endpoints.start) as f64;
                for d in endpoints.clone() {
                    port_loads[first + (d % width) as usize] += each;
                }
            }
            Shares::Listed(list, total) if width > 1 => {
                for &(d, r) in *list {
                    port_loads[first + (d % width) as usize] += rate * r / total;
                }
            }
            // One cable, or the link's first port.
            _ => port_loads[first] += rate,
        }
    }

    fn busiest(&self, port_loads: &[f64], a: usize) -> f64 {
        port_loads[self.port_start[a] as usize..self.port_start[a + 1] as usize]
            .iter()
            .copied()
            .fold(0.0, f64::max)
    }
}

crate::result_type! {
    /// The channel load of a routing under a traffic: the expected load of every directed
    /// link when every endpoint injects at rate 1, and the throughput bound it implies.
    pub struct ChannelLoad {
        pub routing: String,
        /// The load of the most loaded directed link.
        #[unit = "endpoint injection bandwidths per link (width 1)"]
        pub max_load: f64,
        /// The most loaded directed link (from router, to router).
        pub max_link: (u32, u32),
        /// 1 / max_load: the accepted injection rate per endpoint the routing cannot exceed
        /// (infinite when no link carries load; Python reads it as NaN, JSON having no infinity).
        #[unit = "flits/endpoint/cycle"]
        pub throughput_bound: f64,
        /// Load per arc (CSR order of the network's adjacency) in links' worth: its busiest
        /// port's when the routing takes one port of a link (`Ports::Destination`,
        /// `Ports::First`), else divided by the link's width.
        #[unit = "endpoint injection bandwidths per link (width 1)"]
        pub loads: Vec<f64>,
    }
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
    let ports = Bundles::new(net, routing.ports());
    let first_endpoint = first_endpoints(net);
    if ports.by_destination {
        check_destinations(demands, &first_endpoint, &routing.name())?;
    }
    let mut loads = vec![0.0f64; num_arcs(net)];
    let mut port_loads = vec![0.0f64; ports.port_start.last().map_or(0, |&n| n as usize)];
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
        // The destination endpoints' shares of the rate, for ports taken by destination.
        let shares = match &demands.destinations {
            _ if !ports.by_destination => Shares::None,
            Destinations::Listed { shares, starts } => {
                let list = &shares[starts[k] as usize..starts[k + 1] as usize];
                Shares::Listed(list, list.iter().map(|&(_, r)| r).sum())
            }
            Destinations::Even => {
                Shares::Even(first_endpoint[t as usize]..first_endpoint[t as usize + 1])
            }
            Destinations::Unknown => unreachable!("refused before the loop"),
        };
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
                if ports.one_port {
                    ports.add(&mut port_loads, a, rate * w, &shares);
                }
            }
        }
    }
    let (offs, tg) = net.csr();
    let mut max_load = 0.0;
    let mut max_link = (0, 0);
    for u in 0..net.num_routers() {
        let links = net.neighbor_links(u);
        for (i, a) in (offs[u] as usize..offs[u + 1] as usize).enumerate() {
            loads[a] = if ports.one_port {
                ports.busiest(&port_loads, a)
            } else {
                loads[a] / net.links()[links[i] as usize].width as f64
            };
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
