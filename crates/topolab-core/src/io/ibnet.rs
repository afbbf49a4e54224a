//! InfiniBand fabrics as `ibnetdiscover` prints them and `ibsim` reads them (infiniband-diags,
//! `ibnetdiscover(8)`; linux-rdma/ibsim, `ibsim/sim_net.c`, which parses the same text).
//!
//! ```text
//! switchguid=0x00746c0000000001
//! Switch  5 "S-00746c0000000001"   # "topolab switch 0" base port 0 lid 1 lmc 0
//! [1]     "S-00746c0000000002"[1]  # "topolab switch 1" lid 2 4xSDR
//! [3]     "H-00746c010000000c"[1](00746c010000000d)  # "topolab host 0 of switch 0" lid 6 4xSDR
//!
//! caguid=0x00746c010000000c
//! Ca      1 "H-00746c010000000c"   # "topolab host 0 of switch 0"
//! [1](00746c010000000d)  "S-00746c0000000001"[3]  # lid 6 lmc 0 "topolab switch 0" lid 1 4xSDR
//! ```
//!
//! Reading: every `Switch` record is a router, every switch port cabled to a channel adapter
//! (`Ca`/`Hca`) an endpoint of that router, and the cables between two switches one link whose
//! width is their number. Routers are numbered by GUID when every switch is named `S-<GUID>`
//! (ibnetdiscover's names; the order it prints them in is its discovery order), else in the
//! order of the file. Other lines (`switchguid=`, `vendid=`, comments) carry nothing topolab
//! keeps.
//!
//! Writing: the numbering of the InfiniBand export (`routing::infiniband`): switch r has LID
//! r + 1 and GUID `GUID_BASE + LID`, its ports 1..=k lead to its neighbours in ascending order
//! (a link of width w is one port, as in the exported LFTs), then one port per host; each
//! `switchguid=`/`caguid=` line makes ibsim give the next node that GUID, and the LIDs written
//! are kept by OpenSM (it preserves valid LIDs it finds), so the LFT dump OpenSM writes for the
//! fabric uses the export's LIDs and ports.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use super::{check_endpoints_option, finish, Format, LinkSet, LoadOptions, DEFAULT_LINK_CLASS};
use crate::error::{Result, TopolabError};
use crate::network::{Network, NetworkBuilder};
use crate::routing::infiniband::opensm::{host_node_guid, port_guid, GUID_BASE};
use crate::routing::infiniband::{Fabric, PortTarget};

/// Family recorded for a fabric read from an ibnetdiscover/ibsim file.
pub const FAMILY: &str = "infiniband";

/// The network as an ibsim topology (ibnetdiscover's format; module documentation).
pub fn to_string(net: &Network) -> Result<String> {
    if net.directed() {
        return Err(TopolabError::invalid(
            "ibnet export",
            "network",
            "directed",
            "an undirected network: InfiniBand cables are bidirectional",
        ));
    }
    let fab = Fabric::new(net)?;
    let n = net.num_routers() as u32;
    let mut s = format!(
        "# topolab network {}: {n} switches, {} hosts (ibsim topology, ibnetdiscover's format)\n\n",
        net.spec(),
        net.num_endpoints()
    );
    let sw_guid = |r: u32| GUID_BASE + fab.switch_lid(r) as u64;
    for r in 0..n {
        let nb = net.neighbors(r as usize);
        let ports = (nb.len() as u32 + net.endpoints()[r as usize]).max(1);
        let lid = fab.switch_lid(r);
        let _ = writeln!(s, "switchguid=0x{:016x}", sw_guid(r));
        let _ = writeln!(
            s,
            "Switch\t{ports} \"S-{:016x}\"\t\t# \"topolab switch {r}\" base port 0 lid {lid} lmc 0",
            sw_guid(r)
        );
        for &v in nb {
            let _ = writeln!(
                s,
                "[{}]\t\"S-{:016x}\"[{}]\t\t# \"topolab switch {v}\" lid {} 4xSDR",
                fab.neighbor_port(r, v),
                sw_guid(v),
                fab.neighbor_port(v, r),
                fab.switch_lid(v)
            );
        }
        for d in 0..net.endpoints()[r as usize] {
            let hl = fab.host_lid(r, d);
            let _ = writeln!(
                s,
                "[{}]\t\"H-{:016x}\"[1]({:x})\t\t# \"topolab host {d} of switch {r}\" lid {hl} 4xSDR",
                fab.host_port(r, d),
                host_node_guid(hl),
                port_guid(&fab, hl)
            );
        }
        s.push('\n');
    }
    for r in 0..n {
        for d in 0..net.endpoints()[r as usize] {
            let hl = fab.host_lid(r, d);
            let _ = writeln!(s, "caguid=0x{:016x}", host_node_guid(hl));
            let _ = writeln!(
                s,
                "Ca\t1 \"H-{:016x}\"\t\t# \"topolab host {d} of switch {r}\"",
                host_node_guid(hl)
            );
            let _ = writeln!(
                s,
                "[1]({:x})\t\"S-{:016x}\"[{}]\t\t# lid {hl} lmc 0 \"topolab switch {r}\" lid {} 4xSDR\n",
                port_guid(&fab, hl),
                sw_guid(r),
                fab.host_port(r, d),
                fab.switch_lid(r)
            );
        }
    }
    Ok(s)
}

