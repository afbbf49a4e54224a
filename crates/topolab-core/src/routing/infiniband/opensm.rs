//! The files of an InfiniBand export, in the formats OpenSM writes and reads (sources: OpenSM,
//! linux-rdma/opensm, `opensm/osm_ucast_file.c` and `opensm/osm_dump.c`):
//!
//! - `opensm-lfts.dump`: the unicast LFT dump of `dump_ucast_lfts` (osm_dump.c), which is
//!   what OpenSM's `file` routing engine loads (`opensm -R file -U opensm-lfts.dump`,
//!   `do_ucast_file_load` in osm_ucast_file.c) and what `dump_fts`/`ibroute` print:
//!   ```text
//!   Unicast lids [0-<max lid>] of switch Lid <lid> guid 0x<16 hex> ('<description>'):
//!   0x<lid, 4 hex> <port, 3 digits> # <node type> portguid 0x<16 hex>: '<description>'
//!   <max lid> lids dumped
//!   ```
//! - `opensm-sl2vl.dump`: the SL2VL dump of `dump_sl2vl_tbl` (osm_dump.c): per switch a
//!   header line `Switch 0x<guid>, base LID <lid>, "<description>"`, then one row per
//!   (in port, out port): `<in> <out> : <VL of SL 0> ... <VL of SL 15>`; VL 15 means "drop"
//!   (the SL is not used on that port pair). OpenSM writes this file but has no loader for
//!   it: a routing engine programs SL2VL through its `update_sl2vl` callback.
//! - `path-sl.txt` (topolab's own): `0x<source switch LID> 0x<destination LID> <SL>`, what
//!   a path record query returns (OpenSM's routing-engine `path_sl` callback; no file format
//!   exists for it).
//!
//! GUIDs are deterministic: a switch's node and port GUID are `GUID_BASE + LID`; a host's node
//! GUID is `HOST_GUID_BASE + 2·LID` and its port 1 GUID one more (ibsim numbers a channel
//! adapter's ports from its node GUID up, so the two must differ and not meet another node's).

use super::{Fabric, IbTables, VL_DROP};
use crate::error::{Result, TopolabError};
use crate::network::Network;
use std::fmt::Write;

/// Base of the GUIDs written ("tl" in the top bytes); a switch's GUID is base + its LID.
pub const GUID_BASE: u64 = 0x0074_6c00_0000_0000;
/// Base of the hosts' GUIDs (module documentation).
pub const HOST_GUID_BASE: u64 = GUID_BASE + 0x1_0000_0000;

/// The node GUID of the host with LID `lid`.
pub fn host_node_guid(lid: u16) -> u64 {
    HOST_GUID_BASE + 2 * lid as u64
}

/// The port GUID of LID `lid`: a switch's (its node GUID) or a host's port 1.
pub fn port_guid(fab: &Fabric, lid: u16) -> u64 {
    if (lid as usize) <= fab.num_switches() {
        GUID_BASE + lid as u64
    } else {
        host_node_guid(lid) + 1
    }
}

pub const LFTS_FILE: &str = "opensm-lfts.dump";
pub const SL2VL_FILE: &str = "opensm-sl2vl.dump";
pub const PATH_SL_FILE: &str = "path-sl.txt";

fn describe(fab: &Fabric, lid: u16) -> (String, String) {
    if (lid as usize) <= fab.num_switches() {
        ("Switch".into(), format!("topolab switch {}", lid - 1))
    } else {
        let (r, d) = fab.host_of(lid).expect("host LID");
        (
            "Channel Adapter".into(),
            format!("topolab host {d} of switch {r}"),
        )
    }
}

