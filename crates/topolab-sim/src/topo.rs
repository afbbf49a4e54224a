//! The network as the simulator wires it: ports, channels and their latencies, in flat arrays.
//!
//! Port order at every router, for inputs and outputs alike: first its endpoints (ascending
//! endpoint id), then its router links in the network's CSR order (ascending neighbour id), a
//! link of width w giving w consecutive ports. This is BookSim2 anynet's order (AnyNet::_BuildNet:
//! node channels first, then router channels by ascending router id); it matters only through the
//! round-robin arbiters' tie-breaking. Directed links give an output port at their source and an
//! input port at their destination; the credit channel runs back alongside.

use crate::config::{RouterModel, SimConfig};
use crate::error::{Result, SimError};
use topolab_core::physical::{link_lengths, place, Floor, LatencyModel, PlaceOptions};
use topolab_core::Network;

/// Marks "not a router" in peer fields (the peer of an endpoint port is an endpoint id).
pub const NONE: u32 = u32::MAX;

/// One port's channel: everything the delivery of an item sent on it reads, in one record, so
/// that a network far beyond the cache pays one miss per item for it instead of one per field
/// (16 bytes aligned: four to a cache line, none straddling two).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(align(16))]
pub struct PortLink {
    /// Router at the other end (NONE for endpoint ports).
    pub peer: u32,
    /// Port index at the other end: the downstream router's input port for an output port,
    /// the upstream router's output port for an input port (the endpoint's local index for
    /// endpoint ports).
    pub peer_port: u32,
    /// Channel latency in cycles.
    pub latency: u32,
}

impl PortLink {
    fn new(peer: u32, latency: u32) -> PortLink {
        PortLink {
            peer,
            peer_port: NONE,
            latency,
        }
    }
}

#[derive(Debug, Clone)]
pub struct SimTopology {
    pub num_routers: u32,
    pub num_endpoints: u32,
    /// First endpoint id of each router; length routers + 1.
    pub ep_offset: Vec<u32>,
    /// The endpoint count of every router when all have the same (then an endpoint's router is
    /// a division, not a search over `ep_offset`: a million-endpoint network looks it up for
    /// every packet).
    endpoints_per_router: Option<u32>,
    /// Start of each router's output ports in `out_link`; length routers + 1.
    pub out_offset: Vec<u32>,
    /// Every output port's channel, towards the downstream router.
    pub out_link: Vec<PortLink>,
    /// Start of each router's input ports in `in_link`; length routers + 1.
    pub in_offset: Vec<u32>,
    /// Every input port's channel, back towards the upstream router (credits).
    pub in_link: Vec<PortLink>,
    /// For each CSR entry of the network (router r, neighbour position i): the first output
    /// port towards that neighbour and the link width (parallel ports), side by side since a
    /// routing decision reads both.
    pub nbr_ports: Vec<(u32, u32)>,
    /// CSR offsets and targets of the network (neighbours ascending), to index nbr_ports by
    /// (router, position).
    pub csr_offset: Vec<u32>,
    pub csr_target: Vec<u32>,
    pub endpoint_latency: u32,
    /// Cycles from a credit's arrival at a router to its processing there, where the
    /// delivery puts it: `credit_delay` for the input-queued router; 0 for the bufferless
    /// one, which keeps no downstream state and drops the credits it receives.
    pub credit_delay: u32,
    pub max_latency: u32,
}

