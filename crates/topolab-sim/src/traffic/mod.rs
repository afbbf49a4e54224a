//! Traffic: who sends to whom. The engine asks a `Traffic` for the destination of each new packet
//! and runs a `Exchange` (fixed message lists) to completion; everything else about traffic —
//! the patterns of the papers, their parameters and their validation — lives in this module, one
//! file per pattern family.
//!
//! Endpoint ids are the network's: contiguous router by router (`Network::endpoint_router`).

use rand_chacha::ChaCha8Rng;
use topolab_core::{Network, Result, TopolabError};

/// A synthetic traffic pattern, resolved for one network. Enum dispatch: the engine calls
/// `destination` once per generated packet.
#[derive(Debug, Clone, PartialEq)]
pub enum Traffic {
    /// Destination uniform over all endpoints, the source itself included (BookSim2 `uniform`).
    Uniform { endpoints: u32 },
}

impl Traffic {
    /// The pattern named by `spec` (e.g. "uniform") for `net`.
    pub fn parse(spec: &str, net: &Network) -> Result<Traffic> {
        let endpoints = u32::try_from(net.num_endpoints()).map_err(|_| {
            TopolabError::InvalidNetwork("more than 2^32 endpoints cannot be simulated".into())
        })?;
        match spec.trim().to_ascii_lowercase().as_str() {
            "uniform" => Ok(Traffic::Uniform { endpoints }),
            other => Err(TopolabError::invalid(
                "traffic",
                "traffic",
                format!("'{other}'"),
                format!("one of: {}", Traffic::NAMES.join(", ")),
            )),
        }
    }

    /// Every pattern name `parse` accepts.
    pub const NAMES: &'static [&'static str] = &["uniform"];

    /// Destination endpoint of a new packet from `src`, or None when `src` sends nothing under
    /// this pattern (e.g. outside the power-of-two subset of a bit permutation).
    #[inline]
    pub fn destination(&self, src: u32, rng: &mut ChaCha8Rng) -> Option<u32> {
        use rand::Rng;
        let _ = src;
        match self {
            Traffic::Uniform { endpoints } => Some(rng.random_range(0..*endpoints)),
        }
    }
}

/// A fixed workload (001 §4.4): for each source endpoint, the messages it sends in order, as
/// (destination endpoint, packets). The engine runs it to completion.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Exchange {
    pub name: String,
    pub per_source: Vec<Vec<(u32, u32)>>,
}
