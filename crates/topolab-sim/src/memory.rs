//! How much memory a simulation needs, estimated from the network and the parameters before
//! anything is allocated (topolab_core::resources refuses it when that exceeds what the
//! process can get). An upper bound: every input VC buffer full.

use crate::config::SimConfig;
use crate::error::{Result, SimError};
use crate::flit::{Flit, PRESIZED_BUCKETS, PRESIZED_ITEMS};
use crate::router::iq::{InputVc, OutputVc};
use std::mem::size_of;
use topolab_core::Network;

/// Router state apart from its ports: records, work lists, random streams, arrival wheels'
/// headers. Measured with `size_of` of the records and rounded up for the vectors' headers.
const ROUTER_BYTES: u128 = 4096;
/// Topology arrays (peers, latencies, offsets, CSR) and per-port lists of one port.
const PORT_BYTES: u128 = 128;
/// An endpoint's source queue and counters.
const ENDPOINT_BYTES: u128 = 512;

/// Estimated peak bytes of simulating `net` with `cfg` (a copy of the network is kept too).
pub fn estimate_bytes(net: &Network, cfg: &SimConfig) -> u128 {
    let routers = net.num_routers() as u128;
    let endpoints = net.num_endpoints() as u128;
    let cables = net.num_links() as u128;
    // Each cable is a port at both ends (both directions when undirected); each endpoint a
    // port in and out of its router.
    let ports = 2 * cables + endpoints;
    let vcs = cfg.num_vcs as u128;
    let slot = (size_of::<Flit>() + size_of::<u32>()) as u128;
    let per_vc =
        (size_of::<InputVc>() + size_of::<OutputVc>()) as u128 + cfg.vc_buf_size as u128 * slot;
    let network_copy = topolab_core::resources::network_bytes(routers, net.links().len() as u128);
    // The room the arrival wheels are given ahead (flit.rs): a flit and a credit wheel at the
    // router and at its endpoints.
    let item_bytes = size_of::<(u32, Flit)>() + size_of::<(u32, u8)>();
    let wheel_room = (2 * PRESIZED_BUCKETS * PRESIZED_ITEMS as usize * item_bytes) as u128;
    // The credit wheel holds each credit until it is processed, `credit_delay` cycles after
    // it arrives: that many more buckets (twice: the wheel rounds up to a power of two).
    let credit_buckets = 2 * cfg.credit_delay as u128 * size_of::<Vec<(u32, u8)>>() as u128;
    routers * (ROUTER_BYTES + wheel_room + credit_buckets)
        + ports * (PORT_BYTES + vcs * per_vc)
        + endpoints * ENDPOINT_BYTES
        + network_copy
}

/// Refuses a simulation whose estimate exceeds the memory this process can get.
pub fn ensure_fits(net: &Network, cfg: &SimConfig) -> Result<()> {
    topolab_core::resources::ensure_memory(
        "simulation",
        "network",
        format!(
            "{} routers, {} cables, {} endpoints with num_vcs = {}, vc_buf_size = {}",
            net.num_routers(),
            net.num_links(),
            net.num_endpoints(),
            cfg.num_vcs,
            cfg.vc_buf_size
        ),
        "simulation state",
        estimate_bytes(net, cfg),
    )
    .map_err(SimError::Core)
}
