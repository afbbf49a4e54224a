//! Message-level workloads in the flit simulator (`topolab_core::workload`): jobs of ranks
//! placed on endpoints, each message injected as packets once the messages it waits for have
//! arrived at its sender (plus its delay), run until every message has arrived.
//!
//! Every event stays at one router: a message's dependencies are received by its sender, so
//! the arrival that releases a message is ejected at the router whose endpoint sends it, in that
//! router's own turn. A router's endpoints keep their messages' state (`WorkloadState`): the
//! dependencies still missing of the messages they send, the packets still missing of the
//! messages they receive, the ready queues. A flit names its message by the index among its
//! source endpoint's messages (`Flit::message`); messages are numbered by source endpoint, so
//! the receiver finds the message at `send_offsets[src] + index`.
//!
//! Results (`WorkloadResult`): per job, its completion time, algorithm and bus bandwidth as
//! NCCL's tests report them (NVIDIA nccl-tests, doc/PERFORMANCE.md: algbw = bytes / time,
//! busbw = algbw x the operation's factor), per iteration and per phase, and its slowest rank.

use crate::engine::{Engine, Prepared};
use crate::error::{Result, SimError};
use crate::flit::{Flit, MAX_MESSAGE_INDEX};
use crate::injection::{Background, Source};
use crate::router::Phase;
use crate::stats::quantile;
use crate::traffic::Traffic;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::sync::Arc;
use std::time::Instant;
use topolab_core::progress::Monitor;
use topolab_core::workload::{parse_jobs, Workload};
use topolab_core::Network;

/// A never-reached cycle in the per-message times.
const UNSET: u32 = u32::MAX;

/// One job: its workload and the endpoint of each rank.
#[derive(Debug, Clone)]
pub struct Job {
    pub workload: Workload,
    pub endpoints: Vec<u32>,
}

/// Jobs bound to a network, messages numbered by source endpoint (see the module comment).
#[derive(Debug, Clone)]
pub struct BoundWorkload {
    pub jobs: Vec<Job>,
    /// Per message: source and destination endpoints, packets (0 for a message to oneself,
    /// which arrives when it is ready), delay, dependencies not yet met at the start.
    src: Vec<u32>,
    dst: Vec<u32>,
    packets: Vec<u32>,
    delay: Vec<u32>,
    dep_count: Vec<u32>,
    /// Per message: its job and its index in the job's workload.
    job: Vec<u32>,
    index: Vec<u32>,
    /// First message of each endpoint (and the total at the end).
    send_offsets: Vec<u32>,
    /// Per message, its position among the messages ordered by destination endpoint, and the
    /// first position of each endpoint.
    recv_index: Vec<u32>,
    recv_offsets: Vec<u32>,
    /// The messages in that order.
    by_recv: Vec<u32>,
    /// The messages waiting for each message, ascending.
    dependents_offsets: Vec<u32>,
    dependents: Vec<u32>,
    pub packet_bytes: u64,
    pub total_packets: u64,
    /// Synthetic traffic on the endpoints no job uses (`in_job` false).
    pub background: Option<Background>,
    in_job: Vec<bool>,
}

/// The message index background packets carry (`Flit::message`): no message's.
pub(crate) const BACKGROUND_MESSAGE: u32 = MAX_MESSAGE_INDEX - 1;

/// Bytes per packet a workload's messages are cut into: at least 1.
pub fn check_packet_bytes(packet_bytes: u64) -> Result<u64> {
    if packet_bytes == 0 {
        return Err(SimError::param("packet_bytes", 0, "at least 1"));
    }
    Ok(packet_bytes)
}

impl BoundWorkload {
    /// The jobs of `specs` (`allreduce:bytes=1MiB,ranks=64,placement=random`, ...) placed on
    /// `net` in order (`topolab_core::workload::parse_jobs`), `packet_bytes` bytes per packet.
    pub fn parse(net: &Network, specs: &[&str], packet_bytes: u64) -> Result<BoundWorkload> {
        let jobs = parse_jobs(net, specs)?
            .into_iter()
            .map(|(workload, endpoints)| Job {
                workload,
                endpoints,
            })
            .collect();
        let endpoints = u32::try_from(net.num_endpoints()).unwrap_or(u32::MAX);
        BoundWorkload::new(jobs, endpoints, packet_bytes)
    }