fn err(location: impl Into<String>, reason: impl Into<String>) -> TopolabError {
    TopolabError::format(Format::Ibnet.title(), location, reason)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Switch,
    Adapter,
}

struct Node {
    kind: Kind,
    id: String,
    line: usize,
    /// The LID the node line's comment gives (ibnetdiscover's `base port 0 lid N`).
    lid: Option<u16>,
    /// (local port, remote id, remote port, line, the remote port's LID from the comment).
    ports: Vec<(u32, String, u32, usize, Option<u16>)>,
}

/// The `lid N` of a line's comment, after its quoted description: ibnetdiscover prints a
/// switch's own LID on its node line and the remote port's LID on each port line.
fn comment_lid(line: &str) -> Option<u16> {
    let comment = &line[line.find('#')? + 1..];
    let after = comment.rfind('"').map_or(comment, |q| &comment[q + 1..]);
    let mut words = after.split_whitespace();
    while let Some(w) = words.next() {
        if w == "lid" {
            return words.next()?.parse().ok();
        }
    }
    None
}

/// The quoted text at the start of `s` (after blanks) and what follows it.
fn quoted(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_start();
    let rest = s.strip_prefix('"')?;
    let end = rest.find('"')?;
    Some((&rest[..end], &rest[end + 1..]))
}

/// `[p](guid)? "remote"[q](guid)? ...` -> (p, remote, q); a missing remote port is 1 (ibsim).
fn port_line(line: &str) -> std::result::Result<(u32, String, u32), String> {
    let close = line.find(']').ok_or("a port line starts with [port]")?;
    let local = line[1..close]
        .trim()
        .parse::<u32>()
        .map_err(|_| format!("port '{}' is not a number", &line[1..close]))?;
    let rest = &line[close + 1..];
    let quote = rest
        .find('"')
        .ok_or("a port line names its remote node in quotes")?;
    let (remote, after) = quoted(&rest[quote..]).ok_or("unterminated remote node name")?;
    let remote_port = match after.strip_prefix('[') {
        Some(a) => {
            let end = a.find(']').ok_or("unterminated remote port")?;
            a[..end]
                .trim()
                .parse::<u32>()
                .map_err(|_| format!("remote port '{}' is not a number", &a[..end]))?
        }
        None => 1,
    };
    Ok((local, remote.to_string(), remote_port))
}

fn node_index(nodes: &[Node]) -> BTreeMap<&str, usize> {
    nodes
        .iter()
        .enumerate()
        .map(|(k, n)| (n.id.as_str(), k))
        .collect()
}

fn guid_of(id: &str) -> Option<u64> {
    let hex = id.strip_prefix("S-")?;
    (hex.len() == 16)
        .then(|| u64::from_str_radix(hex, 16).ok())
        .flatten()
}

