//! The verdicts on a measured window: the final throughput test, the early verdicts of
//! `early_verdict` (while measuring and while draining) and the packets a cut drain leaves.

use super::{bernoulli_noise, settled, MIN_PRECISION_PERIODS, SHORTFALL_SIGMAS};
use crate::config::SimConfig;
use crate::engine::Engine;
use crate::stats::Totals;

/// The final test on the throughput: the window (`span` cycles, `nodes` active endpoints)
/// accepted less than (1 - saturation_tolerance) x offered by more flits than the Bernoulli
/// noise of the packets created; the words, or None when it did not.
pub(super) fn throughput_shortfall(
    cfg: &SimConfig,
    load: f64,
    accepted: f64,
    span: f64,
    nodes: f64,
) -> Option<String> {
    if accepted >= (1.0 - cfg.saturation_tolerance) * load {
        return None;
    }
    let expected_packets = load / cfg.packet_size as f64 * span * nodes;
    let shortfall_flits = (load - accepted) * span * nodes;
    let noise_flits = bernoulli_noise(cfg, expected_packets);
    (shortfall_flits > noise_flits).then(|| {
        format!(
            "accepted {accepted:.4} < (1 - saturation_tolerance = {}) x offered {load}: \
             {shortfall_flits:.0} flits short over the {span} cycle window, more than the \
             Bernoulli noise ({SHORTFALL_SIGMAS} sigma = {noise_flits:.0} flits)",
            cfg.saturation_tolerance
        )
    })
}

/// The measured packets not delivered yet: in flight (counted by their flits) and not yet
/// created by sources that fell behind (the packets their creation rate gives them).
pub(super) struct Outstanding {
    pub(super) packets: f64,
    /// Sum of their ages at the cycle they were counted.
    pub(super) age_sum: f64,
}

pub(super) fn outstanding(eng: &Engine, t: &Totals, rate: f64, packet_size: u32) -> Outstanding {
    let now = eng.now as f64;
    let size = packet_size.max(1) as f64;
    let flits = t.measured_in_flight as f64;
    let flit_ages = flits * now - t.measured_in_flight_ctime as f64;
    let end = eng.drain_time as u64;
    let (mut packets, mut age_sum) = (flits / size, flit_ages / size);
    for next in eng.next_creations().filter(|&g| g < end) {
        // Creation cycles spread evenly over [next, end): their average age.
        let behind = rate * (end - next) as f64;
        packets += behind;
        age_sum += behind * (now - (next + end) as f64 / 2.0);
    }
    Outstanding { packets, age_sum }
}

/// `early_verdict` while draining: the drain is taken to leave the verdict as it is when the
/// latency BookSim2 tests (finished packets and flits in flight) is below half the threshold,
/// and the measured packets' average latency would stay below half of it even if every one
/// still outstanding waited until the cycle budget (`to_budget` cycles after `now`); the words,
/// or None otherwise.
pub(super) fn drain_decided(
    cfg: &SimConfig,
    t: &Totals,
    left: &Outstanding,
    now: u64,
    to_budget: u64,
    steps: u64,
) -> Option<String> {
    let half = cfg.latency_thres / 2.0;
    let seen = t.latency_with_in_flight(now);
    let packets = t.packets as f64 + left.packets;
    let waiting = left.age_sum + left.packets * to_budget as f64;
    let worst = (t.plat_sum as f64 + waiting) / packets;
    (seen <= half && worst <= half).then(|| {
        format!(
            "drain ended {steps} cycles after the measurement with {:.0} measured packets \
             outstanding (counted in the latency at their age then): latency {seen:.1}, and \
             {worst:.1} if they all waited until the cycle budget ({to_budget} cycles on), both \
             below latency_thres / 2",
            left.packets
        )
    })
}