    /// Binds `jobs` to a network of `endpoints` endpoints, `packet_bytes` bytes per packet.
    pub fn new(jobs: Vec<Job>, endpoints: u32, packet_bytes: u64) -> Result<BoundWorkload> {
        check_packet_bytes(packet_bytes)?;
        let mut used = vec![false; endpoints as usize];
        for (j, job) in jobs.iter().enumerate() {
            if job.endpoints.len() != job.workload.ranks as usize {
                return Err(SimError::param(
                    "placement",
                    format!("{} endpoints for job {j}", job.endpoints.len()),
                    format!("one endpoint per rank ({})", job.workload.ranks),
                ));
            }
            for &e in &job.endpoints {
                if e >= endpoints || used[e as usize] {
                    return Err(SimError::param(
                        "placement",
                        format!("endpoint {e} (job {j})"),
                        format!("distinct endpoints below {endpoints}, one rank each"),
                    ));
                }
                used[e as usize] = true;
            }
            job.workload.check()?;
        }
        // Messages in the order (source endpoint, job, index): a counting sort.
        let total: usize = jobs.iter().map(|j| j.workload.messages.len()).sum();
        let mut per_src = vec![0u32; endpoints as usize + 1];
        let mut per_dst = vec![0u32; endpoints as usize + 1];
        for job in &jobs {
            for m in &job.workload.messages {
                per_src[job.endpoints[m.src as usize] as usize + 1] += 1;
                per_dst[job.endpoints[m.dst as usize] as usize + 1] += 1;
            }
        }
        for e in 0..endpoints as usize {
            per_src[e + 1] += per_src[e];
            per_dst[e + 1] += per_dst[e];
        }
        if let Some(e) =
            (0..endpoints as usize).find(|&e| per_src[e + 1] - per_src[e] >= BACKGROUND_MESSAGE)
        {
            return Err(SimError::param(
                "workload",
                format!(
                    "{} messages sent by endpoint {e}",
                    per_src[e + 1] - per_src[e]
                ),
                format!("fewer than {BACKGROUND_MESSAGE} per endpoint"),
            ));
        }
        let send_offsets = per_src.clone();
        let recv_offsets = per_dst.clone();
        let mut next_src = per_src;
        let mut next_dst = per_dst;
        let mut src = vec![0; total];
        let mut dst = vec![0; total];
        let mut packets = vec![0; total];
        let mut delay = vec![0; total];
        let mut dep_count = vec![0; total];
        let mut job_of = vec![0; total];
        let mut index = vec![0; total];
        let mut recv_index = vec![0; total];
        let mut by_recv = vec![0; total];
        // Global id of each job's message i.
        let mut ids: Vec<Vec<u32>> = Vec::with_capacity(jobs.len());
        let mut total_packets = 0u64;
        for (j, job) in jobs.iter().enumerate() {
            let w = &job.workload;
            let mut job_ids = Vec::with_capacity(w.messages.len());
            for (i, m) in w.messages.iter().enumerate() {
                let (s, d) = (job.endpoints[m.src as usize], job.endpoints[m.dst as usize]);
                let id = next_src[s as usize];
                next_src[s as usize] += 1;
                let k = id as usize;
                src[k] = s;
                dst[k] = d;
                packets[k] = if s == d {
                    0
                } else {
                    u32::try_from(m.bytes.div_ceil(packet_bytes).max(1)).map_err(|_| {
                        SimError::param(
                            "bytes",
                            m.bytes,
                            format!("at most {} packets per message", u32::MAX),
                        )
                    })?
                };
                total_packets += packets[k] as u64;
                delay[k] = m.delay;
                dep_count[k] = w.deps(i).len() as u32;
                job_of[k] = j as u32;
                index[k] = i as u32;
                recv_index[k] = next_dst[d as usize];
                by_recv[next_dst[d as usize] as usize] = id;
                next_dst[d as usize] += 1;
                job_ids.push(id);
            }
            ids.push(job_ids);
        }
        // Dependents, ascending (so that messages released together queue in id order).
        let mut dependents_offsets = vec![0u32; total + 1];
        for (j, job) in jobs.iter().enumerate() {
            for i in 0..job.workload.messages.len() {
                for &d in job.workload.deps(i) {
                    dependents_offsets[ids[j][d as usize] as usize + 1] += 1;
                }
            }
        }
        for k in 0..total {
            dependents_offsets[k + 1] += dependents_offsets[k];
        }
        let mut fill = dependents_offsets.clone();
        let mut dependents = vec![0u32; *dependents_offsets.last().unwrap_or(&0) as usize];
        for (j, job) in jobs.iter().enumerate() {
            for i in 0..job.workload.messages.len() {
                for &d in job.workload.deps(i) {
                    let at = &mut fill[ids[j][d as usize] as usize];
                    dependents[*at as usize] = ids[j][i];
                    *at += 1;
                }
            }
        }
        for k in 0..total {
            dependents[dependents_offsets[k] as usize..dependents_offsets[k + 1] as usize]
                .sort_unstable();
        }
        Ok(BoundWorkload {
            jobs,
            src,
            dst,
            packets,
            delay,
            dep_count,
            job: job_of,
            index,
            send_offsets,
            recv_index,
            recv_offsets,
            by_recv,
            dependents_offsets,
            dependents,
            packet_bytes,
            total_packets,
            background: None,
            in_job: used,
        })
    }

