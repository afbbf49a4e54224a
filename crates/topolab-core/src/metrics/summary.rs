//! `analyze`: every metric of a network in one structured result. Optional sections are
//! `Option` fields computed on request; a new metric is one more such field and one more
//! request flag.

use super::bisection::{bisection, check_runs, spectral_lower_bound, Bisection};
use super::distance::{distances, Distances};
use super::moore::moore_fraction;
use super::paths::{path_diversity, PathDiversity};
use super::resilience::{resilience_from, Resilience, ResilienceOptions};
use super::spectral::{spectrum, Spectrum};
use crate::error::Result;
use crate::network::Network;
use crate::progress::Monitor;

/// What `analyze` computes beyond the always-present sizes, distances and Moore fraction.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct AnalyzeOptions {
    /// Shortest-path diversity (one counting search per router).
    pub paths: bool,
    /// Random-failure resilience (many all-pairs runs); None to skip.
    pub resilience: Option<ResilienceOptions>,
    /// Endpoint-balanced METIS bisection; None to skip.
    pub bisection: Option<BisectionOptions>,
    /// Adjacency spectrum (λ1, λ2, λmin, gaps); undirected networks only.
    pub spectrum: bool,
}

/// Best of `runs` METIS runs seeded from `seed` (Besta & Hoefler, SC14, §III-C).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BisectionOptions {
    pub runs: u32,
    pub seed: u64,
}

impl Default for BisectionOptions {
    fn default() -> Self {
        BisectionOptions { runs: 5, seed: 0 }
    }
}

crate::result_type! {
    /// Everything `analyze` computed. Optional sections (`paths`, `resilience`, `bisection`,
    /// `spectrum`) are None unless requested. `diameter`, `radius`, `aspl` and `eccentricities`
    /// are None only when the network is not connected (`connected`); the endpoint-level ones
    /// also when it has fewer than two endpoints; `moore_fraction` with the diameter, and
    /// `moore_bound` also when the bound exceeds 2**128.
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
        #[serde(flatten)]
        pub distances: Distances,
        /// The Moore bound at the network radix and the diameter, exact;
        /// None when the network is not connected or the bound exceeds 2**128.
        pub moore_bound: Option<u128>,
        /// routers / the Moore bound (1.0 for a Moore graph); None when not connected.
        pub moore_fraction: Option<f64>,
        pub paths: Option<PathDiversity>,
        pub resilience: Option<Resilience>,
        /// With its spectral lower bound (its `lower_bound`) where that holds.
        pub bisection: Option<Bisection>,
        pub spectrum: Option<Spectrum>,
    }
}

impl Analysis {
    /// The analysis as JSON (the form the Python layer reads; u128 bounds stay exact).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("an Analysis holds only numbers, strings and lists")
    }
}

pub fn analyze(net: &Network, options: &AnalyzeOptions, monitor: &dyn Monitor) -> Result<Analysis> {
    if let Some(o) = &options.bisection {
        // Before the distances: a bad run count costs nothing.
        check_runs(o.runs)?;
    }
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
    let bisection = match &options.bisection {
        Some(o) => Some(bisection(net, o.runs, o.seed, monitor)?),
        None => None,
    };
    let spectrum = match options.spectrum {
        true => Some(spectrum(net, monitor)?),
        false => None,
    };
    let bisection = match bisection {
        Some(b) => Some(Bisection {
            lower_bound: bisection_bound(net, spectrum.as_ref(), monitor)?,
            ..b
        }),
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
        moore_bound: moore.as_ref().and_then(|m| m.bound),
        moore_fraction: moore.map(|m| m.fraction),
        paths,
        resilience,
        bisection,
        spectrum,
    })
}

/// Routers up to which the bisection's spectral lower bound is computed when the spectrum was
/// not asked for: its Lanczos run then stays well below the METIS runs' time.
const BOUND_SPECTRUM_MAX_ROUTERS: usize = 50_000;

/// The spectral lower bound on the bisection, from the spectrum already computed or, when the
/// bound can hold and the network is not too large, from one computed for it (a failure of
/// that extra computation, e.g. its memory cap, leaves the bound out instead of failing).
fn bisection_bound(
    net: &Network,
    computed: Option<&Spectrum>,
    monitor: &dyn Monitor,
) -> Result<Option<u64>> {
    if let Some(s) = computed {
        return Ok(spectral_lower_bound(net, s));
    }
    let uniform = net.endpoints().windows(2).all(|w| w[0] == w[1]);
    if net.directed() || !uniform || !(2..=BOUND_SPECTRUM_MAX_ROUTERS).contains(&net.num_routers())
    {
        return Ok(None);
    }
    match spectrum(net, monitor) {
        Ok(s) => Ok(spectral_lower_bound(net, &s)),
        Err(crate::error::TopolabError::Interrupted) => {
            Err(crate::error::TopolabError::Interrupted)
        }
        Err(_) => Ok(None),
    }
}