/// Latency in cycles of every link of `net` (parallel to `net.links()`): by link class
/// (`channel_latency`, `link_latency`), or with `channel_latency = floor` from the cable length
/// the physical model gives the link on `cfg.floor` (routers placed by their family's rule,
/// crates/topolab-core/src/physical): ceil(length x 5 ns/m / cycle_time_ns) cycles, at least 1
/// (Fujiwara et al., IPDPS 2014, §II-E's 5 ns/m, `LatencyModel::default().cable_ns_per_m`).
pub fn link_latencies(net: &Network, cfg: &SimConfig) -> Result<Vec<u32>> {
    if !cfg.latency_from_floor {
        let class_latency: Vec<u32> = net
            .link_classes()
            .iter()
            .map(|c| cfg.latency_of(c))
            .collect();
        return Ok(net
            .links()
            .iter()
            .map(|l| class_latency[l.class as usize])
            .collect());
    }
    let floor = Floor::resolve(&cfg.floor)?;
    let placement = place(net, &floor, &PlaceOptions::default())?;
    let ns_per_m = LatencyModel::default().cable_ns_per_m;
    link_lengths(net, &placement, &floor)
        .into_iter()
        .map(|len| {
            let cycles = (len * ns_per_m / cfg.cycle_time_ns - 1e-9).ceil().max(1.0);
            if cycles > 1_000_000.0 {
                return Err(SimError::param(
                    "cycle_time_ns",
                    cfg.cycle_time_ns,
                    format!(
                        "a cycle time giving at most 1000000 cycles per link (a {len} m cable \
                         takes {cycles} cycles)"
                    ),
                ));
            }
            Ok(cycles as u32)
        })
        .collect()
}