    /// These jobs with `traffic` at `rate` packets per cycle on every endpoint no job uses.
    pub fn with_background(mut self, traffic: Traffic, rate: f64) -> Result<BoundWorkload> {
        if !(0.0..=1.0).contains(&rate) {
            return Err(SimError::param(
                "background_load",
                rate,
                "packets per free endpoint per cycle, from 0 to 1",
            ));
        }
        self.background = Some(Background::new(traffic, rate));
        Ok(self)
    }

    /// Endpoint `e` sends background traffic: no job uses it and there is some.
    #[inline]
    pub(crate) fn sends_background(&self, e: u32) -> bool {
        self.background.is_some() && !self.in_job[e as usize]
    }

    /// Job `j` alone, its ranks on the same endpoints (the reference for its slowdown among
    /// the others).
    pub fn only(&self, j: usize) -> Result<BoundWorkload> {
        let job = self.jobs.get(j).cloned().ok_or_else(|| {
            SimError::param("alone", j, format!("a job index below {}", self.jobs.len()))
        })?;
        let endpoints = (self.send_offsets.len() - 1) as u32;
        let alone = BoundWorkload::new(vec![job], endpoints, self.packet_bytes)?;
        Ok(BoundWorkload {
            background: self.background.clone(),
            // the other jobs' endpoints stay free of background traffic
            in_job: self.in_job.clone(),
            ..alone
        })
    }

    pub fn num_messages(&self) -> usize {
        self.src.len()
    }

    /// The destination endpoint of message `id`.
    #[inline]
    pub(crate) fn dest(&self, id: u32) -> u32 {
        self.dst[id as usize]
    }

    /// The index of message `id` among its source's messages (`Flit::message`).
    #[inline]
    pub(crate) fn index_at_source(&self, id: u32) -> u32 {
        id - self.send_offsets[self.src[id as usize] as usize]
    }

    #[inline]
    pub(crate) fn packets(&self, id: u32) -> u32 {
        self.packets[id as usize]
    }

    #[inline]
    fn dependents(&self, id: u32) -> &[u32] {
        &self.dependents[self.dependents_offsets[id as usize] as usize
            ..self.dependents_offsets[id as usize + 1] as usize]
    }
}

