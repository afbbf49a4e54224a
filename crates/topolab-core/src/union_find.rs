//! Disjoint sets (union-find): connected components, and the equivalence closures of the
//! mapping algorithms (Daryin & Korzh, JSFI 2014, §2.1 cite Tarjan's union-find for them).

/// Disjoint sets over 0..n with path halving; the representative is the smallest member, so
/// the classes do not depend on the order of unions.
#[derive(Debug, Clone)]
pub struct UnionFind {
    parent: Vec<u32>,
}

impl UnionFind {
    pub fn new(n: usize) -> Self {
        UnionFind {
            parent: (0..n as u32).collect(),
        }
    }

    pub fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let up = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = up;
            x = up;
        }
        x
    }

    /// Joins the sets of a and b; true when they were apart.
    pub fn union(&mut self, a: u32, b: u32) -> bool {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return false;
        }
        self.parent[a.max(b) as usize] = a.min(b);
        true
    }

    /// Class of every element, classes numbered 0.. in order of their smallest member.
    pub fn classes(&mut self) -> (Vec<u32>, usize) {
        let n = self.parent.len();
        let mut number = vec![u32::MAX; n];
        let mut out = vec![0u32; n];
        let mut count = 0u32;
        for x in 0..n as u32 {
            let root = self.find(x) as usize;
            if number[root] == u32::MAX {
                number[root] = count;
                count += 1;
            }
            out[x as usize] = number[root];
        }
        (out, count as usize)
    }
}
