//! topolab-sim: the cycle-accurate, flit-level network simulator (issue 5).

pub mod traffic;
