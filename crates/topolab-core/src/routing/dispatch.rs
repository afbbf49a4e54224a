//! `Rule`: the enum over every hop-by-hop rule type, dispatched by `match` so that the
//! simulator's cycle loop calls the catalog's own rules through no trait object. Any other
//! `HopRouting` rides in `Rule::Boxed` (`Rule::boxed`), so a new routing needs no line here;
//! a line in `rules!` gives a routing its own variant when its speed in the simulator matters.

use super::rule::{Hop, HopRouting, RouteState, Select};
use rand_chacha::ChaCha8Rng;

/// The enum over every hop-by-hop rule type (`Rule`), dispatched by `match` (no trait
/// object on the simulator's hot path), with `From` for each type.
macro_rules! rules {
    ($($variant:ident($ty:ty),)*) => {
        /// Every hop-by-hop routing rule: one variant per type of the catalog's own rules,
        /// and `Boxed` for any other.
        pub enum Rule {
            $($variant($ty),)*
            /// Any `HopRouting`, called through a trait object (`Rule::boxed`).
            Boxed(Box<dyn HopRouting>),
        }
        $(impl From<$ty> for Rule {
            fn from(r: $ty) -> Rule {
                Rule::$variant(r)
            }
        })*
        // The trait's methods also as inherent ones, so that a `Rule` reads like the trait
        // object it replaces (callers need not import `HopRouting`).
        impl Rule {
            /// A rule with no variant of its own, read by both readers like every other.
            pub fn boxed(rule: impl HopRouting + 'static) -> Rule {
                Rule::Boxed(Box::new(rule))
            }
            pub fn name(&self) -> String {
                HopRouting::name(self)
            }
            pub fn vc_classes(&self) -> u32 {
                HopRouting::vc_classes(self)
            }
            pub fn max_hops(&self) -> u32 {
                HopRouting::max_hops(self)
            }
            pub fn oblivious(&self) -> bool {
                HopRouting::oblivious(self)
            }
            pub fn default_select(&self) -> Select {
                HopRouting::default_select(self)
            }
            pub fn start(&self, s: u32, t: u32, out: &mut Vec<(RouteState, f64)>) {
                HopRouting::start(self, s, t, out)
            }
            pub fn host_start(&self, s: u32, t: u32, d: u32) -> Option<RouteState> {
                HopRouting::host_start(self, s, t, d)
            }
            #[inline]
            pub fn sample_start(&self, s: u32, t: u32, rng: &mut ChaCha8Rng) -> RouteState {
                HopRouting::sample_start(self, s, t, rng)
            }
            #[inline]
            pub fn next(&self, r: u32, t: u32, hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
                HopRouting::next(self, r, t, hop, st, out)
            }
        }
        impl HopRouting for Rule {
            fn name(&self) -> String {
                match self { $(Rule::$variant(r) => r.name(),)* Rule::Boxed(r) => r.name() }
            }
            fn vc_classes(&self) -> u32 {
                match self { $(Rule::$variant(r) => r.vc_classes(),)* Rule::Boxed(r) => r.vc_classes() }
            }
            fn max_hops(&self) -> u32 {
                match self { $(Rule::$variant(r) => r.max_hops(),)* Rule::Boxed(r) => r.max_hops() }
            }
            fn default_select(&self) -> Select {
                match self { $(Rule::$variant(r) => r.default_select(),)* Rule::Boxed(r) => r.default_select() }
            }
            fn oblivious(&self) -> bool {
                match self { $(Rule::$variant(r) => r.oblivious(),)* Rule::Boxed(r) => r.oblivious() }
            }
            fn start(&self, s: u32, t: u32, out: &mut Vec<(RouteState, f64)>) {
                match self { $(Rule::$variant(r) => r.start(s, t, out),)* Rule::Boxed(r) => r.start(s, t, out) }
            }
            fn host_start(&self, s: u32, t: u32, d: u32) -> Option<RouteState> {
                match self { $(Rule::$variant(r) => r.host_start(s, t, d),)* Rule::Boxed(r) => r.host_start(s, t, d) }
            }
            #[inline]
            fn sample_start(&self, s: u32, t: u32, rng: &mut ChaCha8Rng) -> RouteState {
                match self { $(Rule::$variant(r) => r.sample_start(s, t, rng),)* Rule::Boxed(r) => r.sample_start(s, t, rng) }
            }
            #[inline]
            fn state_vc(&self, st: RouteState) -> u8 {
                match self { $(Rule::$variant(r) => r.state_vc(st),)* Rule::Boxed(r) => r.state_vc(st) }
            }
            #[inline]
            fn next(&self, r: u32, t: u32, hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
                match self { $(Rule::$variant(x) => x.next(r, t, hop, st, out),)* Rule::Boxed(x) => x.next(r, t, hop, st, out) }
            }
            #[inline]
            fn next_each<F: FnMut(Hop)>(&self, r: u32, t: u32, hop: u32, st: RouteState, mut out: F) {
                match self {
                    $(Rule::$variant(x) => x.next_each(r, t, hop, st, out),)*
                    Rule::Boxed(x) => x.next(r, t, hop, st, &mut out),
                }
            }
            #[inline]
            fn table_entry(&self, r: u32, t: u32, st: RouteState) -> Option<&u8> {
                match self { $(Rule::$variant(x) => x.table_entry(r, t, st),)* Rule::Boxed(x) => x.table_entry(r, t, st) }
            }
            #[inline]
            fn draw_next(
                &self,
                r: u32,
                t: u32,
                hop: u32,
                st: RouteState,
                rng: &mut ChaCha8Rng,
            ) -> Option<Hop> {
                match self {
                    $(Rule::$variant(x) => x.draw_next(r, t, hop, st, rng),)*
                    Rule::Boxed(x) => draw_boxed(&**x, r, t, hop, st, rng),
                }
            }
        }
    };
}

