//! Reading a BookSim2 configuration file (`key = value;`, `//` comments), for the keys topolab
//! supports; any other key is rejected by name, and supported keys with settings topolab does not
//! model (another router, allocator, speedup, ...) are rejected with the values allowed.
//!
//! Topologies: `anynet` (network_file, read with topolab's anynet reader), `torus` / `mesh`
//! (k-ary n-cube; use_noc_latency = 1 gives BookSim2's 2-cycle channels), `dragonflynew`
//! (k = p, n = 1: topolab's dragonfly a = 2p, h = p with BookSim2's fixed channel latencies of
//! 10 cycles local and 100 global). Routing functions: anynet `min` -> min_static, torus/mesh
//! `dim_order` -> dor, dragonflynew `min` / `ugal` -> dragonfly_min / dragonfly_ugal.
//! `link_failures` is accepted at 0 only (`fail_seed` is then ignored): BookSim2 cannot run
//! its own link failures (see `parse_config`); failed links are a topolab failure spec.
//!
//! The configuration sets booksim_compat = true, so that the run reproduces BookSim2's router
//! (see router/iq.rs); the offered load is injection_rate, in flits when
//! injection_rate_uses_flits = 1 and in packets otherwise.

use crate::config::SimConfig;
use crate::error::{Result, SimError};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use topolab_core::io::{self, Format, LoadOptions};
use topolab_core::{build_str, Network, TopolabError};

/// Keys passed to `SimConfig::set` unchanged.
const ROUTER_KEYS: &[&str] = &[
    "num_vcs",
    "vc_buf_size",
    "wait_for_tail_credit",
    "credit_delay",
    "routing_delay",
    "vc_alloc_delay",
    "sw_alloc_delay",
    "st_final_delay",
    "internal_speedup",
    "packet_size",
    "injection_process",
    "burst_alpha",
    "burst_beta",
    "burst_r1",
    "use_read_write",
    "write_fraction",
    "read_request_size",
    "read_reply_size",
    "write_request_size",
    "write_reply_size",
    "warmup_periods",
    "sample_period",
    "max_samples",
    "latency_thres",
    "warmup_thres",
    "stopping_thres",
    "acc_warmup_thres",
    "acc_stopping_thres",
    "seed",
];

/// Keys with the only value topolab models.
const FIXED: &[(&str, &str)] = &[
    ("router", "iq"),
    ("vc_allocator", "separable_input_first"),
    ("sw_allocator", "separable_input_first"),
    ("alloc_iters", "1"),
    ("st_prepare_delay", "0"),
    ("input_speedup", "1"),
    ("output_speedup", "1"),
    ("sim_type", "latency"),
    ("sim_count", "1"),
    ("classes", "1"),
    ("priority", "none"),
    ("buffer_policy", "private"),
    ("vc_busy_when_full", "0"),
    ("vc_prioritize_empty", "0"),
    ("vc_shuffle_requests", "0"),
    ("hold_switch_for_packet", "0"),
    ("speculative", "0"),
    ("noq", "0"),
    ("output_buffer_size", "-1"),
    ("read_request_subnet", "0"),
    ("read_reply_subnet", "0"),
    ("write_request_subnet", "0"),
    ("write_reply_subnet", "0"),
    ("subnets", "1"),
    ("include_queuing", "1"),
];

/// The VC range of each request-reply packet type: accepted when it spans every VC (requests
/// and replies share the VCs; endpoints consume every flit, so replies cannot wait behind
/// requests).
const TYPE_VC_KEYS: &[&str] = &[
    "read_request_begin_vc",
    "read_request_end_vc",
    "write_request_begin_vc",
    "write_request_end_vc",
    "read_reply_begin_vc",
    "read_reply_end_vc",
    "write_reply_begin_vc",
    "write_reply_end_vc",
];

/// Keys that only affect BookSim2's printed output; accepted and ignored.
const IGNORED: &[&str] = &[
    "print_csv_results",
    "print_activity",
    "watch_file",
    "watch_out",
    "watch_flits",
    "watch_packets",
    "stats_out",
    "viewer_trace",
    "deadlock_warn_timeout",
];

/// Keys read here.
const TOPOLOGY_KEYS: &[&str] = &[
    "topology",
    "network_file",
    "k",
    "n",
    "use_noc_latency",
    "routing_function",
    "traffic",
    "injection_rate",
    "injection_rate_uses_flits",
    "link_failures",
    "fail_seed",
];

/// A run described by a BookSim2 configuration.
#[derive(Debug, Clone, Serialize)]
pub struct BooksimSetup {
    #[serde(skip)]
    pub network: Network,
    /// What the network is ("anynet file.anynet", "torus:dims=8x8x8", ...).
    pub network_spec: String,
    pub routing: String,
    pub traffic: String,
    /// Offered load, flits per endpoint per cycle.
    pub load: f64,
    pub config: SimConfig,
}