/// The workload state of one router's endpoints `first .. first + n`.
#[derive(Debug, Clone)]
pub struct WorkloadState {
    /// First message sent by these endpoints, and first position among the messages they
    /// receive.
    first_sent: u32,
    first_received: u32,
    /// Per message sent here: dependencies still missing; the cycle it became ready.
    deps_left: Vec<u32>,
    ready_at: Vec<u32>,
    /// Per message received here: packets still missing; the cycle it arrived.
    packets_left: Vec<u32>,
    done_at: Vec<u32>,
    /// Per endpoint, its ready messages in the order they became ready.
    ready: Vec<VecDeque<u32>>,
    /// Messages whose dependencies arrived, waiting out their delay: (ready cycle, id).
    delayed: BinaryHeap<Reverse<(u32, u32)>>,
    /// Messages released and not yet handled (`release`'s work list).
    work: Vec<u32>,
    /// Endpoints (local index) given a ready message since the last `take_woken`.
    woken: Vec<u32>,
    /// Background packets and flits received here.
    background_packets: u64,
    background_flits: u64,
}

impl WorkloadState {
    /// The state at cycle 0 of endpoints `first .. first + n`: messages without dependencies
    /// released.
    pub fn new(w: &BoundWorkload, first: u32, n: u32) -> WorkloadState {
        let sent =
            w.send_offsets[first as usize] as usize..w.send_offsets[(first + n) as usize] as usize;
        let received =
            w.recv_offsets[first as usize] as usize..w.recv_offsets[(first + n) as usize] as usize;
        let packets_left = w.by_recv[received.clone()]
            .iter()
            .map(|&id| w.packets[id as usize])
            .collect();
        let mut s = WorkloadState {
            first_sent: sent.start as u32,
            first_received: received.start as u32,
            deps_left: w.dep_count[sent.clone()].to_vec(),
            ready_at: vec![UNSET; sent.len()],
            packets_left,
            done_at: vec![UNSET; received.len()],
            ready: vec![VecDeque::new(); n as usize],
            delayed: BinaryHeap::new(),
            work: Vec::new(),
            woken: Vec::new(),
            background_packets: 0,
            background_flits: 0,
        };
        for id in sent {
            if w.dep_count[id] == 0 {
                s.schedule(w, id as u32, 0, first);
            }
        }
        s
    }

    /// Message `id` (sent here) has every dependency at cycle `now`: ready after its delay.
    fn schedule(&mut self, w: &BoundWorkload, id: u32, now: u32, first: u32) {
        let delay = w.delay[id as usize];
        if delay == 0 {
            self.release(w, id, now, first);
        } else {
            self.delayed.push(Reverse((now.saturating_add(delay), id)));
        }
    }

    /// Message `id` is ready at `now`: queued at its sender, or, sent to itself, arrived.
    fn release(&mut self, w: &BoundWorkload, id: u32, now: u32, first: u32) {
        self.work.push(id);
        while let Some(id) = self.work.pop() {
            self.ready_at[(id - self.first_sent) as usize] = now;
            let src = w.src[id as usize];
            if w.packets[id as usize] > 0 {
                self.ready[(src - first) as usize].push_back(id);
                self.woken.push(src - first);
                continue;
            }
            self.done_at[(w.recv_index[id as usize] - self.first_received) as usize] = now;
            for &d in w.dependents(id) {
                let left = &mut self.deps_left[(d - self.first_sent) as usize];
                *left -= 1;
                if *left == 0 {
                    if w.delay[d as usize] == 0 {
                        self.work.push(d);
                    } else {
                        self.delayed
                            .push(Reverse((now.saturating_add(w.delay[d as usize]), d)));
                    }
                }
            }
        }
    }

    /// A tail of message index `index` from endpoint `src` arrived at cycle `now`.
    fn packet_arrived(&mut self, w: &BoundWorkload, src: u32, index: u32, now: u32, first: u32) {
        let id = w.send_offsets[src as usize] + index;
        let slot = (w.recv_index[id as usize] - self.first_received) as usize;
        let left = &mut self.packets_left[slot];
        debug_assert!(*left > 0, "a packet of message {id} arrived twice");
        *left -= 1;
        if *left > 0 {
            return;
        }
        self.done_at[slot] = now;
        for &d in w.dependents(id) {
            let left = &mut self.deps_left[(d - self.first_sent) as usize];
            *left -= 1;
            if *left == 0 {
                self.schedule(w, d, now, first);
            }
        }
    }

