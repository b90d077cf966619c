//! Test-only helpers shared by the complement, divide and product tests:
//! readers for layouts and tilers written as in the spec
//! (`(4,8):(1@0,1@1)`, `(3:3, (2,4):(1,8))`, `(3,_)`) through the library's
//! `FromStr`, brute-force checks and proptest strategies.
#![allow(dead_code)]

use proptest::prelude::*;
use rcute::{HTuple, Layout, Scalar, Tiler};

use crate::common::parse;

/// Reads a layout `S:D`.
pub fn lay(s: &str) -> Layout {
    parse(s)
}

/// Reads a tiler (layout, integer, `_` or tuple of tilers).
pub fn til(s: &str) -> Tiler {
    parse(s)
}

/// Reads a shape (integer or tuple of shapes).
pub fn shp(s: &str) -> HTuple<i64> {
    parse(s)
}

/// `L(i)` as an integer (panics for non-integer values).
pub fn ev(l: &Layout, i: i64) -> i64 {
    l.eval_index(i)
        .unwrap()
        .as_int()
        .unwrap_or_else(|| panic!("{l} at {i} is not an integer"))
}

/// A small random layout with positive integer strides (possibly zero
/// strides, size-1 modes, one level of nesting).
pub fn small_layout(max_modes: usize, allow_zero: bool) -> impl Strategy<Value = Layout> {
    let leaf = (1i64..=5, if allow_zero { 0i64..=24 } else { 1i64..=24 });
    let mode = prop_oneof![
        3 => leaf.clone().prop_map(|(s, d)| (HTuple::leaf(s), HTuple::leaf(Scalar::Int(d)))),
        1 => proptest::collection::vec(leaf, 1..=2).prop_map(|v| (
            HTuple::flat(v.iter().map(|p| p.0)),
            HTuple::flat(v.iter().map(|p| Scalar::Int(p.1))),
        )),
    ];
    prop_oneof![
        1 => mode.clone().prop_map(|(s, d)| Layout::new(s, d).unwrap()),
        3 => proptest::collection::vec(mode, 1..=max_modes).prop_map(|ms| {
            let s = HTuple::tuple(ms.iter().map(|m| m.0.clone()));
            let d = HTuple::tuple(ms.iter().map(|m| m.1.clone()));
            Layout::new(s, d).unwrap()
        }),
    ]
}

/// A random injective layout whose sorted strides form a divisible chain
/// (a permutation of a compact layout with gaps), as
/// `(shapes, strides)` leaves before nesting.
pub fn chain_layout(max_modes: usize) -> impl Strategy<Value = Layout> {
    (
        proptest::collection::vec((1i64..=4, 1i64..=3), 1..=max_modes),
        any::<u64>(),
    )
        .prop_map(|(modes, seed)| {
            // modes[k] = (shape, gap factor): stride_k = stride_{k-1} * shape_{k-1} * gap
            let mut strides = Vec::new();
            let mut cur: i64 = 1;
            for &(s, g) in &modes {
                cur *= g;
                strides.push(cur);
                cur *= s;
            }
            // permute by the seed
            let n = modes.len();
            let mut order: Vec<usize> = (0..n).collect();
            let mut x = seed;
            for i in (1..n).rev() {
                let j = (x % (i as u64 + 1)) as usize;
                x /= i as u64 + 1;
                order.swap(i, j);
            }
            let s = HTuple::flat(order.iter().map(|&k| modes[k].0));
            let d = HTuple::flat(order.iter().map(|&k| Scalar::Int(strides[k])));
            Layout::new(s, d).unwrap()
        })
}

/// The result of an operation as text, or `error (<kind>)`.
pub fn show(r: rcute::Result<Layout>) -> String {
    match r {
        Ok(l) => l.to_string(),
        Err(e) => format!("error ({})", e.kind().name()),
    }
}

/// True when the shape of `b` is a coarsening of the shape of `r`
/// (`compatible(B, R)`): every leaf of B covers a sub-shape of R of the same
/// size.
pub fn compatible(b: rcute::HRef<'_, i64>, r: rcute::HRef<'_, i64>) -> bool {
    match b.as_leaf() {
        Some(&n) => r.leaves().iter().product::<i64>() == n,
        None => {
            !r.is_leaf()
                && r.rank() == b.rank()
                && b.modes().zip(r.modes()).all(|(x, y)| compatible(x, y))
        }
    }
}

/// All values of an integer-strided layout over its domain, sorted.
pub fn values(l: &Layout) -> Vec<i64> {
    let mut v: Vec<i64> = (0..l.size().unwrap()).map(|i| ev(l, i)).collect();
    v.sort();
    v
}

/// A random compact layout (a permutation of a column-major layout) of the
/// given flat shape, its modes shuffled by `seed` and optionally grouped.
pub fn compact_permuted(shape: &[i64], seed: u64) -> Layout {
    let n = shape.len();
    let mut order: Vec<usize> = (0..n).collect();
    let mut x = seed;
    for i in (1..n).rev() {
        let j = (x % (i as u64 + 1)) as usize;
        x /= i as u64 + 1;
        order.swap(i, j);
    }
    // strides compact in `order`
    let mut strides = vec![0i64; n];
    let mut cur = 1i64;
    for &k in &order {
        strides[k] = cur;
        cur *= shape[k];
    }
    let group = n >= 3 && (x % 2 == 1);
    if group {
        let s = HTuple::tuple([
            HTuple::flat(shape[..2].iter().copied()),
            HTuple::flat(shape[2..].iter().copied()),
        ]);
        let d = HTuple::tuple([
            HTuple::flat(strides[..2].iter().map(|&v| Scalar::Int(v))),
            HTuple::flat(strides[2..].iter().map(|&v| Scalar::Int(v))),
        ]);
        Layout::new(s, d).unwrap()
    } else {
        Layout::new(
            HTuple::flat(shape.iter().copied()),
            HTuple::flat(strides.iter().map(|&v| Scalar::Int(v))),
        )
        .unwrap()
    }
}

