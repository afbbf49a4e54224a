//! The endpoints attached to one router: their source queues, injection channels with the
//! buffer state of the router's input VCs, and ejection channels (BookSim2's TrafficManager
//! side of each node, _Step). An endpoint consumes every flit the cycle it arrives and returns
//! its credit at once; it injects at most one flit per cycle, choosing a VC for each head round
//! robin from the last one used among the VCs the routing allows, free and with space.

use super::{CycleCtx, Phase};
use crate::config::FlowControl;
use crate::flit::{Flit, Wheel, HEAD, MEASURED, READ_REQUEST, TAIL, WRITE_REQUEST};
use crate::injection::{Source, NEVER};
use crate::stats::RouterStats;
use crate::traffic::{MessageOrder, Traffic};
use crate::workload::{WorkloadState, BACKGROUND_MESSAGE};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

const NO_VC: u8 = u8::MAX;

/// One endpoint's sending side: the packet it is injecting and when it creates the next. One
/// cache line, so that an endpoint acting in a cycle costs one miss in a network far beyond
/// the cache.
#[derive(Debug, Clone, Copy)]
#[repr(align(64))]
struct Sender {
    /// The packet being injected: its flits are copies with the head, tail and VC set.
    partial: Flit,
    /// Cycle of the next packet creation.
    next_gen: u64,
    /// Exchange progress: (message index, packets left in it), or in interleaved order
    /// (packets sent, packets left); workload: (message id,
    /// packets of it left to create).
    msg: (u32, u32),
    /// Flits of the current packet not yet injected (0: none).
    left: u32,
    cur_vc: u8,
    last_vc: u8,
}

/// A reply an endpoint owes (request-reply traffic, BookSim2's PacketReplyInfo): the requester,
/// the cycle the request's tail arrived (the reply's creation time) and what kind it is.
#[derive(Debug, Clone, Copy)]
struct PendingReply {
    requester: u32,
    arrived: u32,
    write: bool,
    measured: bool,
}

/// The router's input VC at the end of an injection channel, as the endpoint tracks it.
#[derive(Debug, Clone, Copy, Default)]
struct InjectionVc {
    /// Credits in use (flits sent and not yet credited back).
    used: u32,
    /// Allocated to a packet of this endpoint.
    busy: bool,
    tail_sent: bool,
}

#[derive(Debug, Clone)]
pub struct Endpoints {
    pub n: u32,
    pub first: u32,
    vcs: u32,
    buf: u32,
    latency: u32,
    senders: Vec<Sender>,
    /// Per endpoint, the first cycle it has something to do: 0 while it injects, else its
    /// next creation (u32::MAX for never: runs end before). Scanned every cycle the router
    /// runs, so kept apart from `senders` and small.
    wake: Vec<u32>,
    /// The least of `wake` (exact after every cycle that looks at the endpoints): a cycle
    /// before it has nothing for them to do.
    earliest: u32,
    /// Endpoints holding a packet they are injecting.
    injecting: u32,
    /// Injection channel buffer state, per (endpoint, vc).
    channel: Vec<InjectionVc>,
    /// Flits (endpoint, flit) and injection-channel credits (endpoint, vc) arriving from the
    /// router. What endpoints send goes into the router's own wheels.
    pub ej_wheel: Wheel<(u32, Flit)>,
    pub cr_wheel: Wheel<(u32, u8)>,
    arrived: Vec<(u32, Flit)>,
    credits: Vec<(u32, u8)>,
    /// A workload's state at these endpoints (`crate::workload`); None for other sources.
    work: Option<Box<WorkloadState>>,
    woken: Vec<u32>,
    /// Request-reply traffic: per endpoint, the replies it owes, oldest first (BookSim2's
    /// _repliesPending); None for other sources.
    replies: Option<Vec<VecDeque<PendingReply>>>,
}

