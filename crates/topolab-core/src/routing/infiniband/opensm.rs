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

use super::{Fabric, IbTables, PortTarget, VL_DROP};
use crate::error::{Result, TopolabError};
use crate::io::ibnet::Addressing;
use crate::network::Network;
use std::collections::BTreeMap;
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

/// Where the files' switches, LIDs and ports are numbered.
enum Numbering<'a> {
    /// The export's own numbering (`Fabric`): switches found by GUID, LIDs and ports as written.
    Export,
    /// A running fabric's, its subnet manager's LIDs and the ports as cabled, translated into the
    /// export's numbering of the network read from the same ibnetdiscover file.
    Discovered {
        addressing: &'a Addressing,
        switch_of_lid: BTreeMap<u16, u32>,
        /// The fabric's LID -> the export's.
        lid: BTreeMap<u16, u16>,
    },
}

impl<'a> Numbering<'a> {
    fn discovered(fab: &Fabric, addressing: &'a Addressing) -> Result<Self> {
        let net = fab.net;
        let mismatch = |what: String| {
            TopolabError::invalid(
                "infiniband",
                "fabric",
                what,
                "the ibnetdiscover file the network was read from",
            )
        };
        if addressing.switch_lid.len() != net.num_routers() {
            return Err(mismatch(format!(
                "a file of {} switches for a network of {}",
                addressing.switch_lid.len(),
                net.num_routers()
            )));
        }
        let mut lid = BTreeMap::new();
        let mut switch_of_lid = BTreeMap::new();
        for r in 0..net.num_routers() as u32 {
            let ports = &addressing.ports[r as usize];
            let neighbours: std::collections::BTreeSet<u32> = ports
                .values()
                .filter_map(|t| match t {
                    PortTarget::Switch(b) => Some(*b),
                    _ => None,
                })
                .collect();
            let hosts = addressing.host_lid[r as usize].len() as u32;
            if neighbours
                .iter()
                .copied()
                .ne(net.neighbors(r as usize).iter().copied())
                || hosts != net.endpoints()[r as usize]
            {
                return Err(mismatch(format!(
                    "switch {r} is cabled otherwise in the file"
                )));
            }
            let real = addressing.switch_lid[r as usize];
            switch_of_lid.insert(real, r);
            lid.insert(real, fab.switch_lid(r));
            for (d, &real) in addressing.host_lid[r as usize].iter().enumerate() {
                lid.insert(real, fab.host_lid(r, d as u32));
            }
        }
        Ok(Numbering::Discovered {
            addressing,
            switch_of_lid,
            lid,
        })
    }

    /// The switch a dump's header line names: by the GUID after `guid_key` in the export's
    /// numbering, else by the LID after `lid_key`.
    fn switch(
        &self,
        fab: &Fabric,
        (file, no, line): (&str, usize, &str),
        guid_key: &str,
        lid_key: &str,
    ) -> Result<u32> {
        match self {
            Numbering::Export => {
                let at = line
                    .find(guid_key)
                    .ok_or_else(|| format_error(file, no, "switch line without guid".into()))?;
                let guid = hex(
                    file,
                    no,
                    line[at + guid_key.len()..].split_whitespace().next(),
                    "guid",
                )?;
                switch_of_guid(fab, file, no, guid)
            }
            Numbering::Discovered { switch_of_lid, .. } => {
                let lid = line
                    .find(lid_key)
                    .and_then(|at| line[at + lid_key.len()..].split_whitespace().next())
                    .and_then(|w| w.trim_end_matches(',').parse::<u16>().ok())
                    .ok_or_else(|| {
                        format_error(file, no, format!("switch line without '{lid_key}N'"))
                    })?;
                switch_of_lid.get(&lid).copied().ok_or_else(|| {
                    format_error(
                        file,
                        no,
                        format!("LID {lid} is no switch of the fabric file"),
                    )
                })
            }
        }
    }

    /// A destination LID of the files in the export's numbering.
    fn lid(&self, file: &str, no: usize, lid: u64) -> Result<u16> {
        let found = match self {
            Numbering::Export => u16::try_from(lid).ok(),
            Numbering::Discovered { lid: map, .. } => {
                u16::try_from(lid).ok().and_then(|l| map.get(&l).copied())
            }
        };
        found.ok_or_else(|| {
            format_error(file, no, format!("LID 0x{lid:x} is no port of the fabric"))
        })
    }

