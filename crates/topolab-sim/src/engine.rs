//! The cycle loop: batches of cycles, each one pass over the routers in which every router
//! runs the batch's cycles (read inputs, evaluate, stage outputs), and the delivery of what
//! they sent into the receivers' arrival wheels in the order of a serial delivery
//! (`crate::delivery`): after the pass with one thread, by each receiver at the start of its
//! next turn with several; the deadlock watchdog and, in debug mode, the conservation checks
//! between batches.
//!
//! No global mutable state: an `Engine` owns every router, channel and counter of one run and
//! an explicit clock. `Prepared` holds what several runs on one network share (wiring, routing
//! tables) and is immutable.

use crate::config::SimConfig;
use crate::delivery::{self, Ends, Links, Outbound, Sent};
use crate::error::{Result, SimError};
use crate::failure::{Dropped, DynamicFailure};
use crate::injection::Source;
use crate::router::{CycleCtx, Phase, PublishedLoads, ReadAhead, RouterCore};
use crate::routing::Routing;
use crate::stats::Totals;
use crate::topo::SimTopology;
use crate::watchdog;
use rayon::prelude::*;
use std::sync::Arc;
use topolab_core::progress::Monitor;
use topolab_core::Network;

/// A network wired for simulation with a routing: shared by every run of a sweep.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub net: Arc<Network>,
    pub topo: Arc<SimTopology>,
    pub routing: Arc<Routing>,
    pub routing_name: String,
    pub cfg: SimConfig,
    /// The channels as the receivers' pulls read them (`crate::delivery`); none with one
    /// thread, whose engine delivers serially.
    pub links: Option<Arc<Links>>,
    /// Cables that die during the run (`cfg.dynamic_failures`).
    pub failure: Option<Arc<DynamicFailure>>,
}

impl Prepared {
    pub fn new(
        net: &Network,
        routing: &str,
        cfg: &SimConfig,
        monitor: &dyn Monitor,
    ) -> Result<Prepared> {
        cfg.validate()?;
        crate::memory::ensure_fits(net, cfg)?;
        let topo = SimTopology::new(net, cfg)?;
        let hotpotato = cfg.router == crate::config::RouterModel::HotPotato;
        let r = if hotpotato {
            let spec = crate::router::hotpotato::routing_spec(routing);
            let r = Routing::parse(&spec, net, &topo, cfg, monitor)?;
            crate::router::hotpotato::check(&topo, &r, cfg)?;
            r
        } else {
            let r = Routing::parse(routing, net, &topo, cfg, monitor)?;
            crate::router::iq::check_deflect(&r, routing, cfg)?;
            r
        };
        let failure = DynamicFailure::new(net, &topo, routing, cfg, monitor)?.map(Arc::new);
        Ok(Prepared {
            failure,
            net: Arc::new(net.clone()),
            links: (!one_thread(cfg)).then(|| Arc::new(Links::new(&topo))),
            topo: Arc::new(topo),
            routing: Arc::new(r),
            routing_name: routing.trim().to_string(),
            cfg: cfg.clone(),
        })
    }
}

/// Runs on the calling thread alone, without a pool, delivering serially (`Delivery`).
fn one_thread(cfg: &SimConfig) -> bool {
    cfg.threads == 1
}

/// Most cycles a router runs ahead of delivery (`Engine::batch_size`).
pub(crate) const MAX_BATCH: u32 = 8;

/// VC records (all routers) above which routers' state is read a turn ahead: about the
/// private cache of one core of the machines measured (1 MiB L2).
const READ_AHEAD_BYTES: u64 = 1 << 20;

/// VC records above which one thread lists each cycle's deliveries (`Engine::lists_deliveries`).
/// Listing asks for the lines of the pushes to come, and costs instructions: `large_network`
/// runs of compare's router, back to back with and without it, CPU time per cycle: the torus
/// 5x6x7x7x7 (87 MB of records) -10%, the HammingMesh 50x51 with 16 VCs -4%, the mesh
/// 7x9x9x9, the Dragonfly a = 28 (14 MB) and the BDF u = 11 -3%; the Jellyfish of 625 routers
/// (6 MB) and Slim Fly q = 19 unchanged; Slim Fly q = 13 at 0.5 (1.9 MB) 6.5% more
/// instructions (benches/results/simulator-speed.csv).
const LIST_DELIVERIES_BYTES: u64 = 8 << 20;