    /// A flit arrived at cycle `now`: background traffic counted, a workload packet's tail
    /// handed to `packet_arrived`.
    #[inline]
    pub fn flit_arrived(&mut self, w: &BoundWorkload, f: &Flit, now: u32, first: u32) {
        let index = f.message_index();
        if index == BACKGROUND_MESSAGE {
            self.background_flits += 1;
            self.background_packets += u64::from(f.is_tail());
        } else if f.is_tail() {
            self.packet_arrived(w, f.src, index, now, first);
        }
    }

    /// Releases the delayed messages due by `now`.
    pub fn release_due(&mut self, w: &BoundWorkload, now: u32, first: u32) {
        while let Some(&Reverse((t, id))) = self.delayed.peek() {
            if t > now {
                break;
            }
            self.delayed.pop();
            self.release(w, id, t.max(now), first);
        }
    }

    /// The endpoints (local index) given a ready message since the last call.
    pub fn take_woken(&mut self, out: &mut Vec<u32>) {
        out.clear();
        std::mem::swap(out, &mut self.woken);
    }

    /// The next message endpoint `e` (local index) sends, if one is ready.
    #[inline]
    pub fn next_message(&mut self, e: usize) -> Option<u32> {
        self.ready[e].pop_front()
    }

    #[inline]
    pub fn has_ready(&self, e: usize) -> bool {
        !self.ready[e].is_empty()
    }

    /// The cycle the next delayed message becomes ready (u32::MAX: none).
    #[inline]
    pub fn next_delayed(&self) -> u32 {
        self.delayed.peek().map_or(u32::MAX, |r| r.0 .0)
    }
}

topolab_core::result_type! {
    /// Completion of one phase of a job (over its ranks and iterations).
    pub struct PhaseTime {
        pub phase: String,
        /// Cycles from its first message ready to its last arrived, summed over iterations.
        #[unit = "cycles"]
        pub cycles: u64,
    }
}

topolab_core::result_type! {
    /// One job of a workload run. Times in cycles from the start of the run; `bytes` is the
    /// operation's size as NCCL's tests give it (each rank's buffer); `algbw` and `busbw` in
    /// bytes per cycle, `busbw_link_fraction` the bus bandwidth over one link's (a flit per
    /// cycle). `alone_cycles` and `slowdown` are set by `run_workload(slowdown=True)` (Python):
    /// the job's completion time alone on the same endpoints, and the ratio of the two.
    pub struct JobResult {
        pub name: String,
        pub operation: String,
        pub algorithm: String,
        pub ranks: u32,
        pub iterations: u32,
        /// The operation's size (bytes per rank buffer, NCCL's "size").
        pub bytes: u64,
        /// Cycle the job's last message arrived (it starts at cycle 0).
        #[unit = "cycles"]
        pub completion_cycles: u64,
        /// Per iteration, cycles from its first message ready to its last arrived.
        pub iteration_cycles: Vec<u64>,
        /// Bytes per cycle: `bytes` / mean iteration time (NCCL's algbw).
        #[unit = "bytes/cycle"]
        pub algbw_bytes_per_cycle: f64,
        /// algbw x the operation's factor (NCCL's busbw).
        #[unit = "bytes/cycle"]
        pub busbw_bytes_per_cycle: f64,
        /// busbw as a fraction of one link's bandwidth (one flit per cycle).
        pub busbw_link_fraction: f64,
        pub phases: Vec<PhaseTime>,
        /// The rank whose last message arrived last, and when.
        pub slowest_rank: u32,
        #[unit = "cycles"]
        pub slowest_rank_cycles: u64,
        /// Mean over ranks of the cycle each rank's last message arrived.
        #[unit = "cycles"]
        pub mean_rank_cycles: f64,
        pub messages: u64,
        pub bytes_sent: u64,
        /// With `slowdown`: the job's completion time alone on the same endpoints (None without).
        #[unit = "cycles"]
        pub alone_cycles: Option<u64>,
        /// With `slowdown`: `completion_cycles` / `alone_cycles` (None without).
        pub slowdown: Option<f64>,
    }
}