impl SimTopology {
    pub fn new(net: &Network, cfg: &SimConfig) -> Result<SimTopology> {
        let n = net.num_routers();
        if n == 0 {
            return Err(SimError::Core(topolab_core::TopolabError::InvalidNetwork(
                "a network without routers cannot be simulated".into(),
            )));
        }
        let total_ep = net.num_endpoints();
        if total_ep == 0 {
            return Err(SimError::Core(topolab_core::TopolabError::InvalidNetwork(
                "the network has no endpoints to send or receive traffic".into(),
            )));
        }
        if total_ep >= u32::MAX as u64 / 2 {
            return Err(SimError::Core(topolab_core::TopolabError::InvalidNetwork(
                format!("{total_ep} endpoints exceed the simulator's u32 index range"),
            )));
        }
        for (class, _) in cfg.link_latency.iter() {
            if !net.link_classes().iter().any(|c| c == class) {
                return Err(SimError::param(
                    "link_latency",
                    format!("class '{class}'"),
                    format!(
                        "a link class of this network: {}",
                        net.link_classes().join(", ")
                    ),
                ));
            }
        }
        let mut ep_offset = Vec::with_capacity(n + 1);
        let mut acc = 0u32;
        for r in 0..n {
            ep_offset.push(acc);
            acc += net.endpoints()[r];
        }
        ep_offset.push(acc);
        let first = net.endpoints()[0];
        let endpoints_per_router =
            (first > 0 && net.endpoints().iter().all(|&e| e == first)).then_some(first);

        let (csr_offset, csr_target) = net.csr();
        let (csr_offset, csr_target) = (csr_offset.to_vec(), csr_target.to_vec());
        let links = net.links();
        let link_latency = link_latencies(net, cfg)?;

        // Output ports.
        let mut out_offset = Vec::with_capacity(n + 1);
        let mut out_link: Vec<PortLink> = Vec::new();
        let mut nbr_ports = Vec::with_capacity(csr_offset[n] as usize);
        for r in 0..n {
            out_offset.push(out_link.len() as u32);
            for e in 0..net.endpoints()[r] {
                out_link.push(PortLink {
                    peer_port: e, // the endpoint's local index
                    ..PortLink::new(NONE, cfg.endpoint_latency)
                });
            }
            for (&v, &l) in net.neighbors(r).iter().zip(net.neighbor_links(r)) {
                let link = &links[l as usize];
                let local = out_link.len() as u32 - out_offset[r];
                nbr_ports.push((local, link.width));
                for _ in 0..link.width {
                    out_link.push(PortLink::new(v, link_latency[l as usize]));
                }
            }
        }
        out_offset.push(out_link.len() as u32);

        // Input ports: endpoints, then incoming links by ascending source router.
        let mut incoming: Vec<Vec<(u32, u32, u32)>> = vec![Vec::new(); n]; // (src, width, latency)
        for u in 0..n {
            for (&v, &l) in net.neighbors(u).iter().zip(net.neighbor_links(u)) {
                let link = &links[l as usize];
                incoming[v as usize].push((u as u32, link.width, link_latency[l as usize]));
            }
        }
        let mut in_offset = Vec::with_capacity(n + 1);
        let mut in_link: Vec<PortLink> = Vec::new();
        for (r, inc) in incoming.iter_mut().enumerate() {
            in_offset.push(in_link.len() as u32);
            for e in 0..net.endpoints()[r] {
                in_link.push(PortLink {
                    peer_port: e, // the endpoint's local index
                    ..PortLink::new(NONE, cfg.endpoint_latency)
                });
            }
            inc.sort_unstable();
            for &(u, w, lat) in inc.iter() {
                for _ in 0..w {
                    in_link.push(PortLink::new(u, lat));
                }
            }
        }
        in_offset.push(in_link.len() as u32);

        // Pair the k-th parallel port u -> v at u with the k-th input port from u at v: for
        // each (u, v) the ports at u towards v and at v from u are both contiguous and in the
        // same count.
        for u in 0..n {
            let (o0, o1) = (out_offset[u] as usize, out_offset[u + 1] as usize);
            let mut p = o0;
            while p < o1 {
                let v = out_link[p].peer;
                if v == NONE {
                    p += 1;
                    continue;
                }
                let run_end = (p..o1).find(|&q| out_link[q].peer != v).unwrap_or(o1);
                let (i0, i1) = (
                    in_offset[v as usize] as usize,
                    in_offset[v as usize + 1] as usize,
                );
                let start = (i0..i1)
                    .find(|&q| in_link[q].peer == u as u32)
                    .expect("every output channel has an input port");
                for k in 0..(run_end - p) {
                    out_link[p + k].peer_port = (start + k - i0) as u32;
                    in_link[start + k].peer_port = (p + k - o0) as u32;
                }
                p = run_end;
            }
        }
        for r in 0..n {
            let ports = (out_offset[r + 1] - out_offset[r]).max(in_offset[r + 1] - in_offset[r]);
            if ports > u16::MAX as u32 {
                return Err(SimError::Core(topolab_core::TopolabError::InvalidNetwork(
                    format!("router {r} has {ports} ports; the simulator supports at most 65535"),
                )));
            }
        }
        let max_latency = out_link
            .iter()
            .chain(in_link.iter())
            .map(|l| l.latency)
            .max()
            .unwrap_or(1);
        Ok(SimTopology {
            num_routers: n as u32,
            num_endpoints: total_ep as u32,
            ep_offset,
            endpoints_per_router,
            out_offset,
            out_link,
            in_offset,
            in_link,
            nbr_ports,
            csr_offset,
            csr_target,
            endpoint_latency: cfg.endpoint_latency,
            credit_delay: match cfg.router {
                RouterModel::Iq => cfg.credit_delay,
                RouterModel::HotPotato => 0,
            },
            max_latency,
        })
    }

