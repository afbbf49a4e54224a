//! The deadlock watchdog's diagnosis and the conservation checks of debug mode.
//!
//! Diagnosis builds the wait-for graph of the input VCs holding a flit: an active VC without
//! credit waits for the downstream input VC its flits go to; a head waiting for an output VC
//! waits for the input VCs that own the VCs it may take. Following waits from the blocked VCs
//! either ends at a VC that could move or closes a cycle; the first cycle found is reported.
//!
//! Conservation (debug_checks = true, after every cycle):
//! - flits created = flits ejected + flits in source queues, channels and routers;
//! - for every output VC, the credits in use = its flits on the channel + in the downstream
//!   buffer + credits queued, in flight or waiting to be processed on the way back;
//! - no buffer holds more flits than vc_buf_size and no credit count goes below zero.

use crate::engine::Engine;
use crate::error::SimError;
use crate::router::iq::{IqState, ACTIVE, VC_ALLOC};
use crate::router::Model;
use crate::topo::{SimTopology, NONE};

const SHOWN: usize = 12;

fn describe(topo: &SimTopology, r: usize, port: u32, vc: u32) -> String {
    let n_ep = topo.num_ep(r);
    if port < n_ep {
        format!(
            "router {r} input {port} (from endpoint {}) vc {vc}",
            topo.ep_offset[r] + port
        )
    } else {
        let u = topo.in_link(r, port).peer;
        format!("router {r} input {port} (from router {u}) vc {vc}")
    }
}

/// The input VC (router, port, vc) a blocked input VC waits for, if it is blocked.
fn waits_for(topo: &SimTopology, iq: &IqState, r: usize, iv: usize) -> Option<(usize, u32, u32)> {
    let v = iq.vcs;
    let i = &iq.iv[iv];
    if i.len == 0 {
        return None;
    }
    match i.state {
        ACTIVE => {
            let ov = i.ov;
            if ov == NONE || (iq.ov[ov as usize].used as u32) < iq.buf {
                return None;
            }
            let port = ov / v;
            if port < iq.n_ep {
                return None;
            }
            let link = topo.out_link(r, port);
            Some((link.peer as usize, link.peer_port, ov % v))
        }
        VC_ALLOC => {
            let rt = i.route();
            let mut owner = None;
            for vc in rt.vc_lo as u32..=rt.vc_hi as u32 {
                let o = iq.ov[(rt.port * v + vc) as usize].owner;
                if o == NONE {
                    return None;
                }
                owner.get_or_insert(o);
            }
            owner.map(|o| (r, o / v, o % v))
        }
        _ => None,
    }
}

/// The deadlock error for the engine's current state.
pub fn diagnose(engine: &Engine, stalled: u64, in_flight: u64) -> SimError {
    let topo = &*engine.prep.topo;
    if engine
        .cores
        .iter()
        .any(|c| !matches!(c.model, Model::Iq(_)))
    {
        // A bufferless router moves every flit every cycle: a stall is a simulator fault.
        return SimError::Deadlock {
            cycle: engine.now as u64,
            stalled,
            in_flight,
            blocked: vec!["none: the hot-potato router holds no flit across cycles".into()],
            wait_cycle: Vec::new(),
        };
    }
    let mut blocked = Vec::new();
    let mut count = 0usize;
    let mut first_blocked = Vec::new();
    for (r, core) in engine.cores.iter().enumerate() {
        let iq = core.iq();
        for iv in 0..iq.iv.len() {
            if let Some((d, p, vc)) = waits_for(topo, iq, r, iv) {
                count += 1;
                first_blocked.push((r, iv));
                if blocked.len() < SHOWN {
                    let (port, ivc) = (iv as u32 / iq.vcs, iv as u32 % iq.vcs);
                    blocked.push(format!(
                        "{} waits for {}",
                        describe(topo, r, port, ivc),
                        describe(topo, d, p, vc)
                    ));
                }
            }
        }
    }
    if count > SHOWN {
        blocked.push(format!("and {} more", count - SHOWN));
    }
    // Follow the waits from each blocked VC until a cycle closes.
    let mut done = std::collections::BTreeSet::new();
    let mut wait_cycle = Vec::new();
    'outer: for &(r0, iv0) in &first_blocked {
        let mut path: Vec<(usize, usize)> = Vec::new();
        let (mut r, mut iv) = (r0, iv0);
        loop {
            if done.contains(&(r, iv)) {
                break;
            }
            if let Some(pos) = path.iter().position(|&x| x == (r, iv)) {
                let iqv = engine.cores[0].iq().vcs as usize;
                wait_cycle = path[pos..]
                    .iter()
                    .chain(std::iter::once(&(r, iv)))
                    .map(|&(rr, i)| describe(topo, rr, (i / iqv) as u32, (i % iqv) as u32))
                    .collect();
                break 'outer;
            }
            path.push((r, iv));
            let iq = engine.cores[r].iq();
            match waits_for(topo, iq, r, iv) {
                Some((d, p, vc)) => {
                    r = d;
                    iv = (p * iq.vcs + vc) as usize;
                }
                None => break,
            }
        }
        done.extend(path);
    }
    SimError::Deadlock {
        cycle: engine.now as u64,
        stalled,
        in_flight,
        blocked,
        wait_cycle,
    }
}