topolab_core::result_type! {
    /// A workload run to completion: every job's result, and the network's totals (the jobs'
    /// packets delivered equal their packets sent unless one was lost or duplicated; background
    /// packets delivered before the jobs finished; latencies in cycles, of every packet).
    pub struct WorkloadResult {
        pub routing: String,
        /// Cycle the last message arrived, plus one.
        #[unit = "cycles"]
        pub completion_cycles: u64,
        pub jobs: Vec<JobResult>,
        pub packets: u64,
        pub flits: u64,
        /// The jobs' packets and flits the endpoints received: equal to `packets` and `flits`
        /// unless one was lost or duplicated.
        pub delivered_packets: u64,
        pub delivered_flits: u64,
        /// Background packets delivered before the jobs finished (the run ends then).
        pub background_packets: u64,
        #[unit = "cycles"]
        pub avg_latency: f64,
        #[unit = "cycles"]
        pub p99_latency: f64,
        #[unit = "routers traversed"]
        pub avg_hops: f64,
        #[unit = "bytes"]
        pub packet_bytes: u64,
        #[unit = "s"]
        pub wall_seconds: f64,
    }
}

/// Runs `workload` on `prep` until every message has arrived.
pub fn run_workload(
    prep: &Prepared,
    workload: &BoundWorkload,
    monitor: &dyn Monitor,
) -> Result<WorkloadResult> {
    let endpoints = prep.topo.num_endpoints;
    if workload.send_offsets.len() != endpoints as usize + 1 {
        return Err(SimError::param(
            "workload",
            format!(
                "a workload bound to {} endpoints",
                workload.send_offsets.len() - 1
            ),
            format!("one bound to this network's {endpoints}"),
        ));
    }
    let started = Instant::now();
    let packets = workload.total_packets;
    let flits = packets * prep.cfg.packet_size as u64;
    let shared = Arc::new(workload.clone());
    crate::failure::only_in_timelines(prep, "a workload")?;
    let mut eng = Engine::new(prep, Source::Workload(shared))?;
    eng.phase = Phase::Running;
    eng.drain_time = u32::MAX;
    eng.clear_stats();
    loop {
        let t = eng.totals();
        if all_arrived(&eng) {
            break;
        }
        if t.in_flight_flits == 0 && eng.quiet() {
            return Err(SimError::param(
                "workload",
                format!(
                    "{} of {packets} packets delivered and nothing left to send",
                    t.packets
                ),
                "a workload every message of which can start (this is a bug: please report it)",
            ));
        }
        eng.run_cycles(64, monitor, "workload", flits, t.accepted_flits)?;
    }
    let t = eng.totals();
    let (background_packets, background_flits) = eng
        .cores
        .iter()
        .filter_map(|c| c.eps.workload_state())
        .fold((0, 0), |(p, f), s| {
            (p + s.background_packets, f + s.background_flits)
        });
    let (ready_at, done_at) = message_times(&eng, workload);
    let completion = done_at.iter().copied().max().unwrap_or(0) as u64 + 1;
    let mut samples = eng.latency_samples();
    let link_bytes = workload.packet_bytes as f64 / prep.cfg.packet_size as f64;
    let jobs = (0..workload.jobs.len())
        .map(|j| job_result(workload, j, &ready_at, &done_at, link_bytes))
        .collect();
    let ratio = |a: f64, b: f64| if b == 0.0 { f64::NAN } else { a / b };
    Ok(WorkloadResult {
        routing: prep.routing_name.clone(),
        completion_cycles: completion,
        jobs,
        packets,
        flits,
        delivered_packets: t.packets - background_packets,
        delivered_flits: t.accepted_flits - background_flits,
        background_packets,
        avg_latency: ratio(t.plat_sum as f64, t.packets as f64),
        p99_latency: quantile(&mut samples, 0.99),
        avg_hops: ratio(t.hops_sum as f64, t.packets as f64),
        packet_bytes: workload.packet_bytes,
        wall_seconds: started.elapsed().as_secs_f64(),
    })
}

/// Every message has arrived (messages to oneself included).
fn all_arrived(eng: &Engine) -> bool {
    eng.cores.iter().all(|c| {
        c.eps
            .workload_state()
            .is_none_or(|s| s.done_at.iter().all(|&t| t != UNSET))
    })
}