/// A tiler B (a divisible chain) and a layout A that B tiles: A is a
/// compact permuted layout whose shape contains B's modes, B's gaps and an
/// extra factor, so that B's reach divides size(A).
pub fn tiling_pair(max_modes: usize) -> impl Strategy<Value = (Layout, Layout)> {
    (
        proptest::collection::vec((1i64..=4, 1i64..=3), 1..=max_modes),
        1i64..=3,
        any::<u64>(),
        any::<u64>(),
    )
        .prop_map(|(modes, k, seed_a, seed_b)| {
            let mut b_strides = Vec::new();
            let mut a_shape = Vec::new();
            let mut cur: i64 = 1;
            for &(s, g) in &modes {
                if g > 1 {
                    a_shape.push(g);
                }
                cur *= g;
                b_strides.push(cur);
                cur *= s;
                a_shape.push(s);
            }
            if k > 1 {
                a_shape.push(k);
            }
            let a = compact_permuted(&a_shape, seed_a);
            // B's modes in a random order
            let n = modes.len();
            let mut order: Vec<usize> = (0..n).collect();
            let mut x = seed_b;
            for i in (1..n).rev() {
                let j = (x % (i as u64 + 1)) as usize;
                x /= i as u64 + 1;
                order.swap(i, j);
            }
            let b = if n == 1 {
                Layout::new(
                    HTuple::leaf(modes[0].0),
                    HTuple::leaf(Scalar::Int(b_strides[0])),
                )
                .unwrap()
            } else {
                Layout::new(
                    HTuple::flat(order.iter().map(|&i| modes[i].0)),
                    HTuple::flat(order.iter().map(|&i| Scalar::Int(b_strides[i]))),
                )
                .unwrap()
            };
            (a, b)
        })
}

/// A random layout with any kind of stride leaf: negative, zero or large
/// integers, basis values on random axes, two-term coordinate values, F2
/// values (for no-panic tests).
pub fn wild_layout() -> impl Strategy<Value = Layout> {
    let stride = prop_oneof![
        4 => (-40i64..=40).prop_map(Scalar::Int),
        1 => prop_oneof![Just(i64::MAX / 3), Just(i64::MIN / 5), Just(1i64 << 40)].prop_map(Scalar::Int),
        3 => ((-5i64..=30), proptest::collection::vec(0usize..=2, 1..=2))
            .prop_map(|(v, p)| Scalar::basis(v, &p)),
        1 => ((1i64..=5), (1i64..=5)).prop_map(|(x, y)| Scalar::coord(vec![Scalar::Int(x), Scalar::Int(y)])),
        1 => (0i64..=9).prop_map(Scalar::F2),
    ];
    let leaf = (prop_oneof![3 => 1i64..=6, 1 => Just(1i64 << 31)], stride);
    proptest::collection::vec(proptest::collection::vec(leaf, 1..=2), 0..=3).prop_map(|ms| {
        let s = HTuple::tuple(ms.iter().map(|m| {
            if m.len() == 1 {
                HTuple::leaf(m[0].0)
            } else {
                HTuple::flat(m.iter().map(|p| p.0))
            }
        }));
        let d = HTuple::tuple(ms.iter().map(|m| {
            if m.len() == 1 {
                HTuple::leaf(m[0].1.clone())
            } else {
                HTuple::flat(m.iter().map(|p| p.1.clone()))
            }
        }));
        Layout::new(s, d).unwrap()
    })
}

/// A random shape for `extend` / tilers, possibly with zero or negative
/// extents.
pub fn wild_shape() -> impl Strategy<Value = HTuple<i64>> {
    let leaf = prop_oneof![4 => 1i64..=50, 1 => -3i64..=0, 1 => Just(i64::MAX)];
    prop_oneof![
        2 => leaf.clone().prop_map(HTuple::leaf),
        2 => proptest::collection::vec(leaf.clone(), 0..=3).prop_map(HTuple::flat),
        1 => (leaf.clone(), proptest::collection::vec(leaf, 1..=2))
            .prop_map(|(a, v)| HTuple::tuple([HTuple::leaf(a), HTuple::flat(v)])),
    ]
}

/// A random tiler built from wild layouts, integers, `None` and tuples.
pub fn wild_tiler() -> impl Strategy<Value = Tiler> {
    let leaf = prop_oneof![
        2 => wild_layout().prop_map(Tiler::Layout),
        2 => (-2i64..=12).prop_map(Tiler::Int),
        1 => Just(Tiler::None),
    ];
    leaf.prop_recursive(2, 6, 3, |inner| {
        proptest::collection::vec(inner, 0..=3).prop_map(|v| Tiler::Tuple(v.into()))
    })
}
