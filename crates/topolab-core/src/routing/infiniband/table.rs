//! The routing a fabric runs, read from its tables: OpenSM's LFT dump, its SL2VL dump and the
//! path SLs (`opensm::read_tables`) become a `HopRouting`, so static analysis (channel loads,
//! the channel dependency graph over (link, VL)) and the simulator take the tables an OpenSM
//! routing engine computed exactly as they take topolab's own routings.
//!
//! A packet's state is its SL (`phase`) and, in `aux`, the destination host on its switch and
//! the port it entered the current switch by (bits 8..16): the LFT gives the out port per
//! destination LID, the SL2VL table the VL per (in port, out port, SL). A packet from switch s
//! enters by the port of s's first host (the tables of one switch's hosts differ only in that
//! port); a destination switch without hosts is reached at its own LID.
//!
//! Every route of every (source switch, destination LID) is followed once when the routing is
//! built, so a table that loops, drops (VL 15) or misses an entry is refused with the switch
//! and LID named, and `next` never meets a gap.

use super::{table_error, Fabric, IbTables, PortTarget};
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::routing::cdg::traffic_routers;
use crate::routing::rule::{Hop, HopRouting, RouteState};
use std::collections::BTreeMap;

/// The `aux` value meaning "the destination switch's own LID" (it has no hosts).
const SWITCH_LID: u32 = 0xff;

/// A routing given by InfiniBand tables (module documentation).
pub struct TableRouting {
    name: String,
    switches: u32,
    /// Hosts per switch.
    hosts: Vec<u32>,
    /// Destination LID of (switch t, host d) = `first_lid[t] + d`; switch LIDs are t + 1.
    first_lid: Vec<u32>,
    /// Port of the first host of each switch (where a packet enters its source switch).
    source_port: Vec<u8>,
    /// (switch, DLID) -> (neighbour position, the port it arrives by there, out port).
    hop: BTreeMap<(u32, u16), (u32, u8, u8)>,
    sl2vl: BTreeMap<(u32, u8, u8, u8), u8>,
    /// (source switch, DLID) -> SL.
    path_sl: BTreeMap<(u32, u16), u8>,
    vls: u32,
}

impl TableRouting {
    /// Checks that every route of the tables arrives (module documentation).
    pub fn new(net: &Network, tb: &IbTables, name: &str) -> Result<Self> {
        let fab = Fabric::new(net)?;
        let n = net.num_routers() as u32;
        let hosts: Vec<u32> = net.endpoints().to_vec();
        let first_lid: Vec<u32> = (0..n)
            .map(|t| {
                if hosts[t as usize] > 0 {
                    fab.host_lid(t, 0) as u32
                } else {
                    fab.switch_lid(t) as u32
                }
            })
            .collect();
        let source_port: Vec<u8> = (0..n)
            .map(|s| {
                if hosts[s as usize] > 0 {
                    fab.host_port(s, 0)
                } else {
                    0
                }
            })
            .collect();
        let mut hop = BTreeMap::new();
        let mut vls = 1u32;
        let terms: Vec<u32> = traffic_routers(net).iter().map(|&r| r as u32).collect();
        for &t in &terms {
            let dests: Vec<u16> = if hosts[t as usize] == 0 {
                vec![fab.switch_lid(t)]
            } else {
                (0..hosts[t as usize]).map(|d| fab.host_lid(t, d)).collect()
            };
            for &lid in &dests {
                for &s in terms.iter().filter(|&&s| s != t) {
                    let sl = *tb.path_sl.get(&(s, lid)).unwrap_or(&0);
                    let (mut r, mut inp, mut hops) = (s, source_port[s as usize], 0u32);
                    while r != t {
                        if hops > n {
                            return Err(table_error(format!(
                                "the route from switch {s} to LID {lid} loops"
                            )));
                        }
                        let out = *tb.lft.get(&(r, lid)).ok_or_else(|| {
                            table_error(format!("switch {r} has no LFT entry for LID {lid}"))
                        })?;
                        let PortTarget::Switch(v) = fab.target(r, out) else {
                            return Err(table_error(format!(
                                "switch {r} sends LID {lid} to port {out} ({:?}), not towards switch {t}",
                                fab.target(r, out)
                            )));
                        };
                        let vl = tb.data_vl(r, inp, out, sl)?;
                        vls = vls.max(vl as u32 + 1);
                        let arrive = fab.neighbor_port(v, r);
                        hop.insert((r, lid), (out as u32 - 1, arrive, out));
                        r = v;
                        inp = arrive;
                        hops += 1;
                    }
                }
            }
        }
        Ok(TableRouting {
            name: name.to_string(),
            switches: n,
            hosts,
            first_lid,
            source_port,
            hop,
            sl2vl: tb.sl2vl.clone(),
            path_sl: tb.path_sl.clone(),
            vls,
        })
    }

    fn state(&self, s: u32, t: u32, d: u32) -> RouteState {
        let lid = self.lid(t, d);
        let sl = *self.path_sl.get(&(s, lid)).unwrap_or(&0);
        RouteState::new(sl, d | (self.source_port[s as usize] as u32) << 8)
    }