impl Sender {
    /// The first cycle the endpoint has something to do (`Endpoints::wake`).
    #[inline]
    fn wake(&self) -> u32 {
        if self.left > 0 {
            0
        } else {
            self.next_gen.min(u32::MAX as u64) as u32
        }
    }
}

impl Endpoints {
    pub fn new(n: u32, first: u32, vcs: u32, buf: u32, latency: u32) -> Endpoints {
        let sender = Sender {
            partial: Flit::default(),
            next_gen: NEVER,
            msg: (0, 0),
            left: 0,
            cur_vc: NO_VC,
            last_vc: NO_VC,
        };
        Endpoints {
            n,
            first,
            vcs,
            buf,
            latency,
            senders: vec![sender; n as usize],
            wake: vec![u32::MAX; n as usize],
            earliest: u32::MAX,
            injecting: 0,
            channel: vec![InjectionVc::default(); (n * vcs) as usize],
            ej_wheel: Wheel::with_capacity(latency + 1, n),
            cr_wheel: Wheel::with_capacity(latency + 1, n),
            arrived: Vec::new(),
            credits: Vec::new(),
            work: None,
            woken: Vec::new(),
            replies: None,
        }
    }

    /// First creation cycles (Bernoulli) or first messages (exchange, workload).
    pub fn start(&mut self, source: &Source, rng: &mut ChaCha8Rng) {
        if let Source::Workload(w) = source {
            self.work = Some(Box::new(WorkloadState::new(w, self.first, self.n)));
        }
        if let Source::RequestReply { .. } = source {
            self.replies = Some(vec![VecDeque::new(); self.n as usize]);
        }
        for (e, s) in self.senders.iter_mut().enumerate() {
            match source {
                Source::Bernoulli { .. } | Source::OnOff { .. } | Source::RequestReply { .. } => {
                    s.next_gen = source.first_gap(rng)
                }
                Source::Exchange(x) => {
                    let src = (self.first as usize) + e;
                    let list = x.per_source.get(src).map_or(&[][..], |l| &l[..]);
                    s.msg = match x.order {
                        MessageOrder::Sequential => (0, list.first().map_or(0, |m| m.1)),
                        // run_exchange checked that the total fits a u32.
                        MessageOrder::Interleaved => (0, list.iter().map(|m| m.1).sum()),
                    };
                    s.next_gen = 0;
                }
                Source::Workload(w) => {
                    let work = self.work.as_deref().expect("created above");
                    s.msg = (0, 0);
                    s.next_gen = match &w.background {
                        Some(b) if w.sends_background(self.first + e as u32) => b.gap(rng),
                        _ if work.has_ready(e) => 0,
                        _ => NEVER,
                    };
                }
            }
            self.wake[e] = s.wake();
        }
        self.earliest = self.wake.iter().copied().min().unwrap_or(u32::MAX);
        if let Some(work) = &mut self.work {
            work.take_woken(&mut self.woken);
            self.earliest = self.earliest.min(work.next_delayed());
        }
    }

    /// The workload's state at these endpoints (workload runs only).
    pub fn workload_state(&self) -> Option<&WorkloadState> {
        self.work.as_deref()
    }

    /// A workload's events of cycle `now`: the messages whose packets arrived, the delayed
    /// messages due; the endpoints given a message to send wake now. Out of line: the other
    /// sources never call it.
    #[inline(never)]
    fn workload_events(&mut self, ctx: &CycleCtx, ejected: bool) {
        let (Some(work), Source::Workload(w)) = (self.work.as_deref_mut(), ctx.source) else {
            return;
        };
        let now = ctx.now;
        if ejected {
            for &(_, f) in &self.arrived {
                work.flit_arrived(w, &f, now, self.first);
            }
        }
        work.release_due(w, now, self.first);
        work.take_woken(&mut self.woken);
        for &e in &self.woken {
            let s = &mut self.senders[e as usize];
            if s.next_gen == NEVER {
                s.next_gen = 0;
            }
            self.wake[e as usize] = s.wake();
            self.earliest = self.earliest.min(self.wake[e as usize]);
        }
        self.earliest = self.earliest.min(work.next_delayed());
    }

