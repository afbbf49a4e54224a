//! The one error type of topolab-sim. Bad parameters reuse topolab-core's variants (they name
//! the parameter, the value and what is allowed); the simulator adds the failures only a run can
//! reveal: a deadlock and a broken conservation law.

use thiserror::Error;
use topolab_core::TopolabError;

#[derive(Debug, Error, Clone, PartialEq)]
pub enum SimError {
    /// A parameter, network or routing problem, or an interrupted run.
    #[error(transparent)]
    Core(#[from] TopolabError),

    /// Flits were in flight and none moved for `stalled` cycles.
    #[error(
        "deadlock at cycle {cycle}: {in_flight} flits in flight and none moved for {stalled} cycles; \
         blocked channels: {}; waiting cycle: {}",
        .blocked.join("; "),
        if .wait_cycle.is_empty() { "none found".to_string() } else { .wait_cycle.join(" -> ") }
    )]
    Deadlock {
        cycle: u64,
        stalled: u64,
        in_flight: u64,
        /// Blocked input VCs, "router R input P (from X) vc V: waits for ...".
        blocked: Vec<String>,
        /// A cycle of input VCs each waiting for the next, closing on the first.
        wait_cycle: Vec<String>,
    },

    /// A hot-potato flit kept being deflected past the hop bound (`hotpotato_max_hops`).
    #[error(
        "livelock at cycle {cycle}: a flit from endpoint {src} to endpoint {dest} traversed {hops} routers, more than hotpotato_max_hops = {bound}"
    )]
    Livelock {
        cycle: u64,
        src: u32,
        dest: u32,
        hops: u32,
        bound: u32,
    },

    /// A debug-mode check found flits or credits created or lost.
    #[error("conservation check failed at cycle {cycle}: {reason}")]
    Conservation { cycle: u64, reason: String },
}

pub type Result<T> = std::result::Result<T, SimError>;

impl SimError {
    /// A parameter error in the simulator's context.
    pub fn param(param: &str, value: impl ToString, allowed: impl Into<String>) -> SimError {
        SimError::Core(TopolabError::invalid("simulation", param, value, allowed))
    }
}