fn fail(engine: &Engine, reason: String) -> SimError {
    SimError::Conservation {
        cycle: engine.now as u64,
        reason,
    }
}

/// The livelock bound of the hot-potato router: the first flit seen over
/// `hotpotato_max_hops`, if any.
pub fn check_livelock(engine: &Engine) -> Result<(), SimError> {
    for c in &engine.cores {
        if let Model::HotPotato(hp) = &c.model {
            if let Some((cycle, f)) = hp.livelock {
                return Err(SimError::Livelock {
                    cycle: cycle as u64,
                    src: f.src,
                    dest: f.dest,
                    hops: f.hops as u32,
                    bound: engine.prep.cfg.hotpotato_max_hops,
                });
            }
        }
    }
    Ok(())
}

/// Hot-potato conservation: flits created = ejected + in source queues, injection queues,
/// router pipelines and channels; injection-channel credits in use = flits on the channel +
/// queued at the router + credits returning; no flit waits in the router beyond its pipeline.
fn check_hotpotato(engine: &Engine) -> Result<(), SimError> {
    let t = engine.totals();
    let v = engine.prep.cfg.num_vcs;
    let mut held: u64 = 0;
    for (r, core) in engine.cores.iter().enumerate() {
        let Model::HotPotato(hp) = &core.model else {
            return Err(fail(
                engine,
                format!("router {r} is not a hot-potato router"),
            ));
        };
        let eps = &core.eps;
        held += eps.held_flits();
        held += hp.held_flits();
        held += eps.ej_wheel.len() as u64;
        held += core.flit_wheel.len() as u64;
        for e in 0..eps.n {
            for vc in 0..v {
                let used = eps.credits_used(e, vc) as usize;
                let on_wire = core
                    .flit_wheel
                    .items()
                    .filter(|&&(port, f)| port == e && f.vc as u32 == vc)
                    .count();
                let queued = hp.inj[e as usize]
                    .iter()
                    .filter(|f| f.vc as u32 == vc)
                    .count();
                let returning = eps
                    .cr_wheel
                    .items()
                    .filter(|&&(port, c)| port == e && c as u32 == vc)
                    .count();
                if used != on_wire + queued + returning {
                    return Err(fail(
                        engine,
                        format!(
                            "endpoint {} vc {vc}: {used} credits in use but {on_wire} flits on the channel, {queued} queued at the router, {returning} credits returning",
                            engine.prep.topo.ep_offset[r] + e
                        ),
                    ));
                }
            }
        }
    }
    if held != t.in_flight_flits {
        return Err(fail(
            engine,
            format!(
                "{} flits created and not ejected, but {held} found in source queues, injection queues, router pipelines and channels",
                t.in_flight_flits
            ),
        ));
    }
    Ok(())
}