    /// A warm start (`crate::engine::WarmState`) at cycle `now` under `source`, whose rate may
    /// differ from the one the pending creations were drawn at: every endpoint draws its next
    /// creation afresh from `now` (the Bernoulli process has no memory, so this is the new
    /// rate's process from `now` on). Its source queue starts empty, as in a run from an empty
    /// network: the backlog of a flow oversubscribed by the run before (a permutation's
    /// busiest channels, long before the network saturates) would otherwise carry its age
    /// from run to run into the latency test. The packet being injected goes on
    /// (`Flit::carry_over`).
    pub fn restart(&mut self, source: &Source, rng: &mut ChaCha8Rng, now: u32) {
        for (e, s) in self.senders.iter_mut().enumerate() {
            if let Source::Bernoulli { .. } | Source::OnOff { .. } | Source::RequestReply { .. } =
                source
            {
                s.next_gen = (now as u64).saturating_add(source.first_gap(rng));
            }
            s.partial.carry_over(now);
            self.wake[e] = s.wake();
        }
        self.earliest = self.wake.iter().copied().min().unwrap_or(u32::MAX);
        if self.replies.is_some() {
            self.keep_awake_for_replies(now);
        }
        for (_, f) in self.ej_wheel.items_mut() {
            f.carry_over(now);
        }
    }

    /// Flits held by the endpoints: created and not yet injected.
    pub fn held_flits(&self) -> u64 {
        self.senders.iter().map(|s| s.left as u64).sum()
    }

    /// Credits in use on VC `vc` of endpoint `e`'s injection channel.
    pub fn credits_used(&self, e: u32, vc: u32) -> u32 {
        self.channel[(e * self.vcs + vc) as usize].used
    }

    /// One cycle of every endpoint: ejection, credits, packet creation, injection. Flits and
    /// credits for the router go into its wheels (`to_router`, `credits_to_router`).
    #[allow(clippy::too_many_arguments)]
    pub fn cycle(
        &mut self,
        ctx: &CycleCtx,
        rng_inject: &mut ChaCha8Rng,
        rng_traffic: &mut ChaCha8Rng,
        rng_route: &mut ChaCha8Rng,
        stats: &mut RouterStats,
        to_router: &mut Wheel<(u32, Flit)>,
        credits_to_router: &mut Wheel<(u32, u8)>,
    ) {
        let now = ctx.now;
        let counting = matches!(ctx.phase, Phase::WarmingUp | Phase::Running);
        let v = self.vcs as usize;
        let back = now + self.latency + 1;
        // Ejection: each flit is consumed and its credit sent back.
        let ejected = self.ej_wheel.has(now);
        if ejected {
            self.ej_wheel.take(now, &mut self.arrived);
            for &(e, f) in &self.arrived {
                debug_assert_eq!(f.dest, self.first + e, "flit ejected at the wrong endpoint");
                retire(&f, now, ctx.phase, counting, stats);
                // Into the bucket of the cycle the router processes it (`credit_delay`
                // after its arrival; RouterCore::cycle).
                credits_to_router.push(back + ctx.topo.credit_delay, (e, f.vc));
            }
        }
        if self.work.is_some() {
            self.workload_events(ctx, ejected);
        }
        if ejected && self.replies.is_some() {
            self.queue_replies(now);
        }
        // Credits for the injection channels.
        if self.cr_wheel.has(now) {
            self.cr_wheel.take(now, &mut self.credits);
            let wait_tail = ctx.cfg.wait_for_tail_credit;
            for &(e, vc) in &self.credits {
                let c = &mut self.channel[e as usize * v + vc as usize];
                c.used -= 1;
                if wait_tail && c.tail_sent && c.used == 0 {
                    c.tail_sent = false;
                    c.busy = false;
                }
            }
        }
        // Creation and injection, in endpoint order (the order of the random draws): only
        // the endpoints whose `wake` has come are looked at, and none in a cycle before
        // `earliest` (or, once sources stop, without a packet to inject).
        if self.earliest > now || (!ctx.generating && self.injecting == 0) {
            return;
        }
        let mut earliest = self
            .work
            .as_deref()
            .map_or(u32::MAX, WorkloadState::next_delayed);
        for e in 0..self.n as usize {
            let wake = self.wake[e];
            if wake > now {
                earliest = earliest.min(wake);
                continue;
            }
            if self.senders[e].left == 0 {
                if !ctx.generating {
                    earliest = earliest.min(wake);
                    continue;
                }
                self.create(e, ctx, rng_inject, rng_traffic, stats);
            }
            if self.senders[e].left > 0 {
                self.inject(e, ctx, counting, rng_route, stats, to_router);
            }
            let wake = self.senders[e].wake();
            self.wake[e] = wake;
            earliest = earliest.min(wake);
        }
        self.earliest = earliest;
        if self.replies.is_some() {
            self.keep_awake_for_replies(now);
        }
    }

