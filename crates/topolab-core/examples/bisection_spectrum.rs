//! Times of the bisection (METIS, best of 5 runs) of Slim Fly q = 19 and q = 29 and of the
//! adjacency spectrum of a 20,000-router degree-24 random regular network, and bisections next
//! to the figures the papers give: Kathareios et al., SC15, §2.3.2 / Fig. 4 (Slim Fly ≈ 0.71 link
//! per endpoint with p = floor(k'/2), ≈ 0.67 with p = ceil(k'/2); OFT ≈ 0.81-0.89; MLFM ≈ 0.5),
//! Besta & Hoefler, SC14, §III-C (fat tree N/2 links, tori 2N/k, Dragonfly floor((N + 2p² - 1)/4)),
//! Koibuchi et al., 2018, §I (random 1024-router degree-8 graph: 1016 links).
//!
//!     cargo run --release -p topolab-core --example bisection_spectrum

use std::time::Instant;
use topolab_core::build_str;
use topolab_core::metrics::bisection::bisection;
use topolab_core::metrics::spectral::spectrum;
use topolab_core::progress::Silent;

fn main() -> topolab_core::Result<()> {
    println!("bisection, best of 5 METIS runs");
    for (q, k_prime) in [(19u32, 29u32), (29, 43)] {
        for p in [k_prime / 2, k_prime.div_ceil(2)] {
            let spec = format!("slimfly:q={q},p={p}");
            let net = build_str(&spec)?;
            let start = Instant::now();
            let b = bisection(&net, 5, 1, &Silent)?;
            let seconds = start.elapsed().as_secs_f64();
            println!(
                "  {spec:<22} routers {:>5}  endpoints {:>6}  links cut {:>6}  per endpoint {:.3}  \
                 {:.3} s",
                net.num_routers(),
                net.num_endpoints(),
                b.links_cut,
                b.per_endpoint,
                seconds
            );
        }
    }

    println!("bisection next to the papers' figures, best of 5 METIS runs");
    for (spec, paper) in [
        (
            "fattree:k=44,pods=22,p=22",
            "Besta & Hoefler (SC14): N/2 = 5324 links, 1.0 per endpoint",
        ),
        (
            "torus:dims=16x16x16",
            "Besta & Hoefler (SC14): 2N/k = 512 links",
        ),
        (
            "dragonfly:a=8,h=4",
            "Besta & Hoefler (SC14): floor((N + 2p^2 - 1)/4) = 271 links",
        ),
        (
            "jellyfish:routers=1024,degree=8,p=1",
            "Koibuchi et al. (2018): 1016 links (another random graph)",
        ),
        (
            "oft:k=12",
            "Kathareios et al., SC15, Fig. 4: about 0.81-0.89 per endpoint",
        ),
        (
            "mlfm:h=8",
            "Kathareios et al., SC15, Fig. 4: about 0.5 per endpoint",
        ),
    ] {
        let net = build_str(spec)?;
        let b = bisection(&net, 5, 1, &Silent)?;
        println!(
            "  {spec:<36} links cut {:>5}  per endpoint {:.3}   [{paper}]",
            b.links_cut, b.per_endpoint
        );
    }

    let spec = "jellyfish:routers=20000,degree=24,seed=1";
    let start = Instant::now();
    let net = build_str(spec)?;
    let built = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let s = spectrum(&net, &Silent)?;
    let seconds = start.elapsed().as_secs_f64();
    println!("spectrum of {spec} (built in {built:.2} s)");
    println!(
        "  λ1 {:.9}  λ2 {:.9}  λmin {:.9}  gap {:.6}  max(|λ2|,|λmin|) {:.6}  2·sqrt(d-1) {:.6}",
        s.lambda1,
        s.lambda2,
        s.lambda_min,
        s.gap,
        s.lambda_abs,
        s.ramanujan_bound.unwrap_or(f64::NAN)
    );
    println!(
        "  {} Lanczos steps, error bound {:.1e}, {:.3} s",
        s.lanczos_steps, s.error_bound, seconds
    );
    Ok(())
}
