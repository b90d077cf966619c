//! filter_zeros and filter (`docs/operations.md`): every worked example,
//! and properties on random layouts.

use crate::compose_util::{eval_ref, grouped, l, t};

use proptest::prelude::*;
use rcute::algebra::{coalesce, filter, filter_by_mode, filter_zeros};
use rcute::{ErrorKind, Layout, Scalar};

fn fz(s: &str) -> String {
    filter_zeros(&l(s)).unwrap().to_string()
}
fn fi(s: &str) -> String {
    filter(&l(s)).unwrap().to_string()
}

#[test]
fn section3_examples() {
    assert_eq!(fz("(4,1,3):(1,5,0)"), "(4, 1, 1):(1, 5, 0)");
    assert_eq!(fz("(2,(3,6)):(0,(6,0))"), "(1, (3, 1)):(0, (6, 0))");
    assert_eq!(fz("(4,8):(1@0,0)"), "(4, 1):(1@0, 0)");
    assert_eq!(fi("(4,1,3):(1,5,0)"), "4:1");
    assert_eq!(fi("(4,2,3):(1,0,4)"), "12:1");
    assert_eq!(fi("(4,8):(0,0)"), "1:0");
    assert_eq!(
        filter_by_mode(&l("(4,(2,3)):(0,(1,2))"), &t("(1,1)"))
            .unwrap()
            .to_string(),
        "(1, 6):(0, 1)"
    );
    assert_eq!(fi("(1,1):(3,5)"), "1:0");
    assert_eq!(coalesce(&l("(1,1):(3,5)")).unwrap().to_string(), "1:5");
    assert_eq!(fi("(1,):(1,)"), "1:0");
}

#[test]
fn section3_more() {
    // a zero coordinate value and F0 count as zero
    assert_eq!(fz("(4,8):((0,0),F0)"), "(1, 1):(0, F0)");
    assert_eq!(fi("(4,8):(0@1,F0)"), "1:0");
    // by mode: rank errors, None keeps the mode, mode-indexed filter[1]
    assert_eq!(
        filter_by_mode(&l("(4,(2,3)):(0,(1,2))"), &t("(1,1,1)"))
            .unwrap_err()
            .kind(),
        ErrorKind::Rank
    );
    assert_eq!(
        filter_by_mode(&l("(4,(2,3)):(0,(1,2))"), &t("(_,1)"))
            .unwrap()
            .to_string(),
        "(4, 6):(0, 1)"
    );
    assert_eq!(
        filter_by_mode(&l("(4,(2,3)):(0,(1,2))"), &t("_"))
            .unwrap()
            .to_string(),
        "(4, (2, 3)):(0, (1, 2))"
    );
}

fn arb_layout() -> impl Strategy<Value = Layout> {
    (1usize..=6, any::<u64>(), any::<bool>()).prop_map(|(n, seed, coord)| {
        let mut rng = seed;
        let mut next = |m: u64| {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (rng >> 33) % m
        };
        let mut shape = Vec::new();
        let mut stride = Vec::new();
        let mut size = 1;
        for _ in 0..n {
            let mut s = [1, 1, 2, 3, 4, 5][next(6) as usize];
            if size * s > 500 {
                s = 1;
            }
            size *= s;
            let d = if next(3) == 0 { 0 } else { 1 + next(10) as i64 };
            shape.push(s);
            stride.push(if coord && d != 0 {
                Scalar::basis(d, &[next(2) as usize])
            } else {
                Scalar::Int(d)
            });
        }
        let mut groups = Vec::new();
        let mut left = n;
        while left > 0 {
            let g = 1 + next(left as u64) as usize;
            groups.push(g);
            left -= g;
        }
        grouped(&shape, &stride, &groups)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn filter_zeros_properties(a in arb_layout()) {
        let z = filter_zeros(&a).unwrap();
        // same profile and strides
        prop_assert!(z.shape().as_ref().congruent(a.shape().as_ref()));
        prop_assert_eq!(z.stride(), a.stride());
        for ((s, d), (s0, _)) in z.flat_modes().zip(a.flat_modes()) {
            if d.is_zero() { prop_assert_eq!(s, 1); } else { prop_assert_eq!(s, s0); }
        }
        // same image set as A
        let mut img_a: Vec<String> = (0..a.size().unwrap()).map(|i| eval_ref(&a, i).to_string()).collect();
        let mut img_z: Vec<String> = (0..z.size().unwrap()).map(|i| eval_ref(&z, i).to_string()).collect();
        img_a.sort(); img_a.dedup();
        img_z.sort(); img_z.dedup();
        prop_assert_eq!(img_a, img_z);
    }

    #[test]
    fn filter_properties(a in arb_layout()) {
        let f = filter(&a).unwrap();
        prop_assert!(f.depth().unwrap() <= 1);
        let nz: Vec<(i64, Scalar)> = a.flat_modes().filter(|(_, d)| !d.is_zero()).map(|(s, d)| (s, d.clone())).collect();
        let n: i64 = nz.iter().map(|(s, _)| *s).product();
        prop_assert_eq!(f.size().unwrap(), n);
        if n == 1 {
            prop_assert_eq!(f.to_string(), "1:0");
        } else {
            // no zero strides, no size-1 modes
            for (s, d) in f.flat_modes() {
                prop_assert!(s > 1 && !d.is_zero(), "{} has a trivial mode", f);
            }
            // the function of the non-zero-stride modes, in order
            let sub = Layout::new(
                rcute::HTuple::flat(nz.iter().map(|x| x.0)),
                rcute::HTuple::flat(nz.iter().map(|x| x.1.clone())),
            ).unwrap();
            for i in 0..n {
                prop_assert_eq!(eval_ref(&f, i), eval_ref(&sub, i));
            }
        }
        // filter is idempotent
        prop_assert_eq!(filter(&f).unwrap(), f);
    }
}
