//! Helpers shared by the unit tests of the algebra: a seeded generator and
//! a random layout of leaves and pairs (the integration tests under
//! `tests/` keep their own).

use crate::htuple::Builder;
use crate::{Layout, Scalar};

/// A seeded linear congruential generator (reproducible test inputs).
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// The next value in `[0, m)`.
    pub(crate) fn next(&mut self, m: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % m
    }
}

/// A random layout: a leaf when `r.next(max_modes)` is 0, else that many
/// modes, each a pair of leaves with probability `1/pair_one_in` and a
/// leaf otherwise; each leaf's extent and stride come from `leaf`.
pub(crate) fn random_layout(
    r: &mut Rng,
    max_modes: u64,
    pair_one_in: u64,
    mut leaf: impl FnMut(&mut Rng) -> (i64, Scalar),
) -> Layout {
    let mut bs = Builder::new();
    let mut bd = Builder::new();
    let mut push = |r: &mut Rng, bs: &mut Builder<i64>, bd: &mut Builder<Scalar>| {
        let (s, d) = leaf(r);
        bs.leaf(s);
        bd.leaf(d);
    };
    let n = r.next(max_modes);
    if n == 0 {
        push(r, &mut bs, &mut bd);
    } else {
        bs.open();
        bd.open();
        for _ in 0..n {
            let pair = r.next(pair_one_in) == 0;
            if pair {
                bs.open();
                bd.open();
            }
            for _ in 0..(1 + pair as u32) {
                push(r, &mut bs, &mut bd);
            }
            if pair {
                bs.close();
                bd.close();
            }
        }
        bs.close();
        bd.close();
    }
    Layout::new(bs.finish(), bd.finish()).unwrap()
}
