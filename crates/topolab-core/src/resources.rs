//! The memory guard: a request whose estimated memory exceeds what this process can get is
//! refused with an error naming the parameter and the estimate, before anything is allocated.
//! Rust aborts the whole process on a failed allocation (there is no error to catch), so an
//! estimate made in advance is the only way to turn "too big for this machine" into a message.
//!
//! What this process can get: the environment variable TOPOLAB_MEMORY_LIMIT (which the CLI's
//! `--memory-limit` sets, so that worker processes inherit it), else the smaller of
//! the machine's available memory (MemAvailable in /proc/meminfo) and the room left under the
//! address-space limit (`ulimit -v`, RLIMIT_AS in /proc/self/limits, minus VmSize in
//! /proc/self/status). Where none of these can be read (not Linux), nothing is refused.

use crate::error::{Result, TopolabError};

/// The environment variable that overrides what the machine offers (bytes, or a number with a
/// K, M, G or T suffix, powers of 1024).
pub const LIMIT_ENV: &str = "TOPOLAB_MEMORY_LIMIT";

/// Reads a size such as `4G`, `512M`, `1048576` (suffixes are powers of 1024).
pub fn parse_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let (digits, unit) = match t.char_indices().last()? {
        (i, c) if c.is_ascii_alphabetic() => (&t[..i], c.to_ascii_uppercase()),
        _ => (t, 'B'),
    };
    let shift = match unit {
        'B' => 0,
        'K' => 10,
        'M' => 20,
        'G' => 30,
        'T' => 40,
        _ => return None,
    };
    let value: f64 = digits.trim().parse().ok()?;
    if !value.is_finite() || value <= 0.0 {
        return None;
    }
    let bytes = value * (1u64 << shift) as f64;
    (bytes < u64::MAX as f64).then_some(bytes as u64)
}

/// The limit in bytes and where it comes from; `None` when nothing bounds it.
pub fn memory_limit() -> Result<Option<(u64, String)>> {
    let address = "the room left under the address-space limit (ulimit -v)";
    let address_room = || {
        address_space_limit().map(|limit| {
            let used = proc_value("/proc/self/status", "VmSize:").unwrap_or(0) * 1024;
            limit.saturating_sub(used)
        })
    };
    if let Ok(text) = std::env::var(LIMIT_ENV) {
        return match parse_size(&text) {
            // An explicit limit may exceed the available memory (swap, overcommit) but not
            // the address-space limit: past it an allocation fails, and Rust aborts.
            Some(bytes) => Ok(Some(match address_room() {
                Some(room) if room < bytes => (
                    room,
                    format!(
                        "{address}, below the limit {LIMIT_ENV} = {} (--memory-limit)",
                        text.trim()
                    ),
                ),
                _ => (
                    bytes,
                    format!("the limit {LIMIT_ENV} = {} (--memory-limit)", text.trim()),
                ),
            })),
            None => Err(TopolabError::invalid(
                "memory limit (--memory-limit)",
                LIMIT_ENV,
                format!("'{}'", crate::error::quote(&text)),
                "a size in bytes, or a number with K, M, G or T (powers of 1024), e.g. 4G",
            )),
        };
    }
    let available = proc_value("/proc/meminfo", "MemAvailable:").map(|kib| kib * 1024);
    Ok(match (available, address_room()) {
        (Some(a), Some(r)) if r < a => Some((r, address.into())),
        (Some(a), _) => Some((a, "the machine's available memory (MemAvailable)".into())),
        (None, Some(r)) => Some((r, address.into())),
        (None, None) => None,
    })
}

/// Refuses a request estimated to need `bytes` when that exceeds `memory_limit()`:
/// an InvalidParameter error for `param` = `value` in `context`.
pub fn ensure_memory(
    context: &str,
    param: &str,
    value: impl ToString,
    what: &str,
    bytes: u128,
) -> Result<()> {
    let Some((limit, source)) = memory_limit()? else {
        return Ok(());
    };
    if bytes <= limit as u128 {
        return Ok(());
    }
    Err(TopolabError::invalid(
        context,
        param,
        value,
        format!(
            "a value whose {what} fits in memory: it needs about {}, more than the {} of {source}",
            human(bytes),
            human(limit as u128)
        ),
    ))
}

/// Peak bytes of building a network of `routers` routers and `links` links: the builder's link
/// list and the finished network (links, both directions of each in compressed rows, router
/// labels) are alive together. Measured as the growth of peak RSS between builds of tori
/// (1024x1024 → 2048x1024, 128x128x64 → 128x128x128): about 32 bytes a router (with two
/// label fields, 8 bytes each more) and 50 a link; rounded up to cover four label fields.
pub fn network_bytes(routers: u128, links: u128) -> u128 {
    routers * BYTES_PER_ROUTER + links * BYTES_PER_LINK
}

pub const BYTES_PER_ROUTER: u128 = 48;
pub const BYTES_PER_LINK: u128 = 56;

/// `bytes` as "3.2 GiB".
pub fn human(bytes: u128) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut x = bytes as f64;
    let mut unit = 0;
    while x >= 1024.0 && unit + 1 < UNITS.len() {
        x /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{x:.1} {}", UNITS[unit])
    }
}

/// The number after `key` in a /proc file of "Key: value kB" lines.
fn proc_value(path: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    line[key.len()..].split_whitespace().next()?.parse().ok()
}

/// The soft RLIMIT_AS in bytes, when there is one.
fn address_space_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max address space"))?;
    line["Max address space".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// The most threads the global pool is started with. `RAYON_NUM_THREADS=100000` would make
/// rayon try to start them all, fail, and panic in whichever call first needs the pool.
pub const MAX_THREADS: usize = 256;

/// Starts rayon's global pool with `RAYON_NUM_THREADS` threads, at most MAX_THREADS, or with
/// rayon's default when the system cannot start that many. Returns what was changed, for a
/// warning, or None. Call once, before any parallel work.
pub fn start_thread_pool() -> Option<String> {
    let text = std::env::var("RAYON_NUM_THREADS").ok()?;
    let wanted: usize = text.trim().parse().ok().filter(|&n| n > 0)?;
    let threads = wanted.min(MAX_THREADS);
    let started = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global();
    match started {
        Ok(()) if threads == wanted => None,
        Ok(()) => Some(format!(
            "RAYON_NUM_THREADS = {wanted} is more than {MAX_THREADS}; {threads} threads used"
        )),
        Err(e) => {
            let fallback = std::thread::available_parallelism().map_or(1, |n| n.get());
            let _ = rayon::ThreadPoolBuilder::new()
                .num_threads(fallback)
                .build_global();
            Some(format!(
                "RAYON_NUM_THREADS = {wanted}: the system cannot start {threads} threads ({e}); \
                 {fallback} used"
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_with_binary_suffixes() {
        assert_eq!(parse_size("4G"), Some(4 << 30));
        assert_eq!(parse_size("512m"), Some(512 << 20));
        assert_eq!(parse_size("1.5K"), Some(1536));
        assert_eq!(parse_size("1048576"), Some(1 << 20));
        for bad in ["", "G", "-1G", "4X", "nan", "1e400"] {
            assert_eq!(parse_size(bad), None, "{bad}");
        }
    }

    #[test]
    fn human_sizes() {
        assert_eq!(human(512), "512 B");
        assert_eq!(human(3 << 30), "3.0 GiB");
    }
}