    /// Request-reply traffic: each request whose tail arrived this cycle leaves its
    /// destination a reply to send from the next cycle on (BookSim2's _RetireFlit), which
    /// wakes the endpoint then.
    #[inline(never)]
    fn queue_replies(&mut self, now: u32) {
        let Some(replies) = self.replies.as_mut() else {
            return;
        };
        for &(e, f) in &self.arrived {
            if f.is_tail() && f.flags & (READ_REQUEST | WRITE_REQUEST) != 0 {
                replies[e as usize].push_back(PendingReply {
                    requester: f.src,
                    arrived: now,
                    write: f.flags & WRITE_REQUEST != 0,
                    measured: f.measured(),
                });
                self.wake[e as usize] = self.wake[e as usize].min(now + 1);
                self.earliest = self.earliest.min(now + 1);
            }
        }
    }

    /// Request-reply traffic: an endpoint that owes a reply and holds no packet creates it
    /// next cycle, whenever its own next request is due.
    #[inline(never)]
    fn keep_awake_for_replies(&mut self, now: u32) {
        let Some(replies) = self.replies.as_ref() else {
            return;
        };
        for (e, queue) in replies.iter().enumerate() {
            if !queue.is_empty() && self.senders[e].left == 0 {
                self.wake[e] = self.wake[e].min(now + 1);
                self.earliest = self.earliest.min(now + 1);
            }
        }
    }