/// The nodes of a file and its switches in router order (module documentation).
fn parse(text: &str) -> Result<(Vec<Node>, Vec<usize>)> {
    let mut nodes: Vec<Node> = Vec::new();
    let mut in_record = false;
    for (i, raw) in text.lines().enumerate() {
        let no = i + 1;
        let line = raw.trim();
        let kind = if line.starts_with("Switch") {
            Some(Kind::Switch)
        } else if line.starts_with("Hca") || line.starts_with("Ca") {
            Some(Kind::Adapter)
        } else {
            None
        };
        if let Some(kind) = kind {
            let q = line
                .find('"')
                .ok_or_else(|| err(format!("line {no}"), "a node line names its node in quotes"))?;
            let (id, _) = quoted(&line[q..])
                .ok_or_else(|| err(format!("line {no}"), "unterminated node name"))?;
            nodes.push(Node {
                kind,
                id: id.to_string(),
                line: no,
                lid: comment_lid(line),
                ports: Vec::new(),
            });
            in_record = true;
        } else if line.starts_with("Rt") {
            return Err(err(
                format!("line {no}"),
                "an InfiniBand router (Rt) joins subnets; topolab reads one subnet of switches and channel adapters",
            ));
        } else if line.starts_with('[') && in_record {
            let (p, remote, q) = port_line(line).map_err(|m| err(format!("line {no}"), m))?;
            nodes.last_mut().expect("in a record").ports.push((
                p,
                remote,
                q,
                no,
                comment_lid(line),
            ));
        } else if line.starts_with('[') {
            return Err(err(
                format!("line {no}"),
                "a port line outside a node record",
            ));
        } else if line.is_empty() {
            in_record = false;
        } else if line.starts_with("include") || line.starts_with("do ") {
            return Err(err(
                format!("line {no}"),
                "ibsim's 'include' and 'do' lines are not read; give the whole fabric in one file",
            ));
        }
    }
    let by_id = node_index(&nodes);
    if by_id.len() != nodes.len() {
        let mut seen = BTreeSet::new();
        let dup = nodes
            .iter()
            .find(|n| !seen.insert(n.id.as_str()))
            .expect("a duplicate");
        return Err(err(
            format!("line {}", dup.line),
            format!("node \"{}\" is defined twice", dup.id),
        ));
    }
    let mut switches: Vec<usize> = (0..nodes.len())
        .filter(|&k| nodes[k].kind == Kind::Switch)
        .collect();
    if switches.is_empty() {
        return Err(err("", "no Switch record in the file"));
    }
    if switches.iter().all(|&k| guid_of(&nodes[k].id).is_some()) {
        switches.sort_by_key(|&k| guid_of(&nodes[k].id));
    }
    Ok((nodes, switches))
}

/// Reads an ibnetdiscover or ibsim topology (module documentation).
pub fn from_str(text: &str, options: &LoadOptions) -> Result<Network> {
    if options.directed == Some(true) {
        return Err(err(
            "",
            "an InfiniBand fabric is undirected; leave LoadOptions.directed unset",
        ));
    }
    let (nodes, switches) = parse(text)?;
    let by_id = node_index(&nodes);
    let router: BTreeMap<usize, u32> = switches
        .iter()
        .enumerate()
        .map(|(r, &k)| (k, r as u32))
        .collect();
    let mut endpoints = vec![0u32; switches.len()];
    let mut cables: BTreeSet<((u32, u32), (u32, u32))> = BTreeSet::new();
    for &k in &switches {
        let a = router[&k];
        let mut used = BTreeSet::new();
        for (p, remote, q, no, _) in &nodes[k].ports {
            if !used.insert(*p) {
                return Err(err(
                    format!("line {no}"),
                    format!("port {p} of \"{}\" is cabled twice", nodes[k].id),
                ));
            }
            let &m = by_id.get(remote.as_str()).ok_or_else(|| {
                err(
                    format!("line {no}"),
                    format!("port {p} leads to \"{remote}\", which the file does not define"),
                )
            })?;
            match nodes[m].kind {
                Kind::Adapter => endpoints[a as usize] += 1,
                Kind::Switch => {
                    let b = router[&m];
                    if a == b {
                        return Err(err(
                            format!("line {no}"),
                            format!("port {p} of \"{remote}\" is cabled to the same switch"),
                        ));
                    }
                    let (x, y) = ((a, *p), (b, *q));
                    cables.insert(if x < y { (x, y) } else { (y, x) });
                }
            }
        }
    }
    for (r, &e) in endpoints.iter().enumerate() {
        check_endpoints_option(Format::Ibnet, format!("switch {r}"), e, options)?;
    }
    let mut b = NetworkBuilder::new(FAMILY, switches.len(), false);
    let class = b.link_class(DEFAULT_LINK_CLASS);
    for (r, &e) in endpoints.iter().enumerate() {
        b.set_endpoints(r, e);
    }
    let mut links = LinkSet::new(false);
    for ((a, _), (c, _)) in &cables {
        links
            .add(*a, *c, 1, class, |_| DEFAULT_LINK_CLASS.to_string())
            .map_err(|m| err("", m))?;
    }
    links.add_to(&mut b);
    finish(b, Format::Ibnet, FAMILY, "")
}