fn all_keys() -> String {
    let mut keys: Vec<&str> = ROUTER_KEYS
        .iter()
        .chain(TOPOLOGY_KEYS)
        .chain(IGNORED)
        .chain(TYPE_VC_KEYS)
        .copied()
        .chain(FIXED.iter().map(|f| f.0))
        .collect();
    keys.sort_unstable();
    keys.join(", ")
}

fn err(path: &str, reason: String) -> SimError {
    SimError::Core(TopolabError::format("BookSim2 config", path, reason))
}

/// Splits `key = value;` statements, dropping `//` comments.
fn statements(text: &str, path: &str) -> Result<Vec<(String, String)>> {
    let mut cleaned = String::new();
    for line in text.lines() {
        let line = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        cleaned.push_str(line);
        cleaned.push('\n');
    }
    let mut out = Vec::new();
    for stmt in cleaned.split(';') {
        let stmt = stmt.trim();
        if stmt.is_empty() {
            continue;
        }
        let Some((k, v)) = stmt.split_once('=') else {
            return Err(err(
                path,
                format!("'{stmt}' is not of the form key = value;"),
            ));
        };
        let v = v.trim().trim_matches('"').to_string();
        if v.starts_with('{') {
            return Err(err(
                path,
                format!("key '{}': per-class arrays {v} are not supported", k.trim()),
            ));
        }
        out.push((k.trim().to_ascii_lowercase(), v));
    }
    Ok(out)
}

/// Reads a BookSim2 configuration file; `network_file` is looked up relative to the current
/// directory, then to the configuration's directory.
pub fn read_config(path: &Path) -> Result<BooksimSetup> {
    let text = io::read_input(path).map_err(SimError::Core)?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    parse_config(&text, &dir, &path.display().to_string())
}