    fn create(
        &mut self,
        e: usize,
        ctx: &CycleCtx,
        rng_inject: &mut ChaCha8Rng,
        rng_traffic: &mut ChaCha8Rng,
        stats: &mut RouterStats,
    ) {
        let now = ctx.now as u64;
        let src = self.first + e as u32;
        let s = &mut self.senders[e];
        let mut message = 0;
        let mut size = ctx.cfg.packet_size;
        // Request-reply traffic: the request type, or for a reply its request's `measured`.
        let mut kind = 0;
        let mut reply_measured = None;
        let dest_and_time = match ctx.source {
            // Each process's gap called directly: `Source::gap` recurses for request-reply
            // traffic, so it is not inlined, and the Bernoulli path would pay the call.
            Source::Bernoulli { traffic, gaps, .. } => {
                next_bernoulli(s, now, src, traffic, rng_traffic, || {
                    gaps.sample(rng_inject)
                })
            }
            Source::OnOff { traffic, process } => {
                next_bernoulli(s, now, src, traffic, rng_traffic, || {
                    process.gap(true, rng_inject)
                })
            }
            Source::RequestReply { requests, sizes } => {
                let queue = &mut self.replies.as_mut().expect("request-reply state")[e];
                let traffic = ctx.source.request_pattern().expect("requests of a pattern");
                let next = next_request_or_reply(
                    s,
                    queue,
                    requests,
                    sizes,
                    traffic,
                    src,
                    now,
                    rng_inject,
                    rng_traffic,
                );
                next.map(|(dest, ctime, packet_size, packet_kind, measured)| {
                    (size, kind, reply_measured) = (packet_size, packet_kind, measured);
                    (dest, ctime)
                })
            }
            Source::Exchange(x) => {
                let (idx, left) = s.msg;
                if left == 0 {
                    None
                } else if x.order == MessageOrder::Interleaved {
                    // idx counts the source's packets; every message has the same size.
                    let list = &x.per_source[src as usize];
                    let dest = list[idx as usize % list.len()].0;
                    s.msg = (idx + 1, left - 1);
                    if left == 1 {
                        s.next_gen = NEVER;
                    }
                    Some((dest, ctx.now))
                } else {
                    let list = &x.per_source[src as usize];
                    let dest = list[idx as usize].0;
                    s.msg = if left > 1 {
                        (idx, left - 1)
                    } else {
                        // Next message with packets.
                        let mut k = idx as usize + 1;
                        while k < list.len() && list[k].1 == 0 {
                            k += 1;
                        }
                        if k < list.len() {
                            (k as u32, list[k].1)
                        } else {
                            (k as u32, 0)
                        }
                    };
                    if s.msg.1 == 0 {
                        s.next_gen = NEVER;
                    }
                    Some((dest, ctx.now))
                }
            }
            Source::Workload(w) => {
                let work = self
                    .work
                    .as_deref_mut()
                    .expect("a workload run has its state");
                let next = next_workload_packet(s, e, src, now, w, work, rng_inject, rng_traffic);
                next.map(|(dest, ctime, index)| {
                    message = index;
                    (dest, ctime)
                })
            }
        };
        let Some((dest, ctime)) = dest_and_time else {
            return;
        };
        let measured = match ctx.phase {
            Phase::Running => true,
            Phase::Draining | Phase::Emptying => ctime < ctx.drain_time,
            Phase::WarmingUp => false,
        };
        // A reply is counted when its request was, or when created in the measurement window
        // (BookSim2's _GeneratePacket).
        let measured = measured || reply_measured == Some(true);
        s.partial = Flit {
            src,
            dest,
            dest_router: ctx.topo.endpoint_router(dest),
            ctime,
            itime: 0,
            intermediate: 0,
            hops: 0,
            flags: HEAD | kind | if measured { MEASURED } else { 0 },
            phase: 0,
            vc: 0,
            message: [0; 3],
        };
        if message != 0 {
            s.partial.set_message_index(message);
        }
        s.left = size;
        s.cur_vc = NO_VC;
        self.injecting += 1;
        stats.gen_flits += size as u64;
        stats.gen_ctime = stats.gen_ctime.wrapping_add(ctime as u64 * size as u64);
        if measured {
            stats.meas_gen_flits += size as u64;
            stats.meas_gen_ctime = stats
                .meas_gen_ctime
                .wrapping_add(ctime as u64 * size as u64);
        }
    }

