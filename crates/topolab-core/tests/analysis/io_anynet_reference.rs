//! topolab's anynet export against BookSim2's own Slim Fly input files, and import of them.

use std::path::PathBuf;

use topolab_core::io::{anynet, LoadOptions};
use topolab_core::{build_str, Network};

/// BookSim2's own input files, kept in the repository (reference/booksim); missing is a failure.
fn reference_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../reference/booksim");
    assert!(
        dir.join("slimfly_q5_p4.anynet").is_file(),
        "BookSim2 reference files missing from {}",
        dir.display()
    );
    dir
}

fn pairs(net: &Network) -> Vec<(u32, u32, u32)> {
    net.links()
        .iter()
        .map(|l| (l.src, l.dst, l.width))
        .collect()
}

fn check(spec: &str, file: &str, routers: usize, endpoints: u64) {
    let dir = reference_dir();
    let reference = std::fs::read_to_string(dir.join(file)).unwrap();
    let net = build_str(spec).unwrap();
    assert_eq!(net.num_routers(), routers);
    assert_eq!(net.num_endpoints(), endpoints);

    let written = anynet::to_string(&net).unwrap();
    let ours: Vec<&str> = written.lines().collect();
    let theirs: Vec<&str> = reference.lines().collect();
    assert_eq!(ours.len(), theirs.len(), "{file}: line count");
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        assert_eq!(a, b, "{file}: line {} differs", i + 1);
    }
    assert_eq!(written, reference, "{file}: byte for byte");

    let imported = anynet::from_str(&reference, &LoadOptions::default()).unwrap();
    assert!(!imported.directed());
    assert_eq!(imported.endpoints(), net.endpoints(), "{file}: endpoints");
    assert_eq!(pairs(&imported), pairs(&net), "{file}: links");
}

#[test]
fn slimfly_q5_p4_matches_booksim_input() {
    // Hoffman–Singleton graph: 50 routers, p = 4.
    check("slimfly:q=5,p=4", "slimfly_q5_p4.anynet", 50, 200);
}

#[test]
fn slimfly_q13_p10_matches_booksim_input() {
    check("slimfly:q=13,p=10", "slimfly_q13_p10.anynet", 338, 3380);
}