/// Per message id, the cycle it became ready and the cycle it arrived.
fn message_times(eng: &Engine, w: &BoundWorkload) -> (Vec<u32>, Vec<u32>) {
    let n = w.num_messages();
    let mut ready = vec![UNSET; n];
    let mut done_by_recv = vec![UNSET; n];
    for c in &eng.cores {
        if let Some(s) = c.eps.workload_state() {
            let a = s.first_sent as usize;
            ready[a..a + s.ready_at.len()].copy_from_slice(&s.ready_at);
            let b = s.first_received as usize;
            done_by_recv[b..b + s.done_at.len()].copy_from_slice(&s.done_at);
        }
    }
    let done = (0..n)
        .map(|id| done_by_recv[w.recv_index[id] as usize])
        .collect();
    (ready, done)
}

fn job_result(
    w: &BoundWorkload,
    j: usize,
    ready_at: &[u32],
    done_at: &[u32],
    link_bytes: f64,
) -> JobResult {
    let job = &w.jobs[j];
    let wl = &job.workload;
    let iterations = wl.iterations.max(1) as usize;
    let phases = wl.phases.len().max(1);
    // Per (iteration, phase): first ready, last arrived. Per rank: last arrival.
    let mut span = vec![(u32::MAX, 0u32); iterations * phases];
    let mut iter_span = vec![(u32::MAX, 0u32); iterations];
    let mut rank_done = vec![0u32; wl.ranks as usize];
    let mut bytes_sent = 0u64;
    let mut messages = 0u64;
    for id in 0..w.num_messages() {
        if w.job[id] as usize != j {
            continue;
        }
        let m = &wl.messages[w.index[id] as usize];
        if m.src == m.dst {
            continue; // an iteration gate (`topolab_core::workload`): no data moves
        }
        messages += 1;
        bytes_sent += m.bytes;
        let (r, d) = (ready_at[id], done_at[id]);
        let it = (m.iteration as usize).min(iterations - 1);
        let s = &mut span[it * phases + m.phase as usize];
        *s = (s.0.min(r), s.1.max(d));
        let s = &mut iter_span[it];
        *s = (s.0.min(r), s.1.max(d));
        let rd = &mut rank_done[m.dst as usize];
        *rd = (*rd).max(d);
    }
    let length = |(a, b): (u32, u32)| if a == u32::MAX { 0 } else { (b + 1 - a) as u64 };
    let iteration_cycles: Vec<u64> = iter_span.iter().map(|&s| length(s)).collect();
    let mean_iteration = iteration_cycles.iter().sum::<u64>() as f64 / iterations as f64;
    let algbw = if mean_iteration > 0.0 {
        wl.bytes as f64 / mean_iteration
    } else {
        0.0
    };
    let busbw = algbw * wl.bus_factor;
    let (slowest, slowest_at) = rank_done
        .iter()
        .enumerate()
        .max_by_key(|&(r, &t)| (t, Reverse(r)))
        .map_or((0, 0), |(r, &t)| (r as u32, t as u64 + 1));
    JobResult {
        name: wl.name.clone(),
        operation: wl.operation.to_string(),
        algorithm: wl.algorithm.to_string(),
        ranks: wl.ranks,
        iterations: wl.iterations,
        bytes: wl.bytes,
        completion_cycles: iter_span.iter().map(|s| s.1).max().unwrap_or(0) as u64 + 1,
        iteration_cycles,
        algbw_bytes_per_cycle: algbw,
        busbw_bytes_per_cycle: busbw,
        busbw_link_fraction: busbw / link_bytes,
        phases: (0..phases)
            .map(|p| PhaseTime {
                phase: wl.phases.get(p).cloned().unwrap_or_default(),
                cycles: (0..iterations)
                    .map(|it| length(span[it * phases + p]))
                    .sum(),
            })
            .collect(),
        slowest_rank: slowest,
        slowest_rank_cycles: slowest_at,
        mean_rank_cycles: rank_done.iter().map(|&t| t as f64 + 1.0).sum::<f64>()
            / wl.ranks.max(1) as f64,
        messages,
        bytes_sent,
        alone_cycles: None,
        slowdown: None,
    }
}