    fn lid(&self, t: u32, d: u32) -> u16 {
        if d == SWITCH_LID {
            (t + 1) as u16
        } else {
            (self.first_lid[t as usize] + d) as u16
        }
    }

    fn dest_of(&self, t: u32, d: u32) -> u32 {
        if self.hosts[t as usize] == 0 {
            SWITCH_LID
        } else {
            d
        }
    }
}

impl HopRouting for TableRouting {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn vc_classes(&self) -> u32 {
        self.vls
    }
    fn max_hops(&self) -> u32 {
        self.switches
    }
    fn start(&self, s: u32, t: u32, out: &mut Vec<(RouteState, f64)>) {
        let h = self.hosts[t as usize];
        if h == 0 {
            out.push((self.state(s, t, SWITCH_LID), 1.0));
        } else {
            for d in 0..h {
                out.push((self.state(s, t, d), 1.0 / h as f64));
            }
        }
    }
    fn host_start(&self, s: u32, t: u32, d: u32) -> Option<RouteState> {
        Some(self.state(s, t, self.dest_of(t, d)))
    }
    fn next(&self, r: u32, t: u32, _hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        if r == t {
            return;
        }
        let (d, inp) = (st.aux & 0xff, (st.aux >> 8) as u8);
        let lid = self.lid(t, d);
        if let Some(&(nb, arrive, port)) = self.hop.get(&(r, lid)) {
            if let Some(&vl) = self.sl2vl.get(&(r, inp, port, st.phase)) {
                out(Hop {
                    detour: 0,
                    nb,
                    vc: vl,
                    state: RouteState::new(st.phase, d | (arrive as u32) << 8),
                });
            }
        }
    }
}

/// `infiniband:dir=DIRECTORY`: the three files of `opensm` (`LFTS_FILE`, `SL2VL_FILE`,
/// `PATH_SL_FILE`) in DIRECTORY, read for `net`. With `fabric=FILE`, the ibnetdiscover output of
/// the running fabric whose dumps these are (and from which `net` was read): its LIDs and ports
/// are translated, and the path SLs are optional (SL 0 without them).
pub fn from_params(net: &Network, params: &crate::spec::Params) -> Result<TableRouting> {
    use super::opensm::{read_fabric_tables, read_tables, LFTS_FILE, PATH_SL_FILE, SL2VL_FILE};
    let dir = params.opt_text("dir")?.ok_or_else(|| {
        params.invalid(
            "dir",
            "(missing)",
            "the directory of an InfiniBand export or an OpenSM run (topolab routing export|opensm)",
        )
    })?;
    let read = |file: &str| {
        let path = std::path::Path::new(&dir).join(file);
        std::fs::read_to_string(&path).map_err(|e| TopolabError::io(&path, e))
    };
    let Some(fabric) = params.opt_text("fabric")? else {
        let tb = read_tables(
            net,
            &read(LFTS_FILE)?,
            &read(SL2VL_FILE)?,
            &read(PATH_SL_FILE)?,
        )?;
        return TableRouting::new(net, &tb, &format!("infiniband:dir={dir}"));
    };
    let text = std::fs::read_to_string(&fabric)
        .map_err(|e| TopolabError::io(std::path::Path::new(&fabric), e))?;
    let addressing = crate::io::ibnet::addressing(&text)?;
    let path_sl = std::path::Path::new(&dir).join(PATH_SL_FILE);
    let path_sl = path_sl.exists().then(|| read(PATH_SL_FILE)).transpose()?;
    let tb = read_fabric_tables(
        net,
        &addressing,
        &read(LFTS_FILE)?,
        &read(SL2VL_FILE)?,
        path_sl.as_deref(),
    )?;
    TableRouting::new(net, &tb, &format!("infiniband:dir={dir},fabric={fabric}"))
}

/// The catalog entry: the tables a fabric runs, read from OpenSM's dumps.
pub const INFINIBAND: crate::routing::catalog::RoutingEntry = crate::routing::catalog::RoutingEntry {
    name: "infiniband",
    params: &[
        crate::topology::ParamDef {
            name: "dir",
            kind: crate::topology::ParamKind::Text,
            default: None,
            help: "the directory holding opensm-lfts.dump (LFTs), opensm-sl2vl.dump (SL2VL) and path-sl.txt (path SLs)",
        },
        crate::topology::ParamDef {
            name: "fabric",
            kind: crate::topology::ParamKind::Text,
            default: None,
            help: "a running fabric's ibnetdiscover output (the network read from it): the dumps' LIDs and ports are its subnet manager's, translated; path-sl.txt optional (SL 0)",
        },
    ],
    readers: crate::routing::catalog::BOTH,
    summary: "the tables a fabric runs: dir=DIRECTORY with opensm-lfts.dump (LFTs), opensm-sl2vl.dump (SL2VL) and path-sl.txt (path SLs), from `topolab routing export` or `topolab routing opensm`; fabric=FILE (ibnetdiscover output) for a fabric whose subnet manager chose the LIDs",
    source: "Daryin & Korzh, JSFI 2014, §3; OpenSM's dump formats",
    definition: crate::routing::catalog::Definition::Rule(|net, p, _| Ok(from_params(net, p)?.into())),
};