/// Routers per span of a parallel pass over `routers`: at least 8, about four spans per
/// thread, enough for rayon to balance the threads, few span starts (whose first router is not
/// fetched ahead).
fn span(routers: usize) -> usize {
    (routers / (4 * rayon::current_num_threads())).max(8)
}

/// Runs `turn` for a run of consecutive routers (`per`: what each one's turn writes), each
/// one's state fetched while the one before it runs (its record, the pointers to that state,
/// one turn earlier still).
fn run_span<T>(
    cores: &mut [RouterCore],
    per: &mut [T],
    ahead: Ahead,
    first: u32,
    turn: &impl Fn(&mut RouterCore, &mut T),
) {
    for (r, x) in per.iter_mut().enumerate() {
        if ahead.mode != ReadAhead::Off {
            if let Some(c) = cores.get(r + 2) {
                c.read_ahead_record();
                if let Some((links, sent)) = ahead.pulled {
                    delivery::ask_senders(links, sent, c.id as usize);
                }
            }
            if let Some(c) = cores.get(r + 1) {
                if ahead.cycles == 0 || c.due_within(first, ahead.cycles) {
                    c.read_ahead(first, ahead.topo, ahead.routing);
                }
                if let Some((links, sent)) = ahead.pulled {
                    delivery::ask_chains(links, sent, c.id as usize);
                }
            }
        }
        turn(&mut cores[r], x);
    }
}

/// What `run_span` reads ahead with.
#[derive(Clone, Copy)]
struct Ahead<'a> {
    mode: ReadAhead,
    topo: &'a SimTopology,
    routing: &'a Routing,
    /// The batch's cycles, when the routers' wheels already hold all their arrivals (serial
    /// delivery): a router idle in all of them is not read ahead, its turn reads only its
    /// record and wheels. 0: every router is read ahead (pulled delivery fills the wheels at
    /// the start of each turn).
    cycles: u32,
    /// With pulled delivery, what each turn pulls first: the routers' lists of the batch before
    /// and the slots that lead to them, whose lines are asked for with the routers' state
    /// (`delivery::ask_senders`, `delivery::ask_chains`).
    pulled: Option<(&'a Links, &'a Sent)>,
}

/// Largest cycle count a run may reach (cycles are u32 in the hot loop).
pub const MAX_CYCLES: u64 = u32::MAX as u64 - 1_000_000;

/// How what routers send each other reaches the receivers' wheels (`crate::delivery`): the
/// same items in the same order either way.
enum Delivery {
    /// One thread: pushed after each batch, in the serial order (`delivery::deliver_serial`),
    /// from each router's staged counts at the end of each cycle of the batch.
    Serial(Vec<Ends>, Option<delivery::Listed>),
    /// Several threads: each receiver pulls its items at the start of its next turn
    /// (`delivery::pull`). One `Sent` is written by a batch while the next batch's receivers
    /// read the other; `written` is the one last written.
    Pull {
        links: Arc<Links>,
        sent: Box<[Sent; 2]>,
        written: usize,
        /// First cycle of the batch whose items are not yet in the receivers' wheels. They
        /// stay in the senders' lists between `run_cycles` calls (a draining run calls it for
        /// every cycle): `quiet` counts them, and the watchdog's checks run after
        /// `deliver_pending`.
        pending: Option<u32>,
    },
}

pub struct Engine<'p> {
    pub prep: &'p Prepared,
    pub source: Source,
    pub cores: Vec<RouterCore>,
    /// Output-port loads published after each cycle, for global routing views.
    loads: Vec<Vec<u32>>,
    pub now: u32,
    step_base: u64,
    pub phase: Phase,
    pub drain_time: u32,
    pub generating: bool,
    pool: Option<rayon::ThreadPool>,
    last_moved: u64,
    stalled: u64,
    /// Cycles each router runs back to back before what it sent is delivered (see `cycles`).
    batch: u32,
    /// How what the routers send each other reaches the receivers' wheels.
    delivery: Delivery,
    /// How much of each router's state is read one turn ahead (`crate::read_ahead`).
    read_ahead: ReadAhead,
    /// Where the run is in its dynamic failure (`prep.failure`).
    failure_stage: FailureStage,
    /// Flits lost to dead cables.
    pub dropped: Dropped,
}

