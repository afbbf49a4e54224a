//! Replays the fuzz targets' corpora (fuzz/corpus/<target>/: the seeds, the inputs that once
//! failed and whatever a campaign kept) through the targets' own entry points, so that CI
//! checks in seconds what a campaign found in hours. A panic fails the test; errors are the
//! expected answer to most of these inputs.

use std::path::PathBuf;
use topolab_sim::fuzz_entry::{run, TARGETS};

fn corpus(target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target)
}

#[test]
fn every_corpus_input_is_answered_without_a_panic() {
    for target in TARGETS {
        let dir = corpus(target);
        let mut inputs: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.unwrap().path())
            .collect();
        inputs.sort();
        assert!(!inputs.is_empty(), "{}: no seeds", dir.display());
        let mut accepted = 0;
        for input in &inputs {
            let data = std::fs::read(input).unwrap();
            let result = std::panic::catch_unwind(|| run(target, &data));
            match result {
                Ok(Some(ok)) => accepted += ok as usize,
                Ok(None) => panic!("unknown target {target}"),
                Err(_) => panic!("target {target} panicked on {}", input.display()),
            }
        }
        // The seeds include valid inputs: a reader that refuses everything is broken too.
        assert!(
            accepted > 0,
            "{target}: none of {} inputs accepted",
            inputs.len()
        );
    }
}
