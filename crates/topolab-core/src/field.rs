//! Finite fields GF(p^m) for the algebraic constructions (Slim Fly MMS graphs over every prime
//! power q, Besta & Hoefler, SC14, §II-B and Daryin & Korzh, JSFI 2014, §1.5; Latin squares for
//! OFT).
//!
//! Elements are integers 0..q encoding polynomials over GF(p) in base p (coefficient of x^i is
//! digit i). Full addition and multiplication tables are precomputed: q stays below a few
//! hundred for every network a router radix allows, and table lookups keep the generators simple.

use crate::error::{Result, TopolabError};

/// (p, m) with q = p^m when GF(q) exists and is small enough to tabulate; otherwise the error
/// `Field::new` gives, naming `param` of `context`. Checking a parameter without building.
pub fn check_order(q: u32, context: &str, param: &str) -> Result<(u32, u32)> {
    let Some((p, m)) = prime_power(q) else {
        return Err(TopolabError::invalid(
            context,
            param,
            q,
            "a prime power (2, 3, 4, 5, 7, 8, 9, 11, 13, 16, ...)",
        ));
    };
    if q > MAX_FIELD_ORDER {
        return Err(TopolabError::invalid(
            context,
            param,
            q,
            format!("at most {MAX_FIELD_ORDER}"),
        ));
    }
    Ok((p, m))
}

#[derive(Debug, Clone)]
pub struct Field {
    q: u32,
    p: u32,
    m: u32,
    add: Vec<u32>,
    mul: Vec<u32>,
}

/// Largest order accepted; a Slim Fly with q = 256 already needs routers of network radix 384.
pub const MAX_FIELD_ORDER: u32 = 1 << 12;

/// `(p, m)` with `q = p^m` and p prime, or None when q is not a prime power.
pub fn prime_power(q: u32) -> Option<(u32, u32)> {
    if q < 2 {
        return None;
    }
    let mut p = 2;
    while p * p <= q && !q.is_multiple_of(p) {
        p += 1;
    }
    if !q.is_multiple_of(p) {
        p = q; // q itself is prime
    }
    let (mut rest, mut m) = (q, 0);
    while rest % p == 0 {
        rest /= p;
        m += 1;
    }
    (rest == 1).then_some((p, m))
}

impl Field {
    /// GF(q); `context` and `param` name the parameter in the error when q is not a prime power.
    pub fn new(q: u32, context: &str, param: &str) -> Result<Field> {
        let (p, m) = check_order(q, context, param)?;
        let modulus = irreducible_polynomial(p, m);
        let qs = q as usize;
        let mut add = vec![0u32; qs * qs];
        let mut mul = vec![0u32; qs * qs];
        for a in 0..q {
            for b in 0..q {
                add[(a * q + b) as usize] = poly_add(a, b, p);
                mul[(a * q + b) as usize] = poly_mul_mod(a, b, p, m, &modulus);
            }
        }
        Ok(Field { q, p, m, add, mul })
    }

    pub fn order(&self) -> u32 {
        self.q
    }

    pub fn characteristic(&self) -> u32 {
        self.p
    }

    pub fn degree(&self) -> u32 {
        self.m
    }

    pub fn add(&self, a: u32, b: u32) -> u32 {
        self.add[(a * self.q + b) as usize]
    }

    pub fn mul(&self, a: u32, b: u32) -> u32 {
        self.mul[(a * self.q + b) as usize]
    }

    pub fn neg(&self, a: u32) -> u32 {
        (0..self.q).find(|&b| self.add(a, b) == 0).unwrap_or(0)
    }

    pub fn sub(&self, a: u32, b: u32) -> u32 {
        self.add(a, self.neg(b))
    }

    pub fn pow(&self, a: u32, e: u32) -> u32 {
        (0..e).fold(1, |acc, _| self.mul(acc, a))
    }

    /// The smallest element (in the integer encoding) whose powers give every non-zero element.
    pub fn primitive_element(&self) -> u32 {
        (1..self.q)
            .find(|&g| self.multiplicative_order(g) == self.q - 1)
            .expect("the multiplicative group of a finite field is cyclic")
    }

    fn multiplicative_order(&self, g: u32) -> u32 {
        let mut x = g;
        let mut k = 1;
        while x != 1 {
            x = self.mul(x, g);
            k += 1;
            if k > self.q {
                return 0;
            }
        }
        k
    }
}

fn poly_add(a: u32, b: u32, p: u32) -> u32 {
    let (mut a, mut b, mut out, mut place) = (a, b, 0, 1);
    while a > 0 || b > 0 {
        out += ((a % p + b % p) % p) * place;
        a /= p;
        b /= p;
        place *= p;
    }
    out
}

