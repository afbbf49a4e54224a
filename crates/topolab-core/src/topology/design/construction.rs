//! Daryin & Korzh's width rule (`max_min_widths`) against a brute force over every width vector.

use super::max_min_widths;

/// Every width vector within `budget`, the best by (bottleneck, fewest ports in widths):
/// Daryin & Korzh's rule by brute force.
fn brute_force(sizes: &[u32], budget: i64, torus: bool) -> Vec<u32> {
    let ports = |s: u32| if torus { 2 } else { s as i64 - 1 };
    let weight = |s: u32| if torus { 1.0 / s as f64 } else { s as f64 };
    let mut best: Option<((i64, i64), Vec<u32>)> = None;
    let mut widths = vec![1u32; sizes.len()];
    loop {
        let cost: i64 = sizes
            .iter()
            .zip(&widths)
            .map(|(&s, &x)| ports(s) * x as i64)
            .sum();
        if cost <= budget {
            let bottleneck = sizes
                .iter()
                .zip(&widths)
                .map(|(&s, &x)| weight(s) * x as f64)
                .fold(f64::INFINITY, f64::min);
            let total: i64 = widths.iter().map(|&x| x as i64).sum();
            let key = ((bottleneck * 1e9).round() as i64, -total);
            if best.as_ref().is_none_or(|(k, _)| key > *k) {
                best = Some((key, widths.clone()));
            }
        }
        // the next width vector, the last position fastest
        let mut i = widths.len();
        loop {
            if i == 0 {
                return best.map(|(_, w)| w).unwrap_or_default();
            }
            i -= 1;
            if (widths[i] as i64) < budget {
                widths[i] += 1;
                break;
            }
            widths[i] = 1;
        }
    }
}

#[test]
fn bisection_widths_are_optimal_by_brute_force() {
    for (sizes, budget, torus) in [
        (vec![4, 8, 8, 8], 28, false),
        (vec![8, 16, 16], 28, true),
        (vec![3, 5], 17, false),
        (vec![5, 6, 7], 30, true),
    ] {
        let best = brute_force(&sizes, budget, torus);
        let found = if torus {
            max_min_widths(&sizes, &|_| 2, budget, &|s| 1.0 / s as f64)
        } else {
            max_min_widths(&sizes, &|s| s as i64 - 1, budget, &|s| s as f64)
        };
        assert_eq!(found, Some(best.clone()), "{sizes:?}");
        if sizes == [4, 8, 8, 8] {
            assert_eq!(best, [2, 1, 1, 1]); // Daryin & Korzh, JSFI 2014, §1.2's FlatFly
        }
        if sizes == [8, 16, 16] {
            assert_eq!(best, [3, 5, 5]); // Daryin & Korzh, JSFI 2014, §1.1's 3D torus (degree 34 with C = 8)
        }
    }
}