    /// A port of switch `r` in the export's numbering (port 0, the switch itself, stays 0).
    fn port(&self, fab: &Fabric, file: &str, no: usize, r: u32, port: u8) -> Result<u8> {
        let Numbering::Discovered { addressing, .. } = self else {
            return Ok(port);
        };
        if port == 0 {
            return Ok(0);
        }
        match addressing.ports[r as usize].get(&port) {
            Some(PortTarget::Switch(b)) => Ok(fab.neighbor_port(r, *b)),
            Some(PortTarget::Host(d)) => Ok(fab.host_port(r, *d)),
            _ => Err(format_error(
                file,
                no,
                format!("port {port} of switch {r} is not cabled in the fabric file"),
            )),
        }
    }
}

/// Reads the three files back into tables for `net` (the switches are found by GUID). The LFTs
/// may also be what `dump_fts`/`dump_lfts` print from a running fabric (the same entries, with
/// column titles and `: (...)` after each port).
pub fn read_tables(net: &Network, lfts: &str, sl2vl: &str, path_sl: &str) -> Result<IbTables> {
    read_numbered(
        &Fabric::new(net)?,
        &Numbering::Export,
        lfts,
        sl2vl,
        Some(path_sl),
    )
}

/// Reads the dumps of a running fabric, whose LIDs its subnet manager assigned and whose ports
/// are cabled as they are, into tables for `net`, the network read from that fabric's
/// ibnetdiscover file (`addressing` of the same file). Without path SLs every path has SL 0.
pub fn read_fabric_tables(
    net: &Network,
    addressing: &Addressing,
    lfts: &str,
    sl2vl: &str,
    path_sl: Option<&str>,
) -> Result<IbTables> {
    let fab = Fabric::new(net)?;
    let numbering = Numbering::discovered(&fab, addressing)?;
    read_numbered(&fab, &numbering, lfts, sl2vl, path_sl)
}

fn read_numbered(
    fab: &Fabric,
    numbering: &Numbering,
    lfts: &str,
    sl2vl: &str,
    path_sl: Option<&str>,
) -> Result<IbTables> {
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
            sw = Some(numbering.switch(fab, (LFTS_FILE, no, line), " guid ", "Lid ")?);
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
            let lid = numbering.lid(LFTS_FILE, no, lid)?;
            let port = numbering.port(fab, LFTS_FILE, no, r, port)?;
            tb.lft.insert((r, lid), port);
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
        if line.starts_with("Switch ") {
            sw = Some(numbering.switch(fab, (SL2VL_FILE, no, line), "Switch ", "base LID ")?);
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
            let inp = numbering.port(fab, SL2VL_FILE, no, r, p[0])?;
            let out = numbering.port(fab, SL2VL_FILE, no, r, p[1])?;
            for (sl, &vl) in v.iter().enumerate() {
                if vl == VL_DROP {
                    continue;
                }
                // Parallel cables are one port of the export: their tables must agree.
                if let Some(&other) = tb.sl2vl.get(&(r, inp, out, sl as u8)) {
                    if other != vl {
                        return Err(format_error(
                            SL2VL_FILE,
                            no,
                            format!(
                                "switch {r}: SL {sl} goes to VL {vl} here and to VL {other} on a parallel cable between the same switches"
                            ),
                        ));
                    }
                }
                tb.sl2vl.insert((r, inp, out, sl as u8), vl);
            }
        }
    }
    for (i, raw) in path_sl.unwrap_or("").lines().enumerate() {
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
        let (src, dst) = (
            numbering.lid(PATH_SL_FILE, no, src)?,
            numbering.lid(PATH_SL_FILE, no, dst)?,
        );
        if src == 0 || src as usize > fab.num_switches() || dst > fab.max_lid() {
            return Err(format_error(
                PATH_SL_FILE,
                no,
                format!("LIDs 0x{src:x} 0x{dst:x} out of range"),
            ));
        }
        tb.path_sl.insert((src as u32 - 1, dst), sl);
    }
    Ok(tb)
}
