//! The runs of a saturation search: one network, routing and traffic pattern at a sequence of
//! loads, wired once (`Prepared`: routing tables, channels) for all of them. With warm starts
//! on, each run starts from the network that the highest carried run below its load left
//! instead of an empty one.
//!
//! A run from an empty network spends `warmup_periods` periods filling it (3 of compare's 200
//! cycles). A search runs every load above its highest carried one, whose network is already
//! loaded nearly as the next load will load it: with warm starts that run warms up for
//! `warm_start_periods` periods (1 by default) and then measures as a cold run would (at most
//! max_samples - warmup_periods periods). The sources change their rate at the start (the
//! Bernoulli process has no memory: each endpoint draws its next creation afresh, with an
//! empty source queue as in a cold run), and the packets in flight are no longer measured.
//!
//! The state kept is the highest carried run's whose measured packets were all delivered
//! within one sample period after its measurement. A longer drain means flows that run
//! oversubscribed (a permutation's busiest channels, long before the network saturates): a
//! warm start carries their full queues into the next run, whose measured packets then wait
//! behind them (a DLN under `randperm` at 0.31: a drain of 2,500 cycles from such a state,
//! 500 from an empty network). States are kept with `early_verdict` only (which leaves the
//! network loaded; otherwise every run starts empty) and the input-queued router. A run at a
//! load no higher than the kept one starts empty. So a search's results depend on the order
//! of its loads, and are the same for the same order and seed, on any number of threads.
//!
//! Near saturation a warm run measures a network closer to its steady state than a cold run's
//! short warm-up does, so it is judged saturated at lower loads (docs/simulator.md, "Warm
//! starts"): warm starts are off by default.

use crate::config::RouterModel;
use crate::engine::{Prepared, WarmState};
use crate::error::Result;
use crate::measure::{run_from, RunResult};
use crate::traffic::Traffic;
use crate::SimConfig;
use topolab_core::progress::Monitor;
use topolab_core::Network;

pub struct SearchSession {
    prep: Prepared,
    traffic: String,
    warm_starts: bool,
    /// The load of the highest carried run and the network it left.
    warm: Option<(f64, WarmState)>,
}

impl SearchSession {
    /// The network wired with `routing` once for every run; `traffic` is checked here.
    /// `warm_starts`: runs above the highest carried load start from its network.
    pub fn new(
        net: &Network,
        routing: &str,
        traffic: &str,
        cfg: &SimConfig,
        warm_starts: bool,
        monitor: &dyn Monitor,
    ) -> Result<SearchSession> {
        let prep = Prepared::new(net, routing, cfg, monitor)?;
        Traffic::parse(traffic, &prep.net)?;
        Ok(SearchSession {
            prep,
            traffic: traffic.trim().to_string(),
            warm_starts,
            warm: None,
        })
    }

    /// One run at `load`: from an empty network, or with warm starts from the network the
    /// highest carried run left when its load was lower (`RunResult::cycles` counts this run's
    /// cycles only).
    pub fn run(&mut self, load: f64, monitor: &dyn Monitor) -> Result<RunResult> {
        let from = match &self.warm {
            Some((carried, state)) if *carried < load => Some(state.clone()),
            _ => None,
        };
        let (result, left) = run_from(&self.prep, &self.traffic, load, from, monitor)?;
        let higher = self
            .warm
            .as_ref()
            .is_none_or(|(carried, _)| load > *carried);
        let period = self.prep.cfg.sample_period as u64;
        let drain = result
            .cycles
            .saturating_sub(result.sample_periods as u64 * period);
        if let Some(state) = left {
            let iq = self.prep.cfg.router == RouterModel::Iq;
            if self.warm_starts && iq && higher && drain <= period {
                self.warm = Some((load, state));
            }
        }
        Ok(result)
    }

    /// The load of the run whose network the next run above it starts from (None: every run
    /// starts empty).
    pub fn warm_load(&self) -> Option<f64> {
        self.warm.as_ref().map(|(load, _)| *load)
    }
}
