//! `fill_offsets` / `Layout::eval_all` against `eval_index`, element by
//! element, on random layouts (including ones large enough to be split
//! into templates and filled by several threads).

use proptest::prelude::*;
use rcute::offsets::{fill_offsets, fill_offsets_with, PARALLEL_THRESHOLD, TILE};
use rcute::{HTuple, Layout, Scalar};

fn layout(shape: &[i64], stride: &[i64]) -> Layout {
    Layout::new(
        HTuple::flat(shape.iter().copied()),
        HTuple::flat(stride.iter().map(|&d| Scalar::Int(d))),
    )
    .unwrap()
}

fn check(l: &Layout, threads: usize) {
    let n = l.size().unwrap() as usize;
    let mut out = vec![i64::MIN; n];
    fill_offsets_with(l, &mut out, threads).unwrap();
    for (i, &o) in out.iter().enumerate() {
        assert_eq!(
            Scalar::Int(o),
            l.eval_index(i as i64).unwrap(),
            "{l} at {i}"
        );
    }
}

#[test]
fn small_examples() {
    let l = layout(&[4, 8], &[8, 1]);
    assert_eq!(l.eval_all().unwrap()[..6], [0, 8, 16, 24, 1, 9]);
    check(&layout(&[1], &[5]), 1);
    check(&layout(&[3, 1, 2], &[-4, 7, 0]), 1);
    let nested: Layout = match rcute::notation::eval_value("((4,8),(2,2)):((32,1),(16,8))").unwrap()
    {
        rcute::notation::Value::Layout(l) => l,
        v => panic!("{v}"),
    };
    check(&nested, 2);
}

#[test]
fn errors() {
    let l = layout(&[4, 8], &[8, 1]);
    assert!(fill_offsets(&l, &mut [0; 31]).is_err());
    let c = Layout::new(HTuple::leaf(4), HTuple::leaf(Scalar::basis(1, &[1]))).unwrap();
    assert_eq!(
        fill_offsets(&c, &mut [0; 4]).unwrap_err().kind(),
        rcute::ErrorKind::Type
    );
    let big = layout(&[2, 2], &[i64::MAX, 1]);
    assert_eq!(
        fill_offsets(&big, &mut [0; 4]).unwrap_err().kind(),
        rcute::ErrorKind::Overflow
    );
}

#[test]
fn large_layouts_split_and_parallel() {
    // first mode longer than a template, with and without a usable divisor
    check(&layout(&[4 * TILE as i64, 3], &[2, -1]), 3);
    check(&layout(&[TILE as i64 + 3, 2], &[1, 100_000]), 2);
    // rank-3 above the parallel threshold
    let l = layout(
        &[64, 96, (PARALLEL_THRESHOLD / 1024) as i64],
        &[96, 1, 64 * 96 + 5],
    );
    check(&l, 4);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn matches_eval_index(
        modes in prop::collection::vec((1i64..7, -40i64..40), 1..5),
        threads in 1usize..4,
    ) {
        let s: Vec<i64> = modes.iter().map(|m| m.0).collect();
        let d: Vec<i64> = modes.iter().map(|m| m.1).collect();
        check(&layout(&s, &d), threads);
    }

    #[test]
    fn coalescable_modes(s0 in 1i64..9, s1 in 1i64..9, s2 in 1i64..9, d in -3i64..4) {
        // (s0, s1, s2):(d, s0 d, s0 s1 d) coalesces to one mode
        check(&layout(&[s0, s1, s2], &[d, s0 * d, s0 * s1 * d]), 1);
    }
}