rules! {
    DistanceBased(super::distance_based::DistanceBased),
    Dragonfly(super::dragonfly::DragonflyGsid),
    DragonflyPlus(super::dragonflyplus::DragonflyPlus),
    Fastest(super::fastest::Fastest),
    FatTree(super::fattree::FatTreeNca),
    HammingMesh(super::hammingmesh::HammingMeshMin),
    Hypercube(super::hypercube::HypercubeTurn),
    HyperX(super::hyperx::FlatFlyDor),
    Imase(super::imase::ImaseRouting),
    InfinibandTables(super::infiniband::table::TableRouting),
    Minimal(super::minimal::Minimal),
    SlimFlyMms(super::slimfly_algebraic::SlimFlyAlgebraic),
    Torus(super::torus::TorusDor),
    Ugal(super::ugal_candidates::UgalCandidates),
    UpDown(super::updown::UpDown),
    Valiant(super::valiant::Valiant),
}

/// `draw_next` of a boxed rule: the trait's one reservoir draw over its `next`, kept out of
/// line so that the variants' inlined draws stay as they are.
#[inline(never)]
fn draw_boxed(
    rule: &dyn HopRouting,
    r: u32,
    t: u32,
    hop: u32,
    st: RouteState,
    rng: &mut ChaCha8Rng,
) -> Option<Hop> {
    ByRef(rule).draw_next(r, t, hop, st, rng)
}

/// A boxed rule seen as a sized type, for the trait's methods that need one (`draw_next`).
struct ByRef<'a>(&'a dyn HopRouting);

impl HopRouting for ByRef<'_> {
    fn name(&self) -> String {
        self.0.name()
    }
    fn vc_classes(&self) -> u32 {
        self.0.vc_classes()
    }
    fn max_hops(&self) -> u32 {
        self.0.max_hops()
    }
    fn start(&self, s: u32, t: u32, out: &mut Vec<(RouteState, f64)>) {
        self.0.start(s, t, out)
    }
    fn next(&self, r: u32, t: u32, hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        self.0.next(r, t, hop, st, out)
    }
}