fn digits(a: u32, p: u32, len: usize) -> Vec<u32> {
    let mut d = vec![0; len];
    let mut a = a;
    for x in d.iter_mut() {
        *x = a % p;
        a /= p;
    }
    d
}

/// a*b mod `modulus` (monic, degree m, coefficients low to high, length m+1).
fn poly_mul_mod(a: u32, b: u32, p: u32, m: u32, modulus: &[u32]) -> u32 {
    let m = m as usize;
    let (da, db) = (digits(a, p, m), digits(b, p, m));
    let mut prod = vec![0u32; 2 * m];
    for i in 0..m {
        for j in 0..m {
            prod[i + j] = (prod[i + j] + da[i] * db[j]) % p;
        }
    }
    for deg in (m..2 * m).rev() {
        let c = prod[deg];
        if c != 0 {
            for (k, &coef) in modulus.iter().enumerate() {
                let idx = deg - m + k;
                prod[idx] = (prod[idx] + p * p - c * coef % p) % p;
            }
        }
    }
    prod[..m].iter().rev().fold(0, |acc, &d| acc * p + d)
}

/// The first monic irreducible polynomial of degree m over GF(p), in lexicographic order of
/// its lower coefficients; found by checking for no factor of degree <= m/2.
fn irreducible_polynomial(p: u32, m: u32) -> Vec<u32> {
    let m_us = m as usize;
    if m == 1 {
        return vec![0, 1];
    }
    let count = p.pow(m);
    (0..count)
        .map(|low| {
            let mut c = digits(low, p, m_us);
            c.push(1);
            c
        })
        .find(|c| c[0] != 0 && !has_factor(c, p))
        .expect("an irreducible polynomial exists for every degree")
}

fn has_factor(poly: &[u32], p: u32) -> bool {
    let m = poly.len() - 1;
    for deg in 1..=m / 2 {
        for low in 0..p.pow(deg as u32) {
            let mut f = digits(low, p, deg);
            f.push(1);
            if poly_rem_is_zero(poly, &f, p) {
                return true;
            }
        }
    }
    false
}

fn poly_rem_is_zero(num: &[u32], den: &[u32], p: u32) -> bool {
    let mut r = num.to_vec();
    let dd = den.len() - 1;
    for deg in (dd..r.len()).rev() {
        let c = r[deg] % p;
        if c != 0 {
            for (k, &coef) in den.iter().enumerate() {
                let idx = deg - dd + k;
                r[idx] = (r[idx] + p * p - c * coef % p) % p;
            }
        }
    }
    r[..dd].iter().all(|&x| x % p == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prime_powers_are_recognised() {
        assert_eq!(prime_power(9), Some((3, 2)));
        assert_eq!(prime_power(32), Some((2, 5)));
        assert_eq!(prime_power(13), Some((13, 1)));
        for bad in [0, 1, 6, 10, 12, 15, 18, 20, 24] {
            assert_eq!(prime_power(bad), None, "{bad}");
        }
    }

    #[test]
    fn field_axioms_hold_for_small_orders() {
        for q in [2, 3, 4, 5, 7, 8, 9, 16, 25, 27, 32] {
            let f = Field::new(q, "test", "q").unwrap();
            for a in 0..q {
                assert_eq!(f.add(a, 0), a);
                assert_eq!(f.mul(a, 1), a);
                assert_eq!(f.add(a, f.neg(a)), 0);
                if a != 0 {
                    // every non-zero element has an inverse
                    assert!((1..q).any(|b| f.mul(a, b) == 1), "q={q} a={a}");
                }
                for b in 0..q {
                    assert_eq!(f.mul(a, b), f.mul(b, a));
                    for c in [0, 1, q - 1] {
                        let lhs = f.mul(a, f.add(b, c));
                        let rhs = f.add(f.mul(a, b), f.mul(a, c));
                        assert_eq!(lhs, rhs, "distributivity q={q}");
                    }
                }
            }
            let g = f.primitive_element();
            let mut seen = std::collections::BTreeSet::new();
            for e in 0..q - 1 {
                seen.insert(f.pow(g, e));
            }
            assert_eq!(seen.len() as u32, q - 1, "primitive element of GF({q})");
        }
    }

    #[test]
    fn smallest_primitive_roots_of_prime_fields() {
        // OEIS A001918: least positive primitive root of the n-th prime.
        for (q, g) in [
            (3, 2),
            (5, 2),
            (7, 3),
            (11, 2),
            (13, 2),
            (17, 3),
            (19, 2),
            (23, 5),
        ] {
            assert_eq!(Field::new(q, "t", "q").unwrap().primitive_element(), g);
        }
    }

    #[test]
    fn rejects_non_prime_powers_by_name() {
        let e = Field::new(6, "slimfly", "q").unwrap_err().to_string();
        assert!(
            e.contains("'q'") && e.contains('6') && e.contains("prime power"),
            "{e}"
        );
    }
}