pub fn parse_config(text: &str, dir: &Path, path: &str) -> Result<BooksimSetup> {
    let mut map: BTreeMap<String, String> = BTreeMap::new();
    for (k, v) in statements(text, path)? {
        map.insert(k, v);
    }
    let mut cfg = SimConfig {
        booksim_compat: true,
        ..SimConfig::default()
    };
    for (k, v) in &map {
        let k = k.as_str();
        if ROUTER_KEYS.contains(&k) {
            if k == "seed" && v == "time" {
                return Err(SimError::param(
                    "seed",
                    "'time'",
                    "an integer (topolab runs are reproducible)",
                ));
            }
            cfg.set(k, v)?;
        } else if let Some(&(_, want)) = FIXED.iter().find(|f| f.0 == k) {
            let same = v == want
                || (want.parse::<f64>().ok().is_some()
                    && v.parse::<f64>().ok() == want.parse::<f64>().ok());
            if !same {
                return Err(SimError::Core(TopolabError::invalid(
                    format!("BookSim2 config {path}"),
                    k,
                    format!("'{v}'"),
                    format!("'{want}' (the only setting topolab models)"),
                )));
            }
        } else if !IGNORED.contains(&k) && !TOPOLOGY_KEYS.contains(&k) && !TYPE_VC_KEYS.contains(&k)
        {
            return Err(SimError::Core(TopolabError::UnknownParameter {
                context: format!("BookSim2 config {path}"),
                param: k.to_string(),
                valid: all_keys(),
            }));
        }
    }
    let get = |k: &str| map.get(k).map(String::as_str);
    let int = |k: &str, default: i64| -> Result<i64> {
        match get(k) {
            None => Ok(default),
            Some(v) => v.parse::<i64>().map_err(|_| {
                SimError::Core(TopolabError::invalid(
                    format!("BookSim2 config {path}"),
                    k,
                    format!("'{v}'"),
                    "an integer",
                ))
            }),
        }
    };
    let bad = |k: &str, v: &str, allowed: &str| {
        SimError::Core(TopolabError::invalid(
            format!("BookSim2 config {path}"),
            k,
            format!("'{v}'"),
            allowed.to_string(),
        ))
    };
    // BookSim2 (commit 28f43299) cannot run its own link failures: KNCube::InsertRandomFaults
    // aborts on its `node != -1` assertion for any count above 0 (the loop assigns a shadowed
    // `node`), and of its routing functions only planar_adapt_mesh looks at a failed channel.
    // The failed links are given to topolab as a failure spec instead.
    match int("link_failures", 0)? {
        0 => {}
        other => {
            return Err(bad(
                "link_failures",
                &other.to_string(),
                "0; BookSim2 aborts on any other count, give the failed links to topolab as \
                 --failures file:path=LIST (docs/resilience.md)",
            ))
        }
    }
    let topology = get("topology").ok_or_else(|| err(path, "no 'topology' given".into()))?;
    let rf = get("routing_function").unwrap_or("");
    let (network, network_spec, routing) = match topology {
        "anynet" => {
            let file = get("network_file")
                .ok_or_else(|| err(path, "topology anynet needs 'network_file'".into()))?;
            let mut p = PathBuf::from(file);
            if !p.is_file() {
                p = dir.join(file);
            }
            // The reader's messages quote the offending line; a config naming some other file
            // (../../etc/passwd) must not make topolab print that file's content.
            let net =
                io::load(&p, Format::Anynet, &LoadOptions::default()).map_err(|e| match e {
                    TopolabError::Format { location, .. } => err(
                        path,
                        format!(
                            "network_file '{}' is not a BookSim2 anynet file{location}; \
                         `topolab info --format anynet FILE` shows what is wrong with it",
                            p.display()
                        ),
                    ),
                    other => SimError::Core(other),
                })?;
            let routing = match rf {
                "min" => "min_static",
                other => return Err(bad("routing_function", other, "min (anynet)")),
            };
            (net, format!("anynet {}", p.display()), routing)
        }
        "torus" | "mesh" => {
            let (k, n) = (int("k", 8)?, int("n", 2)?);
            if !(2..=1 << 16).contains(&k) || !(1..=16).contains(&n) {
                return Err(bad(
                    "k",
                    &format!("{k} with n = {n}"),
                    "k >= 2, 1 <= n <= 16",
                ));
            }
            let dims = vec![k.to_string(); n as usize].join("x");
            let spec = format!("{topology}:dims={dims}");
            let net = build_str(&spec)?;
            match int("use_noc_latency", 1)? {
                0 => cfg.channel_latency = 1,
                1 => cfg.channel_latency = 2,
                other => return Err(bad("use_noc_latency", &other.to_string(), "0 or 1")),
            }
            let routing = match rf {
                "dim_order" => "dor",
                other => return Err(bad("routing_function", other, "dim_order (torus, mesh)")),
            };
            (net, spec, routing)
        }
        "dragonflynew" => {
            let (p, n) = (int("k", 4)?, int("n", 1)?);
            if n != 1 {
                return Err(bad(
                    "n",
                    &n.to_string(),
                    "1 (BookSim2 dragonflynew supports one dimension)",
                ));
            }
            if !(1..=64).contains(&p) {
                return Err(bad("k", &p.to_string(), "an integer from 1 to 64"));
            }
            let spec = format!("dragonfly:a={},h={p},p={p}", 2 * p);
            let net = build_str(&spec)?;
            cfg.link_latency.insert("local".into(), 10);
            cfg.link_latency.insert("global".into(), 100);
            let routing = match rf {
                "min" => "dragonfly_min",
                "ugal" => "dragonfly_ugal",
                other => return Err(bad("routing_function", other, "min or ugal (dragonflynew)")),
            };
            (net, spec, routing)
        }
        other => {
            return Err(bad(
                "topology",
                other,
                "anynet, torus, mesh or dragonflynew",
            ))
        }
    };
    let traffic = get("traffic").unwrap_or("uniform").to_string();
    let rate: f64 = match get("injection_rate") {
        None => 0.1,
        Some(v) => v
            .parse()
            .map_err(|_| bad("injection_rate", v, "a number"))?,
    };
    let in_flits = match int("injection_rate_uses_flits", 0)? {
        0 => false,
        1 => true,
        other => {
            return Err(bad(
                "injection_rate_uses_flits",
                &other.to_string(),
                "0 (injection_rate in packets) or 1 (in flits)",
            ))
        }
    };
    for &k in TYPE_VC_KEYS {
        if let Some(v) = get(k) {
            let want = if k.ends_with("begin_vc") {
                0
            } else {
                cfg.num_vcs as i64 - 1
            };
            if v.parse::<i64>().ok() != Some(want) {
                return Err(bad(
                    k,
                    v,
                    &format!(
                        "{want}: every packet type uses every VC (0 to num_vcs - 1) in topolab"
                    ),
                ));
            }
        }
    }
    let load = if !in_flits {
        rate * cfg.flits_per_injection()
    } else if cfg.use_read_write {
        // BookSim2 divides a load in flits by (read_request_size + read_reply_size +
        // write_request_size + write_reply_size) / 2, in integers, to get its request rate.
        let pair = (cfg.read_request_size
            + cfg.read_reply_size
            + cfg.write_request_size
            + cfg.write_reply_size)
            / 2;
        rate / pair.max(1) as f64 * cfg.flits_per_injection()
    } else {
        rate
    };
    cfg.validate()?;
    Ok(BooksimSetup {
        network,
        network_spec,
        routing: routing.to_string(),
        traffic,
        load,
        config: cfg,
    })
}