    #[inline]
    pub fn num_out(&self, r: usize) -> u32 {
        self.out_offset[r + 1] - self.out_offset[r]
    }
    #[inline]
    pub fn num_in(&self, r: usize) -> u32 {
        self.in_offset[r + 1] - self.in_offset[r]
    }
    #[inline]
    pub fn num_ep(&self, r: usize) -> u32 {
        self.ep_offset[r + 1] - self.ep_offset[r]
    }
    /// Router of an endpoint.
    #[inline]
    pub fn endpoint_router(&self, ep: u32) -> u32 {
        match self.endpoints_per_router {
            Some(per_router) => ep / per_router,
            None => (self.ep_offset.partition_point(|&o| o <= ep) - 1) as u32,
        }
    }
    /// First output port of router `r` towards its `pos`-th CSR neighbour, and the link width.
    #[inline]
    pub fn nbr_port(&self, r: usize, pos: usize) -> (u32, u32) {
        self.nbr_ports[self.csr_offset[r] as usize + pos]
    }
    /// Neighbours of router r (ascending).
    #[inline]
    pub fn neighbors(&self, r: usize) -> &[u32] {
        &self.csr_target[self.csr_offset[r] as usize..self.csr_offset[r + 1] as usize]
    }
    /// Position of `v` among r's neighbours.
    #[inline]
    pub fn neighbor_pos(&self, r: usize, v: u32) -> Option<usize> {
        self.neighbors(r).binary_search(&v).ok()
    }
    /// Global index of router r's output port p.
    #[inline]
    pub fn out_index(&self, r: usize, p: u32) -> usize {
        self.out_offset[r] as usize + p as usize
    }
    #[inline]
    pub fn in_index(&self, r: usize, p: u32) -> usize {
        self.in_offset[r] as usize + p as usize
    }
    /// The channel of router r's output port p.
    #[inline]
    pub fn out_link(&self, r: usize, p: u32) -> PortLink {
        self.out_link[self.out_index(r, p)]
    }
    /// The channel of router r's input port p.
    #[inline]
    pub fn in_link(&self, r: usize, p: u32) -> PortLink {
        self.in_link[self.in_index(r, p)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use topolab_core::build_str;

    /// Every router channel's two ends name each other (the output port at u towards v is the
    /// input port at v from u, with the same latency), every endpoint port its own endpoint,
    /// and each router pair has as many ports as the core network's link width, parallel
    /// links (a hypercube of width 2) included.
    #[test]
    fn both_ends_of_every_channel_name_each_other() {
        for spec in [
            "slimfly:q=5",
            "torus:dims=3x4",
            "hypercube:n=3,width=2",
            "fattree:k=4",
        ] {
            let net = build_str(spec).unwrap();
            let topo = SimTopology::new(&net, &SimConfig::default()).unwrap();
            for u in 0..topo.num_routers as usize {
                let n_ep = topo.num_ep(u);
                for p in 0..topo.num_out(u) {
                    let out = topo.out_link(u, p);
                    if p < n_ep {
                        assert_eq!((out.peer, out.peer_port), (NONE, p), "{spec} {u}.{p}");
                        continue;
                    }
                    let back = topo.in_link(out.peer as usize, out.peer_port);
                    assert_eq!((back.peer, back.peer_port), (u as u32, p), "{spec} {u}.{p}");
                    assert_eq!(back.latency, out.latency, "{spec} {u}.{p}");
                }
                for (&v, &l) in net.neighbors(u).iter().zip(net.neighbor_links(u)) {
                    let ports = (0..topo.num_out(u))
                        .filter(|&p| topo.out_link(u, p).peer == v)
                        .count();
                    assert_eq!(
                        ports as u32,
                        net.links()[l as usize].width,
                        "{spec} {u}-{v}"
                    );
                }
            }
        }
    }

    /// Every endpoint's router is the core network's, with as many endpoints at every router
    /// (Slim Fly, torus) and with routers without endpoints (a fat tree's upper levels) or of
    /// different counts (a Dragonfly+'s spines have none).
    #[test]
    fn every_endpoint_sits_at_the_core_networks_router() {
        for spec in [
            "slimfly:q=5",
            "torus:dims=4x4",
            "fattree:k=4",
            "dragonflyplus:h=2",
        ] {
            let net = build_str(spec).unwrap();
            let topo = SimTopology::new(&net, &SimConfig::default()).unwrap();
            let uniform = topo.endpoints_per_router.is_some();
            for ep in 0..topo.num_endpoints {
                let want = net.endpoint_router(ep as u64).unwrap() as u32;
                assert_eq!(
                    topo.endpoint_router(ep),
                    want,
                    "{spec} (uniform {uniform}): {ep}"
                );
            }
        }
    }
}
