//! How a path-based routing assigns VCs (`VcRule`): one VC; hop-indexed (VC k on hop k, Besta
//! & Hoefler, SC14, §IV-D: 2 VCs for minimal and 4 for Valiant on diameter-2 networks); per
//! phase (VC 0 towards the Valiant intermediate, VC 1 away from it: Kathareios et al., SC15,
//! §3.4's 2-VC scheme for MLFM and OFT).

use crate::error::{Result, TopolabError};
use crate::spec::Params;

/// How VCs are assigned along a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VcRule {
    /// VC class 0 everywhere (`single`, or `any`: the simulator then lets a packet take any
    /// of its VCs).
    Single,
    /// VC k on hop k (Besta & Hoefler, SC14, §IV-D).
    Hop,
    /// VC 0 before the Valiant intermediate, VC 1 after (Kathareios et al., SC15, §3.4).
    Phase,
}

impl VcRule {
    pub fn parse(value: &str, allowed: &[VcRule], context: &str) -> Result<VcRule> {
        let rule = match value {
            "single" | "1" | "any" => VcRule::Single,
            "hop" => VcRule::Hop,
            "phase" => VcRule::Phase,
            _ => VcRule::Single,
        };
        let names: Vec<&str> = allowed.iter().map(|r| r.name()).collect();
        if !matches!(value, "single" | "1" | "any" | "hop" | "phase") || !allowed.contains(&rule) {
            return Err(TopolabError::InvalidParameter {
                context: context.to_string(),
                param: "vcs".into(),
                value: value.into(),
                allowed: names.join(", "),
            });
        }
        Ok(rule)
    }
    pub fn name(self) -> &'static str {
        match self {
            VcRule::Single => "single",
            VcRule::Hop => "hop",
            VcRule::Phase => "phase",
        }
    }
}

pub(crate) fn vc_rule(params: &Params, allowed: &[VcRule]) -> Result<VcRule> {
    match params.opt_text("vcs")? {
        Some(v) => VcRule::parse(&v.to_ascii_lowercase(), allowed, params.family()),
        None => Ok(VcRule::Hop),
    }
}
