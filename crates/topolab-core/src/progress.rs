//! Progress reporting and cancellation for long computations.
//!
//! Long kernels (all-pairs distances, resilience sweeps, simulations) call
//! `Monitor::progress` between units of work; the monitor may report to a user and may ask the
//! computation to stop by returning `Err(TopolabError::Interrupted)`. The Python layer uses this
//! to print progress on stderr and to honour Ctrl-C while the GIL is released.

use crate::error::{Result, TopolabError};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

pub trait Monitor: Sync {
    /// `done` of `total` units of the current `stage` are finished. Called from any thread.
    fn progress(&self, stage: &str, done: u64, total: u64) -> Result<()>;
}

/// Reports nothing and never interrupts.
pub struct Silent;

impl Monitor for Silent {
    fn progress(&self, _stage: &str, _done: u64, _total: u64) -> Result<()> {
        Ok(())
    }
}

/// Interrupts once `flag` is set (by a signal handler, another thread or a test).
pub struct CancelFlag<'a>(pub &'a AtomicBool);

impl Monitor for CancelFlag<'_> {
    fn progress(&self, _stage: &str, _done: u64, _total: u64) -> Result<()> {
        if self.0.load(Ordering::Relaxed) {
            Err(TopolabError::Interrupted)
        } else {
            Ok(())
        }
    }
}

/// Counts finished units across threads and forwards the running total to a monitor, so that
/// parallel workers can report without knowing about each other.
pub struct Counter<'a> {
    monitor: &'a dyn Monitor,
    stage: &'a str,
    total: u64,
    done: AtomicU64,
}

impl<'a> Counter<'a> {
    pub fn new(monitor: &'a dyn Monitor, stage: &'a str, total: u64) -> Self {
        Counter {
            monitor,
            stage,
            total,
            done: AtomicU64::new(0),
        }
    }

    /// Adds `units` finished units and reports; an error means: stop.
    pub fn add(&self, units: u64) -> Result<()> {
        let done = self.done.fetch_add(units, Ordering::Relaxed) + units;
        self.monitor.progress(self.stage, done, self.total)
    }
}
