//! The entry points of the fuzz targets (fuzz/, docs/reliability.md): each takes arbitrary
//! bytes, runs one reader of user input on them and returns whether the input was accepted.
//! A panic, an abort, a hang or a stack overflow is a finding; an error is the expected answer
//! to bad input. The seed corpora in fuzz/corpus/<target>/ run through these same functions as
//! ordinary tests (tests/fuzz_corpus.rs), so CI replays every input the campaign kept.

use std::path::Path;
use topolab_core::io::{self, Format, LoadOptions};
use topolab_core::TopologySpec;

/// Memory a fuzzed build may use: big enough for every family at small sizes, small enough
/// that a valid but huge spec is refused at once (the memory guard) instead of slowing the
/// campaign to a crawl.
pub const FUZZ_MEMORY_LIMIT: &str = "64M";

/// Every target, by the name of its fuzz/fuzz_targets file and corpus directory.
pub const TARGETS: &[&str] = &["spec", "json", "edgelist", "graphml", "anynet", "booksim"];

/// Runs target `name` on `data`; `None` for an unknown target.
pub fn run(name: &str, data: &[u8]) -> Option<bool> {
    limit_memory();
    let text = String::from_utf8_lossy(data);
    Some(match name {
        "spec" => spec(&text),
        "json" => read(&text, Format::Json),
        "edgelist" => read(&text, Format::EdgeList),
        "graphml" => read(&text, Format::GraphMl),
        "anynet" => read(&text, Format::Anynet),
        "booksim" => booksim(&text),
        _ => return None,
    })
}

fn limit_memory() {
    if std::env::var_os(topolab_core::resources::LIMIT_ENV).is_none() {
        std::env::set_var(topolab_core::resources::LIMIT_ENV, FUZZ_MEMORY_LIMIT);
    }
}

/// Parse, then build: a spec that parses goes through its family's validation.
fn spec(text: &str) -> bool {
    match TopologySpec::parse(text) {
        Ok(spec) => topolab_core::build(&spec).is_ok(),
        Err(_) => false,
    }
}

/// A network file, read with and without the options; what is read is written back and read
/// again, and must give the same network.
fn read(text: &str, format: Format) -> bool {
    let plain = io::from_str(text, format, &LoadOptions::default());
    let _ = io::from_str(
        text,
        format,
        &LoadOptions {
            directed: Some(false),
            endpoints_per_router: Some(1),
        },
    );
    let Ok(net) = plain else {
        return false;
    };
    if let Ok(written) = io::to_string(&net, Format::Json) {
        let again = io::from_str(&written, Format::Json, &LoadOptions::default())
            .expect("a network topolab wrote must read back");
        assert_eq!(again.num_routers(), net.num_routers());
        assert_eq!(again.links(), net.links());
    }
    true
}

/// A BookSim2 configuration (network_file relative to a directory with nothing in it).
fn booksim(text: &str) -> bool {
    crate::booksim::parse_config(text, Path::new("/nonexistent"), "fuzz.cfg").is_ok()
}
