//! Runs a long core computation with the GIL released while the calling (main) thread keeps
//! watching for Ctrl-C and prints progress on stderr. Python only delivers signals to the main
//! thread, so the work runs on a scoped worker thread and the main thread polls.

use crate::errors::to_py_err;
use pyo3::prelude::*;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use topolab_core::progress::Monitor;
use topolab_core::{Result, TopolabError};

struct Shared {
    cancel: AtomicBool,
    latest: Mutex<Option<(String, u64, u64)>>,
}

impl Monitor for Shared {
    fn progress(&self, stage: &str, done: u64, total: u64) -> Result<()> {
        if let Ok(mut latest) = self.latest.lock() {
            *latest = Some((stage.to_string(), done, total));
        }
        if self.cancel.load(Ordering::Relaxed) {
            Err(TopolabError::Interrupted)
        } else {
            Ok(())
        }
    }
}

const POLL: Duration = Duration::from_millis(50);
const PRINT_EVERY: Duration = Duration::from_millis(500);

/// Runs `work` off the main thread; Ctrl-C interrupts it (KeyboardInterrupt), and with
/// `show_progress` the latest progress is printed on stderr at most twice a second.
pub fn run<T: Send>(
    py: Python<'_>,
    show_progress: bool,
    work: impl FnOnce(&dyn Monitor) -> Result<T> + Send,
) -> PyResult<T> {
    let shared = Shared {
        cancel: AtomicBool::new(false),
        latest: Mutex::new(None),
    };
    let result = py.allow_threads(|| {
        std::thread::scope(|scope| {
            // The worker says when it is done, so that a short call returns at once instead of
            // after a whole polling interval.
            let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
            let shared = &shared;
            let handle = scope.spawn(move || {
                let result = work(shared);
                let _ = done_tx.send(());
                result
            });
            let mut last_print = Instant::now();
            let mut printed = false;
            while let Err(RecvTimeoutError::Timeout) = done_rx.recv_timeout(POLL) {
                if Python::with_gil(|py| py.check_signals()).is_err() {
                    shared.cancel.store(true, Ordering::Relaxed);
                }
                if show_progress && last_print.elapsed() >= PRINT_EVERY {
                    last_print = Instant::now();
                    if let Some((stage, done, total)) =
                        shared.latest.lock().ok().and_then(|l| l.clone())
                    {
                        let pct = if total > 0 {
                            100.0 * done as f64 / total as f64
                        } else {
                            0.0
                        };
                        eprint!("\r{stage}: {done}/{total} ({pct:.0}%)   ");
                        let _ = std::io::stderr().flush();
                        printed = true;
                    }
                }
            }
            if printed {
                eprint!("\r{:60}\r", "");
            }
            handle.join().unwrap_or_else(|_| {
                Err(TopolabError::InvalidNetwork(
                    "internal error: worker thread panicked".into(),
                ))
            })
        })
    });
    result.map_err(to_py_err)
}
