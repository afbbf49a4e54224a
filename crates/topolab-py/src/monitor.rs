//! Runs a long core computation with the GIL released while the calling (main) thread keeps
//! watching for Ctrl-C and hands progress to a Python callable (topolab.progress feeds it to
//! tqdm). Python only delivers signals to the main thread, so the work runs on a scoped worker
//! thread and the main thread polls.

use crate::errors::to_py_err;
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Mutex;
use std::time::Duration;
use topolab_core::progress::Monitor;
use topolab_core::{Result, TopolabError};

type Report = (String, u64, u64);

struct Shared {
    cancel: AtomicBool,
    latest: Mutex<Option<Report>>,
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

/// Runs `work` off the main thread; Ctrl-C interrupts it (KeyboardInterrupt). `progress`, when
/// given, is called on the main thread as `progress(stage, done, total)` with the latest report
/// whenever it changed (at most once per poll, and once more at the end); an exception it raises
/// stops the work and is raised to the caller.
pub fn run<T: Send>(
    py: Python<'_>,
    progress: Option<PyObject>,
    work: impl FnOnce(&dyn Monitor) -> Result<T> + Send,
) -> PyResult<T> {
    let shared = Shared {
        cancel: AtomicBool::new(false),
        latest: Mutex::new(None),
    };
    let mut callback_error: Option<PyErr> = None;
    let mut signal_error: Option<PyErr> = None;
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
            let mut reported: Option<Report> = None;
            let mut report = |py: Python<'_>, callback_error: &mut Option<PyErr>| {
                let Some(callback) = &progress else { return };
                let latest = shared.latest.lock().ok().and_then(|l| l.clone());
                if latest.is_none() || latest == reported || callback_error.is_some() {
                    return;
                }
                reported = latest.clone();
                if let Some((stage, done, total)) = latest {
                    if let Err(err) = callback.call1(py, (stage, done, total)) {
                        *callback_error = Some(err);
                        shared.cancel.store(true, Ordering::Relaxed);
                    }
                }
            };
            while let Err(RecvTimeoutError::Timeout) = done_rx.recv_timeout(POLL) {
                Python::with_gil(|py| {
                    if let Err(err) = py.check_signals() {
                        shared.cancel.store(true, Ordering::Relaxed);
                        // Kept: work that does not look at the monitor (building a network)
                        // finishes anyway, and the Ctrl-C must still reach the caller.
                        signal_error.get_or_insert(err);
                    }
                    report(py, &mut callback_error);
                });
            }
            if progress.is_some() {
                Python::with_gil(|py| report(py, &mut callback_error));
            }
            handle.join().unwrap_or_else(|_| {
                Err(TopolabError::InvalidNetwork(
                    "internal error: worker thread panicked".into(),
                ))
            })
        })
    });
    if let Some(err) = signal_error.or(callback_error) {
        return Err(err);
    }
    result.map_err(to_py_err)
}