/// What one measured window shows, for `clear_verdict`.
pub(super) struct Window {
    pub(super) load: f64,
    /// Flits ejected per active endpoint per cycle since the window began.
    pub(super) accepted: f64,
    /// Packets the Bernoulli process is expected to create in the window.
    pub(super) expected_packets: f64,
    /// Active endpoints x cycles of the window (flits per unit of throughput).
    pub(super) flits: f64,
    pub(super) latency_change: f64,
    /// Average latency of finished packets and flits in flight.
    pub(super) latency_seen: f64,
    /// Flits ejected per active endpoint per cycle in the window's last period alone.
    pub(super) last_period_accepted: f64,
    pub(super) measured_periods: u32,
    /// `expected_packets` and `flits` of one period.
    pub(super) period_expected_packets: f64,
    pub(super) period_flits: f64,
    /// The 95% interval of `accepted` by batch means over the measured periods (None before
    /// two).
    pub(super) accepted_interval: Option<[f64; 2]>,
}

/// Measured periods after which a window short of the offered load has settled: in runs
/// between the early margins, from the third period to the seventh the window's
/// accepted/offered rose by at most 0.003 (uniform traffic, its network still filling) or
/// fell (permutations, UGAL-L under its worst case): benches/results/simulator-speed.csv.
/// The margin below, 0.2 x saturation_tolerance (0.006 by default), is twice that rise.
const SETTLED_PERIODS: u32 = 3;

pub(super) enum Verdict {
    Saturated(String),
    Stable(String),
}

/// `early_verdict`: the verdict of a run whose first measured periods leave no doubt, judged
/// with twice the margins of the final test, so that a full run would give the same verdict:
/// saturated when the window accepts less than (1 - 2 x saturation_tolerance) x offered by more
/// than the Bernoulli noise, or after SETTLED_PERIODS periods less than (1 - 1.2 x
/// saturation_tolerance) x offered with its last period no better; stable when it accepts
/// within saturation_tolerance / 2 (or the noise) of offered, its last period fell short of
/// the offered load by no more than one period's Bernoulli noise, the latency changed by at
/// most stopping_thres since the previous period and stays below half the latency threshold,
/// or after SETTLED_PERIODS periods it accepts at least (1 - 0.8 x saturation_tolerance) x
/// offered with its last period no lower. Anything between runs on by BookSim2's rule.
pub(super) fn clear_verdict(cfg: &SimConfig, w: &Window, periods: u32) -> Option<Verdict> {
    let noise = bernoulli_noise(cfg, w.expected_packets);
    let shortfall = (w.load - w.accepted) * w.flits;
    let tol = cfg.saturation_tolerance;
    if w.accepted < (1.0 - 2.0 * tol) * w.load && shortfall > noise {
        return Some(Verdict::Saturated(format!(
            "accepted {:.4} < (1 - 2 x saturation_tolerance = {tol}) x offered {} after {periods} \
             periods: {shortfall:.0} flits short, more than the Bernoulli noise ({noise:.0} flits)",
            w.accepted, w.load
        )));
    }
    // Between the margins: short of (1 - 1.2 x saturation_tolerance) x offered after
    // SETTLED_PERIODS periods, and not recovering (its last period accepted no more than the
    // window did): the final test cannot be passed by a window that has settled there.
    if w.measured_periods >= SETTLED_PERIODS
        && w.accepted < (1.0 - 1.2 * tol) * w.load
        && w.last_period_accepted <= w.accepted
        && shortfall > noise
    {
        return Some(Verdict::Saturated(format!(
            "accepted {:.4} < (1 - 1.2 x saturation_tolerance = {tol}) x offered {} after \
             {} measured periods, the last of them accepting {:.4}, no more: {shortfall:.0} \
             flits short, more than the Bernoulli noise ({noise:.0} flits)",
            w.accepted, w.load, w.measured_periods, w.last_period_accepted
        )));
    }
    let latency_ok = cfg.latency_thres < 0.0 || w.latency_seen <= cfg.latency_thres / 2.0;
    // Short by no more than the noise, and past the final test's margin: on a few dozen
    // endpoints one period's noise exceeds the margin (a 5x6 torus of 30 endpoints under
    // tornado at 0.56: 3.5% short within it after one measured period, 4.4% short and past
    // it after seven, as the full run ends), so the noise alone does not make a verdict clear.
    let delivered = w.accepted >= (1.0 - tol / 2.0) * w.load
        || (shortfall <= noise && w.accepted >= (1.0 - tol) * w.load);
    // Steady: the last period delivered what it was offered, within the noise of one period's
    // creations, so that the flits in the network and in the source queues stopped growing.
    // Without it a network just past its saturation was judged stable after its first
    // measured period, accepting 98.8-99.1% while its backlog grew and its throughput then
    // fell period after period to a window the full run judges saturated (a 625-router
    // Jellyfish and a 627-router Xpander under uniform traffic,
    // benches/results/simulator-speed.csv).
    let period_noise = bernoulli_noise(cfg, w.period_expected_packets);
    let period_shortfall = (w.load - w.last_period_accepted) * w.period_flits;
    let steady = period_shortfall <= period_noise;
    if delivered && steady && latency_ok && settled(w.latency_change, cfg.stopping_thres) {
        return Some(Verdict::Stable(format!(
            "accepted {:.4} of offered {} after {periods} periods, {:.4} in the last one \
             ({period_shortfall:.0} flits short, within the Bernoulli noise of {period_noise:.0}), \
             latency {:.1} (changed by {:.1}% <= stopping_thres = {}, below latency_thres / 2)",
            w.accepted,
            w.load,
            w.last_period_accepted,
            w.latency_seen,
            100.0 * w.latency_change,
            cfg.stopping_thres
        )));
    }
    // Between the margins the other way: at least 1 - 0.8 x saturation_tolerance of offered
    // after SETTLED_PERIODS periods, its last period no lower (not falling towards the final
    // test's 1 - saturation_tolerance). A permutation's busiest flows leave such a window
    // short by the same share period after period (a 625-router Jellyfish under `randperm` at
    // 0.34-0.36: 97.4-98.1% after three measured periods and after seven, within 0.0003), and
    // their growing backlog keeps the latency changing, so the run would otherwise measure all
    // its periods. A window that falls is left to the rules above (the collapse described
    // there falls from its first measured period on).
    if w.measured_periods >= SETTLED_PERIODS
        && w.accepted >= (1.0 - 0.8 * tol) * w.load
        && w.last_period_accepted >= w.accepted
        && latency_ok
    {
        return Some(Verdict::Stable(format!(
            "accepted {:.4} >= (1 - 0.8 x saturation_tolerance = {tol}) x offered {} after {} \
             measured periods, the last of them accepting {:.4}, no less; latency {:.1}, below \
             latency_thres / 2",
            w.accepted, w.load, w.measured_periods, w.last_period_accepted, w.latency_seen,
        )));
    }
    if cfg.precision > 0.0 {
        return interval_verdict(cfg, w, noise, shortfall, latency_ok);
    }
    None
}

