#![no_main]
//! Fuzz target: see topolab_sim::fuzz_entry and docs/reliability.md.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    topolab_sim::fuzz_entry::run("spec", data);
});
