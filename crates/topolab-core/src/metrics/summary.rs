//! `analyze`: every metric of a network in one structured result. Optional sections are
//! `Option` fields computed on request; a new metric is one more such field and one more
//! request flag.

use super::distance::{distances, Distances};
use super::moore::{moore_fraction, MooreFraction};
use super::paths::{path_diversity, PathDiversity};
use super::resilience::{resilience_from, Resilience, ResilienceOptions};
use crate::error::Result;
use crate::network::Network;
use crate::progress::Monitor;
use serde::Serialize;

/// What `analyze` computes beyond the always-present sizes, distances and Moore fraction.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct AnalyzeOptions {
    /// Shortest-path diversity (one counting search per router).
    pub paths: bool,
    /// Random-failure resilience (many all-pairs runs); None to skip.
    pub resilience: Option<ResilienceOptions>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Analysis {
    pub family: String,
    pub spec: String,
    pub routers: usize,
    pub endpoints: u64,
    /// Router-to-router cables, counting width.
    pub links: u64,
    pub network_radix: u32,
    pub radix: u32,
    pub directed: bool,
    pub distances: Distances,
    /// At the network radix and diameter; None when the network is not connected.
    pub moore: Option<MooreFraction>,
    pub paths: Option<PathDiversity>,
    pub resilience: Option<Resilience>,
}

impl Analysis {
    /// The analysis as JSON (the form the Python layer reads; u128 bounds stay exact).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("an Analysis holds only numbers, strings and lists")
    }
}

pub fn analyze(net: &Network, options: &AnalyzeOptions, monitor: &dyn Monitor) -> Result<Analysis> {
    let distances = distances(net, monitor)?;
    let moore = distances.diameter.map(|diameter| {
        moore_fraction(
            net.num_routers(),
            net.network_radix(),
            diameter,
            net.directed(),
        )
    });
    let paths = match options.paths {
        true => Some(path_diversity(net, monitor)?),
        false => None,
    };
    let resilience = match &options.resilience {
        Some(o) => Some(resilience_from(net, &distances, o, monitor)?),
        None => None,
    };
    Ok(Analysis {
        family: net.family().to_string(),
        spec: net.spec().to_string(),
        routers: net.num_routers(),
        endpoints: net.num_endpoints(),
        links: net.num_links(),
        network_radix: net.network_radix(),
        radix: net.radix(),
        directed: net.directed(),
        distances,
        moore,
        paths,
        resilience,
    })
}