/// With `precision` > 0, between the margins above: the verdict the final test would give
/// when the accepted rate's 95% interval (batch means, after MIN_PRECISION_PERIODS measured
/// periods) lies wholly on one side of (1 - saturation_tolerance) x offered: saturated below
/// it when the last period accepted no more than the window (a network still filling accepts
/// more in its last period) and the window is short by more than the Bernoulli noise; stable
/// at or above it when the last period is at or above it too (a collapsing network's last
/// period falls first) and the latency stays below half the threshold. A large network's windows are narrow, so its runs near saturation, which
/// otherwise measure every period, end after three.
fn interval_verdict(
    cfg: &SimConfig,
    w: &Window,
    noise: f64,
    shortfall: f64,
    latency_ok: bool,
) -> Option<Verdict> {
    let [low, high] = w.accepted_interval?;
    if (w.measured_periods as usize) < MIN_PRECISION_PERIODS {
        return None;
    }
    let line = (1.0 - cfg.saturation_tolerance) * w.load;
    let figures = format!(
        "accepted {:.4}, 95% interval [{low:.4}, {high:.4}] after {} measured periods, the last \
         accepting {:.4}, against (1 - saturation_tolerance = {}) x offered {} = {line:.4}",
        w.accepted, w.measured_periods, w.last_period_accepted, cfg.saturation_tolerance, w.load
    );
    if high < line && w.last_period_accepted <= w.accepted && shortfall > noise {
        return Some(Verdict::Saturated(format!(
            "{figures}: the interval lies below, {shortfall:.0} flits short (Bernoulli noise \
             {noise:.0})"
        )));
    }
    if low >= line && w.last_period_accepted >= line && latency_ok {
        return Some(Verdict::Stable(format!(
            "{figures}: the interval lies above; latency {:.1}, below latency_thres / 2",
            w.latency_seen
        )));
    }
    None
}