/// The LFTs in OpenSM's `opensm-lfts.dump` format.
pub fn write_lfts(net: &Network, tb: &IbTables) -> Result<String> {
    let fab = Fabric::new(net)?;
    let max = fab.max_lid();
    let mut s = String::new();
    for r in 0..fab.num_switches() as u32 {
        let lid = fab.switch_lid(r);
        let _ = writeln!(
            s,
            "Unicast lids [0-{max}] of switch Lid {lid} guid 0x{:016x} ('topolab switch {r}'):",
            GUID_BASE + lid as u64
        );
        for (&(_, dlid), &port) in tb.lft.range((r, 0)..=(r, u16::MAX)) {
            let (kind, desc) = describe(&fab, dlid);
            let _ = writeln!(
                s,
                "0x{dlid:04x} {port:03} # {kind} portguid 0x{:016x}: '{desc}'",
                port_guid(&fab, dlid)
            );
        }
        let _ = writeln!(s, "{max} lids dumped");
    }
    Ok(s)
}

/// The SL2VL tables in OpenSM's `opensm-sl2vl.dump` format (switches only).
pub fn write_sl2vl(net: &Network, tb: &IbTables) -> Result<String> {
    let fab = Fabric::new(net)?;
    let mut s = String::new();
    let sep = "#--------------------------------------------------------";
    for r in 0..fab.num_switches() as u32 {
        let lid = fab.switch_lid(r);
        let _ = writeln!(
            s,
            "Switch 0x{:016x}, base LID {lid}, \"topolab switch {r}\"",
            GUID_BASE + lid as u64
        );
        let _ = writeln!(
            s,
            "#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15"
        );
        let _ = writeln!(s, "{sep}");
        let mut rows: std::collections::BTreeMap<(u8, u8), [u8; 16]> = Default::default();
        for (&(_, i, o, sl), &vl) in tb
            .sl2vl
            .range((r, 0, 0, 0)..=(r, u8::MAX, u8::MAX, u8::MAX))
        {
            rows.entry((o, i)).or_insert([VL_DROP; 16])[sl as usize] = vl;
        }
        for ((o, i), vls) in rows {
            let cells: String = vls.iter().map(|v| format!(" {v:<2}")).collect();
            let _ = writeln!(s, "{i:<3} {o:<3} :{cells}");
        }
        let _ = writeln!(s, "{sep}\n");
    }
    Ok(s)
}

/// The path SLs, topolab's `path-sl.txt`.
pub fn write_path_sl(tb: &IbTables) -> String {
    let mut s = String::from(
        "# topolab path SL v1: source switch LID, destination LID, SL (a path record's SL)\n",
    );
    for (&(src, dlid), &sl) in &tb.path_sl {
        let _ = writeln!(s, "0x{:04x} 0x{dlid:04x} {sl}", src + 1);
    }
    s
}

fn format_error(file: &str, line: usize, reason: String) -> TopolabError {
    TopolabError::Format {
        format: file.into(),
        location: format!(" line {line}"),
        reason,
    }
}

fn hex(file: &str, line: usize, word: Option<&str>, what: &str) -> Result<u64> {
    let w = word.ok_or_else(|| format_error(file, line, format!("missing {what}")))?;
    let digits = w.trim_start_matches("0x").trim_end_matches([',', ':']);
    u64::from_str_radix(digits, 16)
        .map_err(|_| format_error(file, line, format!("{what} '{w}' is not hexadecimal")))
}

fn switch_of_guid(fab: &Fabric, file: &str, line: usize, guid: u64) -> Result<u32> {
    let lid = guid.wrapping_sub(GUID_BASE);
    if lid == 0 || lid > fab.num_switches() as u64 {
        return Err(format_error(
            file,
            line,
            format!("guid 0x{guid:016x} is not a switch of this network"),
        ));
    }
    Ok(lid as u32 - 1)
}