    fn inject(
        &mut self,
        e: usize,
        ctx: &CycleCtx,
        counting: bool,
        rng_route: &mut ChaCha8Rng,
        stats: &mut RouterStats,
        to_router: &mut Wheel<(u32, Flit)>,
    ) {
        let now = ctx.now;
        let v = self.vcs as usize;
        let s = &mut self.senders[e];
        // A VC is chosen before the head leaves: `left` is the whole packet then.
        let need = if ctx.cfg.flow_control == FlowControl::Vct {
            s.left
        } else {
            1
        };
        let channel = &mut self.channel[e * v..(e + 1) * v];
        if s.cur_vc == NO_VC {
            let (lo, hi) = ctx
                .routing
                .injection_vcs(self.vcs, ctx.cfg.booksim_compat, rng_route);
            let count = (hi - lo + 1) as u32;
            let last = s.last_vc;
            for i in 1..=count {
                let vc = if last < lo || last > hi {
                    lo
                } else {
                    lo + ((last - lo) as u32 + i).rem_euclid(count) as u8
                };
                let c = &mut channel[vc as usize];
                if !c.busy && self.buf - c.used >= need {
                    c.busy = true;
                    c.tail_sent = false;
                    s.last_vc = vc;
                    s.cur_vc = vc;
                    s.partial.itime = now;
                    break;
                }
            }
            if s.cur_vc == NO_VC {
                return;
            }
        }
        let vc = s.cur_vc;
        let c = &mut channel[vc as usize];
        if c.used >= self.buf {
            return;
        }
        let mut f = s.partial;
        f.vc = vc;
        s.partial.flags &= !HEAD;
        if s.left == 1 {
            f.flags |= TAIL;
        }
        c.used += 1;
        if f.is_tail() {
            c.tail_sent = true;
            if !ctx.cfg.wait_for_tail_credit {
                c.busy = false;
            }
        }
        to_router.push(now + self.latency + 1, (e as u32, f));
        s.left -= 1;
        if s.left == 0 {
            s.cur_vc = NO_VC;
            self.injecting -= 1;
        }
        if counting {
            stats.sent_flits += 1;
        }
        stats.moved += 1;
    }

    /// Brings these endpoints' state into the cache ahead of their turn (see `crate::read_ahead`):
    /// whole arrays. Reading only the senders due and the channel VCs of the arriving credits
    /// took more instructions than it saved lines at 74K endpoints (75.6M against 33.7M for
    /// the whole arrays, in callgrind's count of a 64-cycle run on Slim Fly q = 37, p = 27).
    pub fn read_ahead(&self, now: u32) {
        use crate::read_ahead::slice;
        slice(&self.wake);
        slice(&self.senders);
        slice(&self.channel);
        self.ej_wheel.read_ahead(now);
        self.cr_wheel.read_ahead(now);
    }

    /// Some endpoint holds a packet it is injecting.
    #[inline]
    pub fn busy(&self) -> bool {
        self.injecting > 0
    }

    /// Earliest future event of the endpoints after `now`, when none is injecting (`busy`):
    /// a creation or an arrival from the router.
    pub fn next_wake(&self, now: u32, generating: bool) -> u32 {
        let w = self
            .ej_wheel
            .next_after(now)
            .min(self.cr_wheel.next_after(now));
        if generating {
            w.min(self.earliest)
        } else {
            w
        }
    }

    /// Per endpoint, the cycle of its next packet creation (behind `now` while its packets
    /// wait to be created because the previous one is still being injected).
    pub fn next_creations(&self) -> impl Iterator<Item = u64> + '_ {
        self.senders.iter().map(|s| s.next_gen)
    }
}

/// The next packet of request-reply traffic at endpoint `src` due by `now`: a reply owed
/// (created from the cycle after its request arrived, as BookSim2 retires flits after the
/// cycle's injection, and before the endpoint's own requests, BookSim2's _IssuePacket), or its
/// next request; with its size in flits, its kind flag and, for a reply, whether its request
/// was measured. Out of line, as `next_workload_packet`, to keep the Bernoulli source's
/// creation small.
#[inline(never)]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn next_request_or_reply(
    s: &mut Sender,
    queue: &mut VecDeque<PendingReply>,
    requests: &Source,
    sizes: &crate::injection::ReadWrite,
    traffic: &Traffic,
    src: u32,
    now: u64,
    rng_inject: &mut ChaCha8Rng,
    rng_traffic: &mut ChaCha8Rng,
) -> Option<(u32, u32, u32, u8, Option<bool>)> {
    let due = queue.front().is_some_and(|r| (r.arrived as u64) < now);
    if let Some(r) = if due { queue.pop_front() } else { None } {
        let size = if r.write {
            sizes.write_reply
        } else {
            sizes.read_reply
        };
        return Some((r.requester, r.arrived, size, 0, Some(r.measured)));
    }
    let (dest, ctime) = next_bernoulli(s, now, src, traffic, rng_traffic, || {
        requests.gap(rng_inject)
    })?;
    let write = rng_inject.random::<f64>() < sizes.write_fraction;
    let (size, kind) = if write {
        (sizes.write_request, WRITE_REQUEST)
    } else {
        (sizes.read_request, READ_REQUEST)
    };
    Some((dest, ctime, size, kind, None))
}

