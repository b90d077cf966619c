//! max_common_layout and max_common_vector (`docs/operations.md`).
use crate::inverse_support::{as_i, flat_layout, ints, l};
use proptest::prelude::*;
use rcute::algebra::{max_common_layout, max_common_vector};
use rcute::Layout;

fn mcv(a: &str, b: &str) -> i64 {
    max_common_vector(&l(a), &l(b)).unwrap()
}
fn mcl(a: &str, b: &str) -> String {
    max_common_layout(&l(a), &l(b)).unwrap().to_string()
}

#[test]
fn table() {
    assert_eq!(mcv("(4,4):(1,4)", "((2,2),4):((1,8),2)"), 2);
    assert_eq!(mcl("(4,4):(1,4)", "((2,2),4):((1,8),2)"), "2:1");
    let a = "((2,2),(2,2)):((8,2),(4,1))";
    let b = "((2,2),(2,2)):((4,2),(8,1))";
    assert_eq!(mcv(a, b), 4);
    assert_eq!(mcl(a, b), "(2, 2):(8, 2)");
    assert_eq!(mcv("(8,4):(4,1)", "(8,4):(1,8)"), 1);
    assert_eq!(mcl("(8,4):(4,1)", "(8,4):(1,8)"), "1:0");
    assert_eq!(mcv("(4,8):(8,1)", "(4,8):(8,1)"), 32);
    assert_eq!(mcl("(4,8):(8,1)", "(4,8):(8,1)"), "(8, 4):(4, 1)");
    assert_eq!(mcv("(2,4):(0,1)", "(2,4):(4,1)"), 4);
    assert_eq!(mcl("(2,4):(0,1)", "(2,4):(4,1)"), "4:2");
}

/// A permuted column-major (compact, injective) layout of the sizes `s`.
fn permuted(s: &[i64], perm: &[usize]) -> Layout {
    // strides: column-major over the permuted order
    let mut d = vec![0i64; s.len()];
    let mut acc = 1;
    for &i in perm {
        d[i] = acc;
        acc *= s[i];
    }
    flat_layout(s, &ints(&d))
}

fn perm_of(n: usize, seed: u64) -> Vec<usize> {
    let mut p: Vec<usize> = (0..n).collect();
    let mut x = seed;
    for i in (1..n).rev() {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        p.swap(i, (x >> 33) as usize % (i + 1));
    }
    p
}

fn arb_pair() -> impl Strategy<Value = (Layout, Layout)> {
    (
        prop::collection::vec(1i64..6, 1..5),
        any::<u64>(),
        any::<u64>(),
        0u8..4,
    )
        .prop_map(|(s, sa, sb, mode)| {
            let b = permuted(&s, &perm_of(s.len(), sb));
            let a = match mode {
                0 => b.clone(),
                1 => permuted(&s, &perm_of(s.len(), sa)),
                _ => {
                    // B with one stride zeroed or doubled
                    let mut d: Vec<i64> = b.stride().leaves().iter().map(as_i).collect();
                    let k = (sa as usize) % d.len();
                    d[k] = if mode == 2 { 0 } else { d[k] * 2 };
                    flat_layout(&s, &ints(&d))
                }
            };
            (a, b)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// max_common_vector is the brute-force length of the run of offsets
    /// 0, 1, ... that B reaches at coordinates where A gives the same offset
    /// (B compact and injective), and max_common_layout enumerates those
    /// coordinates.
    #[test]
    fn consistent_with_brute_force((a, b) in arb_pair()) {
        let n = b.size().unwrap();
        let mut at = vec![None; n as usize];
        for c in 0..n {
            let o = as_i(&b.eval_index(c).unwrap());
            at[o as usize] = Some(c);
        }
        let mut run = 0i64;
        for (k, c) in at.iter().enumerate() {
            match c {
                Some(c) if as_i(&a.eval_index(*c).unwrap()) == k as i64 => run += 1,
                _ => break,
            }
        }
        match (max_common_vector(&a, &b), max_common_layout(&a, &b)) {
            (Ok(v), Ok(r)) => {
                prop_assert_eq!(v, run, "A = {}, B = {}", a, b);
                prop_assert_eq!(r.size().unwrap(), if v > 1 { v } else { 1 });
                if v > 1 {
                    for k in 0..v {
                        let c = as_i(&r.eval_index(k).unwrap());
                        prop_assert_eq!(as_i(&a.eval_index(c).unwrap()), k);
                        prop_assert_eq!(as_i(&b.eval_index(c).unwrap()), k);
                    }
                }
            }
            (Err(x), _) | (_, Err(x)) => {
                prop_assert_eq!(x.kind().name(), "divisibility", "A = {}, B = {}: {}", a, b, x);
            }
        }
    }
}