/// The LIDs and port numbers of a fabric as the file gives them (a running fabric's, assigned by
/// its subnet manager), for the network `from_str` reads from the same file: switch `r` there is
/// `switch_lid[r]` here, its `d`-th host (in the order of its port lines) `host_lid[r][d]`, and
/// `ports[r]` says where each of its cabled ports leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Addressing {
    pub switch_lid: Vec<u16>,
    pub host_lid: Vec<Vec<u16>>,
    pub ports: Vec<BTreeMap<u8, PortTarget>>,
}

/// The addressing of an ibnetdiscover file, which prints every LID (module documentation);
/// a switch or host port without its LID is an error naming its line.
pub fn addressing(text: &str) -> Result<Addressing> {
    let (nodes, switches) = parse(text)?;
    let by_id = node_index(&nodes);
    let router: BTreeMap<usize, u32> = switches
        .iter()
        .enumerate()
        .map(|(r, &k)| (k, r as u32))
        .collect();
    let mut out = Addressing {
        switch_lid: Vec::with_capacity(switches.len()),
        host_lid: vec![Vec::new(); switches.len()],
        ports: vec![BTreeMap::new(); switches.len()],
    };
    for (r, &k) in switches.iter().enumerate() {
        let node = &nodes[k];
        let lid = node.lid.ok_or_else(|| {
            err(
                format!("line {}", node.line),
                "the switch line gives no 'lid N' (read the LIDs of a running fabric from ibnetdiscover's output)",
            )
        })?;
        out.switch_lid.push(lid);
        for (p, remote, _, no, remote_lid) in &node.ports {
            let port = u8::try_from(*p)
                .map_err(|_| err(format!("line {no}"), format!("port {p} is above 254")))?;
            let &m = by_id.get(remote.as_str()).ok_or_else(|| {
                err(
                    format!("line {no}"),
                    format!("port {p} leads to \"{remote}\", which the file does not define"),
                )
            })?;
            let target = match nodes[m].kind {
                Kind::Switch => PortTarget::Switch(router[&m]),
                Kind::Adapter => {
                    let host_lid = remote_lid.ok_or_else(|| {
                        err(
                            format!("line {no}"),
                            "the port line to a host gives no 'lid N' (ibnetdiscover prints it)",
                        )
                    })?;
                    out.host_lid[r].push(host_lid);
                    PortTarget::Host(out.host_lid[r].len() as u32 - 1)
                }
            };
            out.ports[r].insert(port, target);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ibnetdiscover's report of `hyperx:dims=3x3,p=2` stood up from topolab's own topology, whose
    /// LIDs and ports OpenSM kept: its addressing is the export's numbering, port by port.
    #[test]
    fn discovered_addressing_of_a_topolab_fabric_is_the_export_numbering() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/data/infiniband/hyperx_3x3_p2.ibnd"
        );
        let text = std::fs::read_to_string(path).expect("the checked-in ibnetdiscover output");
        let net = from_str(&text, &LoadOptions::default()).unwrap();
        let fab = Fabric::new(&net).unwrap();
        let found = addressing(&text).unwrap();
        for r in 0..net.num_routers() as u32 {
            assert_eq!(found.switch_lid[r as usize], fab.switch_lid(r));
            let hosts: Vec<u16> = (0..net.endpoints()[r as usize])
                .map(|d| fab.host_lid(r, d))
                .collect();
            assert_eq!(found.host_lid[r as usize], hosts);
            let ports = &found.ports[r as usize];
            assert_eq!(ports.len(), net.neighbors(r as usize).len() + hosts.len());
            for (&p, &target) in ports {
                assert_eq!(target, fab.target(r, p), "switch {r} port {p}");
            }
        }
    }

    #[test]
    fn a_port_line_without_its_lid_is_named() {
        let text = "Switch\t2 \"S-0000000000000001\"\t# \"a\" base port 0 lid 1 lmc 0\n\
                    [1]\t\"H-0000000000000010\"[1]\t# \"host\"\n\n\
                    Ca\t1 \"H-0000000000000010\"\n[1]\t\"S-0000000000000001\"[1]\n";
        let e = addressing(text).unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("lid"), "{e}");
        assert_eq!(comment_lid("# \"lid 7 in a name\" lid 12 4xSDR"), Some(12));
        assert_eq!(comment_lid("[1] \"S-1\"[2]"), None);
    }
}
