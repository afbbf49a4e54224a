//! The cycle-accurate simulator (issue 5). Empty until then: the crate exists so that the
//! workspace layout of ARCHITECTURE.md holds from the start.
