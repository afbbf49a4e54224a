//! What the examples share.

/// CPU seconds of the whole process, all threads included (utime + stime of /proc/self/stat, in
/// clock ticks of 1/100 s): /proc/self/schedstat would count only the main thread, which waits while
/// the worker threads of a threads=2 run do the work.
pub fn cpu_seconds() -> f64 {
    const CLOCK_TICKS_PER_SECOND: f64 = 100.0;
    let stat = match std::fs::read_to_string("/proc/self/stat") {
        Ok(s) => s,
        Err(_) => return f64::NAN,
    };
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis are
    // state (3), ..., utime (14), stime (15).
    let after_name = match stat.rfind(')') {
        Some(i) => &stat[i + 1..],
        None => return f64::NAN,
    };
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    match (ticks(11), ticks(12)) {
        (Some(user), Some(system)) => (user + system) / CLOCK_TICKS_PER_SECOND,
        _ => f64::NAN,
    }
}

/// Peak resident memory of the process so far, MiB (VmHWM of /proc/self/status).
#[allow(dead_code)] // not every example prints it
pub fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map(|kib| kib / 1024.0)
        .unwrap_or(f64::NAN)
}

/// The BookSim2 reference data kept in the repository (reference/booksim).
#[allow(dead_code)] // not every example reads it
pub fn reference_dir() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../reference/booksim")
}

/// BookSim2's recorded wall seconds by (config column, offered load as written): machine- and
/// day-dependent, so a ratio against them is indicative only.
#[allow(dead_code)] // not every example reads it
pub fn wall_times(dir: &std::path::Path) -> std::collections::HashMap<(String, String), f64> {
    let text = std::fs::read_to_string(dir.join("wall_times.csv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            ((f[0].to_string(), f[1].to_string()), f[2].parse().unwrap())
        })
        .collect()
}