/// The next packet endpoint `e` (local index; `src` its id) of a workload run creates at cycle
/// `now`: a packet of its current or next ready message, or a background packet; with the
/// index its flits carry (`Flit::message`). Kept out of line, so that the Bernoulli source's
/// creation stays as small as it was: inlined into it, this made the compiler stop inlining the
/// traffic pattern there (2% more instructions per flit-hop, callgrind).
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn next_workload_packet(
    s: &mut Sender,
    e: usize,
    src: u32,
    now: u64,
    w: &crate::workload::BoundWorkload,
    work: &mut WorkloadState,
    rng_inject: &mut ChaCha8Rng,
    rng_traffic: &mut ChaCha8Rng,
) -> Option<(u32, u32, u32)> {
    if let Some(b) = w.background.as_ref().filter(|_| w.sends_background(src)) {
        let (dest, ctime) =
            next_bernoulli(s, now, src, &b.traffic, rng_traffic, || b.gap(rng_inject))?;
        return Some((dest, ctime, BACKGROUND_MESSAGE));
    }
    let (mut id, mut left) = s.msg;
    if left == 0 {
        match work.next_message(e) {
            Some(next) => {
                id = next;
                left = w.packets(next);
            }
            None => {
                s.next_gen = NEVER;
                return None;
            }
        }
    }
    s.msg = (id, left - 1);
    if left == 1 && !work.has_ready(e) {
        s.next_gen = NEVER;
    }
    Some((w.dest(id), now as u32, w.index_at_source(id)))
}

/// The next packet of a Bernoulli process (`gap`: failed cycles to the one after) whose
/// creation is due by `now`: its destination under `traffic` and its creation cycle, skipping
/// creations for which the pattern gives `src` no destination.
#[inline(always)]
fn next_bernoulli(
    s: &mut Sender,
    now: u64,
    src: u32,
    traffic: &Traffic,
    rng_traffic: &mut ChaCha8Rng,
    mut gap: impl FnMut() -> u64,
) -> Option<(u32, u32)> {
    while s.next_gen <= now {
        let ctime = s.next_gen;
        s.next_gen = ctime.saturating_add(1).saturating_add(gap());
        if let Some(d) = traffic.destination(src, rng_traffic) {
            return Some((d, ctime as u32));
        }
    }
    None
}

/// A flit reaches its endpoint: throughput and, at the tail, packet statistics.
#[inline]
fn retire(f: &Flit, now: u32, phase: Phase, counting: bool, stats: &mut RouterStats) {
    if counting {
        stats.accepted_flits += 1;
    }
    stats.ej_flits += 1;
    stats.max_hops = stats.max_hops.max(f.hops as u32);
    stats.last_eject = now;
    stats.ej_ctime = stats.ej_ctime.wrapping_add(f.ctime as u64);
    stats.moved += 1;
    if f.measured() {
        stats.meas_ej_flits += 1;
        stats.meas_ej_ctime = stats.meas_ej_ctime.wrapping_add(f.ctime as u64);
    }
    if f.is_tail() && (phase == Phase::WarmingUp || f.measured()) {
        let plat = now - f.ctime;
        stats.packets += 1;
        stats.plat_sum += plat as u64;
        stats.nlat_sum += (now - f.itime) as u64;
        stats.hops_sum += f.hops as u64;
        stats.plat_samples.push(plat);
    }
}