/// Reads the three files back into tables for `net` (the switches are found by GUID). The LFTs
/// may also be what `dump_fts`/`dump_lfts` print from a running fabric (the same entries, with
/// column titles and `: (...)` after each port).
pub fn read_tables(net: &Network, lfts: &str, sl2vl: &str, path_sl: &str) -> Result<IbTables> {
    let fab = Fabric::new(net)?;
    let mut tb = IbTables::default();
    let mut sw: Option<u32> = None;
    for (i, raw) in lfts.lines().enumerate() {
        let (line, no) = (raw.trim(), i + 1);
        // `dump_fts` (infiniband-diags) prints the same entries under two column-title lines.
        if line.is_empty()
            || line.starts_with('#')
            || line.ends_with("lids dumped")
            || line.starts_with("Lid ")
            || line.starts_with("Port ")
        {
            continue;
        }
        if line.starts_with("Unicast lids") {
            let at = line
                .find(" guid 0x")
                .ok_or_else(|| format_error(LFTS_FILE, no, "switch line without guid".into()))?;
            let guid = hex(
                LFTS_FILE,
                no,
                line[at + 6..].split_whitespace().next(),
                "guid",
            )?;
            sw = Some(switch_of_guid(&fab, LFTS_FILE, no, guid)?);
        } else if line.starts_with("0x") {
            let r =
                sw.ok_or_else(|| format_error(LFTS_FILE, no, "entry before a switch line".into()))?;
            let mut w = line.split_whitespace();
            let lid = hex(LFTS_FILE, no, w.next(), "lid")?;
            let port: u8 = w
                .next()
                .and_then(|p| p.parse().ok())
                .ok_or_else(|| format_error(LFTS_FILE, no, "missing or bad port".into()))?;
            if lid > u16::MAX as u64 {
                return Err(format_error(
                    LFTS_FILE,
                    no,
                    format!("lid 0x{lid:x} out of range"),
                ));
            }
            tb.lft.insert((r, lid as u16), port);
        } else {
            return Err(format_error(
                LFTS_FILE,
                no,
                format!("unexpected line '{line}'"),
            ));
        }
    }
    let mut sw: Option<u32> = None;
    for (i, raw) in sl2vl.lines().enumerate() {
        let (line, no) = (raw.trim(), i + 1);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("Switch ") {
            let guid = hex(SL2VL_FILE, no, rest.split_whitespace().next(), "guid")?;
            sw = Some(switch_of_guid(&fab, SL2VL_FILE, no, guid)?);
        } else if line.starts_with("Channel Adapter") {
            sw = None;
        } else if let Some(r) = sw {
            let (ports, vls) = line
                .split_once(':')
                .ok_or_else(|| format_error(SL2VL_FILE, no, format!("unexpected line '{line}'")))?;
            let p: Vec<u8> = ports
                .split_whitespace()
                .map(|x| x.parse())
                .collect::<std::result::Result<_, _>>()
                .map_err(|_| format_error(SL2VL_FILE, no, "ports are not numbers".into()))?;
            let v: Vec<u8> = vls
                .split_whitespace()
                .map(|x| x.parse())
                .collect::<std::result::Result<_, _>>()
                .map_err(|_| format_error(SL2VL_FILE, no, "VLs are not numbers".into()))?;
            if p.len() != 2 || v.len() != 16 || v.iter().any(|&x| x > VL_DROP) {
                return Err(format_error(
                    SL2VL_FILE,
                    no,
                    "expected '<in> <out> : ' and 16 VLs from 0 to 15".into(),
                ));
            }
            for (sl, &vl) in v.iter().enumerate() {
                if vl != VL_DROP {
                    tb.sl2vl.insert((r, p[0], p[1], sl as u8), vl);
                }
            }
        }
    }
    for (i, raw) in path_sl.lines().enumerate() {
        let (line, no) = (raw.trim(), i + 1);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut w = line.split_whitespace();
        let src = hex(PATH_SL_FILE, no, w.next(), "source LID")?;
        let dst = hex(PATH_SL_FILE, no, w.next(), "destination LID")?;
        let sl: u8 = w
            .next()
            .and_then(|x| x.parse().ok())
            .filter(|&x| x < 16)
            .ok_or_else(|| format_error(PATH_SL_FILE, no, "SL must be 0..15".into()))?;
        if src == 0 || src > fab.num_switches() as u64 || dst > fab.max_lid() as u64 {
            return Err(format_error(
                PATH_SL_FILE,
                no,
                format!("LIDs 0x{src:x} 0x{dst:x} out of range"),
            ));
        }
        tb.path_sl.insert((src as u32 - 1, dst as u16), sl);
    }
    Ok(tb)
}