/// Checks flit and credit conservation after a cycle.
pub fn check_conservation(engine: &Engine) -> Result<(), SimError> {
    if engine.prep.cfg.router == crate::config::RouterModel::HotPotato {
        return check_hotpotato(engine);
    }
    let topo = &*engine.prep.topo;
    let buf = engine.prep.cfg.vc_buf_size;
    let t = engine.totals();
    let mut held: u64 = 0;
    for (r, core) in engine.cores.iter().enumerate() {
        let iq = core.iq();
        let eps = &core.eps;
        let v = iq.vcs;
        held += eps.held_flits();
        held += iq.held_flits();
        held += eps.ej_wheel.len() as u64;
        held += core.flit_wheel.len() as u64;
        for iv in 0..iq.iv.len() {
            if iq.iv[iv].len as u32 > buf {
                return Err(fail(
                    engine,
                    format!(
                        "router {r} input VC {iv} holds {} flits, more than vc_buf_size {buf}",
                        iq.iv[iv].len
                    ),
                ));
            }
            if iq.iv_flits(iv).count() != iq.iv[iv].len as usize {
                return Err(fail(
                    engine,
                    format!("router {r} input VC {iv}: length mismatch"),
                ));
            }
        }
        // Credits of every output VC.
        for q in 0..iq.n_out {
            for vc in 0..v {
                let ov = (q * v + vc) as usize;
                let used = iq.ov[ov].used as i64;
                let (on_wire, downstream, returning) = if q < iq.n_ep {
                    (
                        eps.ej_wheel
                            .items()
                            .filter(|&&(e, f)| e == q && f.vc as u32 == vc)
                            .count(),
                        0,
                        core.credit_wheel
                            .items()
                            .filter(|&&(port, c)| port == q && c as u32 == vc)
                            .count(),
                    )
                } else {
                    let link = topo.out_link(r, q);
                    let (d, p) = (link.peer as usize, link.peer_port);
                    let dn = &engine.cores[d];
                    let diq = dn.iq();
                    let queued = diq
                        .credit_q
                        .iter()
                        .filter(|&&(port, c, _)| port == p && c as u32 == vc)
                        .count();
                    (
                        dn.flit_wheel
                            .items()
                            .filter(|&&(port, f)| port == p && f.vc as u32 == vc)
                            .count(),
                        diq.iv[(p * v + vc) as usize].len as usize + queued,
                        core.credit_wheel
                            .items()
                            .filter(|&&(port, c)| port == q && c as u32 == vc)
                            .count(),
                    )
                };
                let in_router = iq
                    .outbound_flits()
                    .filter(|&(port, out_vc, _)| port == q && out_vc as u32 == vc)
                    .count();
                let on_wire = on_wire + in_router;
                // `returning`: credits on the wire and waiting out `credit_delay`, both in the
                // credit wheel.
                let outstanding = on_wire as i64 + downstream as i64 + returning as i64;
                if used != outstanding || used > buf as i64 {
                    return Err(fail(
                        engine,
                        format!(
                            "router {r} output port {q} vc {vc}: {used} credits in use but {on_wire} flits on the channel, {downstream} downstream and {returning} credits returning or waiting out credit_delay"
                        ),
                    ));
                }
            }
        }
        // Credits of every injection channel.
        for e in 0..eps.n {
            for vc in 0..v {
                let used = eps.credits_used(e, vc) as usize;
                let on_wire = core
                    .flit_wheel
                    .items()
                    .filter(|&&(port, f)| port == e && f.vc as u32 == vc)
                    .count();
                let buffered = iq.iv[(e * v + vc) as usize].len as usize;
                let queued = iq
                    .credit_q
                    .iter()
                    .filter(|&&(port, c, _)| port == e && c as u32 == vc)
                    .count();
                let returning = eps
                    .cr_wheel
                    .items()
                    .filter(|&&(port, c)| port == e && c as u32 == vc)
                    .count();
                if used != on_wire + buffered + queued + returning {
                    return Err(fail(
                        engine,
                        format!(
                            "endpoint {} vc {vc}: {used} credits in use but {on_wire} flits on the channel, {buffered} buffered, {} credits returning",
                            topo.ep_offset[r] + e,
                            queued + returning
                        ),
                    ));
                }
            }
        }
    }
    if held != t.in_flight_flits {
        return Err(fail(
            engine,
            format!(
                "{} flits created and not ejected, but {held} found in source queues, channels and routers",
                t.in_flight_flits
            ),
        ));
    }
    Ok(())
}