/// Before the cables die, after (old routing), after the routing changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureStage {
    Intact,
    Down,
    Rerouted,
}

/// The network as a run left it (`Engine::into_warm`): every router's buffers, channels,
/// sources and random streams, and the clock. A run at another load may start from it
/// (`Engine::resume`) instead of an empty network: a saturation search's next load, warmed
/// up by the run before (`crate::session`).
#[derive(Debug, Clone)]
pub struct WarmState {
    cores: Vec<RouterCore>,
    now: u32,
    step_base: u64,
}

impl<'p> Engine<'p> {
    pub fn new(prep: &'p Prepared, source: Source) -> Result<Engine<'p>> {
        let topo = &prep.topo;
        let n = topo.num_routers as usize;
        let cores: Vec<RouterCore> = (0..n)
            .map(|r| RouterCore::new(topo, r, &prep.cfg, &source))
            .collect();
        Self::assemble(prep, source, cores)
    }

    /// An engine going on from `warm` (left by a run on the same `prep`) under `source`: the
    /// sources continue at its rate, the flits in flight are no longer measured and the
    /// measurement starts again (warming up). Input-queued routers only.
    pub fn resume(prep: &'p Prepared, source: Source, warm: WarmState) -> Result<Engine<'p>> {
        if prep.cfg.router != crate::config::RouterModel::Iq {
            return Err(SimError::param(
                "router",
                "hotpotato",
                "iq for a run that starts from another run's state (warm start)",
            ));
        }
        crate::failure::only_in_timelines(prep, "a run that starts from another run's state")?;
        if warm.cores.len() != prep.topo.num_routers as usize {
            return Err(SimError::param(
                "warm_state",
                format!("a state of {} routers", warm.cores.len()),
                format!(
                    "the state of a run on the same network ({} routers)",
                    prep.topo.num_routers
                ),
            ));
        }
        let WarmState {
            mut cores,
            now,
            step_base,
        } = warm;
        for c in cores.iter_mut() {
            c.restart(&source, now);
        }
        let mut eng = Self::assemble(prep, source, cores)?;
        eng.now = now;
        eng.step_base = step_base;
        eng.last_moved = eng.totals().moved;
        if prep.routing.needs_global_view() {
            eng.publish_loads();
        }
        Ok(eng)
    }

    /// The network as this engine leaves it, everything sent delivered into its receivers'
    /// wheels.
    pub fn into_warm(mut self) -> WarmState {
        self.deliver_pending(false);
        WarmState {
            cores: self.cores,
            now: self.now,
            step_base: self.step_base,
        }
    }

    fn assemble(prep: &'p Prepared, source: Source, cores: Vec<RouterCore>) -> Result<Engine<'p>> {
        let n = cores.len();
        let pool = match prep.cfg.threads {
            _ if one_thread(&prep.cfg) => None,
            t => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t as usize)
                    .build()
                    .map_err(|e| {
                        SimError::param(
                            "threads",
                            t,
                            format!("a thread count the system can start ({e})"),
                        )
                    })?,
            ),
        };
        // Serial without the pull tables, whatever the pool (a `Prepared` whose `cfg.threads`
        // changed after it was built): the same results, on one thread.
        let delivery = match (&pool, &prep.links) {
            (Some(_), Some(links)) => Delivery::Pull {
                sent: Box::new([Sent::new(links), Sent::new(links)]),
                links: links.clone(),
                written: 0,
                pending: None,
            },
            _ => Delivery::Serial(
                vec![Ends::default(); n],
                Self::lists_deliveries(prep).then(delivery::Listed::default),
            ),
        };
        Ok(Engine {
            prep,
            source,
            cores,
            loads: Vec::new(),
            now: 0,
            step_base: 0,
            phase: Phase::WarmingUp,
            drain_time: 0,
            generating: true,
            pool,
            last_moved: 0,
            stalled: 0,
            batch: Self::batch_size(prep),
            delivery,
            read_ahead: Self::read_ahead_mode(prep),
            failure_stage: FailureStage::Intact,
            dropped: Dropped::default(),
        })
    }

    /// How many cycles a router may run ahead of the delivery of what others sent it: an item
    /// sent in cycle S over a channel of latency d is read in S + d + 1, so with every
    /// router-to-router channel (flits and credits) at least d_min long, a router can run
    /// cycles t .. t + d_min with only the items sent up to t - 1 delivered. Running them back
    /// to back keeps its state in cache for several cycles instead of one (every router's state
    /// is cold when its turn comes in a cycle). Results stay identical because delivery still
    /// happens cycle by cycle in router order, and because the order within an arrival bucket
    /// is kept: a router's own endpoints push into the same wheels during its run (latency e),
    /// and an item over a channel longer than e (d > e) must land before them, as it would one
    /// cycle at a time; that holds when d - e >= k, the item then being sent in an earlier
    /// batch. One cycle at a time when routing reads other routers' state (global view) or
    /// when conservation is checked after every cycle. At most 8.
    fn batch_size(prep: &Prepared) -> u32 {
        let topo = &*prep.topo;
        if prep.routing.needs_global_view() || prep.cfg.debug_checks {
            return 1;
        }
        let e = prep.cfg.endpoint_latency;
        let mut k = MAX_BATCH;
        for link in topo.out_link.iter().chain(&topo.in_link) {
            if link.peer == crate::topo::NONE {
                continue;
            }
            let d = link.latency;
            k = k.min(d.saturating_add(1));
            if d > e {
                k = k.min(d - e);
            }
        }
        k.max(1)
    }

    /// Reading ahead pays when the routers' state does not stay in the core's own caches
    /// between their turns: with more than `READ_AHEAD_BYTES` of VC records. Measured
    /// (interleaved runs, median time ratio with / without): Slim Fly q = 13 (1.9 MB of
    /// records) 0.75-0.92; torus 8x8x8 (0.7 MB) 1.045, Dragonfly p = 4 (0.6 MB) 0.99-1.0.
    pub fn read_ahead_mode(prep: &Prepared) -> ReadAhead {
        if Self::vc_record_bytes(prep) <= READ_AHEAD_BYTES {
            ReadAhead::Off
        } else {
            ReadAhead::Whole
        }
    }

    /// Whether one thread lists each cycle's items before pushing them into the receivers'
    /// wheels (`delivery::deliver_serial`): with more than `LIST_DELIVERIES_BYTES` of VC
    /// records.
    pub fn lists_deliveries(prep: &Prepared) -> bool {
        Self::vc_record_bytes(prep) > LIST_DELIVERIES_BYTES
    }

    /// The VC records of every router.
    fn vc_record_bytes(prep: &Prepared) -> u64 {
        use crate::router::iq::{InputVc, OutputVc};
        let topo = &*prep.topo;
        let vcs = prep.cfg.num_vcs as u64;
        let router_bytes = |r: usize| {
            vcs * (topo.num_in(r) as u64 * std::mem::size_of::<InputVc>() as u64
                + topo.num_out(r) as u64 * std::mem::size_of::<OutputVc>() as u64)
        };
        (0..topo.num_routers as usize).map(router_bytes).sum()
    }

    pub fn cfg(&self) -> &SimConfig {
        &self.prep.cfg
    }

    /// Runs `n` cycles, watching for deadlock and (debug mode) checking conservation; the
    /// monitor hears of progress (`done` cycles before this call, out of `total`) and is asked
    /// whether to go on every 256 simulated cycles.
    pub fn run_cycles(
        &mut self,
        n: u64,
        monitor: &dyn Monitor,
        stage: &str,
        total: u64,
        done: u64,
    ) -> Result<()> {
        let pool = self.pool.take();
        let result = match &pool {
            Some(p) => p.install(|| self.run_cycles_inner(n, monitor, stage, total, done, true)),
            None => self.run_cycles_inner(n, monitor, stage, total, done, false),
        };
        self.pool = pool;
        result
    }

    fn run_cycles_inner(
        &mut self,
        n: u64,
        monitor: &dyn Monitor,
        stage: &str,
        total: u64,
        done: u64,
        parallel: bool,
    ) -> Result<()> {
        let check_every = (self.cfg().deadlock_timeout as u64 / 4).clamp(1, 256);
        let mut i = 0u64;
        while i < n {
            if self.now as u64 >= MAX_CYCLES {
                return Err(SimError::param(
                    "sample_period",
                    self.now,
                    format!("runs shorter than {MAX_CYCLES} cycles"),
                ));
            }
            let mut k = (self.batch as u64).min(n - i) as u32;
            if self.prep.failure.is_some() {
                k = self.failure_events(k, parallel);
            }
            let before = self.now as u64;
            self.cycles(k, parallel);
            i += k as u64;
            if self.failure_stage != FailureStage::Intact {
                self.drop_dead_arrivals(parallel, false);
            }
            if self.cfg().debug_checks {
                self.deliver_pending(parallel);
                watchdog::check_conservation(self)?;
            }
            // Cycles before + 1 ..= now ended in this batch.
            let now = self.now as u64;
            if now / check_every > before / check_every {
                self.deliver_pending(parallel);
                self.watch(check_every)?;
            }
            if now / 256 > before / 256 {
                monitor.progress(stage, done + i, total.max(done + i))?;
            }
        }
        Ok(())
    }

    /// `k` cycles (k <= `batch`), in one pass over the routers, each running them back to
    /// back. One thread then delivers what they staged, cycle by cycle and router by router
    /// (`delivery::deliver_serial`). With several threads the pass is parallel (spans of
    /// consecutive routers per thread) and has no serial step: in its turn a router first
    /// pulls into its wheels what the others sent it in the previous batch (`delivery::pull`:
    /// the same wheels, in the same order), then runs the k cycles, then chains what it
    /// staged by slot for the receivers to pull in the next batch (or in `deliver_pending`).
    /// Senders write one `Sent` while receivers read the other, so no router waits for
    /// another within a batch. A router model or routing that reads other routers' state
    /// within a cycle must keep `batch` at 1 (see `batch_size`).
    fn cycles(&mut self, k: u32, parallel: bool) {
        let prep = self.prep;
        let topo = &*prep.topo;
        let credit_delay = topo.credit_delay;
        // (cycle, first internal step, steps) of each cycle of the batch.
        let mut ctxs = [(0u32, 0u64, 0u32); MAX_BATCH as usize];
        let mut step_base = self.step_base;
        for (j, c) in ctxs.iter_mut().take(k as usize).enumerate() {
            let now = self.now + j as u32;
            let steps = prep.cfg.steps_in_cycle(now as u64);
            *c = (now, step_base, steps);
            step_base += steps as u64;
        }
        let k = k as usize;
        let first = ctxs[0].0;
        let (view_topo, view_routing) = self.routing_view();
        let read_ahead = Ahead {
            mode: self.read_ahead,
            topo: view_topo,
            routing: view_routing,
            cycles: match self.delivery {
                Delivery::Serial(..) => k as u32,
                Delivery::Pull { .. } => 0,
            },
            pulled: None,
        };
        {
            let global = PublishedLoads(&self.loads);
            let (phase, drain_time, generating) = (self.phase, self.drain_time, self.generating);
            let source = &self.source;
            // Router c's cycles of the batch; its staged counts at the end of each.
            let run = |c: &mut RouterCore| {
                let mut ends = Ends::default();
                for (j, &(now, step_base, steps)) in ctxs[..k].iter().enumerate() {
                    let ctx = CycleCtx {
                        topo: view_topo,
                        routing: view_routing,
                        source,
                        cfg: &prep.cfg,
                        global: &global,
                        now,
                        step_base,
                        steps,
                        phase,
                        drain_time,
                        generating,
                    };
                    c.cycle(&ctx);
                    ends.0[j] = c.staged_flits.len() as u32;
                    ends.1[j] = c.staged_credits.len() as u32;
                }
                ends
            };
            match &mut self.delivery {
                Delivery::Serial(ends, _) => {
                    run_span(&mut self.cores, ends, read_ahead, first, &|c, e| {
                        *e = run(c)
                    });
                }
                Delivery::Pull {
                    links,
                    sent,
                    written,
                    pending,
                } => {
                    let links = &**links;
                    let pending = pending.replace(first);
                    let [first_half, second_half] = &mut **sent;
                    let (sent, sending) = if *written == 0 {
                        (&*first_half, second_half)
                    } else {
                        (&*second_half, first_half)
                    };
                    *written = 1 - *written;
                    let read_ahead = Ahead {
                        pulled: pending.map(|_| (links, sent)),
                        ..read_ahead
                    };
                    let (sending, heads) = sending.senders();
                    let turn = |c: &mut RouterCore, out: &mut Outbound| {
                        if let Some(first) = pending {
                            delivery::pull(links, sent, c, first, credit_delay);
                        }
                        let (flit_ends, credit_ends) = run(c);
                        out.take(
                            links,
                            heads,
                            c.id as usize,
                            &mut c.staged_flits,
                            &mut c.staged_credits,
                            &flit_ends[..k],
                            &credit_ends[..k],
                        );
                    };
                    if parallel {
                        let span = span(self.cores.len());
                        self.cores
                            .par_chunks_mut(span)
                            .zip(sending.par_chunks_mut(span))
                            .for_each(|(c, o)| run_span(c, o, read_ahead, first, &turn));
                    } else {
                        run_span(&mut self.cores, sending, read_ahead, first, &turn);
                    }
                }
            }
        }
        if let Delivery::Serial(ends, listed) = &mut self.delivery {
            delivery::deliver_serial(topo, &mut self.cores, first, ends, k, listed.as_mut());
        }
        if prep.routing.needs_global_view() {
            // k = 1: the loads every router sees in the next cycle.
            self.publish_loads();
        }
        self.step_base = step_base;
        self.now += k as u32;
    }

    /// Applies the dynamic failure's events due now (the cables die; the routing changes) and
    /// returns the batch size `k` cut so that the batch ends at the next event.
    fn failure_events(&mut self, k: u32, parallel: bool) -> u32 {
        let Some(failure) = self.prep.failure.as_deref() else {
            return k;
        };
        if self.failure_stage == FailureStage::Intact && self.now >= failure.cycle {
            self.failure_stage = FailureStage::Down;
            self.drop_dead_arrivals(parallel, true);
        }
        if self.failure_stage == FailureStage::Down && self.now >= failure.reroute_cycle {
            self.failure_stage = FailureStage::Rerouted;
        }
        let next = match self.failure_stage {
            FailureStage::Intact => failure.cycle,
            FailureStage::Down => failure.reroute_cycle,
            FailureStage::Rerouted => return k,
        };
        k.min(next - self.now).max(1)
    }

    /// Drops what arrives over dead cables (`DynamicFailure::drop_dead_arrivals`): before the
    /// receivers read it, everything sent delivered.
    fn drop_dead_arrivals(&mut self, parallel: bool, on_wire: bool) {
        let Some(failure) = self.prep.failure.as_deref() else {
            return;
        };
        self.deliver_pending(parallel);
        let credit_delay = self.prep.topo.credit_delay;
        failure.drop_dead_arrivals(
            &mut self.cores,
            self.now,
            credit_delay,
            &mut self.dropped,
            on_wire,
        );
    }

    /// Where the run is in its dynamic failure.
    pub fn failure_stage(&self) -> FailureStage {
        self.failure_stage
    }

    /// The topology and routing heads are routed by now: the intact ones, or after a dynamic
    /// failure's reaction delay those of the surviving network.
    fn routing_view(&self) -> (&'p SimTopology, &'p Routing) {
        match (self.failure_stage, self.prep.failure.as_deref()) {
            (FailureStage::Rerouted, Some(f)) => (&f.topo_after, &f.routing_after),
            _ => (&self.prep.topo, &self.prep.routing),
        }
    }

    /// The output ports' credits in use, as routings with a global view read them in the next
    /// cycle.
    fn publish_loads(&mut self) {
        self.loads.resize(self.cores.len(), Vec::new());
        for (l, c) in self.loads.iter_mut().zip(&self.cores) {
            l.clear();
            l.extend_from_slice(&c.iq().op_used);
        }
    }

    /// Delivers what the routers sent in the last batch (each router pulls its items, in
    /// parallel), so that every item is in its receiver's wheel: before the watchdog's checks
    /// look at the wheels. One thread has delivered everything already.
    fn deliver_pending(&mut self, parallel: bool) {
        let Delivery::Pull {
            links,
            sent,
            written,
            pending,
        } = &mut self.delivery
        else {
            return;
        };
        let Some(first) = pending.take() else {
            return;
        };
        let links = &**links;
        let sent = &sent[*written];
        let credit_delay = self.prep.topo.credit_delay;
        let pull = |c: &mut RouterCore| delivery::pull(links, sent, c, first, credit_delay);
        if parallel {
            let span = span(self.cores.len());
            self.cores
                .par_chunks_mut(span)
                .for_each(|cs| cs.iter_mut().for_each(pull));
        } else {
            self.cores.iter_mut().for_each(pull);
        }
    }

    /// Deadlock watchdog: flits in flight and none moved for `deadlock_timeout` cycles.
    fn watch(&mut self, interval: u64) -> Result<()> {
        watchdog::check_livelock(self)?;
        let t = self.totals();
        if t.in_flight_flits > 0 && t.moved == self.last_moved {
            self.stalled += interval;
            if self.stalled >= self.cfg().deadlock_timeout as u64 {
                return Err(watchdog::diagnose(self, self.stalled, t.in_flight_flits));
            }
        } else {
            self.stalled = 0;
        }
        self.last_moved = t.moved;
        Ok(())
    }

    /// Network-wide sums of every router's counters.
    pub fn totals(&self) -> Totals {
        let mut t = Totals::default();
        for c in &self.cores {
            t.add(&c.stats);
        }
        t
    }

    /// Clears the period statistics (BookSim2 _ClearStats).
    pub fn clear_stats(&mut self) {
        for c in self.cores.iter_mut() {
            c.stats.clear_period();
        }
    }

    /// Packet latencies counted in the current period, all routers.
    pub fn latency_samples(&self) -> Vec<u32> {
        let mut v = Vec::new();
        for c in &self.cores {
            v.extend_from_slice(&c.stats.plat_samples);
        }
        v
    }

    /// Sources create no more packets. Every router is woken once more so that its next
    /// wake-up no longer counts a creation (an idle router keeps the wake-up it computed while
    /// sources were creating, possibly ~1/rate cycles away, and `quiet` would wait for it).
    pub fn stop_generating(&mut self) {
        self.generating = false;
        let now = self.now;
        for c in self.cores.iter_mut() {
            c.own_wake = c.own_wake.min(now);
        }
    }

    /// No flit, credit or event is pending anywhere.
    pub fn quiet(&self) -> bool {
        let undelivered = match &self.delivery {
            Delivery::Serial(..) => false,
            Delivery::Pull {
                sent,
                written,
                pending,
                ..
            } => pending.is_some() && !sent[*written].is_empty(),
        };
        !undelivered
            && self.cores.iter().all(|c| {
                !c.busy
                    && c.own_wake == u32::MAX
                    && c.flit_wheel.is_empty()
                    && c.credit_wheel.is_empty()
            })
    }

    /// Per endpoint in order, the cycle of its next packet creation.
    pub fn next_creations(&self) -> impl Iterator<Item = u64> + '_ {
        self.cores.iter().flat_map(|c| c.eps.next_creations())
    }

    /// Every source has created the packets stamped before the drain time.
    pub fn sources_drained(&self) -> bool {
        let end = self.drain_time as u64;
        self.next_creations().all(|next| next >= end)
    }
}
