//! PLACEHOLDER: replaced by the family's construction.
use super::Family;
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::spec::Params;

pub const KAUTZ: Family = Family {
    name: "kautz",
    aliases: &[],
    summary: "not implemented yet",
    source: "",
    directed: false,
    params: &[],
    build: build_kautz,
    example: "kautz",
};

fn build_kautz(_p: &Params) -> Result<Network> {
    Err(TopolabError::InvalidNetwork(
        "kautz: not implemented yet".into(),
    ))
}

pub const DEBRUIJN: Family = Family {
    name: "debruijn",
    aliases: &[],
    summary: "not implemented yet",
    source: "",
    directed: false,
    params: &[],
    build: build_debruijn,
    example: "debruijn",
};

fn build_debruijn(_p: &Params) -> Result<Network> {
    Err(TopolabError::InvalidNetwork(
        "debruijn: not implemented yet".into(),
    ))
}
